"""A plan mixing three games (two seats, two seats on another board, three seats) started
from its page's Start and run to the end by a real Celery worker on the configured
broker (Redis and PostgreSQL when REDIS_URL and DATABASE_URL say so): every game of each
set played in its own game, once, and rated in that game's leaderboard only (issue 34)."""

from __future__ import annotations

import time

import pytest
from django.urls import reverse

from accounts.services import random_player
from leaderboards.models import Rating, RatingHistory, Tournament
from leaderboards.services import default_universe
from play.models import Match, Seat
from tests.play_helpers import bot, rule_set
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = 30  # a set


def wait_until(check, timeout: float, what: str):
    """Poll the database for an event (the worker's writes), bounded so a broken worker
    fails the test instead of hanging it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def test_a_mixed_plan_runs_on_a_worker_and_rates_each_game_apart(celery_worker, client, trainer):
    ttt, sq, notakto = rule_set("Tic-Tac-Toe"), rule_set("3on5sq"), rule_set("3P-Notakto")
    easy, medium, rnd = bot("Easy", "easy"), bot("Medium", "medium"), random_player()
    sets = [
        ([easy.pk, rnd.pk], GAMES, ttt),
        ([medium.pk, rnd.pk], GAMES, sq),
        ([easy.pk, medium.pk, rnd.pk], GAMES, notakto),
    ]
    plan = tournaments.Plan(ttt, default_universe(), "Mixed", sets)
    t = tournaments.create_from_plan(plan, trainer, run=False)
    client.force_login(trainer)
    response = client.post(reverse("leaderboards:plan_action", args=[t.pk]), {"action": "start"})
    assert response.status_code == 302
    wait_until(lambda: Tournament.objects.get(pk=t.pk).status == "done", 240, "the plan to end")
    t.refresh_from_db()
    assert t.results["games"] == 3 * GAMES and t.ratings_through == 3 * GAMES
    numbers = sorted(Match.objects.filter(tournament=t).values_list("game_number", flat=True))
    assert numbers == list(range(1, 3 * GAMES + 1))  # each game once
    for rs, seats in ((ttt, 2), (sq, 2), (notakto, 3)):
        matches = Match.objects.filter(tournament=t, rule_set=rs)
        assert matches.count() == GAMES
        assert Seat.objects.filter(match__in=matches, kind="player").count() == seats * GAMES
    universe = default_universe()

    def rated(player, rs) -> int:
        found = Rating.objects.filter(player=player, rule_set=rs, universe=universe).first()
        return found.matches if found else 0

    assert [rated(easy, rs) for rs in (ttt, sq, notakto)] == [GAMES, 0, GAMES]
    assert [rated(medium, rs) for rs in (ttt, sq, notakto)] == [0, GAMES, GAMES]
    assert [rated(rnd, rs) for rs in (ttt, sq, notakto)] == [GAMES, GAMES, GAMES]
    history = RatingHistory.objects.filter(match__tournament=t)
    for rs, seats in ((ttt, 2), (sq, 2), (notakto, 3)):
        assert history.filter(match__rule_set=rs, rating__rule_set=rs).count() == seats * GAMES
    assert history.count() == 7 * GAMES  # no game rated in another game's leaderboard
    page = client.get(t.get_absolute_url()).content.decode()
    assert page.count('data-testid="set-game"') == 3 and "3P-Notakto" in page


@pytest.fixture(scope="module")
def one_worker_for_both(django_db_setup, django_db_blocker, tmp_path_factory):
    """One worker on the tournaments' and the learning queues: the study sends the plan's
    batches to a broker this worker reads (the file-system broker is a folder per
    fixture, so ``celery_worker`` and ``learning_worker`` would not see each other's)."""
    from tests.conftest import TEST_AI_LEARN_PACKAGE, running_worker

    tmp = tmp_path_factory.mktemp("both")
    with running_worker(tmp, "celery,learning", AI_LEARN_PACKAGE=TEST_AI_LEARN_PACKAGE):
        yield


def test_a_study_starts_its_unrun_plan_and_learns_from_it(one_worker_for_both, trainer, settings):
    """The Study button's promise end to end: an AI whose curriculum holds an unrun
    (mixed) plan it plays in starts it from the learning worker, the tournament worker
    plays it, and the study then learns from its games."""
    from aiplayers import curriculum
    from aiplayers.models import AIPlayer, CurriculumItem
    from tests.ai_helpers import make_ai
    from tests.conftest import TEST_AI_LEARN_PACKAGE

    settings.AI_LEARN_PACKAGE = TEST_AI_LEARN_PACKAGE
    ttt, sq = rule_set("Tic-Tac-Toe"), rule_set("3on5sq")
    ai = make_ai(trainer, name="Pupil", algorithm="naive_bayes")
    rnd, easy = random_player(), bot("Easy", "easy")
    sets = [([ai.player_id, rnd.pk], 10, ttt), ([easy.pk, rnd.pk], 10, sq)]
    plan = tournaments.Plan(ttt, default_universe(), "Lesson", sets)
    t = tournaments.create_from_plan(plan, trainer, run=False)
    item = curriculum.add_tournament(ai, trainer, t)  # asks the learning worker to study

    def studied() -> bool:  # the item studied, and the study over (the AI idle again)
        done = CurriculumItem.objects.filter(pk=item.pk, studied_at__isnull=False).exists()
        return done and AIPlayer.objects.filter(pk=ai.pk, study=AIPlayer.Study.IDLE).exists()

    wait_until(studied, 240, "the study of the plan it started")
    t.refresh_from_db()
    assert t.status == "done" and t.results["games"] == 20
    ai.refresh_from_db()
    assert ai.moves_studied > 0 and ai.study == AIPlayer.Study.IDLE
    assert Match.objects.filter(tournament=t, seats__player_id=ai.player_id).count() == 10
