"""Each web process's timekeeper: plays the bots' moves and fires the timers.

Every deadline is a column (``Match.wake_at`` is the earliest), so the timekeeper keeps no
state of its own: it polls for due matches, and is poked after a commit that leaves a bot
move (or a timer) due, so a bot answers at once. Several processes may run one each: every
action re-checks its condition under the match's row lock, so a timer fires once and a
stale one does nothing.
A process also touches its websocket presences, and treats the presences of a process
that stopped touching its own (it died) as disconnections.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import sys
import time
import uuid

from channels.db import database_sync_to_async
from django.conf import settings

from . import notify, presence, timers

log = logging.getLogger(__name__)

PROCESS = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
POLL_SECONDS = 0.25
TOUCH_SECONDS = 15.0

_loop: asyncio.AbstractEventLoop | None = None
_event: asyncio.Event | None = None
_task: asyncio.Task | None = None


def ensure_started() -> None:
    """Start this process's timekeeper, and the sending of its group messages, on the
    running event loop (once)."""
    global _loop, _event, _task
    notify.serve(asyncio.get_running_loop())
    if not settings.PLAY_TIMEKEEPER:
        return
    loop = asyncio.get_running_loop()
    if _task is not None and not _task.done() and _loop is loop:
        return
    _loop, _event = loop, asyncio.Event()
    _task = loop.create_task(_run(), name="play-timekeeper")


def poke() -> None:
    """Look for due work now (safe from any thread; a no-op without a timekeeper)."""
    loop, event = _loop, _event
    if loop is None or event is None or loop.is_closed():
        return
    try:
        loop.call_soon_threadsafe(event.set)
    except RuntimeError:
        pass  # the loop closed meanwhile


async def _run() -> None:
    inflight: set[int] = set()
    touched = 0.0
    while True:
        try:
            if time.monotonic() - touched > TOUCH_SECONDS:
                touched = time.monotonic()
                await database_sync_to_async(presence.touch_presences)(PROCESS)
                await database_sync_to_async(presence.sweep_presences)()
            for match_id in await database_sync_to_async(timers.due_matches)():
                if match_id not in inflight:
                    inflight.add(match_id)
                    task = asyncio.create_task(_wake(match_id))
                    task.add_done_callback(lambda _t, m=match_id: inflight.discard(m))
        except Exception:
            log.exception("timekeeper poll failed")
        try:
            await asyncio.wait_for(_event.wait(), POLL_SECONDS)
        except TimeoutError:
            pass
        _event.clear()


async def _wake(match_id: int) -> None:
    try:
        # Bots think off the shared database thread, so one slow bot delays nobody else.
        await database_sync_to_async(timers.server_move, thread_sensitive=False)(match_id)
        await database_sync_to_async(timers.expire_timers)(match_id)
    except Exception:
        log.exception("timekeeper: match %s", match_id)


notify.when_due(poke)


def start_with_daphne() -> None:
    """Under daphne, start once its loop runs rather than at the first request: a process
    restarted in mid-match must fire the timers and bot moves that fell due while it was
    down even if no one has come back yet. (Daphne speaks no ASGI lifespan; its Twisted
    reactor runs the asyncio loop, and ``callLater`` queues a call on it.)"""
    reactor = sys.modules.get("twisted.internet.reactor")
    if type(reactor).__name__ == "AsyncioSelectorReactor":
        reactor.callLater(0, ensure_started)


class StartTimekeeper:
    """ASGI wrapper: the first request or socket a process serves starts its timekeeper
    (if ``start_with_daphne`` has not already: other servers, tests' communicators)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            ensure_started()
        return await self.app(scope, receive, send)
