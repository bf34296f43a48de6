"""A websocket client that only watches: the load generator's spectators (issue 36).

The benchmarks' spectators stand for browsers on other machines, but here they share the
web processes' two cores. Through the ``websockets`` library a spectator's frame cost the
generator ~110 us of Python (its frame parser, message assembler and queue), as much CPU
as daphne spent sending it: with 500 spectators the generator, not the site, was the
largest user of the machine on every move. This client reads server frames (unmasked, as
RFC 6455 has them) straight off an ``asyncio.Protocol`` and stamps each message's receipt
in the ``data_received`` call that completed it. It sends only what the protocol asks of a
client: the handshake, pongs and a closing frame (masked). Players, who send moves, still
use ``websockets``.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
import time
from collections import deque

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
MAX_HEAD = 16_384  # an HTTP response head longer than this is not a handshake's
MAX_MESSAGE = 2**22


class HandshakeError(Exception):
    pass


def _masked(opcode: int, payload: bytes) -> bytes:
    """A client's frame (RFC 6455 5.3: a client masks what it sends), payload < 126 bytes."""
    mask = os.urandom(4)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + body


class LightSocket(asyncio.Protocol):
    """One spectator's socket: ``async for received, data in socket`` gives each text
    message's bytes and the ``perf_counter`` time the last of it arrived."""

    def __init__(self, key: bytes) -> None:
        loop = asyncio.get_running_loop()
        self.accept = base64.b64encode(hashlib.sha1(key + GUID).digest())
        self.opened = loop.create_future()
        self.head = bytearray()
        self.buffer = bytearray()
        self.parts: list[bytes] = []  # a fragmented message's pieces so far
        self.messages: deque = deque()
        self.waiter: asyncio.Future | None = None
        self.transport = None
        self.closed = False

    # -- asyncio.Protocol

    def connection_made(self, transport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        received = time.perf_counter()
        if not self.opened.done():
            data = self._handshake(data)
            if not data:
                return
        self.buffer += data
        self._frames(received)

    def connection_lost(self, exc) -> None:
        self.closed = True
        if not self.opened.done():
            self.opened.set_exception(exc or HandshakeError("closed during the handshake"))
        self._wake()

    # -- reading

    def _handshake(self, data: bytes) -> bytes:
        """The response head (101 and the right accept key); what follows it."""
        self.head += data
        end = self.head.find(b"\r\n\r\n")
        if end < 0:
            if len(self.head) > MAX_HEAD:
                self._fail("the handshake's response head is too long")
            return b""
        lines = bytes(self.head[:end]).split(b"\r\n")
        rest = bytes(self.head[end + 4 :])
        fields = dict(line.split(b":", 1) for line in lines[1:] if b":" in line)
        fields = {k.strip().lower(): v.strip() for k, v in fields.items()}
        if lines[0].split(b" ")[1:2] != [b"101"]:
            self._fail(f"handshake refused: {lines[0][:80]!r}")
        elif fields.get(b"sec-websocket-accept") != self.accept:
            self._fail("handshake: wrong Sec-WebSocket-Accept")
        else:
            self.opened.set_result(None)
            return rest
        return b""

    def _fail(self, why: str) -> None:
        if not self.opened.done():
            self.opened.set_exception(HandshakeError(why))
        self.transport.close()

    def _frames(self, received: float) -> None:
        buf, pos, size = self.buffer, 0, len(self.buffer)
        while size - pos >= 2:
            first, second = buf[pos], buf[pos + 1]
            length, at = second & 0x7F, pos + 2
            if length == 126:
                if size - at < 2:
                    break
                length, at = int.from_bytes(buf[at : at + 2], "big"), at + 2
            elif length == 127:
                if size - at < 8:
                    break
                length, at = int.from_bytes(buf[at : at + 8], "big"), at + 8
            if second & 0x80 or length > MAX_MESSAGE:  # a server never masks
                self.transport.close()
                return
            if size - at < length:
                break
            payload, pos = bytes(buf[at : at + length]), at + length
            self._frame(first, payload, received)
        del buf[:pos]
        self._wake()

    def _frame(self, first: int, payload: bytes, received: float) -> None:
        opcode = first & 0x0F
        if opcode in (0, 1, 2):  # continuation, text, binary
            self.parts.append(payload)
            if first & 0x80:  # FIN: the message is whole
                self.messages.append((received, b"".join(self.parts)))
                self.parts = []
        elif opcode == 9:  # ping
            self.transport.write(_masked(0xA, payload[:125]))
        elif opcode == 8:  # close: answer it, the server closes the connection
            if not self.transport.is_closing():
                self.transport.write(_masked(0x8, payload[:2]))

    def _wake(self) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    # -- the watcher's side

    def __aiter__(self):
        return self

    async def __anext__(self) -> tuple[float, bytes]:
        while not self.messages:
            if self.closed:
                raise StopAsyncIteration
            self.waiter = asyncio.get_running_loop().create_future()
            await self.waiter
        return self.messages.popleft()

    async def close(self, timeout: float = 5.0) -> None:
        """A closing frame (1000, normal), then the server's close; the connection goes
        either way."""
        if not self.closed and not self.transport.is_closing():
            self.transport.write(_masked(0x8, (1000).to_bytes(2, "big")))
            try:
                async with asyncio.timeout(timeout):
                    while not self.closed:
                        self.waiter = asyncio.get_running_loop().create_future()
                        await self.waiter
            except TimeoutError:
                pass
        self.transport.close()


async def open_socket(port: int, path: str, origin: str, timeout: float = 60.0) -> LightSocket:
    """A spectator's socket on 127.0.0.1:``port``, handshake done."""
    key = base64.b64encode(os.urandom(16))
    loop = asyncio.get_running_loop()
    transport, socket = await loop.create_connection(lambda: LightSocket(key), "127.0.0.1", port)
    transport.write(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key.decode()}\r\n"
        f"Sec-WebSocket-Version: 13\r\nOrigin: {origin}\r\n\r\n".encode()
    )
    try:
        async with asyncio.timeout(timeout):
            await socket.opened
    except BaseException:
        transport.close()
        raise
    return socket
