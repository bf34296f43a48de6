"""The websocket consumers: parse and check a message, call a service, send per seat.

No rule lives here. A group message says "match N changed" (with public events and, after
a move, every seat's view made by the process that played it); each connection sends only
its own seat's view, so hidden pieces never reach a seat that may not see them. A match's
messages reach its sockets through the process's relay (``relay.py``: one group member
per process and match), which hands each socket the view made for it.
"""

from __future__ import annotations

import asyncio
import json
import logging
from concurrent.futures import ThreadPoolExecutor

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from variants import json_input
from variants.ids import parse_id

from . import (
    create,
    direct_frames,
    moves,
    notify,
    presence,
    reads,
    relay,
    series,
    timekeeper,
    timers,
    withdrawn,
)
from .errors import MatchError
from .messages import parse_lobby_message, parse_match_message

logger = logging.getLogger(__name__)

MAX_MESSAGE = 4096
MAX_DEPTH = 8  # no message of the protocol nests deeper than 2
NOT_FOUND = 4404


class JsonConsumer(AsyncWebsocketConsumer):
    """Size and JSON checks shared by both sockets: a bad message gets an ``error``."""

    parse = None  # (dict) -> (handler name, arguments); raises MatchError
    max_message = MAX_MESSAGE  # bytes
    _write_text = None  # a text frame straight to the connection (play/direct_frames.py)

    async def dispatch(self, message):
        # Channels hops to the process's one database thread before *every* message (a
        # frame, a group message) to close stale connections. These consumers reach the
        # database only through database_sync_to_async, which does that on the thread it
        # runs on, so the hop is skipped: a move's frames and the group messages that
        # carry it then never queue behind other sockets' database work.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def receive(self, text_data=None, bytes_data=None):
        raw = text_data if text_data is not None else bytes_data or b""
        if len(raw) > self.max_message:
            return await self.send_json(MatchError("too-large", "Message too large.").event())
        try:
            message = json_input.loads(raw, max_bytes=self.max_message, max_depth=MAX_DEPTH)
        except json_input.InvalidJson as exc:
            reason = f"Messages are JSON objects; this one is {exc}."
            return await self.send_json(MatchError("malformed", reason).event())
        try:
            name, args = type(self).parse(message)
            await getattr(self, "on_" + name)(**args)
        except (ValueError, UnicodeDecodeError):
            await self.send_json(MatchError("malformed", "Messages are JSON objects.").event())
        except MatchError as exc:
            await self.send_json(exc.event())

    async def send_json(self, data: dict) -> None:
        await self.send_text(json.dumps(data))

    async def __call__(self, scope, receive, send):
        self._write_text = scope.get(direct_frames.SCOPE_KEY)  # daphne's connection, straight
        return await super().__call__(scope, receive, send)

    async def send_text(self, text: str) -> None:
        write = self._write_text
        if write is None or not write(text):
            await self._send_usual(text)

    async def send_texts(self, texts) -> None:
        """Text messages, in order: straight to daphne's connection in one write where
        that is what the usual way would send (``direct_frames``), else one by one."""
        write = self._write_text
        if write is None or not write(*texts):
            for text in texts:
                await self._send_usual(text)

    async def _send_usual(self, text: str) -> None:
        try:
            await self.send(text_data=text)
        except Disconnected:  # the client closed while this was on its way: no one to tell
            pass


# A socket's opening (the match's existence, its presence, its first state: one trip) runs
# on threads of its own: a burst of arrivals neither queues on the process's one database
# thread (sessions, snapshots) nor delays the moves on the shared worker threads.
_OPENING = ThreadPoolExecutor(max_workers=2, thread_name_prefix="socket-open")


def _attach(match_id: int, user, channel_name: str):
    return database_sync_to_async(presence.attach, thread_sensitive=False, executor=_OPENING)(
        match_id, user, channel_name, timekeeper.PROCESS
    )


