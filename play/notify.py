"""Telling the world a match changed, always after the transaction commits.

Group messages carry only "match N changed" plus public events (a warning, a
disconnection, the game's end); each consumer then builds its own seat's view.
"""

from __future__ import annotations

import asyncio

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.utils import timezone


def match_group(match_id: int) -> str:
    return f"match-{match_id}"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def match_changed(match, events: list[dict]) -> None:
    """Tell the match's sockets (call it after saving ``match``). If a bot move or a timer
    is already due, the timekeeper looks now, not at its next poll; anything later is
    found by the poll, so the other commits spare it a query."""
    match_id = match.pk
    due = match.wake_at is not None and match.wake_at <= timezone.now()
    transaction.on_commit(lambda: _send(match_group(match_id), "match.changed", events, due))


def user_event(user_id: int, event: dict) -> None:
    transaction.on_commit(lambda: _send(user_group(user_id), "user.event", [event], False))


def _send(group: str, kind: str, events: list[dict], due: bool) -> None:
    layer = get_channel_layer()
    if layer is not None:
        message = {"type": kind, "events": events}
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # the usual case: a sync thread (a view, sync_to_async, a task)
            async_to_sync(layer.group_send)(group, message)
        else:  # called from a thread that runs a loop itself (e.g. a script driving one)
            loop.create_task(layer.group_send(group, message))
    if due:
        from play import timekeeper

        timekeeper.poke()
