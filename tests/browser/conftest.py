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
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.conf import settings

from tests.conftest import (
    BASE_DIR,
    TEST_AI_LEARN_PACKAGE,
    child_env,
    children_database_env,
    session_cookie,
    start_daphne,
    stop,
)

# CHROMIUM_PATH names another binary (or a missing one, to see the skip).
CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
SCREENSHOTS = Path(os.environ.get("FACTORY_SCREENSHOTS", BASE_DIR / "var" / "screenshots"))


INSTALL_CHROMIUM = "sudo apt-get install -y chromium"
INSTALL_PLAYWRIGHT = "make venv  (pip install -r requirements.txt)"


def _missing() -> tuple[str, str]:
    """Why the browser tests cannot run here, and the one command that fixes it (two
    empty strings when they can run)."""
    if not Path(CHROMIUM).exists():
        return "Chromium is not installed", INSTALL_CHROMIUM
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed", INSTALL_PLAYWRIGHT
    return "", ""


MISSING, INSTALL = _missing()
_skipped: list[str] = []


def pytest_collection_modifyitems(config, items):
    if not MISSING:
        return
    skip = pytest.mark.skip(reason=f"{MISSING} ({INSTALL}): browser tests skipped")
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)
            _skipped.append(item.nodeid)


def _skipped_here(config) -> int:
    """How many browser tests were skipped for want of Chromium: those this process
    collected, or (``make test``'s pytest-xdist workers collect, not the process that
    prints) the skips its terminal reported."""
    if _skipped:
        return len(_skipped)
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    reports = reporter.stats.get("skipped", []) if reporter else []
    return sum(1 for r in reports if "browser tests skipped" in str(r.longrepr))


def pytest_unconfigure(config):
    """The last line of the run, after pytest's own totals, so that nobody misses it."""
    count = _skipped_here(config) if MISSING else 0
    if count:
        writer = config.get_terminal_writer()
        writer.line("")
        writer.line(
            f"SKIPPED {count} BROWSER TESTS: {MISSING}. Install it with: {INSTALL}",
            yellow=True,
            bold=True,
        )


@pytest.fixture(scope="session")
def live_server_url(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[str]:
    """daphne serving the site on the test database, at http://127.0.0.1:<port>."""
    log = tmp_path_factory.mktemp("daphne") / "daphne.log"
    with django_db_blocker.unblock():
        # the learning core the AI players' pages load (tests/conftest.py says which)
        env = child_env(**children_database_env(), AI_LEARN_PACKAGE=TEST_AI_LEARN_PACKAGE)
    process, port = start_daphne(log, env)
    try:
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

    contexts = []

    def make(
        username: str, role: str = "creator", width: int = 1200, height: int = 900, js: bool = True
    ):
        user = get_user_model().objects.create_user(username, password=None)  # cookie login
        if role != "creator":
            user.role = role
            user.save(update_fields=["role"])
        context = browser.new_context(
            base_url=live_server_url,
            viewport={"width": width, "height": height},
            java_script_enabled=js,
        )
        context.add_cookies(
            [
                {
                    "name": settings.SESSION_COOKIE_NAME,
                    "value": session_cookie(user),
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
    _wait_for_server_to_let_go()


def _wait_for_server_to_let_go(timeout: float = 5.0) -> None:
    """Closed pages close their sockets; let the server finish that work (presences go,
    reconnect windows open) before the test's flush truncates the tables under it."""
    from play.models import Presence

    deadline = time.monotonic() + timeout
    while Presence.objects.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.2)  # the window a last presence opens is written just after it goes


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
