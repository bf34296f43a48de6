"""Live web processes for tests: daphne subprocesses on the test database (and this
test's REDIS_URL, or the embedded in-memory layer), stopped when the test ends."""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.conftest import (
    child_env,
    children_database_env,
    free_port,
    spawn_daphne,
    stop,
    wait_for_port,
)


class Server:
    """One daphne process on a port; ``kill`` is SIGKILL (no clean-up runs in it)."""

    def __init__(self, log: Path, env: dict[str, str], port: int):
        self.log, self.env, self.port = log, env, port
        self.process = spawn_daphne(log, env, port)

    def wait(self) -> Server:
        wait_for_port(self.port, self.process, self.log)
        return self

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)
        assert self.process.returncode == -signal.SIGKILL


@pytest.fixture
def servers(tmp_path) -> Iterator[Callable[..., Server]]:
    """servers(port=None, **env) -> a daphne on the test database and this test's REDIS_URL
    (or the embedded in-memory layer); ``env`` overrides variables (None removes one).
    Started, not yet waited for: call ``.wait()``. Every one is stopped when the test ends,
    and its log printed (pytest shows it if the test failed)."""
    started: list[Server] = []

    def make(port: int | None = None, **overrides: str | None) -> Server:
        env = child_env(**{**children_database_env(), **overrides})
        server = Server(tmp_path / f"daphne-{len(started) + 1}.log", env, port or free_port())
        started.append(server)
        return server

    yield make
    for server in started:
        if server.process.poll() is None:
            stop(server.process)
        print(f"--- {server.log.name} (exit {server.process.returncode})")
        print(server.log.read_text(errors="replace")[-3000:])
