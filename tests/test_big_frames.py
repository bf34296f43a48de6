"""A frame over daphne's 1 MiB bound, on any websocket, is answered with the protocol's
``too-large`` error and a close code the client can read (1009 "message too big"), not a
dropped connection (1006). Real daphne: the bound is the server's, not the consumer's."""

from __future__ import annotations

import json

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.play_helpers import rule_set, start

pytestmark = pytest.mark.django_db(transaction=True)

BIG = "x" * (1024 * 1024 + 10)


def _answers_too_big(url: str, skip: int = 0) -> None:
    origin = "http://" + url.split("/")[2]  # AllowedHostsOriginValidator
    with connect(url, origin=origin, proxy=None, open_timeout=15, max_size=None) as ws:
        for _ in range(skip):  # what the socket sends on connecting
            ws.recv(timeout=10)
        ws.send(BIG)
        received = []
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                received.append(ws.recv(timeout=15))
    assert closed.value.rcvd is not None, "dropped without a close frame (1006)"
    assert closed.value.rcvd.code == 1009, closed.value.rcvd
    text = received[-1]
    payload = json.loads(text[2:])[1] if text.startswith("42") else json.loads(text)
    assert payload["code"] == "too-large" and "1048576" in payload["reason"], payload


def test_frames_over_a_mebibyte_get_an_error_and_close_1009(servers, creator, other_creator):
    match = start(rule_set("Tic-Tac-Toe"), creator, creator, other_creator)
    server = servers().wait()
    base = f"ws://127.0.0.1:{server.port}"
    _answers_too_big(f"{base}/ws/bot/")
    _answers_too_big(f"{base}/ws/match/{match.pk}/", skip=1)  # a spectator: the state first
    _answers_too_big(f"{base}/socket.io/?EIO=4&transport=websocket", skip=1)  # engine.io open
