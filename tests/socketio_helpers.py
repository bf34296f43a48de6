"""Socket.IO by hand, in process: engine.io over an ASGI websocket, frames written by the
test (so that junk can be sent), through the same ASGI app daphne serves."""

from __future__ import annotations

import json

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings

from play.socketio_server import asgi_app
from tests.conftest import session_cookie

PATH = "/socket.io/?EIO=4&transport=websocket"


async def frame(comm: WebsocketCommunicator) -> str:
    """The next frame sent (engine.io's ASGI driver sets both ``text`` and ``bytes``)."""
    out = await comm.receive_output(timeout=5)
    assert out["type"] == "websocket.send", out
    return out.get("text") if out.get("text") is not None else out["bytes"]


async def engine(user=None) -> WebsocketCommunicator:
    """An engine.io websocket, opened (its ``0{...}`` read); logged in when ``user``."""
    headers = [(b"upgrade", b"websocket"), (b"connection", b"Upgrade")]
    if user is not None:
        cookie = await sync_to_async(session_cookie)(user)
        headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()))
    comm = WebsocketCommunicator(asgi_app(), PATH, headers=headers)
    connected, _ = await comm.connect(timeout=5)
    assert connected
    opened = await frame(comm)
    assert opened.startswith("0{"), opened
    return comm


async def joined(user) -> tuple[WebsocketCommunicator, str]:
    comm = await engine(user)
    await comm.send_to(text_data="40")
    reply = await frame(comm)
    assert reply.startswith("40{"), reply
    return comm, json.loads(reply[2:])["sid"]


async def next_event(comm: WebsocketCommunicator) -> tuple[str, object]:
    """The next Socket.IO event (engine.io pings answered on the way)."""
    while True:
        text = await frame(comm)
        if text == "2":  # the server's ping
            await comm.send_to(text_data="3")
            continue
        if text == "6":  # a noop (the answer to an upgrade packet)
            continue
        assert text.startswith("42"), text
        name, *data = json.loads(text[2:])
        return name, data[0] if data else None
