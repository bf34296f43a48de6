"""Smoke test: daphne serves the site on the embedded defaults (no DATABASE_URL/REDIS_URL)."""

import subprocess
import sys
import time
import urllib.error
import urllib.request

from tests.conftest import BASE_DIR, child_env, free_port, stop


def get(url: str, timeout: float = 20) -> str:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return response.read().decode()
        except (urllib.error.URLError, ConnectionError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def test_daphne_serves_the_games(tmp_path):
    from variants import catalogue

    env = child_env(
        DATABASE_URL=None, REDIS_URL=None, SQLITE_PATH=None, CELERY_FS_ROOT=None,
        VAR_DIR=str(tmp_path / "var"), DEBUG="0", SECRET_KEY="smoke-test-secret",
    )  # fmt: skip
    manage = [sys.executable, "manage.py"]
    for command in (["migrate", "--noinput"], ["load_catalogue"]):
        subprocess.run(manage + command, cwd=BASE_DIR, env=env, check=True, capture_output=True)
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
         "config.asgi:application"],
        cwd=BASE_DIR, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        html = get(f"http://127.0.0.1:{port}/")
        for name in catalogue.names():
            assert name in html
        css = get(f"http://127.0.0.1:{port}/static/vendor/bootstrap/css/bootstrap.min.css")
        assert "Bootstrap" in css
        assert (tmp_path / "var" / "db.sqlite3").exists()
    finally:
        stop(server)
