"""Shared fixtures: the catalogue in the database, a real Celery worker, free ports."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings

pytest_plugins = ["tests.live_helpers"]  # the servers fixture (live daphne processes)

BASE_DIR = Path(__file__).resolve().parent.parent

# Never leak into a server's environment (see DESIGN §7a).
_TEST_ONLY_VARIABLES = ("DJANGO_ALLOW_ASYNC_UNSAFE",)

# No connection pool in the test process itself (the servers and workers the tests start
# have theirs, as in production): channels.testing turns channels.db's
# close_old_connections into a no-op, so each test's event-loop threads keep the
# connections they took. Unpooled, those close when the threads go; pooled, they would
# never go back, and after DB_POOL_MAX_SIZE of them every query would wait and fail.
settings.DATABASES["default"].get("OPTIONS", {}).pop("pool", None)


@pytest.fixture(scope="session", autouse=True)
def own_channel_prefix():
    """Names of this run's own in Redis (channels, own bots' open turns): a test database
    is made anew each run, its ids start again at 1, and Redis still held a run of a few
    minutes ago (an open turn's keys outlive it by minutes): a turn of this run must not
    find a past run's keys under its id. Servers the tests start are given it
    (``children_database_env``)."""
    prefix = f"{settings.CHANNEL_PREFIX[:30]}.{os.urandom(3).hex()}"
    settings.CHANNEL_PREFIX = prefix
    config = settings.CHANNEL_LAYERS["default"].get("CONFIG")
    if config is not None and "prefix" in config:
        config["prefix"] = prefix
    yield


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database, dropped at the end even where a server the tests
    started is still leaving it: PostgreSQL refuses to drop a database with sessions, and
    a killed process's backend can outlive it by a moment."""
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """A new channel layer per test: channels-redis binds its locks to the event loop
    that first used them, and each async test runs on a loop of its own."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(scope="session", autouse=True)
def flush_survives_deadlocks():
    """A transactional test's flush is one TRUNCATE of every table. A server in another
    process (daphne, a Celery worker) still writing meanwhile can deadlock with it, and
    PostgreSQL then aborts one side: if that is the flush, the next test would start on the
    last one's rows. So a flush that fails is tried again (it rolls back whole)."""
    from django.core.management.base import CommandError
    from django.db import OperationalError
    from django.test import TransactionTestCase

    teardown = TransactionTestCase._fixture_teardown

    def retrying(self):
        for attempt in range(5):
            try:
                return teardown(self)
            except (CommandError, OperationalError):
                if attempt == 4:
                    raise
                time.sleep(0.2 * (attempt + 1))

    TransactionTestCase._fixture_teardown = retrying
    yield
    TransactionTestCase._fixture_teardown = teardown


@pytest.fixture
def catalogue(db):
    """The catalogue games, saved."""
    from variants.services import load_catalogue

    return load_catalogue()


# The property tests' size: 1 in `make test`; benchmarks/fuzz.sh runs them larger.
FUZZ_SCALE = max(1, int(os.environ.get("FUZZ_SCALE", "1") or 1))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def child_env(**overrides: str | None) -> dict[str, str]:
    """The test process's environment for a subprocess; ``None`` removes a variable."""
    env = {k: v for k, v in os.environ.items() if k not in _TEST_ONLY_VARIABLES}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    for name, value in overrides.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def children_database_env() -> dict[str, str]:
    """Variables that point a subprocess at the test database (not the development one),
    and at the test process's channel layer names."""
    from django.db import connection

    name = str(connection.settings_dict["NAME"])
    # The test process's channel prefix: its group messages reach the children's sockets
    # (the default prefix is made from the database name, which differs for the children).
    shared = {"CHANNEL_PREFIX": settings.CHANNEL_PREFIX}
    if connection.vendor == "sqlite":
        return {"SQLITE_PATH": name, **shared}
    parts = urlsplit(os.environ["DATABASE_URL"])
    return {"DATABASE_URL": urlunsplit(parts._replace(path="/" + name)), **shared}


def wait_for_line(path: Path, text: str, process: subprocess.Popen, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and text in path.read_text(errors="replace"):
            return
        if process.poll() is not None:
            break
        time.sleep(0.1)
    log = path.read_text(errors="replace") if path.exists() else ""
    raise AssertionError(f"{text!r} did not appear within {timeout} s:\n{log[-4000:]}")


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def spawn_daphne(log: Path, env: dict[str, str], port: int) -> subprocess.Popen:
    """``daphne config.asgi:application`` on 127.0.0.1:``port`` with ``env``, its output
    appended to ``log``. It is not serving yet: see ``wait_for_port``."""
    command = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
    with open(log, "a") as out:
        return subprocess.Popen(
            [*command, "config.asgi:application"], cwd=BASE_DIR, env=env, stdout=out, stderr=out
        )


def wait_for_port(port: int, process: subprocess.Popen, log: Path, timeout: float = 30) -> None:
    """Return once 127.0.0.1:``port`` accepts connections; fail (with the log's tail) if
    ``process`` exits or ``timeout`` seconds pass first."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                tail = log.read_text(errors="replace")[-4000:] if log.exists() else ""
                raise AssertionError(f"daphne did not start on port {port}:\n{tail}") from None
            time.sleep(0.05)


def start_daphne(log: Path, env: dict[str, str], port: int | None = None):
    """daphne serving the site (see ``spawn_daphne``), stopped again if it does not come
    up; returns (process, port)."""
    port = port or free_port()
    process = spawn_daphne(log, env, port)
    try:
        wait_for_port(port, process, log)
    except BaseException:
        stop(process)
        raise
    return process, port


def session_cookie(user) -> str:
    """The value of a session cookie that logs ``user`` in (a session row in the database:
    a server in another process accepts it once the test's data is committed)."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def reset_broker_connections(app) -> None:
    """Drop the app's cached broker connections so changed transport options apply."""
    from kombu import pools

    pools.reset()
    app._pool = None
    app.amqp._producer_pool = None


# The queues the site's workers read (``make run``: -Q celery,analysis).
TASK_QUEUES = ("celery", "analysis")


def purge_test_queues(app) -> int:
    """Drop every message the tests queued on the broker (Redis); how many there were."""
    with app.connection_for_write() as connection:
        return sum(connection.default_channel.queue_purge(q) or 0 for q in TASK_QUEUES)


@pytest.fixture(scope="session", autouse=True)
def own_broker(tmp_path_factory) -> Iterator[None]:
    """Tasks a test queues with no worker to run them (a tournament, an analysis) must not
    wait in var/celery for the next ``make run`` worker (issue 38): on the file-system
    broker the session, and every server it starts (``child_env``), queues into a folder
    of its own; on Redis into keys of its own (``CELERY_KEY_PREFIX``), purged when the
    session ends."""
    from config.celery import app
    from config.settings import filesystem_broker_options

    if settings.REDIS_URL:
        # Keys of this session's own: a worker of another run (or of ``make run``), or of
        # another pytest-xdist process, never takes this session's tasks.
        variable, value = "CELERY_KEY_PREFIX", f"test.{os.urandom(3).hex()}:"
        mine = {"global_keyprefix": value}
    else:
        root = tmp_path_factory.mktemp("broker")
        variable, value = "CELERY_FS_ROOT", str(root)
        mine = filesystem_broker_options(root)
    options = app.conf.broker_transport_options  # Django's settings dict too: in place
    saved, saved_env = dict(options), os.environ.get(variable)
    options.update(mine)
    os.environ[variable] = value  # the servers the tests start (``child_env``)
    reset_broker_connections(app)
    yield
    if settings.REDIS_URL:
        purge_test_queues(app)
    options.clear()
    options.update(saved)
    if saved_env is None:
        os.environ.pop(variable, None)
    else:
        os.environ[variable] = saved_env
    reset_broker_connections(app)


@pytest.fixture(scope="module")
def celery_worker(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[None]:
    """A real ``celery -A config worker`` on the test database and the configured broker
    (the default queue: tournaments).

    With the embedded defaults the broker is the file-system transport, moved to a fresh
    folder (for the worker and this process) so that a development worker on ``var/``
    cannot steal the test's tasks; with ``REDIS_URL`` both use Redis. Results go through
    the django-db backend, i.e. the test database both processes share, so tests using
    this fixture must be ``django_db(transaction=True)``.
    """
    with running_worker(tmp_path_factory.mktemp("celery"), "celery"):
        yield


# The learning core the tests' learning workers load: the stand-in (tests/fake_learn)
# until gamecore.learn is merged; TEST_AI_LEARN_PACKAGE=gamecore.learn runs the real one.
TEST_AI_LEARN_PACKAGE = os.environ.get("TEST_AI_LEARN_PACKAGE", "tests.fake_learn")


@pytest.fixture(scope="module")
def learning_worker(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[None]:
    """A real worker on the ``learning`` queue (aiplayers' studies); see ``celery_worker``."""
    tmp = tmp_path_factory.mktemp("learning")
    with running_worker(tmp, "learning", AI_LEARN_PACKAGE=TEST_AI_LEARN_PACKAGE):
        yield


@contextmanager
def running_worker(
    tmp: Path,
    queue: str,
    pool_flags: tuple[str, ...] = ("--pool=solo", "-c", "1"),
    cold_stop: bool = False,
    **env: str,
):
    """A worker on ``queue`` (see ``celery_worker``), stopped when the block ends
    (``cold_stop``: at once, without waiting for its tasks; a prefork worker's warm
    shutdown takes seconds)."""
    from config.celery import app
    from config.settings import filesystem_broker_options

    overrides = {**children_database_env(), **env}
    # The options dict is shared by Django's settings and the Celery app's conf: update it
    # in place (a plain assignment would lose to the CELERY_-prefixed setting).
    options = app.conf.broker_transport_options
    saved_options = dict(options)
    if not settings.REDIS_URL:
        overrides["CELERY_FS_ROOT"] = str(tmp / "broker")
        options.update(filesystem_broker_options(tmp / "broker"))
        reset_broker_connections(app)
    else:
        # Tasks queued by earlier tests that had no worker would run here and leave results.
        with app.connection_for_write() as connection:
            for name in queue.split(","):
                connection.default_channel.queue_purge(name)
    log = tmp / "worker.log"
    command = [
        sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", queue,
        *pool_flags, "--loglevel=INFO", f"--logfile={log}",
        "--without-gossip", "--without-mingle", "--without-heartbeat",
        "-n", f"test-{queue}-{os.getpid()}@%h",
    ]  # fmt: skip
    process = subprocess.Popen(
        command, cwd=BASE_DIR, env=child_env(**overrides),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        wait_for_line(log, " ready.", process, timeout=30)
        yield
    finally:
        if cold_stop:
            process.send_signal(signal.SIGQUIT)
        stop(process)
        if not settings.REDIS_URL:
            options.clear()
            options.update(saved_options)
            reset_broker_connections(app)


# --- People: one of each role (see accounts.roles) ----------------------------------------


@pytest.fixture
def make_user(db):
    """``make_user("ann", "trainer")``: a saved user with that role. No password unless
    given (hashing one takes most of a second; log in with ``client.force_login``)."""
    from django.contrib.auth import get_user_model

    def make(username: str, role: str = "creator", password: str | None = None, **fields):
        return get_user_model().objects.create_user(
            username, password=password, role=role, **fields
        )

    return make


@pytest.fixture
def creator(make_user):
    return make_user("carla")


@pytest.fixture
def other_creator(make_user):
    return make_user("otto")


@pytest.fixture
def trainer(make_user):
    return make_user("tina", "trainer")


@pytest.fixture
def site_admin(make_user):
    """An Admin by role (not a superuser: superusers are Admins too, tested apart)."""
    return make_user("ada", "admin")


@pytest.fixture
def people(creator, other_creator, trainer, site_admin):
    """Every kind of visitor by name; ``None`` is the anonymous visitor."""
    return {
        "anonymous": None,
        "creator": creator,
        "other_creator": other_creator,
        "trainer": trainer,
        "admin": site_admin,
    }


def pytest_collection_modifyitems(config, items):
    """Browser tests last: the sync Playwright API keeps an event loop in the main thread
    for the session, and the asyncio tests (consumers) cannot run their own beside it."""
    items.sort(key=lambda item: "browser" in item.keywords)


@pytest.fixture
def no_broker(monkeypatch):
    """Record what would be sent to the workers instead of sending it."""
    sent = []
    from tournaments import tasks

    for name in ("run_batch", "finalise", "reconcile"):
        monkeypatch.setattr(
            getattr(tasks, name), "delay", lambda *a, _n=name: sent.append((_n, *a))
        )
    monkeypatch.setattr(tasks.watchdog, "apply_async", lambda *a, **k: sent.append(("watchdog",)))
    return sent
