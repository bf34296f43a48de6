"""PostgreSQL connections come from one bounded pool per process (config/settings.py):
the settings build it, a real daphne serving many requests holds no more connections than
the pool's size (and reuses them instead of opening one per request), and a Celery
prefork child never uses the pool it inherited from its parent."""

from __future__ import annotations

import json
import threading
import time
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlencode

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import connection

from tests.conftest import children_database_env
from tests.test_settings import load_settings

POSTGRES_URL = "postgres://vf:secret@db.internal:5432/vf"


@pytest.fixture
def postgres_env(monkeypatch, tmp_path):
    for name in ("REDIS_URL", "CONN_MAX_AGE", "DB_POOL_MIN_SIZE", "DB_POOL_MAX_SIZE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("DB_POOL_TIMEOUT", raising=False)
    monkeypatch.delenv("DB_PREPARE_THRESHOLD", raising=False)
    monkeypatch.delenv("DB_JIT", raising=False)
    monkeypatch.setenv("VAR_DIR", str(tmp_path / "var"))
    monkeypatch.setenv("DATABASE_URL", POSTGRES_URL)
    return monkeypatch


def test_postgresql_uses_a_bounded_pool_by_default(postgres_env):
    database = load_settings()["DATABASES"]["default"]
    assert database["CONN_MAX_AGE"] == 0
    assert database["OPTIONS"]["pool"] == {"min_size": 1, "max_size": 10, "timeout": 20.0}


def test_pool_sizes_come_from_the_environment(postgres_env):
    postgres_env.setenv("DB_POOL_MIN_SIZE", "2")
    postgres_env.setenv("DB_POOL_MAX_SIZE", "6")
    postgres_env.setenv("DB_POOL_TIMEOUT", "5")
    pool = load_settings()["DATABASES"]["default"]["OPTIONS"]["pool"]
    assert pool == {"min_size": 2, "max_size": 6, "timeout": 5.0}


def test_connections_ask_for_no_jit_unless_told_to_leave_it_to_the_server(postgres_env):
    options = load_settings()["DATABASES"]["default"]["OPTIONS"]
    assert options["options"] == "-c jit=off"
    postgres_env.setenv("DATABASE_URL", POSTGRES_URL + "?options=-c%20work_mem%3D8MB")
    options = load_settings()["DATABASES"]["default"]["OPTIONS"]
    assert options["options"] == "-c work_mem=8MB -c jit=off"  # added to, not replaced
    postgres_env.setenv("DATABASE_URL", POSTGRES_URL)
    postgres_env.setenv("DB_JIT", "server")  # behind PgBouncer
    assert "options" not in load_settings()["DATABASES"]["default"]["OPTIONS"]
    postgres_env.setenv("DB_JIT", "on")
    with pytest.raises(ImproperlyConfigured, match="DB_JIT"):
        load_settings()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's own setting")
@pytest.mark.django_db
def test_a_connection_runs_with_jit_off():
    with connection.cursor() as cursor:
        cursor.execute("SHOW jit")
        assert cursor.fetchone()[0] == "off"


@pytest.mark.parametrize(
    ("variables", "message"),
    [
        ({"CONN_MAX_AGE": "60"}, "CONN_MAX_AGE must be 0"),
        ({"DB_POOL_MIN_SIZE": "5", "DB_POOL_MAX_SIZE": "4"}, "must not exceed"),
        ({"DB_POOL_TIMEOUT": "0"}, "DB_POOL_TIMEOUT"),
        ({"DB_POOL_MAX_SIZE": "-1"}, "at least 0"),
    ],
)
def test_unusable_pool_settings_are_refused(postgres_env, variables, message):
    for name, value in variables.items():
        postgres_env.setenv(name, value)
    with pytest.raises(ImproperlyConfigured, match=message):
        load_settings()


def test_the_pool_can_be_turned_off_for_persistent_connections(postgres_env):
    postgres_env.setenv("DB_POOL_MAX_SIZE", "0")
    postgres_env.setenv("CONN_MAX_AGE", "60")
    database = load_settings()["DATABASES"]["default"]
    assert "pool" not in database.get("OPTIONS", {}) and database["CONN_MAX_AGE"] == 60


def test_preparing_is_on_by_default_and_can_be_turned_off(postgres_env):
    """The seats read of every move is prepared (play/seat_query.py); a pooler in front of
    PostgreSQL that cannot keep prepared statements turns it off."""
    assert load_settings()["DATABASES"]["default"]["OPTIONS"]["prepare_threshold"] == 5
    postgres_env.setenv("DB_PREPARE_THRESHOLD", "0")
    assert "prepare_threshold" not in load_settings()["DATABASES"]["default"]["OPTIONS"]
    postgres_env.setenv("DB_PREPARE_THRESHOLD", "-1")
    with pytest.raises(ImproperlyConfigured, match="at least 0"):
        load_settings()


# --- On a real PostgreSQL ------------------------------------------------------------------


def require_postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.skip(
            "NOT RUN: the connection-pool tests need PostgreSQL (set DATABASE_URL=postgres://...)"
        )


def application_env(name: str, **overrides: str) -> dict[str, str]:
    """The children's database variables with ``application_name`` set, so that the
    server's own connections can be told apart in pg_stat_activity."""
    env = children_database_env()
    env["DATABASE_URL"] += "?" + urlencode({"application_name": name})
    return {**env, **overrides}


def backends(name: str) -> list[tuple[int, float]]:
    """(pid, start) of every session of application ``name`` on the test database."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid, extract(epoch FROM backend_start) FROM pg_stat_activity "
            "WHERE application_name = %s AND datname = current_database()",
            [name],
        )
        return [(pid, float(start)) for pid, start in cursor.fetchall()]


class Sampler(threading.Thread):
    """Samples the application's sessions every few milliseconds: the most at once, and
    every session seen (a server that opens one per request shows many)."""

    def __init__(self, name: str):
        super().__init__(daemon=True)
        self.name_, self.most, self.seen = name, 0, set()
        self.done = threading.Event()

    def run(self) -> None:
        try:
            while not self.done.is_set():
                now = backends(self.name_)
                self.most = max(self.most, len(now))
                self.seen.update(now)
                time.sleep(0.005)
        finally:
            connection.close()

    def stop(self) -> None:
        self.done.set()
        self.join(timeout=5)


def get(port: int) -> int:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as response:
        response.read()
        return response.status


def refused_moves(port: int, match_id: int, cookie: str, count: int) -> list[str]:
    """Send ``count`` moves off the board over a match socket; the error code of each. Each is
    checked by ``play.moves.play`` on one of daphne's executor threads (the path every
    move takes), which must hand its connection back to the pool."""
    from django.conf import settings
    from websockets.sync.client import connect

    codes = []
    with connect(
        f"ws://127.0.0.1:{port}/ws/match/{match_id}/",
        origin=f"http://127.0.0.1:{port}",
        additional_headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}"},
        proxy=None,
        open_timeout=15,
    ) as ws:
        for _ in range(count):
            ws.send(json.dumps({"type": "move", "move": "9,9,9"}))
            while (event := json.loads(ws.recv(timeout=15)))["type"] != "error":
                pass
            codes.append(event["code"])
    return codes


@pytest.mark.django_db(transaction=True)
def test_daphne_holds_at_most_the_pools_connections(servers, make_user):
    require_postgresql()
    from play import services
    from tests.conftest import session_cookie
    from tests.play_helpers import rule_set, start

    x_user, o_user = make_user("xena"), make_user("oscar")
    match = start(rule_set("Tic-Tac-Toe"), x_user, x_user, o_user)
    services.answer_invitation(match.pk, o_user, accept=True)
    name = f"vf-pool-{uuid.uuid4().hex[:8]}"
    max_size = 4
    server = servers(
        **application_env(name, DB_POOL_MIN_SIZE="1", DB_POOL_MAX_SIZE=str(max_size))
    ).wait()
    sampler = Sampler(name)
    sampler.start()
    try:
        sequential = [get(server.port) for _ in range(200)]
        with ThreadPoolExecutor(max_workers=50) as executor:
            concurrent = list(executor.map(lambda _: get(server.port), range(50)))
        codes = refused_moves(server.port, match.pk, session_cookie(x_user), 3 * max_size)
    finally:
        sampler.stop()
    assert set(sequential) == set(concurrent) == {200}
    assert set(codes) == {"malformed"}, codes  # no move of this game: checked, refused
    held = backends(name)
    print(f"sessions: at most {sampler.most} at once, {len(sampler.seen)} seen, {len(held)} held")
    assert 1 <= sampler.most <= max_size
    assert len(held) <= max_size
    # Reused, not opened per request (the pool may replace a broken one now and then).
    assert len(sampler.seen) <= max_size + 2
    assert "Error" not in server.log.read_text(errors="replace")


@pytest.mark.django_db(transaction=True)
def test_a_prefork_child_opens_a_pool_of_its_own(tmp_path):
    """The worker's parent queries the database when it is ready (and holds a pooled
    connection); each task runs in a fresh child (--max-tasks-per-child=1) forked after
    that, which must not use the inherited pool (it has no threads to refill it: without
    config.celery's handler the second task waits for a connection until it times out)."""
    require_postgresql()
    from config.tasks import ping
    from tests.conftest import running_worker

    name = f"vf-fork-{uuid.uuid4().hex[:8]}"
    env = application_env(name, DB_POOL_MIN_SIZE="1", DB_POOL_MAX_SIZE="1", DB_POOL_TIMEOUT="3")
    flags = ("--pool=prefork", "-c", "1", "--max-tasks-per-child=1")
    with running_worker(tmp_path, "celery", pool_flags=flags, cold_stop=True, **env):
        # The second runs in a child forked after the parent's query. (Results go through
        # the database: django-db. On Redis a replaced child takes ~5 s to start: Celery's.)
        for _ in range(2):
            assert ping.apply_async().get(timeout=15) == "pong"
        assert len(backends(name)) <= 2  # the parent's one, the child's one


@pytest.mark.django_db(transaction=True)
def test_a_prefork_child_connects_as_it_starts_and_keeps_a_working_pool(tmp_path):
    """Each child opens its connection as it starts (config.celery.connect_at_start), not
    in its first task, and hands it to its pool before Celery's own start-up handler
    closes the socket of whatever connection it finds open: a pooled connection closed
    under its pool gave "closing returned connection" warnings and a child that hung."""
    require_postgresql()
    from config.tasks import ping
    from tests.conftest import running_worker

    name = f"vf-start-{uuid.uuid4().hex[:8]}"
    env = application_env(name, DB_POOL_MIN_SIZE="1", DB_POOL_MAX_SIZE="2", DB_POOL_TIMEOUT="3")
    flags = ("--pool=prefork", "-c", "2")
    with running_worker(tmp_path, "celery", pool_flags=flags, cold_stop=True, **env):
        deadline = time.monotonic() + 10
        while len(backends(name)) < 3 and time.monotonic() < deadline:
            time.sleep(0.1)  # the parent's session and each child's, before any task
        assert len(backends(name)) >= 3
        results = [ping.apply_async() for _ in range(20)]
        assert [r.get(timeout=15) for r in results] == ["pong"] * 20
    assert "closing returned connection" not in (tmp_path / "worker.log").read_text()
