"""One channel-layer membership per process and match, shared by the match's sockets.

Without it every socket of a match joins the match's group: a move then reaches each
socket through the layer (a queue, a task wake-up, the whole message decoded again with
every seat's view) before the socket forwards its own view. With 500 spectators of one
match that per-socket work was most of a move's cost on the process (issue 36). Here the
process's relay is the only member: it decodes a message once, encodes its events once,
and hands each socket the text made for it (``moves.made_state``): the players' sockets
first, then the spectators'. What a socket is sent is unchanged: its own seat's view,
or, when that needs the database (no views, an older message, a crew), the socket's own
``match_changed`` on a task of its own. A socket's sends keep their order: everything
that sends a ``state`` holds the socket's ``order`` lock.
"""

from __future__ import annotations

import asyncio
import json
import logging
import weakref

from . import notify

log = logging.getLogger(__name__)


class Relay:
    """The relay of one event loop and channel layer."""

    def __init__(self, layer) -> None:
        self.layer = layer
        self.channel: str | None = None
        self.task: asyncio.Task | None = None
        self.members: dict[int, dict] = {}  # match id -> its sockets here (an ordered set)
        self.membership = asyncio.Lock()  # group_add/discard in the order asked

    async def watch(self, match_id: int, consumer) -> None:
        """From now on, ``consumer`` is handed the match's messages."""
        async with self.membership:
            if self.channel is None:
                self.channel = await self.layer.new_channel()
                self.task = asyncio.create_task(self._run(), name="play-relay")
            sockets = self.members.get(match_id)
            if sockets is None:
                await self.layer.group_add(notify.match_group(match_id), self.channel)
                sockets = self.members[match_id] = {}
            sockets[consumer] = None

    async def unwatch(self, match_id: int, consumer) -> None:
        async with self.membership:
            sockets = self.members.get(match_id)
            if sockets is None or consumer not in sockets:
                return
            del sockets[consumer]
            if not sockets:
                del self.members[match_id]
                await self.layer.group_discard(notify.match_group(match_id), self.channel)

    def alive(self) -> bool:
        return self.task is None or not self.task.done()

    async def _run(self) -> None:
        while True:
            message = await self.layer.receive(self.channel)
            try:
                await self.deliver(message)
            except Exception:  # one bad message must not stop the match's sockets
                log.exception("relay: could not deliver %s", message.get("type"))

    async def deliver(self, message: dict) -> None:
        sockets = list(self.members.get(message.get("match"), ()))
        if message["type"] == "match.changed":
            sockets.sort(key=lambda c: not c.you)  # the players first: they wait to move
            events = [json.dumps(event) for event in message["events"]]  # once, not per socket
            for consumer in sockets:
                await consumer.relayed(message, events)
        elif message["type"] == "match.withdrawn":
            for consumer in sockets:
                consumer.in_order(consumer.match_withdrawn, message)


_relays: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # event loop -> Relay


def relay_for(layer) -> Relay:
    """This loop's relay for ``layer`` (a new one when the layer changed, as tests do)."""
    loop = asyncio.get_running_loop()
    relay = _relays.get(loop)
    if relay is None or relay.layer is not layer or not relay.alive():
        relay = _relays[loop] = Relay(layer)
    return relay
