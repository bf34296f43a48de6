"""A game an Admin hides or removes is closed, live matches included, to everyone but
Admins: its sockets are told (error ``hidden``) and closed, and no move is taken from
anyone else (a socket on another process that missed the message included)."""

from __future__ import annotations

from .errors import MatchError
from .models import Match

REASON = "An Admin hid or removed this game: its matches are closed to everyone but Admins."


def is_withdrawn(rule_set) -> bool:
    return rule_set.hidden or rule_set.removed_at is not None


def _admin(user) -> bool:
    from accounts.roles import is_admin

    return hasattr(user, "role") and is_admin(user)  # a bot's actor has no role


def check_open(match: Match, user) -> None:
    """Refuse a write to a match of a withdrawn game (``MatchError`` ``hidden``)."""
    if is_withdrawn(match.rule_set) and not _admin(user):
        raise MatchError("hidden", REASON)


def error_event() -> dict:
    return MatchError("hidden", REASON).event()


def on_game_withdrawn(sender, rule_set_id: int, **kwargs) -> None:
    """Tell every live match's sockets (each re-checks for its own user: Admins stay)."""
    from . import notify

    live = (Match.Status.INVITED, Match.Status.ACTIVE)
    for match_id in Match.objects.filter(rule_set_id=rule_set_id, status__in=live).values_list(
        "pk", flat=True
    ):
        notify.match_withdrawn(match_id)
