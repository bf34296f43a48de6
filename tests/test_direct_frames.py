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


def test_several_messages_go_in_one_write_of_autobahns_frames():
    texts = ["a", "é" * 200, "x" * 70_000]
    direct, usual = open_protocol(), open_protocol()
    assert direct_frames.writer(daphne_send(direct))(*texts) is True
    for text in texts:
        usual.sendMessage(text.encode(), isBinary=False)
    assert len(direct.transport.written) == 1  # one system call for the three
    assert direct.transport.written[0] == b"".join(usual.transport.written)


def test_several_messages_are_declined_together():
    protocol = open_protocol()
    write = direct_frames.writer(daphne_send(protocol))
    assert write("fits", "x" * (BOUND + 1)) is False  # none written: the usual way sends all
    assert protocol.transport.written == []


class Writer:
    def __init__(self, answer: bool) -> None:
        self.answer, self.calls = answer, []

    def __call__(self, *texts: str) -> bool:
        self.calls.append(texts)
        return self.answer


def a_watching_consumer(writer):
    import asyncio

    from play.consumers import MatchConsumer

    consumer = MatchConsumer()
    consumer._write_text = writer
    consumer.you, consumer.sent_ply, consumer.closed = [0], 3, False
    consumer.order = asyncio.Lock()
    consumer.sent = []

    async def send(text_data=None, **kwargs):
        consumer.sent.append(text_data)

    consumer.send = send
    return consumer


MOVE = {"views": {"ply": 4, "seats": ['{"type": "state", "ply": 4}'], "spectators": "{}"}}


@pytest.mark.asyncio
async def test_a_move_reaches_a_socket_in_one_write_with_its_events():
    writer = Writer(True)
    consumer = a_watching_consumer(writer)
    await consumer.relayed(MOVE, ['{"type": "tictactoe:afk_warning_cleared", "seat": 0}'])
    message = {**MOVE, "events": [{"type": "draw:offer", "seat": 1}]}
    consumer.sent_ply = 3
    await consumer.match_changed(message)
    state = MOVE["views"]["seats"][0]
    assert writer.calls == [
        (state, '{"type": "tictactoe:afk_warning_cleared", "seat": 0}'),
        (state, '{"type": "draw:offer", "seat": 1}'),
    ]
    assert consumer.sent == [] and consumer.sent_ply == 4


@pytest.mark.asyncio
async def test_where_the_writer_declines_each_message_goes_the_usual_way_in_order():
    consumer = a_watching_consumer(Writer(False))
    await consumer.relayed(MOVE, ['{"type": "a"}', '{"type": "b"}'])
    assert consumer.sent == [MOVE["views"]["seats"][0], '{"type": "a"}', '{"type": "b"}']


def test_no_message_writes_nothing_and_raises_nothing():
    protocol = open_protocol()
    assert direct_frames.writer(daphne_send(protocol))() is True
    assert b"".join(protocol.transport.written) == b""
