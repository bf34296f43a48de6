"""Telling the world a match changed, always after the transaction commits.

Group messages say "match N changed" with public events (a warning, a disconnection,
the game's end); each consumer then sends its own seat's view. After a move the message
also carries every seat's view, made once by the process that played it (see
``services.made_state``): it stays inside the server, and a socket forwards only the one
its seat may see.
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


def match_changed(match, events: list[dict], views: dict | None = None) -> None:
    """Tell the match's sockets (call it after saving ``match``). If a bot move or a timer
    is already due, the timekeeper looks now, not at its next poll; anything later is
    found by the poll, so the other commits spare it a query."""
    match_id = match.pk
    due = match.wake_at is not None and match.wake_at <= timezone.now()
    message = {"type": "match.changed", "events": events, "views": views}
    transaction.on_commit(lambda: _send(match_group(match_id), message, due))


def user_event(user_id: int, event: dict) -> None:
    message = {"type": "user.event", "events": [event]}
    transaction.on_commit(lambda: _send(user_group(user_id), message, False))


def _send(group: str, message: dict, due: bool) -> None:
    layer = get_channel_layer()
    if layer is not None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # the usual case: a sync thread (a view, sync_to_async, a task)
            async_to_sync(layer.group_send)(group, message)
        else:  # called from a thread that runs a loop itself (e.g. a script driving one)
            loop.create_task(layer.group_send(group, message))
    if due:
        from play import timekeeper

        timekeeper.poke()
