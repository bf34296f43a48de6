"""Helpers of the AI players' tests: the learning core's stand-in (tests/fake_learn) in
place of gamecore.learn, an AI made through the services, a finished tournament."""

from __future__ import annotations

import pytest

FAKE = "tests.fake_learn"


@pytest.fixture
def fake_learn(settings):
    """The stand-in learning core, and no learner cached from another test."""
    from aiplayers.agents import clear_cache

    settings.AI_LEARN_PACKAGE = FAKE
    clear_cache()
    yield
    clear_cache()


def make_ai(owner, name="Tron", kind="learning", algorithm="logistic", **extra):
    from aiplayers import services
    from leaderboards.services import default_universe

    return services.create_ai(
        owner,
        name=name,
        universe=extra.pop("universe", None) or default_universe(),
        avatar=extra.pop("avatar", "robot"),
        kind=kind,
        algorithm=algorithm,
        params=extra.pop("params", {}),
        personality=extra.pop("personality", {}),
    )


def played_tournament(by, games=10, players=None, name="Lessons", sets=None, game=None):
    """A finished tournament of ``game`` (Tic-Tac-Toe; Random against the Easy bot unless
    given),
    played here, in this process."""
    from accounts.services import random_player
    from leaderboards.models import Tournament, TournamentBatch
    from leaderboards.services import default_universe
    from tests.play_helpers import bot, rule_set
    from tournaments import services as tournaments

    if players is None:
        players = [bot(f"{name}-easy", "easy").pk, random_player().pk]
    sets = sets or [(players, games)]
    plan = tournaments.Plan(game or rule_set("Tic-Tac-Toe"), default_universe(), name, sets)
    t = tournaments.create_from_plan(plan, by)
    first = TournamentBatch.objects.filter(tournament=t).order_by("number").first()
    tournaments.run_batches(first.pk)
    t.refresh_from_db()
    if t.status != Tournament.Status.DONE:
        tournaments.finalise(t.pk)
        t.refresh_from_db()
    assert t.status == Tournament.Status.DONE
    return t
