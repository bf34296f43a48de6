"""Own bots for tests: a registered bot and its token, and its socket in-process."""

from __future__ import annotations

from collections import deque

from channels.testing import WebsocketCommunicator


def own_bot(owner, name: str = "Mine"):
    from ownbots.keys import register

    return register(owner, name)  # (player, token)


async def bot_socket(token: str | None, version: str = "v1", *, header: bool = False):
    """A connected ``/ws/bot/`` communicator; with a token, hello is sent and the
    welcome read (header=True: the token goes as ``Authorization: Bearer``)."""
    from ownbots.consumers import BotConsumer

    headers = [(b"authorization", f"Bearer {token}".encode())] if header and token else []
    comm = WebsocketCommunicator(BotConsumer.as_asgi(), "/ws/bot/", headers=headers)
    connected, _ = await comm.connect(timeout=5)
    assert connected
    if token is not None:
        hello = {"type": "hello", "version": version}
        if not header:
            hello["token"] = token
        await comm.send_json_to(hello)
    return comm


async def until(comm, kind: str, timeout: float = 5) -> dict:
    while True:
        event = await comm.receive_json_from(timeout=timeout)
        if event["type"] == kind:
            return event


class Inbox:
    """A bot socket's messages in the order they came, where waiting for one kind keeps
    the others for later instead of dropping them (``until`` drops them). The consumer
    sends from two tasks, its reply to a move and its watch loop, so a "game:over" or
    the next "your-move" can come before the "moved" that answers the move."""

    def __init__(self, comm):
        self.comm = comm
        self.kept: deque = deque()

    async def next(self, timeout: float = 15) -> dict:
        if self.kept:
            return self.kept.popleft()
        return await self.comm.receive_json_from(timeout=timeout)

    async def until(self, kind: str, timeout: float = 5) -> dict:
        for event in self.kept:
            if event["type"] == kind:
                self.kept.remove(event)
                return event
        while True:
            event = await self.comm.receive_json_from(timeout=timeout)
            if event["type"] == kind:
                return event
            self.kept.append(event)
