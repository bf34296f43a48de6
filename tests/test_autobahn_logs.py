"""autobahn's debug-line decoration is skipped (config/autobahn_logs.py): daphne's
frames no longer pay for colouring lines nobody logs, and a line that is logged still
reads."""

import autobahn.twisted.websocket as twisted_websocket
import autobahn.websocket.protocol as protocol

from config import autobahn_logs


def test_the_decorations_hand_their_argument_on():
    autobahn_logs.install()

    class Peer:
        def sendData(self):
            pass

    method = Peer().sendData
    for module in (protocol, twisted_websocket):
        assert module.hltype(method) is method and module.hlval(12) == 12
    options = {"autoPingInterval": 0}
    assert protocol.pformat(options) is options  # a connection's options, printed if logged
    # What autobahn's frame path formats when debug lines are logged still reads.
    line = "{func} sent {data_len} bytes for peer {peer}".format(
        func=protocol.hltype(method), data_len=protocol.hlval(512), peer=protocol.hlval("tcp:1")
    )
    assert "sendData" in line and "512 bytes" in line
