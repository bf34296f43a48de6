"""What a Socket.IO client may send, checked before python-socketio dispatches it.

python-socketio runs whatever handler an event names: a client sending the events
``connect`` or ``disconnect`` ran the server's own handlers (a channel and a reader task
per ``connect``: 50,000 of them held 379 MB; a ``disconnect`` released the seat's presence
while the socket stayed). And junk raised inside engine.io and socket.io: an empty frame
closed the socket with 1011, a deep one raised ``RecursionError``, others logged a
traceback at ERROR each. Here every frame is checked at both levels; junk gets the
protocol's ``error`` event (code ``malformed``, ``too-large`` or ``reserved-event``), is
logged at DEBUG (it is the client's fault, not the server's), and the socket stays open.
"""

from __future__ import annotations

import json
import logging

import engineio
import socketio
from socketio import packet as sio_packet

from variants import json_input

log = logging.getLogger(__name__)

MAX_FRAME = 4096  # engine.io's max_http_buffer_size here: no event of the seed is larger
MAX_DEPTH = 8  # the seed's payloads nest 2 deep
MAX_EVENT_NAME = 64
# The names Socket.IO gives its own events: never an event a client may send.
RESERVED = frozenset(
    {"connect", "connect_error", "disconnect", "disconnecting", "newListener", "removeListener"}
)
# Engine.IO packet types a client may send: close, ping, pong, message, upgrade, noop.
CLIENT_PACKET_TYPES = frozenset("123456")
NAMESPACE = "/"


class BoundedJson:
    """The ``json`` module socket.io and engine.io decode packets with, with a depth bound
    (engine.io treats a ``ValueError`` as "not JSON"; socket.io's is caught below)."""

    dumps = staticmethod(json.dumps)

    @staticmethod
    def loads(text, **_ignored):
        return json_input.loads(text, max_bytes=1 << 20, max_depth=MAX_DEPTH)


def error_frame(code: str, reason: str) -> str:
    """An ``error`` event as one engine.io message frame (``4`` + socket.io ``2[...]``)."""
    return "42" + json.dumps(["error", {"code": code, "reason": reason}], separators=(",", ":"))


def engine_junk(frame) -> tuple[str, str] | None:
    """(code, reason) when a frame is no engine.io packet this server reads, else None."""
    if isinstance(frame, (bytes, bytearray)):
        return "malformed", "Binary frames are not part of this protocol: send text."
    if len(frame) > MAX_FRAME:
        return "too-large", f"Frames are at most {MAX_FRAME} bytes."
    if not frame or frame[0] not in CLIENT_PACKET_TYPES:
        return "malformed", "That frame is no Engine.IO packet (a digit 1 to 6, then data)."
    return None


def event_junk(pkt) -> tuple[str, str] | None:
    """(code, reason) when a decoded socket.io packet may not be dispatched, else None."""
    if pkt.namespace not in (None, NAMESPACE):
        return "malformed", "This server has one namespace, '/'."
    if pkt.packet_type not in (sio_packet.CONNECT, sio_packet.DISCONNECT, sio_packet.EVENT):
        return "malformed", "Send events (Socket.IO packet type 2) only: no binary, no acks."
    if pkt.packet_type != sio_packet.EVENT:
        return None
    data = pkt.data
    if not isinstance(data, list) or not data or not isinstance(data[0], str):
        return "malformed", "An event is a JSON array: its name (a string), then its data."
    name = data[0]
    if name in RESERVED:
        return (
            "reserved-event",
            f"{name!r} is a name Socket.IO keeps for itself: no client sends it.",
        )
    if not 1 <= len(name) <= MAX_EVENT_NAME:
        return "malformed", f"An event name is 1 to {MAX_EVENT_NAME} characters."
    return None


class QuietEngine(engineio.AsyncServer):
    """Engine.IO's errors that only a client causes (a wrong session id or transport, an
    invalid upgrade) are logged at INFO, not ERROR."""

    def _log_error_once(self, message, message_key):
        self.logger.info(message)


class GuardedServer(socketio.AsyncServer):
    """A Socket.IO server that checks each packet before dispatching it."""

    def __init__(self, **kwargs):
        super().__init__(json=BoundedJson, **kwargs)

    def _engineio_server_class(self):
        return QuietEngine

    async def refuse(self, eio_sid, code: str, reason: str) -> None:
        log.debug("socket.io: refused a frame from %s: %s", eio_sid, reason)
        data = ["error", {"code": code, "reason": reason}]
        await self._send_packet(
            eio_sid, self.packet_class(sio_packet.EVENT, data=data, namespace=NAMESPACE)
        )

    async def _handle_eio_message(self, eio_sid, data):
        if isinstance(data, (bytes, bytearray)):  # no attachments: no binary packets
            return await self.refuse(eio_sid, *engine_junk(data))
        try:
            pkt = self.packet_class(encoded_packet=data)
        except (ValueError, TypeError, IndexError) as exc:  # not JSON, too deep, no type
            return await self.refuse(eio_sid, "malformed", f"Not a Socket.IO packet ({exc}).")
        problem = event_junk(pkt)
        if problem:
            return await self.refuse(eio_sid, *problem)
        if pkt.packet_type == sio_packet.CONNECT:
            await self._handle_connect(eio_sid, pkt.namespace, pkt.data)
        elif pkt.packet_type == sio_packet.DISCONNECT:
            await self._handle_disconnect(eio_sid, pkt.namespace, self.reason.CLIENT_DISCONNECT)
        else:
            await self._handle_event(eio_sid, pkt.namespace, pkt.id, pkt.data)


class FrameFilter:
    """ASGI middleware in front of engine.io: a websocket frame or a polling body that is
    no engine.io packet (empty, binary, too large, no packet type) never reaches it (it
    closed the socket with 1011); the client gets an ``error`` event instead."""

    def __init__(self, app, path: str = "/socket.io/"):
        self.app, self.path = app, path

    async def __call__(self, scope, receive, send):
        if not scope.get("path", "").startswith(self.path):
            return await self.app(scope, receive, send)
        if scope["type"] == "websocket":
            return await self.app(scope, self._websocket_receive(receive, send), send)
        if scope["type"] == "http" and scope.get("method") == "POST":
            return await self._polling_post(scope, receive, send)
        return await self.app(scope, receive, send)

    @staticmethod
    def _websocket_receive(receive, send):
        async def checked():
            while True:
                message = await receive()
                if message["type"] != "websocket.receive":
                    return message
                text = message.get("text")
                frame = text if text is not None else message.get("bytes") or b""
                problem = engine_junk(frame)
                if problem is None:
                    return message
                log.debug("socket.io: refused a frame: %s", problem[1])
                await send({"type": "websocket.send", "text": error_frame(*problem)})

        return checked

    async def _polling_post(self, scope, receive, send):
        body, more = b"", True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return
            body += message.get("body", b"")
            more = message.get("more_body", False) and len(body) <= MAX_FRAME
        try:
            frames = body.decode("utf-8").split("\x1e")
        except UnicodeDecodeError:
            frames = [b""]
        problem = next(filter(None, map(engine_junk, frames)), None)
        if len(body) > MAX_FRAME:
            problem = ("too-large", f"Bodies are at most {MAX_FRAME} bytes.")
        if problem is not None:
            log.debug("socket.io: refused a polling body: %s", problem[1])
            headers = [(b"content-type", b"text/plain; charset=utf-8")]
            await send({"type": "http.response.start", "status": 400, "headers": headers})
            return await send({"type": "http.response.body", "body": problem[1].encode()})
        sent = False

        async def replay():
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)
