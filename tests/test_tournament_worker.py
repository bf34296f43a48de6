"""Tournaments on real Celery workers and the configured broker (Redis when REDIS_URL is
set, as in CI; never eager mode): every game counted exactly once, even when a worker is
killed in the middle of a batch and another one takes over."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter

import pytest
from django.conf import settings

from accounts.services import random_player
from leaderboards.models import RatingHistory, Tournament, TournamentBatch
from leaderboards.services import default_universe
from play.models import Match, Seat
from tests.conftest import (
    BASE_DIR,
    child_env,
    children_database_env,
    reset_broker_connections,
    wait_for_line,
)
from tests.play_helpers import bot, rule_set
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db(transaction=True)

STALE = "3"  # seconds before a silent batch counts as lost (the workers' setting)


@pytest.fixture(scope="module")
def workers(django_db_setup, django_db_blocker, tmp_path_factory):
    """start(name) -> a running ``celery worker`` process on the test database and the
    configured broker (moved to a fresh folder for the file-system broker)."""
    from config.celery import app
    from config.settings import filesystem_broker_options

    tmp = tmp_path_factory.mktemp("tournament-workers")
    overrides = {**children_database_env(), "TOURNAMENT_STALE_SECONDS": STALE}
    options = app.conf.broker_transport_options
    saved = dict(options)
    if not settings.REDIS_URL:
        overrides["CELERY_FS_ROOT"] = str(tmp / "broker")
        options.update(filesystem_broker_options(tmp / "broker"))
        reset_broker_connections(app)
    app.control.purge()  # nothing left over from an earlier run
    started: list[subprocess.Popen] = []

    def start(name: str) -> subprocess.Popen:
        log = tmp / f"{name}.log"
        command = [
            sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
            "--loglevel=INFO", f"--logfile={log}", "--without-gossip", "--without-mingle",
            "--without-heartbeat", "-n", f"{name}-{os.getpid()}@%h",
        ]  # fmt: skip
        process = subprocess.Popen(
            command, cwd=BASE_DIR, env=child_env(**overrides),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
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


def three_bots(trainer):
    return [bot("Easy", "easy"), bot("Medium", "medium"), random_player()]


def wait_until(check, timeout: float, what: str, every: float = 0.2):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"timed out waiting for {what}")


def assert_counted_once(t: Tournament, players) -> None:
    matches = Match.objects.filter(tournament=t)
    numbers = list(matches.values_list("game_number", flat=True))
    assert len(numbers) == 300 and sorted(numbers) == list(range(1, 301))
    pairs = Counter()
    for match_id, player_id in Seat.objects.filter(match__tournament=t).values_list(
        "match_id", "player_id"
    ):
        pairs[match_id] |= 1 << [p.pk for p in players].index(player_id)
    assert sorted(Counter(pairs.values()).values()) == [100, 100, 100]
    # ratings applied once per game, in game order
    history = RatingHistory.objects.filter(match__tournament=t).order_by("id")
    assert history.count() == 600
    order = [h.match.game_number for h in history.select_related("match")[::2]]
    assert order == list(range(1, 301))


def mid_batch(t: Tournament) -> bool:
    running = TournamentBatch.objects.filter(tournament=t, state="running").first()
    if running is None:
        return False
    written = Match.objects.filter(
        tournament=t, game_number__range=(running.first_game, running.last_game)
    ).count()
    # A batch writes its games together at its end (one insert per table), so a running
    # batch has none written yet (the check also holds for writes one by one).
    return written <= (running.last_game - running.first_game + 1) // 2


def test_three_bots_play_100_games_a_pair_on_a_worker(workers, trainer):
    ttt = rule_set("Tic-Tac-Toe")
    players = three_bots(trainer)
    worker = workers("whole")
    t = tournaments.create_benchmark(ttt, default_universe(), [p.pk for p in players], trainer)
    wait_until(
        lambda: Tournament.objects.get(pk=t.pk).status == "done", 180, "the tournament to finish"
    )
    t.refresh_from_db()
    assert_counted_once(t, players)
    assert t.results["games"] == 300 and t.ratings_through == 300
    worker.terminate()
    worker.wait(timeout=20)


def test_a_killed_worker_loses_no_game_and_counts_none_twice(workers, trainer):
    ttt = rule_set("Tic-Tac-Toe")
    players = three_bots(trainer)
    first = workers("doomed")
    t = tournaments.create_benchmark(ttt, default_universe(), [p.pk for p in players], trainer)
    # Polled often: a chain plays 300 games of Tic-Tac-Toe in well under a second.
    wait_until(
        lambda: Match.objects.filter(tournament=t).count() >= 30, 120, "30 games", every=0.002
    )
    # Kill it inside a batch: one it is running with at most half of its games written.
    wait_until(lambda: mid_batch(t), 60, "the worker to be in a batch", every=0.002)
    os.kill(first.pid, signal.SIGKILL)  # hard: no warm shutdown, its messages are gone
    first.wait(timeout=10)
    written = Match.objects.filter(tournament=t).count()
    assert written < 300, "the worker finished before it could be killed"
    workers("rescuer")
    wait_until(
        lambda: Tournament.objects.get(pk=t.pk).status == "done", 240, "the rescued tournament"
    )
    t.refresh_from_db()
    assert_counted_once(t, players)
    # Whatever the killed worker held (a running batch, sent again by the reconciler; or
    # batches it had only claimed, taken up by the rescuer) was played, once.
    assert not TournamentBatch.objects.filter(tournament=t).exclude(state="done").exists()
