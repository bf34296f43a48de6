"""Crews: several people sharing one team of a nested-board game (seed 000, "In-Crew Order").

A seat's crew is its own player followed by its ``CrewMember`` rows in order. The rules'
``crew_order`` says who makes the team's move:

- "in-turn" (the default): the members rotate, one team turn each. With team X = [A] and
  team O = [B, C] the order is X:A, O:B, X:A, O:C, and again.
- "flexible": any member may move; first come, first served (the match row's lock and
  the ``ply`` check let exactly one of two racing moves through).

Crews are for people: a seat led by a bot, Random, Chaos or an open seat has none.
"""

from __future__ import annotations

from accounts.models import Player

from .models import Move, Seat

IN_TURN, FLEXIBLE = "in-turn", "flexible"
MAX_CREW = 8  # people on one team, the seat's player included
CREW_KINDS = (Player.Kind.HUMAN, Player.Kind.PERSONA)
# Rows of the log that are not a team's turn (a draw offer and its answers).
NOT_TURNS = ("draw", "accept", "decline")


def crew_order(document: dict) -> str | None:
    """The game's in-crew order, or None when the game has no crews (not nested)."""
    if (document.get("board") or {}).get("type") != "nested":
        return None
    return (document.get("nested") or {}).get("crew_order", IN_TURN)


def has_crews(match) -> bool:
    return crew_order(match.rule_set.document) is not None


def members(seat: Seat) -> list[Player]:
    """The seat's player and its crew, in order (the crew must be prefetched or loaded)."""
    if seat.player is None:
        return []
    return [seat.player] + [m.player for m in crew_rows(seat)]


def crew_rows(seat: Seat) -> list:
    cache = getattr(seat, "_prefetched_objects_cache", {})
    if "crew" in cache:
        return list(cache["crew"])
    if seat.pk is None or not has_crews(seat.match):  # a game without crews has no rows
        return []
    return list(seat.crew.select_related("player__user").order_by("order"))


def team_turns(match, index: int) -> int:
    """How many turns the seat's team has taken (moves, passes, timed-out random moves
    and skips; not draw offers or answers)."""
    return (
        Move.objects.filter(match=match, seat=index, kind__in=(Move.Kind.MOVE, Move.Kind.SKIP))
        .exclude(notation__in=NOT_TURNS)
        .count()
    )


def due_member(match, seat: Seat) -> int | None:
    """Which member (0: the seat's player) makes the team's next move when the crew takes
    turns; None when anyone may (flexible, or a crew of one)."""
    people = members(seat)
    if len(people) < 2 or crew_order(match.rule_set.document) != IN_TURN:
        return None
    return team_turns(match, seat.index) % len(people)


def crew_data(match, seat: Seat) -> dict:
    """What the ``state`` event says of a seat's crew: the members after the seat's
    player, and the index of the member due to move (0: the seat's player; null: any)."""
    rows = crew_rows(seat)
    if not rows:
        return {}
    return {
        "crew": [
            {"name": m.player.display_name, "playerId": m.player_id, "invitation": m.invitation}
            for m in rows
        ],
        "crewDue": due_member(match, seat),
        "crewOrder": crew_order(match.rule_set.document),
    }
