"""A tournament game that runs past its wall-clock bound ends as a draw with a reason
and is written like any other (issue 39: a 20-game tournament of a game that never ends
wrote 0 games in 224 s, held both workers, and the reconciler sent the batches on)."""

import time

import pytest

from leaderboards.models import TournamentBatch
from leaderboards.services import default_universe
from play.models import Match
from tests.play_helpers import bot, rule_set
from tests.test_bounded_bots import long_game
from tests.test_endless_games import ENDLESS
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db


@pytest.fixture
def breeder():
    """The endless breeder's rule set, its compiled game the one with a far move limit."""
    from play import replay

    rules = rule_set("Breeder", **{k: v for k, v in ENDLESS.items() if k != "name"})
    key = (rules.fingerprint, rules.document.get("name", ""))
    replay._games[key] = long_game()
    yield rules
    del replay._games[key]


def test_a_tournament_game_past_its_bound_is_written_as_a_time_limit_draw(
    breeder, trainer, no_broker, settings
):
    # A bound under most of these games' length, and ten of them (one batch): with 0.15 s
    # and six games, all six of a CI run once ended in stalemate before it (the games are
    # random, the seed too); here two to five of six reach it.
    settings.TOURNAMENT_GAME_SECONDS = 0.05
    players = [bot("A", "easy").pk, bot("B", "easy").pk]
    plan = tournaments.Plan(breeder, default_universe(), "T", [(players, 10)])
    t = tournaments.create_from_plan(plan, trainer)
    batch = TournamentBatch.objects.filter(tournament=t).first()
    clock = time.perf_counter()
    assert tournaments.run_batch(batch.pk) == 10  # every game written, none hangs
    assert time.perf_counter() - clock < 10 * 0.05 + 3
    assert TournamentBatch.objects.get(pk=batch.pk).state == "done"
    outcomes = [m.outcome for m in Match.objects.filter(tournament=t)]
    timed = [o for o in outcomes if o["reason"] == "time-limit"]
    assert timed, [o["detail"] for o in outcomes]  # most random games here go long
    for o in timed:
        assert o["results"] == ["draw", "draw"] and o["winners"] == []
        assert o["detail"].startswith("Time limit reached (0.05 s for the game, ")
