"""Smoke test: daphne serves the site on the embedded defaults (no DATABASE_URL/REDIS_URL),
as `make run` starts it: DEBUG off, a secret key made once into var/, the site's own error
pages, and a log that holds every line even after a hard kill."""

import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

from tests.conftest import BASE_DIR, child_env, free_port, stop


def get(url: str, timeout: float = 20) -> tuple[int, str]:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode()
        except (urllib.error.URLError, ConnectionError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def test_daphne_serves_the_games_as_in_production(tmp_path):
    from variants import catalogue

    var = tmp_path / "var"
    env = child_env(
        DATABASE_URL=None, REDIS_URL=None, SQLITE_PATH=None, CELERY_FS_ROOT=None,
        VAR_DIR=str(var), DEBUG=None, SECRET_KEY=None, PYTHONUNBUFFERED=None,
    )  # fmt: skip
    manage = [sys.executable, "manage.py"]
    for command in (["migrate", "--noinput"], ["load_catalogue"]):
        subprocess.run(manage + command, cwd=BASE_DIR, env=env, check=True, capture_output=True)
    key = (var / "secret_key").read_text()
    assert len(key.strip()) >= 50 and (var / "secret_key").stat().st_mode & 0o077 == 0
    port = free_port()
    log = tmp_path / "daphne.log"
    with open(log, "w") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
             "config.asgi:application"],
            cwd=BASE_DIR, env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        status, html = get(f"http://127.0.0.1:{port}/")
        assert status == 200
        for name in catalogue.names():
            assert name in html
        status, css = get(f"http://127.0.0.1:{port}/static/vendor/bootstrap/css/bootstrap.min.css")
        assert status == 200 and "Bootstrap" in css
        assert (var / "db.sqlite3").exists()
        # DEBUG is off unless asked for: the site's own 404 page, no URL patterns listed.
        status, html = get(f"http://127.0.0.1:{port}/games/9999/")
        assert status == 404 and 'data-testid="error-page"' in html
        assert "Page not found" in html and "URLconf" not in html and "Variant Foundry" in html
        # What was logged for that 404 (Django's warning on stderr, daphne's access log
        # on stdout) is in the file even after a hard kill.
        logged = time.monotonic() + 20  # written as it happens (unbuffered), however slowly
        wanted = ("Not Found: /games/9999/", '"GET /games/9999/')
        while not all(w in log.read_text() for w in wanted) and time.monotonic() < logged:
            time.sleep(0.1)
        os.kill(server.pid, signal.SIGKILL)
        server.wait(timeout=10)
        text = log.read_text()
        assert "Not Found: /games/9999/" in text and '"GET /games/9999/' in text, text
        assert (var / "secret_key").read_text() == key  # made once, then kept
    finally:
        if server.poll() is None:
            stop(server)
