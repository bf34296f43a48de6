"""autobahn's debug lines cost nothing while debug logging is off.

autobahn (daphne's websocket layer) decorates the arguments of its debug lines with
terminal colours before it knows whether the line is logged: ``hltype`` and ``hlval``
ran for every frame sent, ~10 µs a frame (with click installed, as Celery has it). A
move watched by 500 spectators is 500 frames: ~5 ms of daphne's CPU a move, for lines
nobody logs (with ``live_play_thousand.py``'s fan-out, daphne's CPU a move went from
76 to 66-70 ms). And each new connection pretty-printed its options for a debug line
(``pformat``, ~2.4 ms a connection: a thousand sockets connecting, 2.4 s of CPU). Here
they hand their argument on as it is: a debug line, when logged, shows it plain.
"""

from __future__ import annotations


def _plain(value):
    return value


def install() -> None:
    import autobahn.twisted.websocket as twisted_websocket
    import autobahn.websocket.protocol as protocol

    for module in (protocol, twisted_websocket):
        module.hltype = module.hlval = _plain
    protocol.pformat = _plain