class MatchConsumer(JsonConsumer):
    """``/ws/match/<id>/``: players and spectators of one match."""

    parse = staticmethod(parse_match_message)

    async def connect(self):
        match_id = parse_id(self.scope["url_route"]["kwargs"]["pk"])
        self.user = self.scope.get("user")
        self.you: list[int] = []
        self.sent_ply = -1  # the ply of the last state sent
        self.order = asyncio.Lock()  # held by whatever sends a state (see relay.py)
        self.closed = False
        self.later: set[asyncio.Task] = set()  # relayed messages waiting for ``order``
        if match_id is None:
            return await self.close(code=NOT_FOUND)
        self.match_id = match_id
        async with self.order:  # the match's messages meanwhile wait for the first state
            self.relay = relay.relay_for(self.channel_layer)
            await self.relay.watch(self.match_id, self)  # before the state is read
            attached = await _attach(self.match_id, self.user, self.channel_name)
            if attached is None:
                self.closed = True
                await self.relay.unwatch(self.match_id, self)
                return await self.close(code=NOT_FOUND)
            await self.accept()
            await self._sent(*attached)

    async def _attach(self):
        attached = await _attach(self.match_id, self.user, self.channel_name)
        if attached is not None:  # else withdrawn meanwhile: match_withdrawn closes it
            await self._sent(*attached)

    async def _sent(self, you: list[int], state: dict, ply: int) -> None:
        self.you = you
        await self.send_json(state)
        self.sent_ply = ply

    async def disconnect(self, code):
        if not hasattr(self, "match_id"):
            return
        self.closed = True
        await self.relay.unwatch(self.match_id, self)
        if self.you:
            await database_sync_to_async(presence.disconnect)(self.channel_name)

    # -- the match's messages, handed over by the relay ---------------------------------

    async def relayed(self, message: dict, events: list[str]) -> None:
        """A ``match.changed`` message (``events``: its events, already JSON). The view
        made for this socket is sent at once; anything needing the database (or waiting
        behind a state being sent) goes on a task of its own, in order."""
        views = message.get("views")
        made = None if self.order.locked() else moves.made_state(views, self.you, self.sent_ply)
        if made is None:
            return self.in_order(self.match_changed, message)
        async with self.order:  # free (checked above): taken without yielding
            self.sent_ply = views["ply"]
            if made == moves.SILENT:  # a move this connection may not know of: nothing
                return
            await self.send_texts([made, *events])

    def in_order(self, handler, message: dict) -> None:
        async def run():
            async with self.order:
                if not self.closed:
                    await handler(message)

        task = asyncio.create_task(run())
        self.later.add(task)
        task.add_done_callback(self.later.discard)

    async def send_state(self):
        state, ply = await database_sync_to_async(reads.snapshot_and_ply)(
            self.match_id, self.user, self.you
        )
        await self.send_json(state)
        self.sent_ply = ply  # the log's (the event's ply counts what this seat observed)

    async def match_changed(self, message):
        views = message.get("views")
        made = moves.made_state(views, self.you, self.sent_ply)
        if made == moves.SILENT:  # a move this connection may not know of: nothing at all
            self.sent_ply = views["ply"]
            return
        if made is not None:  # a move: its maker made (and encoded) this socket's view
            await self.send_texts([made, *map(json.dumps, message["events"])])
            self.sent_ply = views["ply"]
            return
        if not self.you:  # a spectator may have become a player (an accepted invitation)
            self.you = await database_sync_to_async(presence.connect)(
                self.match_id, self.user, self.channel_name, timekeeper.PROCESS
            )
        await self.send_state()
        for event in message["events"]:
            await self.send_json(event)

    async def match_withdrawn(self, message):
        """Its game was hidden or removed: unless this user may still see it, say why,
        send nothing more and close (as for a match that does not exist)."""
        if await database_sync_to_async(reads.match_exists)(self.match_id, self.user):
            return
        self.closed = True
        await self.relay.unwatch(self.match_id, self)
        await self.send_json(withdrawn.error_event())
        await self.close(code=NOT_FOUND)

    # -- messages from the client (already checked by parse_match_message) ----------------

    # Moves run on a worker thread with a connection of its own, not on the process's
    # one database thread: a move then waits for its match's row lock at most, never
    # behind other sockets' connects, snapshots or moves.
    async def on_move(self, move: str, seat=None, ply=None):
        await database_sync_to_async(moves.play, thread_sensitive=False)(
            self.match_id, self.user, move, seat=seat, ply=ply
        )

    async def on_resign(self, seat=None):
        await database_sync_to_async(moves.resign, thread_sensitive=False)(
            self.match_id, self.user, seat=seat
        )

    async def on_draw_offer(self, seat=None):
        await self.on_move("draw", seat=seat)

    async def on_draw_answer(self, accept: bool, seat=None):
        await self.on_move("accept" if accept else "decline", seat=seat)

    async def on_reconnect(self):
        async with self.order:
            await self._attach()

    async def on_afk_ping(self):
        await database_sync_to_async(timers.afk_ping)(self.match_id, self.user)

    async def on_ready(self):
        """``series:ready``: ready for the series' next game (seed 001's intermission)."""
        await database_sync_to_async(series.series_ready, thread_sensitive=False)(
            self.match_id, self.user
        )


class NotFoundConsumer(AsyncWebsocketConsumer):
    """Any other websocket path: refused quietly (the handshake is turned down, as for a
    match that does not exist), logged as a warning rather than a server error."""

    async def connect(self):
        logger.warning("websocket: no such path %r", self.scope.get("path", "")[:200])
        await self.close(code=NOT_FOUND)


class LobbyConsumer(JsonConsumer):
    """``/ws/lobby/``: matchmaking, and invitations arriving for the signed-in user."""

    parse = staticmethod(parse_lobby_message)

    async def connect(self):
        self.user = self.scope.get("user")
        if not getattr(self.user, "is_authenticated", False):
            return await self.close(code=4401)
        await self.channel_layer.group_add(notify.user_group(self.user.pk), self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        if getattr(self.user, "is_authenticated", False):
            await self.channel_layer.group_discard(
                notify.user_group(self.user.pk), self.channel_name
            )

    async def user_event(self, message):
        for event in message["events"]:
            await self.send_json(event)

    async def on_join(self, rule_set: int, afk_timeout: int, afk_warning: int, afk):
        match = await database_sync_to_async(create.join_queue_by_id)(
            rule_set, self.user, afk=afk, afk_timeout=afk_timeout, afk_warning=afk_warning
        )
        await self.send_json(match)

    async def on_leave(self):
        await database_sync_to_async(create.leave_queue)(self.user)
