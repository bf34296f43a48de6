"""A learning AI's curriculum completed by real Celery workers on the ``learning`` queue
(the configured broker, never eager mode), including a worker killed in the middle of
its study: the next worker resumes it, and no match is studied twice or lost."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from aiplayers import curriculum
from aiplayers.models import AIPlayer
from tests.ai_helpers import FAKE, make_ai, played_tournament
from tests.conftest import (
    BASE_DIR,
    child_env,
    children_database_env,
    reset_broker_connections,
    wait_for_line,
)
from tests.fake_learn.model import Learner
from tests.play_helpers import logged_moves

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def learning_workers(tmp_path, settings):
    """start(name) -> a ``celery worker -Q learning`` on the test database, the stand-in
    learning core, one match a chunk, each partial fit slowed to 50 ms."""
    from config.celery import app
    from config.settings import filesystem_broker_options

    settings.AI_LEARN_PACKAGE = FAKE
    env = {**children_database_env(), "AI_LEARN_PACKAGE": FAKE, "AI_STUDY_CHUNK": "1",
           "FAKE_LEARN_SLEEP": "0.05"}  # fmt: skip
    options = app.conf.broker_transport_options
    saved = dict(options)
    if not settings.REDIS_URL:
        env["CELERY_FS_ROOT"] = str(tmp_path / "broker")
        options.update(filesystem_broker_options(tmp_path / "broker"))
        reset_broker_connections(app)
    else:
        with app.connection_for_write() as connection:
            connection.default_channel.queue_purge("learning")
    started: list[subprocess.Popen] = []

    def start(name: str) -> subprocess.Popen:
        log = tmp_path / f"{name}.log"
        command = [
            sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", "learning",
            "--pool=solo", "--loglevel=INFO", f"--logfile={log}", "--without-gossip",
            "--without-mingle", "--without-heartbeat", "-n", f"{name}-{os.getpid()}@%h",
        ]  # fmt: skip
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        process = subprocess.Popen(command, cwd=BASE_DIR, env=child_env(**env), **quiet)
        started.append(process)
        wait_for_line(log, " ready.", process, timeout=30)
        return process

    yield start
    for process in started:
        if process.poll() is None:
            process.kill()
            process.wait()
    if not settings.REDIS_URL:
        options.clear()
        options.update(saved)
        reset_broker_connections(app)


def wait_until(check, timeout: float, what: str, every: float = 0.02):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"timed out waiting for {what}")


def test_a_killed_worker_loses_no_match_and_studies_none_twice(learning_workers, trainer):
    t = played_tournament(trainer, games=24)
    ai = make_ai(trainer)
    doomed = learning_workers("doomed")
    item = curriculum.add_tournament(ai, trainer, t)  # sent to the queue on commit

    def cursor():
        item.refresh_from_db()
        return item.cursor

    wait_until(lambda: cursor() >= 4, 60, "the study to be under way")
    os.kill(doomed.pid, signal.SIGKILL)  # hard: the message it held is gone with it
    doomed.wait(timeout=10)
    halfway = cursor()
    assert 4 <= halfway < 24, "the worker finished before it could be killed"
    assert AIPlayer.objects.get(pk=ai.pk).study == "studying"
    learning_workers("rescuer")  # on start, it sends again the studies left under way
    wait_until(lambda: AIPlayer.objects.get(pk=ai.pk).study == "idle", 60, "the rescued study")
    item.refresh_from_db()
    ai.refresh_from_db()
    moves = logged_moves(tournament=t)
    assert item.done and item.cursor == 24 and len(item.match_ids) == 24
    assert ai.moves_studied == item.moves_studied == moves
    model = Learner.from_bytes(bytes(ai.model))
    assert model.moves_studied == sum(model.counts.values()) == moves  # once each, none lost
