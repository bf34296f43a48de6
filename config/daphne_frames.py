"""A websocket frame over daphne's bound is answered, not dropped.

daphne caps a websocket message at 1 MiB (``--websocket_max_message_size``/``_frame_size``)
and autobahn, on a frame past the cap, drops the TCP connection by default: the client saw
1006 and no reason. Here it is sent the protocol's ``too-large`` error (a Socket.IO
client: as an ``error`` event) and a close frame with 1009 "message too big". Frames under
the cap reach the consumers, which answer anything over 4 KB with ``too-large`` and stay
open (play/PROTOCOL.md).
"""

from __future__ import annotations

import json

from autobahn.websocket.protocol import WebSocketProtocol as Autobahn
from daphne.ws_protocol import WebSocketProtocol

from play.socketio_edge import error_frame


def too_large(self, msg_size, max_msg_size, reason) -> None:
    if self.state == Autobahn.STATE_OPEN and not self.failedByMe:
        why = f"Frames are at most {max_msg_size} bytes here (a message, at most 4096)."
        if getattr(self, "path", b"").startswith(b"/socket.io/"):
            text = error_frame("too-large", why)
        else:
            text = json.dumps({"type": "error", "code": "too-large", "reason": why})
        self.sendMessage(text.encode(), isBinary=False)
    self.failByDrop = False  # a close frame the client reads, then the TCP close
    self._fail_connection(Autobahn.CLOSE_STATUS_CODE_MESSAGE_TOO_BIG, "message too big")


def install() -> None:
    WebSocketProtocol._max_message_size_exceeded = too_large
