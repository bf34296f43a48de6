"""Presence: which seats a socket holds, and the reconnect window.

A socket holding a seat writes a ``Presence`` row; when the last one of a human seat
closes mid-match the reconnect window opens (``player:disconnected``), and reconnecting
in time closes it. Each process touches its rows; the rows of a process that stopped
(it died) are swept as disconnections.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from . import clock, notify, reads, seating
from .models import Match, Presence, Seat
from .replay import current_state


def connect(match_id: int, user, channel_name: str, process: str) -> list[int]:
    """A socket opened; returns the seats it holds (none: a spectator)."""
    now = timezone.now()
    if not getattr(user, "is_authenticated", False):
        return []
    match, seats = seating.match_and_seats(match_id, lock=False)
    if not seating.held_seats(match, user, seats):
        return []  # a spectator: no presence, no lock
    with transaction.atomic():
        match, seats = seating.match_and_seats(match_id, lock=True)
        held = seating.held_seats(match, user, seats)
        rows = [
            Presence(channel_name=channel_name, seat=i, match=match, process=process, seen=now)
            for i in held
        ]
        Presence.objects.bulk_create(rows, ignore_conflicts=True)  # a repeated connect: kept
        events = []
        for seat in seats:
            if seat.index in held and seat.disconnect_deadline is not None:
                seat.disconnect_deadline = None
                seat.save(update_fields=["disconnect_deadline"])
                events.append(_presence_event("player:reconnected", seat))
        if events and not match.is_over:
            clock.plan(match, seats, current_state(match), now)
            match.save()
            notify.match_changed(match, events)
        return held


def attach(match_id: int, user, channel_name: str, process: str):
    """A socket opening or re-attaching: (the seats it holds, its ``state`` event, the
    log's ply), or None when ``user`` may not see the match (one trip for all three)."""
    if not reads.match_exists(match_id, user):
        return None
    you = connect(match_id, user, channel_name, process)
    state, ply = reads.snapshot_and_ply(match_id, user, you)
    return you, state, ply


def disconnect(channel_name: str, now=None) -> None:
    rows = list(Presence.objects.filter(channel_name=channel_name).values_list("match_id", "seat"))
    Presence.objects.filter(channel_name=channel_name).delete()
    for match_id, seat in rows:
        _maybe_open_window(match_id, seat, now or timezone.now())


def _maybe_open_window(match_id: int, index: int, now) -> None:
    with transaction.atomic():
        match = seating.lock(match_id)
        if match.status != Match.Status.ACTIVE:
            return
        if Presence.objects.filter(match=match, seat=index).exists():
            return  # another tab of the same seat is still open
        seat = match.seats.select_related("player").get(index=index)
        if seat.disconnect_deadline is not None:
            return
        seat.disconnect_deadline = now + timedelta(seconds=match.reconnect_window)
        seat.save(update_fields=["disconnect_deadline"])
        clock.plan(match, seating.load(match), current_state(match), now)
        match.save()
        notify.match_changed(match, [_presence_event("player:disconnected", seat)])


def _presence_event(kind: str, seat: Seat) -> dict:
    event = {"type": kind, "seat": seat.index, "playerId": seat.player_id}
    if seat.disconnect_deadline is not None:
        event["deadline"] = int(seat.disconnect_deadline.timestamp() * 1000)
    return event


def touch_presences(process: str) -> None:
    Presence.objects.filter(process=process).update(seen=timezone.now())


def sweep_presences(stale_after: float = 45.0, now=None) -> int:
    """Presences of a process that stopped touching them (it died): each is a disconnect."""
    now = now or timezone.now()
    stale = list(
        Presence.objects.filter(seen__lt=now - timedelta(seconds=stale_after)).values_list(
            "channel_name", flat=True
        )
    )
    for channel_name in set(stale):
        disconnect(channel_name, now)
    return len(stale)
