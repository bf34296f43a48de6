"""Telling the world a match changed, always after the transaction commits.

Group messages carry only "match N changed" plus public events (a warning, a
disconnection, the game's end); each consumer then builds its own seat's view.
"""

from __future__ import annotations

import asyncio

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction


def match_group(match_id: int) -> str:
    return f"match-{match_id}"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def match_changed(match_id: int, events: list[dict]) -> None:
    transaction.on_commit(lambda: _send(match_group(match_id), "match.changed", events))


def user_event(user_id: int, event: dict) -> None:
    transaction.on_commit(lambda: _send(user_group(user_id), "user.event", [event]))


def _send(group: str, kind: str, events: list[dict]) -> None:
    layer = get_channel_layer()
    if layer is not None:
        message = {"type": kind, "events": events}
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # the usual case: a sync thread (a view, sync_to_async, a task)
            async_to_sync(layer.group_send)(group, message)
        else:  # called from a thread that runs a loop itself (e.g. a script driving one)
            loop.create_task(layer.group_send(group, message))
    from play import timekeeper  # a due bot move or timer runs now, not at the next poll

    timekeeper.poke()
