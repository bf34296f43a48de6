"""An own bot's socket hears of its tournament games' results as fast as they are
written: ``live.tournament_results`` pages through them, bounded per sweep."""

from __future__ import annotations

import pytest
from django.utils import timezone

from leaderboards.models import Tournament
from leaderboards.services import default_universe
from ownbots import live
from play.recording import PlayedGame, record_games
from tests.leaderboard_helpers import outcome
from tests.ownbot_helpers import own_bot
from tests.play_helpers import bot, rule_set

pytestmark = pytest.mark.django_db


def games_written(trainer, count: int):
    player, _token = own_bot(trainer)
    rules = rule_set("Tic-Tac-Toe")
    t = Tournament.objects.create(name="t", rule_set=rules, universe=default_universe(),
                                  created_by=trainer, seed=1, total_games=count)  # fmt: skip
    now = timezone.now()
    other = bot("Other")
    games = [
        (
            [player, other] if n % 2 else [other, player],
            PlayedGame(seed=n, moves=[], outcome=outcome("win", "loss"), started=now, finished=now),
            n,
        )
        for n in range(1, count + 1)
    ]
    ids = record_games(rules, None, games, tournament=t, rated=False)
    return player, t, ids


def test_a_sweep_sends_every_result_written_since_the_last_up_to_its_bound(trainer):
    player, t, ids = games_written(trainer, 250)
    before = min(ids) - 1
    events, after = live.tournament_results(player.pk, before)
    assert [e["match"] for e in events] == sorted(ids)  # all 250, in order: not one page
    assert after == max(ids)
    assert {(e["tournament"], e["game"]) for e in events} == {(t.pk, n) for n in range(1, 251)}
    assert all(e["seats"] == [0 if e["game"] % 2 else 1] for e in events)
    assert all(e["outcome"]["results"] == ["win", "loss"] for e in events)
    assert live.tournament_results(player.pk, after) == ([], after)  # nothing new

    bounded, stop = live.tournament_results(player.pk, before, pages=2)  # a sweep's bound
    assert [e["match"] for e in bounded] == sorted(ids)[: 2 * live.RESULT_PAGE]
    rest, end = live.tournament_results(player.pk, stop)  # the next sweep goes on from there
    assert [e["match"] for e in bounded + rest] == sorted(ids) and end == max(ids)
