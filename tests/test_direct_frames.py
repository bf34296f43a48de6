"""A consumer's text frame written straight to daphne's connection (play/direct_frames.py)
is byte for byte what autobahn's own ``sendMessage`` writes, and the direct way declines
wherever the usual way would do something else (a closing or closed connection,
compression, a queue, frame logging, a message over daphne's bound, another server)."""

from __future__ import annotations

from collections import deque
from functools import partial

import pytest
from autobahn.websocket.protocol import TrafficStats
from daphne.server import Server
from daphne.ws_protocol import WebSocketFactory, WebSocketProtocol
from websockets.frames import Frame, Opcode

from play import direct_frames
from tests.frame_helpers import read_frame

BOUND = 1024 * 1024  # daphne's default websocket_max_message_size


class Transport:
    def __init__(self) -> None:
        self.written: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.written.append(data)


def open_protocol() -> WebSocketProtocol:
    """daphne's protocol as it stands once a socket is accepted (the options copied from
    its factory as autobahn's ``_connectionMade`` copies them)."""
    factory = WebSocketFactory(None)
    factory.setProtocolOptions(maxMessagePayloadSize=BOUND)
    protocol = WebSocketProtocol()
    protocol.factory = factory
    for name in protocol.CONFIG_ATTRS:
        if not hasattr(protocol, name):
            setattr(protocol, name, getattr(factory, name))
    protocol.state = protocol.STATE_OPEN
    protocol.trafficStats = TrafficStats()
    protocol.send_queue = deque()
    protocol._perMessageCompress = None
    protocol.trackedTimings = None
    protocol.transport = Transport()
    return protocol


def daphne_send(protocol):
    return partial(Server.__new__(Server).handle_reply, protocol)


def parsed(data: bytes) -> Frame:
    return read_frame(data, mask=False)


@pytest.mark.parametrize("size", [0, 1, 125, 126, 65535, 65536, 200_000])
def test_the_frame_is_autobahns_own(size):
    text = ("é" * size)[: max(size - size // 3, 0)] + "x" * (size // 3)  # multi-byte too
    direct, usual = open_protocol(), open_protocol()
    assert direct_frames.writer(daphne_send(direct))(text) is True
    usual.sendMessage(text.encode(), isBinary=False)  # daphne's serverSend, in the end
    assert b"".join(direct.transport.written) == b"".join(usual.transport.written)
    frame = parsed(b"".join(direct.transport.written))
    assert frame.opcode == Opcode.TEXT and frame.fin and frame.data.decode() == text


@pytest.mark.parametrize(
    "change",
    [
        lambda p: setattr(p, "state", p.STATE_CLOSING),
        lambda p: setattr(p, "state", p.STATE_CLOSED),
        lambda p: setattr(p, "state", p.STATE_CONNECTING),
        lambda p: setattr(p, "_perMessageCompress", object()),
        lambda p: p.send_queue.append((b"earlier", False)),
        lambda p: setattr(p, "logFrames", True),
        lambda p: setattr(p, "maskServerFrames", True),
    ],
    ids=["closing", "closed", "connecting", "compressed", "queued", "logged", "masked"],
)
def test_it_declines_where_the_usual_way_differs(change):
    protocol = open_protocol()
    change(protocol)
    assert direct_frames.writer(daphne_send(protocol))("hello") is False
    assert protocol.transport.written == []


def test_a_message_over_the_bound_goes_the_usual_way():
    protocol = open_protocol()
    write = direct_frames.writer(daphne_send(protocol))
    assert write("x" * BOUND) is True  # at the bound: sent
    assert write("x" * (BOUND + 1)) is False  # past it: autobahn's error, not a frame
    assert len(protocol.transport.written) == 1


def test_only_daphnes_send_is_written_to():
    protocol = open_protocol()

    async def send(message):
        pass

    other = partial(lambda protocol, message: None, protocol)
    for not_daphne in (send, other, partial(Server.__new__(Server).handle_reply), None):
        assert direct_frames.writer(not_daphne) is None


@pytest.mark.asyncio
async def test_the_middleware_puts_the_writer_in_a_websocket_scope():
    seen = {}

    async def app(scope, receive, send):
        seen[scope["type"]] = scope.get(direct_frames.SCOPE_KEY, "absent")

    protocol = open_protocol()
    middleware = direct_frames.FrameWriters(app)
    await middleware({"type": "websocket"}, None, daphne_send(protocol))
    await middleware({"type": "http"}, None, daphne_send(protocol))
    assert seen["http"] == "absent"
    assert seen["websocket"]("hi") is True
    assert parsed(protocol.transport.written[0]).data == b"hi"
