"""The live-play benchmark's light spectator client (benchmarks/light_socket.py) reads what
a real websocket client reads: frames of every length form, fragments, a ping answered
with a masked pong, a close answered; and against a real daphne the same first state as
the ``websockets`` library, then a clean close."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.frames import Frame, Opcode

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import light_socket  # noqa: E402

from tests.frame_helpers import read_frame  # noqa: E402
from tests.play_helpers import rule_set, start  # noqa: E402


class Transport:
    def __init__(self) -> None:
        self.written: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True


def server_frame(opcode: int, data: bytes, fin: bool = True) -> bytes:
    return Frame(Opcode(opcode), data, fin=fin).serialize(mask=False)


def client_frame(data: bytes) -> Frame:
    return read_frame(data, mask=True)


@pytest.mark.asyncio
async def test_frames_of_every_length_fragments_ping_and_close():
    socket = light_socket.LightSocket(b"key")
    socket.connection_made(Transport())
    socket.opened.set_result(None)  # (the handshake is the real daphne test's)
    texts = [b"x" * 5, b"y" * 300, b"z" * 70_000]
    stream = b"".join(server_frame(1, t) for t in texts)
    stream += server_frame(1, b"frag", fin=False) + server_frame(0, b"ments")
    stream += server_frame(9, b"are you there")
    stream += server_frame(8, (1000).to_bytes(2, "big"))
    for i in range(0, len(stream), 777):  # in pieces that cut frames anywhere
        socket.data_received(stream[i : i + 777])
    socket.connection_lost(None)
    got = [data async for _received, data in socket]
    assert got == [*texts, b"fragments"]
    pong, close = (client_frame(w) for w in socket.transport.written)
    assert pong.opcode == Opcode.PONG and pong.data == b"are you there"
    assert close.opcode == Opcode.CLOSE and close.data == (1000).to_bytes(2, "big")


@pytest.mark.asyncio
async def test_a_masked_server_frame_closes_the_connection():
    socket = light_socket.LightSocket(b"key")
    socket.connection_made(Transport())
    socket.opened.set_result(None)
    socket.data_received(Frame(Opcode.TEXT, b"masked").serialize(mask=True))
    assert socket.transport.closed and not socket.messages


@pytest.mark.django_db(transaction=True)
def test_a_spectator_reads_what_the_websockets_client_reads(servers, creator, other_creator):
    match = start(rule_set("Connect4"), creator, creator, other_creator)
    server = servers().wait()
    path, origin = f"/ws/match/{match.pk}/", f"http://127.0.0.1:{server.port}"

    async def both():
        light = await light_socket.open_socket(server.port, path, origin, timeout=15)
        async with connect(f"ws://127.0.0.1:{server.port}{path}", origin=origin) as usual:
            expected = await asyncio.wait_for(usual.recv(), 15)
        _received, first = await asyncio.wait_for(anext(light), 15)
        await light.close()
        return expected, first, light.closed

    expected, first, closed = asyncio.run(both())
    assert len(first) > 125  # (the two-byte length form, at least)
    ours, theirs = json.loads(first), json.loads(expected)
    assert ours["type"] == "state" and closed
    ours.pop("serverTime"), theirs.pop("serverTime")  # (each read's own clock)
    assert ours == theirs
