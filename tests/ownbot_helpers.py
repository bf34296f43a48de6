"""Own bots for tests: a registered bot and its token, and its socket in-process."""

from __future__ import annotations

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
