"""Who holds which seat of a match, and reading a match with its seats.

The bottom of the match layer after the models: every service that writes a match reads
it through here (``lock`` / ``match_and_seats``), and asks here whether a user may play a
seat or whether the server moves it. Nothing here writes.
"""

from __future__ import annotations

from django.db.models import Prefetch, prefetch_related_objects

from accounts.models import Player

from . import crews, seat_query
from .errors import MatchError
from .models import CrewMember, Match, Seat


def controls(player: Player | None, user) -> bool:
    """May ``user`` move for ``player``? Their own human player and their personas."""
    if player is None or not getattr(user, "is_authenticated", False):
        return False
    if player.kind == Player.Kind.HUMAN:
        return player.user_id == user.pk
    if player.kind == Player.Kind.OWN_BOT:  # moved by its own client (ownbots.live.BotActor)
        return getattr(user, "bot_player_id", None) == player.pk
    return player.kind == Player.Kind.PERSONA and player.owner_id == user.pk


def controls_seat(seat: Seat, user) -> bool:
    """May ``user`` play this seat: its player, or an accepted member of its crew?"""
    if seat.invitation == Seat.Invitation.ACCEPTED and controls(seat.player, user):
        return True
    return any(
        m.invitation == Seat.Invitation.ACCEPTED and controls(m.player, user)
        for m in crews.crew_rows(seat)
    )


def held_seats(match: Match, user, seats: list[Seat] | None = None) -> list[int]:
    if not getattr(user, "is_authenticated", False):
        return []
    return [s.index for s in (seats or load(match)) if controls_seat(s, user)]


def pending_for(seats: list[Seat], user) -> list:
    """The seats and crew rows ``user`` is invited to and has not answered."""
    pending = Seat.Invitation.PENDING
    mine = [s for s in seats if s.invitation == pending and controls(s.player, user)]
    for seat in seats:
        mine += [
            m for m in crews.crew_rows(seat) if m.invitation == pending and controls(m.player, user)
        ]
    return mine


def all_accepted(seats: list[Seat]) -> bool:
    accepted = Seat.Invitation.ACCEPTED
    return all(
        s.invitation == accepted and all(m.invitation == accepted for m in crews.crew_rows(s))
        for s in seats
    )


def server_moves(seat: Seat) -> bool:
    """Chaos, Random and bots are moved by the server."""
    if seat.kind == Seat.Kind.CHAOS:
        return True
    return seat.player is not None and seat.player.kind in (
        Player.Kind.BOT,
        Player.Kind.RANDOM,
        Player.Kind.AI,
    )


def blocked_seats(match: Match, seats: list[Seat], user, you: list[int]) -> list[int]:
    """Seats of ``you`` whose crew's next move belongs to another member."""
    blocked = []
    for index in you:
        due = crews.due_member(match, seats[index])
        if due is not None and not controls(crews.members(seats[index])[due], user):
            blocked.append(index)
    return blocked


def series_people(seats: list[Seat]) -> list[int]:
    """The player ids that must say Ready between a series' games: the people of every
    seat, crews included. Bots, Random and Chaos are always ready."""
    people = []
    for seat in seats:
        for player in crews.members(seat):
            if player.kind in (Player.Kind.HUMAN, Player.Kind.PERSONA) and player.pk not in people:
                people.append(player.pk)
    return people


# -- reading a match and its seats ----------------------------------------------------------


def lock(match_id: int) -> Match:
    """The match row, locked until the transaction ends (every write takes this first)."""
    return get(match_id, lock=True)


def get(match_id: int, *, lock: bool = False) -> Match:
    rows = Match.objects.select_related("rule_set")
    try:
        return (rows.select_for_update(of=("self",)) if lock else rows).get(pk=match_id)
    except Match.DoesNotExist:
        raise MatchError("not-found", f"There is no match {match_id}.") from None


def connected(seats: list[Seat]) -> set[int]:
    """The seats that a socket holds (``connected``, as ``play.seat_query`` reads them)."""
    return {s.index for s in seats if s.connected}


def _with_crews(match: Match, seats: list[Seat]) -> list[Seat]:
    if crews.has_crews(match):  # one more query, only for games that can have crews
        rows = CrewMember.objects.select_related("player__user").order_by("order")
        prefetch_related_objects(seats, Prefetch("crew", queryset=rows))
    return seats


def load(match: Match) -> list[Seat]:
    """The seats of a match in hand, in order, crews loaded."""
    return _with_crews(match, seat_query.seats_of(match))


def match_and_seats(match_id: int, *, lock: bool) -> tuple[Match, list[Seat]]:
    """The match and its seats in one round trip (the path of every move and socket);
    with ``lock``, the match row is locked as by ``lock()`` (see ``play.seat_query``)."""
    match, seats = seat_query.match_and_seats(match_id, lock=lock)
    if match is None:  # no such match (or, never from create_match, one without seats)
        match = get(match_id, lock=lock)
        return match, load(match)
    return match, _with_crews(match, seats)
