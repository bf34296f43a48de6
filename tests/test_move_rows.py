"""A move's two writes in plain SQL (``play.move_rows``): the rows the ORM wrote."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import DatabaseError
from django.utils import timezone

from play.create import answer_invitation
from play.models import Match, Move
from play.move_rows import insert_move, save_columns
from tests.play_helpers import rule_set, start

pytestmark = pytest.mark.django_db


def test_a_moves_row_is_what_create_wrote(creator, other_creator):
    match = start(rule_set("Tic-Tac-Toe"), creator, creator, other_creator)
    before = timezone.now()
    insert_move(match.pk, 1, 0, Move.Kind.MOVE, "2,2,1", False, 1234)
    insert_move(match.pk, 2, 1, Move.Kind.RESIGN, "", True, 0)
    rows = list(Move.objects.filter(match=match).order_by("ply"))
    assert [(m.ply, m.seat, m.kind, m.notation, m.auto, m.think_ms) for m in rows] == [
        (1, 0, "move", "2,2,1", False, 1234),
        (2, 1, "resign", "", True, 0),
    ]
    assert all(before <= m.created <= timezone.now() for m in rows)


def test_the_matchs_columns_are_saved_and_a_missing_row_is_an_error(creator, other_creator):
    match = start(rule_set("Tic-Tac-Toe"), creator, creator, other_creator)
    answer_invitation(match.pk, other_creator, True)
    match = Match.objects.get(pk=match.pk)
    when = timezone.now() + timedelta(seconds=30)
    match.ply, match.turn_deadline, match.wake_at = 7, when, when
    match.team_clocks = {"0": 1500, "1": 2500}
    match.afk_seat, match.afk_warned = 1, True
    names = ["ply", "turn_deadline", "wake_at", "team_clocks", "afk_seat", "afk_warned"]
    save_columns(match, names)
    again = Match.objects.get(pk=match.pk)
    assert (again.ply, again.turn_deadline, again.wake_at) == (7, when, when)
    assert again.team_clocks == {"0": 1500, "1": 2500}
    assert (again.afk_seat, again.afk_warned, again.status) == (1, True, match.status)
    gone = Match(pk=match.pk + 1000, ply=1)
    with pytest.raises(DatabaseError, match="not updated"):
        save_columns(gone, ["ply"])
