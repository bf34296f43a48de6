"""A consumer's text frame written straight to daphne's websocket connection.

A consumer's ``send`` passes through Channels' session wrapper, daphne's reply handler
and autobahn's ``sendMessage`` (type asserts, traffic counters, the frame assembled with
``struct`` and joins, a debug line) before the TCP transport: ~35 us of Python a frame
on the 2-core machine, as much as the system call that sends it. A move watched by 500
spectators is 500 frames (issue 36). Here the frame autobahn would write for an
uncompressed, unmasked, unfragmented text message is made in one expression and written
to the same transport, so it goes out in the same order with everything else the
connection sends. It is used only where that is exactly what the usual way would do:
daphne's own ``send`` (not another server's, nor a test's communicator), the connection
open, no compression negotiated, nothing waiting in autobahn's queue, no frame logging,
the message within daphne's size bound; otherwise ``write`` says no and the caller goes
the usual way (which also raises what it raises: a closed connection, too large).
"""

from __future__ import annotations

from functools import partial

SCOPE_KEY = "foundry.write_text"  # in a websocket scope: ``writer``'s function, or None


def frame(payload: bytes) -> bytes:
    """A final text frame (RFC 6455 5.2) of ``payload``, as a server sends it: unmasked."""
    size = len(payload)
    if size <= 125:
        return bytes((0x81, size)) + payload
    if size <= 0xFFFF:
        return bytes((0x81, 126)) + size.to_bytes(2, "big") + payload
    return bytes((0x81, 127)) + size.to_bytes(8, "big") + payload


def _daphne_protocol(send):
    """The websocket protocol behind daphne's ``send`` (a partial of its server's
    ``handle_reply`` with the protocol), or None for any other ``send``."""
    try:
        from daphne.server import Server
        from daphne.ws_protocol import WebSocketProtocol
    except ImportError:  # (daphne is a requirement; a server without it goes the usual way)
        return None
    if not isinstance(send, partial) or send.keywords or len(send.args) != 1:
        return None
    if getattr(send.func, "__func__", None) is not Server.handle_reply:
        return None
    protocol = send.args[0]
    return protocol if isinstance(protocol, WebSocketProtocol) else None


def writer(send):
    """A function that writes text messages, a frame each, on ``send``'s connection in
    one write and returns True, or returns False (having written none of them) where the
    usual way must send them; None if ``send`` is not daphne's. One write, not one a
    message: each is a system call, and daphne's event loop gives up the interpreter
    lock for each and waits to get it back from the threads running moves (a move in a
    timed game is its state and an event)."""
    protocol = _daphne_protocol(send)
    if protocol is None:
        return None
    open_state = protocol.STATE_OPEN

    def write(*texts: str) -> bool:
        bound = protocol.maxMessagePayloadSize
        if (
            protocol.state != open_state
            or protocol._perMessageCompress is not None
            or protocol.send_queue
            or protocol.logFrames
            or protocol.maskServerFrames
        ):
            return False
        if len(texts) == 1:  # most sends: kept as cheap as a frame can be
            payload = texts[0].encode()
            if bound and len(payload) > bound:
                return False
            protocol.transport.write(frame(payload))
            return True
        payloads = [text.encode() for text in texts]
        if bound and max(map(len, payloads), default=0) > bound:
            return False
        protocol.transport.write(b"".join(map(frame, payloads)))
        return True

    return write


class FrameWriters:
    """ASGI middleware: a websocket scope carries ``writer(send)`` under ``SCOPE_KEY``
    (Channels' middlewares copy the scope inward, so the consumer finds it)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":
            scope = {**scope, SCOPE_KEY: writer(send)}
        return await self.app(scope, receive, send)
