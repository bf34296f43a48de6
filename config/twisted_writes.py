"""A websocket frame leaves daphne in the write that makes it, not a loop turn later.

Twisted's TCP transport buffers every write and sends it when the reactor next finds the
socket writable: per frame, two more system calls (start, then stop, watching the socket
for writability) and a turn of the event loop before the send. A move watched by 500
spectators is 500 frames. Here a write to a plain TCP connection with nothing waiting to
be sent is sent at once, as asyncio's own transports do; whatever the socket does not
take (its send buffer full) goes Twisted's usual way, buffered, in order. An error is
left to that usual way too (the buffered send meets it and closes the connection), and
so is a connection that is closing or runs TLS (its bytes go through the TLS layer).
"""

from __future__ import annotations

_buffered = None  # Twisted's own ``write`` of a TCP connection


def write(self, data) -> None:
    if (
        type(data) is bytes
        and data
        and not self.TLS
        and self.connected
        and not self.disconnecting
        and not self._writeDisconnected
        and not self._tempDataLen
        and self.offset == len(self.dataBuffer)  # nothing waits to be sent
    ):
        sent = self.writeSomeData(data)
        if type(sent) is int and sent > 0:
            if sent == len(data):
                return
            data = data[sent:]
    _buffered(self, data)


def install() -> None:
    global _buffered
    from twisted.internet import tcp

    if tcp.Connection.write is not write:
        _buffered = tcp.Connection.write
        tcp.Connection.write = write
