"""Telling the world a match changed, always after the transaction commits.

Group messages say "match N changed" with public events (a warning, a disconnection,
the game's end); each consumer then sends its own seat's view. After a move the message
also carries every seat's view, made and encoded once by the process that played it (see
``moves.made_state``): it stays inside the server, and a socket forwards only the one
its seat may see.

In a server process the commit hook does not wait for the channel layer: it hands the
message to the process's event loop (``serve``), where one task sends the messages in the
order they were committed. The database thread, which every socket of the process shares,
is free for the next move meanwhile. Elsewhere (Celery, commands, a test with no server
loop) the hook sends and waits, as before.
"""

from __future__ import annotations

import asyncio
import logging

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import transaction
from django.utils import timezone

log = logging.getLogger(__name__)

_loop: asyncio.AbstractEventLoop | None = None
_outbox: asyncio.Queue | None = None


def serve(loop: asyncio.AbstractEventLoop) -> None:
    """Send this process's group messages from ``loop`` (call it on that loop; again
    after a new loop starts, as in tests)."""
    global _loop, _outbox
    if _loop is loop and _outbox is not None:
        return
    _outbox = asyncio.Queue()
    _loop = loop
    loop.create_task(_drain(_outbox), name="play-outbox")


async def _drain(outbox: asyncio.Queue) -> None:
    while True:
        group, message = await outbox.get()
        layer = get_channel_layer()  # looked up each time: tests may swap the layer
        try:
            await layer.group_send(group, message)
        except Exception:  # the move is saved; a socket that missed it reloads on reconnect
            log.exception("could not tell group %s", group)


def _post(group: str, message: dict) -> bool:
    """Queue a message on the serving loop; False if there is none running."""
    loop, outbox = _loop, _outbox
    if loop is None or outbox is None or not loop.is_running():
        return False
    try:
        if _running_loop() is loop:
            outbox.put_nowait((group, message))
        else:
            loop.call_soon_threadsafe(outbox.put_nowait, (group, message))
    except RuntimeError:  # the loop closed meanwhile
        return False
    return True


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def after_commit_work(work) -> None:
    """Run ``work()`` (a commit hook's slower part: a finished match's ratings, ~25 ms):
    in a server process on a worker thread, so that the moves queued on the process's
    one database thread do not wait behind it; elsewhere at once."""
    loop = _loop
    if loop is None or not loop.is_running():
        return work()
    try:
        loop.call_soon_threadsafe(_start_work, work)
    except RuntimeError:  # the loop closed meanwhile
        work()


_working: set[asyncio.Task] = set()  # held until done (the loop keeps only weak refs)


def _start_work(work) -> None:
    task = asyncio.ensure_future(database_sync_to_async(work, thread_sensitive=False)())
    _working.add(task)
    task.add_done_callback(_working.discard)


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
    message = {"type": "match.changed", "match": match_id, "events": events, "views": views}
    transaction.on_commit(lambda: _send(match_group(match_id), message, due))


def match_withdrawn(match_id: int) -> None:
    """Its game was hidden or removed (sent after that commits): each socket re-checks."""
    _send(match_group(match_id), {"type": "match.withdrawn", "match": match_id}, False)


def user_event(user_id: int, event: dict) -> None:
    message = {"type": "user.event", "events": [event]}
    transaction.on_commit(lambda: _send(user_group(user_id), message, False))


def _send(group: str, message: dict, due: bool) -> None:
    layer = get_channel_layer()
    if layer is not None and not _post(group, message):
        loop = _running_loop()
        if loop is None:  # a sync thread with no server loop: a task, a command, a test
            async_to_sync(layer.group_send)(group, message)
        else:  # called from a thread that runs a loop itself (e.g. a script driving one)
            loop.create_task(layer.group_send(group, message))
    if due and _on_due is not None:
        _on_due()


_on_due = None  # the timekeeper's poke (it registers itself: notify imports nothing above it)


def when_due(poke) -> None:
    """Call ``poke()`` after sending a change that leaves a bot move or a timer due."""
    global _on_due
    _on_due = poke
