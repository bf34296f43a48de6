"""Reads for the sockets and the pages: a connection's ``state`` event, which matches a
user may see, and their invitations. Nothing here writes."""

from __future__ import annotations

from django.db.models import Q

from . import crews, seating
from .events import state_event
from .models import Match, Seat
from .replay import current_state


def snapshot(match_id: int, user, you: list[int] | None = None) -> dict:
    """The ``state`` event for ``user`` (``you``: the seats their connection holds)."""
    return snapshot_and_ply(match_id, user, you)[0]


def snapshot_and_ply(match_id: int, user, you: list[int] | None = None) -> tuple[dict, int]:
    """``snapshot`` and the log's ply it was made at (for the socket's own bookkeeping:
    in a cloaked match the event's ply counts only what the seat observed)."""
    match, seats = seating.match_and_seats(match_id, lock=False)
    if you is None:
        you = seating.held_seats(match, user, seats)
    event = state_event(match, seats, current_state(match), you, seating.connected(seats))
    if crews.has_crews(match):
        for data, seat in zip(event["seats"], seats, strict=True):
            data.update(crews.crew_data(match, seat))
        if you and match.status == Match.Status.ACTIVE:
            event["blocked"] = seating.blocked_seats(match, seats, user, you)
    return event, match.ply


def visible_matches(user):
    """The matches ``user`` may see: a hidden or removed game is hidden with everything
    of it, its matches included, from everyone but Admins (as its page and tournaments)."""
    from accounts.roles import is_admin

    if is_admin(user):
        return Match.objects.all()
    return Match.objects.filter(rule_set__hidden=False, rule_set__removed_at__isnull=True)


def match_exists(match_id: int, user=None) -> bool:
    return visible_matches(user).filter(pk=match_id).exists()


def pending_invitation(match: Match, user) -> bool:
    """Is ``user`` invited to this match and yet to answer?"""
    return match.status == Match.Status.INVITED and bool(
        seating.pending_for(seating.load(match), user)
    )


def invitations_for(user) -> list[Match]:
    pending = Seat.Invitation.PENDING
    invited = (
        Q(seats__invitation=pending, seats__player__user=user)
        | Q(seats__crew__invitation=pending, seats__crew__player__user=user)
        # A friend seated the user's persona (seating.controls: its owner answers).
        | Q(seats__invitation=pending, seats__player__owner=user, seats__player__kind="persona")
    )
    return list(
        visible_matches(user)
        .filter(invited, status=Match.Status.INVITED)
        .select_related("rule_set", "created_by")
        .distinct()
    )
