"""The three new games through the match services: people play Tapatan to a win by a
step, and bots play Achi and 9-Holes to their end (replayed from the move log)."""

from __future__ import annotations

import pytest

from play import services
from play.models import Match
from play.replay import current_state
from tests.play_helpers import bot, later, log, rule_set, start

pytestmark = pytest.mark.django_db


def fresh(match) -> Match:
    return Match.objects.get(pk=match.pk)


def test_people_play_tapatan_to_a_win_by_a_step(creator, other_creator):
    match = start(rule_set("Tapatan"), creator, creator, other_creator)
    services.answer_invitation(match.pk, other_creator, accept=True)
    moves = ["1,1,1", "2,1,1", "3,2,1", "1,3,1", "2,3,1", "3,3,1"]
    moves += ["1,1,1-1,2,1", "2,1,1-1,1,1", "2,3,1-2,2,1"]
    for i, text in enumerate(moves):
        services.play(match.pk, (creator, other_creator)[i % 2], text)
    match = fresh(match)
    assert match.status == "finished"
    assert match.outcome["reason"] == "victory" and match.outcome["winners"] == [0]
    assert log(match)[-1] == (0, "move", "2,3,1-2,2,1")


@pytest.mark.parametrize("name", ["Achi", "9-Holes"])
def test_bots_play_a_new_game_to_the_end(creator, name):
    match = start(rule_set(name), creator, bot("A", "medium"), bot("B", "easy"))
    for _ in range(400):
        if fresh(match).status == "finished":
            break
        services.server_move(match.pk, now=later(5))
    match = fresh(match)
    assert match.status == "finished"
    assert current_state(match).is_terminal()
    assert any("-" in notation for _seat, _kind, notation in log(match)) or (
        match.outcome["reason"] == "victory"
    )
