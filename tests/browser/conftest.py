"""Browser tests (DESIGN §7a): daphne on the test database, one headless Chromium.

A session fixture starts daphne as a subprocess pointed at the test database (a file or
PostgreSQL, never in-memory), one shared Playwright browser drives it, and each person
gets a browser context logged in with a session cookie. Tests are
``django_db(transaction=True)``: the server is another process, so data must be committed.
Without Chromium (or Playwright) every test here is skipped, with the reason.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.conf import settings

from tests.conftest import BASE_DIR, child_env, children_database_env, free_port, stop

# CHROMIUM_PATH names another binary (or a missing one, to see the skip).
CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
SCREENSHOTS = Path(os.environ.get("FACTORY_SCREENSHOTS", BASE_DIR / "var" / "screenshots"))


def _missing() -> str:
    """Why the browser tests cannot run here ("" when they can)."""
    if not Path(CHROMIUM).exists():
        return "Chromium is not installed (apt-get install chromium): browser tests skipped"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return (
            "playwright is not installed (pip install -r requirements.txt): browser tests skipped"
        )
    return ""


MISSING = _missing()


def pytest_collection_modifyitems(config, items):
    if not MISSING:
        return
    skip = pytest.mark.skip(reason=MISSING)
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


def pytest_terminal_summary(terminalreporter):
    if MISSING:
        terminalreporter.write_line(f"NOTE: {MISSING}", yellow=True)


@pytest.fixture(scope="session")
def live_server_url(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[str]:
    """daphne serving the site on the test database, at http://127.0.0.1:<port>."""
    port = free_port()
    log = tmp_path_factory.mktemp("daphne") / "daphne.log"
    daphne = BASE_DIR / ".venv" / "bin" / "daphne"
    command = [str(daphne) if daphne.exists() else "daphne", "-b", "127.0.0.1", "-p", str(port)]
    with django_db_blocker.unblock(), open(log, "w") as out:
        env = child_env(**children_database_env())
        process = subprocess.Popen(
            [*command, "config.asgi:application"], cwd=BASE_DIR, env=env, stdout=out, stderr=out
        )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(
                        "daphne did not start:\n" + log.read_text()[-4000:]
                    ) from None
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(process)


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the session (the Debian package, never a download)."""
    from playwright.sync_api import sync_playwright

    # The sync API runs an event loop in this thread; the ORM calls the tests make
    # between browser steps are safe (this process only). Never set for the server.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()
    if previous is None:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def person(browser, live_server_url) -> Iterator[Callable]:
    """person(username, role="creator", width=1200) -> a logged-in Playwright page.

    The user is created in the test database and logged in by a session cookie, so the
    tests do not depend on the login page's markup.
    """
    from django.contrib.auth import get_user_model
    from django.test import Client

    contexts = []

    def make(
        username: str, role: str = "creator", width: int = 1200, height: int = 900, js: bool = True
    ):
        user = get_user_model().objects.create_user(username, password=None)  # cookie login
        if role != "creator":
            user.role = role
            user.save(update_fields=["role"])
        client = Client()
        client.force_login(user)
        context = browser.new_context(
            base_url=live_server_url,
            viewport={"width": width, "height": height},
            java_script_enabled=js,
        )
        context.add_cookies(
            [
                {
                    "name": settings.SESSION_COOKIE_NAME,
                    "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                    "url": live_server_url,
                }
            ]
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.user = user
        # Confirmations are accepted; a test that answers one itself removes this first:
        # page.remove_listener("dialog", page.accept_dialogs).
        page.accept_dialogs = lambda dialog: dialog.accept()
        page.on("dialog", page.accept_dialogs)
        return page

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def anonymous(browser, live_server_url):
    context = browser.new_context(base_url=live_server_url)
    yield context.new_page()
    context.close()


def screenshot(page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
