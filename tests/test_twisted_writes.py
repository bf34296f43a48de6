"""daphne's TCP writes go out at once (config/twisted_writes.py): a frame written to a
connection with nothing waiting is sent in the write; what the socket does not take, and
anything written after it, goes Twisted's buffered way, in order."""

import socket

import pytest
from twisted.internet import tcp

from config import twisted_writes


class Reactor:
    """What a Twisted connection asks of its reactor, recorded (none runs here)."""

    def __init__(self):
        self.writers = set()

    def addWriter(self, descriptor):
        self.writers.add(descriptor)

    def removeWriter(self, descriptor):
        self.writers.discard(descriptor)


@pytest.fixture
def pair():
    twisted_writes.install()
    ours, theirs = socket.socketpair()
    theirs.setblocking(False)
    reactor = Reactor()
    connection = tcp.Connection(ours, None, reactor=reactor)
    connection.connected = 1
    yield connection, theirs, reactor
    ours.close()
    theirs.close()


def received(sock) -> bytes:
    out = b""
    while True:
        try:
            chunk = sock.recv(1 << 20)
        except BlockingIOError:
            return out
        if not chunk:
            return out
        out += chunk


def test_a_write_is_sent_in_the_write_without_waiting_for_the_loop(pair):
    connection, theirs, reactor = pair
    connection.write(b'{"type": "state"}')
    assert received(theirs) == b'{"type": "state"}'
    assert reactor.writers == set()  # no turn of the loop asked for


def test_what_the_socket_does_not_take_is_buffered_and_sent_in_order(pair):
    connection, theirs, reactor = pair
    big = bytes(range(256)) * 40_000  # 10 MB: more than a socket's send buffer
    connection.write(big)
    connection.write(b"after")  # must not overtake the rest of ``big``
    assert reactor.writers == {connection}
    got = received(theirs)
    assert 0 < len(got) < len(big)
    for _ in range(10_000):  # the reactor's part: send when writable (bounded: a send
        if not reactor.writers:  # that never finishes fails here rather than hangs)
            break
        connection.doWrite()
        got += received(theirs)
    got += received(theirs)
    assert got == big + b"after"
    connection.write(b"again")  # nothing waits now: at once again
    assert received(theirs) == b"again"


def test_a_closing_connection_writes_the_buffered_way(pair):
    connection, theirs, reactor = pair
    connection.disconnecting = True
    connection.write(b"last")
    assert received(theirs) == b""
    assert reactor.writers == {connection}
