# Variant Foundry — `make run` serves the site, `make test` runs every test.
SHELL := /bin/bash
.DEFAULT_GOAL := run

VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.requirements-installed
PORT ?= 8000
HOST ?= 127.0.0.1
WORKER_CONCURRENCY ?= 2
# make test runs the tests in this many processes (pytest-xdist; 0: in one). Each has its
# own test database, channel and broker names (tests/conftest.py). --dist load hands out
# the tests in their collected order, so each process still runs pytest-django's database
# tests before its flushing ones and the browser tests last (tests/conftest.py).
# At most 4: each starts its own servers and workers (PostgreSQL's 100 connections).
TEST_WORKERS ?= $(shell $(BASE_PYTHON) -c "import os; print(min(4, os.cpu_count() or 1))")
BASE_PYTHON := $(shell command -v python3.11 2>/dev/null || command -v python3)
# Logs go out line by line (a killed process has written everything it logged).
export PYTHONUNBUFFERED := 1

.PHONY: run test lint format bench worker venv browser

venv: $(STAMP)

$(PY):
	$(BASE_PYTHON) -m venv $(VENV)

# Reinstall only when requirements.txt changes.
$(STAMP): requirements.txt | $(PY)
	$(PY) -m pip install --disable-pip-version-check -q -r requirements.txt
	touch $(STAMP)

# daphne in the foreground, a Celery worker in the background (stopped when daphne exits).
run: $(STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_catalogue
	$(VENV)/bin/celery -A config worker --loglevel INFO --concurrency $(WORKER_CONCURRENCY) -Q celery,analysis,learning & \
	worker=$$!; \
	trap 'kill -TERM $$worker 2>/dev/null; wait $$worker 2>/dev/null' EXIT INT TERM; \
	$(VENV)/bin/daphne -b $(HOST) -p $(PORT) config.asgi:application

worker: $(STAMP)
	$(VENV)/bin/celery -A config worker --loglevel INFO --concurrency $(WORKER_CONCURRENCY) -Q celery,analysis,learning

# The browser tests drive Debian's chromium package. Where it is missing and the machine
# has apt with the rights to use it (root, or sudo without a password), install it; else
# the tests that need it are skipped and pytest's last line says how many and how to fix it.
test: $(STAMP) browser
	$(PY) -m pytest -q -n $(TEST_WORKERS) --dist load

browser:
	@if [ -z "$$CHROMIUM_PATH" ] && ! command -v chromium >/dev/null && [ ! -x /usr/bin/chromium ] \
	   && command -v apt-get >/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then sudo=""; elif sudo -n true 2>/dev/null; then sudo="sudo -n"; \
	  else sudo=none; fi; \
	  if [ "$$sudo" != none ]; then \
	    echo "Installing Debian's chromium package for the browser tests..."; \
	    $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium \
	    || { $$sudo apt-get update -q && $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium; } \
	    || echo "Could not install chromium: the browser tests will be skipped."; \
	  fi; \
	fi

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: $(STAMP)
	$(PY) manage.py variant bench
