"""Property: generated frames sent to the match and lobby sockets never raise in the
server, every frame is answered in JSON, and the match's state afterwards is exactly the
replay of its move log. Seeded, so a failure can be run again."""

from __future__ import annotations

import json
import logging
import random

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from config.routing import websocket_urlpatterns
from play import replay, services
from play.models import Match, Move
from tests.conftest import FUZZ_SCALE
from tests.play_helpers import rule_set, start

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

TYPES = ["move", "game:resign", "draw:offer", "draw:answer", "game:reconnect", "afk:ping",
         "matchmaking:join", "matchmaking:leave", "nope", "", "\x00", "move\x00"]  # fmt: skip
NOTATIONS = [f"{x},{y},1" for x in (1, 2, 3) for y in (1, 2, 3)] + [
    "pass", "draw", "accept", "decline", "0,0,0", "9,9,9", "1,1", "²,1,1", "b2:1,1,1", "",
    " 1 , 1 , 1 ", "9" * 60, "x" * 70, "\x00",
]  # fmt: skip
JUNK_VALUES = [None, True, False, 0, -1, 1, 2, 7, 10**30, -(10**30), 1.5, "1", "", [], {}, [1],
               "9" * 4000, "a\x00b", [[[[[[[[[[1]]]]]]]]]]]  # fmt: skip
# Deep JSON (issue 39: 4,000 brackets raised RecursionError out of the consumer).
DEEP_OPENERS = ["[", '{"a":', '{"type":"move","move":', "[{}, ", '{"type":[']


def deep_json(rng: random.Random, most: int) -> str:
    """Brackets nested from a few to thousands deep, closed or not, under ``most`` bytes."""
    opener = rng.choice(DEEP_OPENERS)
    depth = rng.choice([7, 8, 9, 33, 100, 999, 1001, 5000])
    closer = {"[": "]", "{": "}"}
    text = opener * depth
    if rng.random() < 0.5:
        text += "1" + "".join(closer[c] for c in reversed(text) if c in closer)
    return text[:most]


def _value(rng: random.Random):
    return rng.choice(JUNK_VALUES + NOTATIONS[:3])


def frame(rng: random.Random, ruleset_id: int) -> str | bytes:
    """One generated frame: mostly plausible messages with junk in their fields, some
    plain junk (not JSON, not an object, too large, bytes)."""
    roll = rng.random()
    if roll < 0.04:
        return deep_json(rng, 4000)
    if roll < 0.08:
        return rng.choice(["{not json", "[]", "null", "42", '"move"', "{}", "x" * 5000])
    if roll < 0.1:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
    message: dict = {"type": "move" if rng.random() < 0.5 else rng.choice(TYPES)}
    if message["type"] == "move" or rng.random() < 0.2:
        message["move"] = rng.choice(NOTATIONS) if rng.random() < 0.85 else _value(rng)
    for field in ("ply", "seat", "accept", "afkTimeout", "afkWarning"):
        if rng.random() < 0.2:
            message[field] = _value(rng)
    if message["type"] == "matchmaking:join":
        message["ruleSet"] = ruleset_id if rng.random() < 0.5 else _value(rng)
    if message["type"] == "game:resign" and rng.random() < 0.8:
        message["type"] = "afk:ping"  # keep most matches going long enough to matter
    return json.dumps(message)


async def _open(path: str, user) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), path)
    comm.scope["user"] = user or AnonymousUser()
    connected, _ = await comm.connect(timeout=5)
    assert connected
    return comm


async def _drain(comm: WebsocketCommunicator) -> list[dict]:
    """Everything the socket was sent (re-raises anything the consumer raised)."""
    out = []
    while not await comm.receive_nothing(timeout=0.3):
        output = await comm.receive_output(timeout=1)
        if output["type"] == "websocket.send":
            out.append(json.loads(output["text"]))
    return out


def _replayed_equals_served(match_id: int) -> None:
    match = Match.objects.get(pk=match_id)
    assert Move.objects.filter(match=match).count() == match.ply
    game = replay.game_of(match)
    fresh = game.new_initial_state(seed=match.seed)
    for row in Move.objects.filter(match=match).order_by("ply"):
        replay.apply_record(game, fresh, row.kind, row.seat, row.notation)
    served = replay.current_state(match)
    assert served.view(None) == fresh.view(None)
    assert (served.outcome is None) == (fresh.outcome is None)
    assert fresh.is_terminal() == (match.status == Match.Status.FINISHED)
    spectator = services.snapshot(match_id, None, [])
    assert spectator["view"] == json.loads(json.dumps(fresh.view(None)))


@pytest.mark.parametrize("seed", range(4 * FUZZ_SCALE))
async def test_generated_frames_never_break_a_match(seed, creator, other_creator, trainer, caplog):
    rng = random.Random(seed)

    def make():
        ttt = rule_set("Tic-Tac-Toe")
        match = start(ttt, creator, creator, other_creator)
        services.answer_invitation(match.pk, other_creator, accept=True)
        return ttt.pk, match.pk

    ttt_id, match_id = await sync_to_async(make)()
    sockets = [
        await _open(f"/ws/match/{match_id}/", creator),
        await _open(f"/ws/match/{match_id}/", other_creator),
        await _open(f"/ws/match/{match_id}/", trainer),  # an outsider: a spectator
        await _open(f"/ws/match/{match_id}/", None),
        await _open("/ws/lobby/", creator),
    ]

    def a_legal_move():
        match = Match.objects.get(pk=match_id)
        state = replay.current_state(match)
        if state.is_terminal():
            return None
        seat = state.to_move()[0]
        return seat, str(rng.choice(state.legal_moves(seat)))

    sent = 0
    for _ in range(80):
        comm = rng.choice(sockets[:2] * 3 + sockets[2:])  # mostly the players
        data = frame(rng, ttt_id)
        legal = await sync_to_async(a_legal_move)() if rng.random() < 0.3 else None
        if legal:  # now and then a real move, so that matches get somewhere
            comm, data = sockets[legal[0]], json.dumps({"type": "move", "move": legal[1]})
        if isinstance(data, bytes):
            await comm.send_to(bytes_data=data)
        else:
            await comm.send_to(text_data=data)
        sent += 1
    replies = []
    for comm in sockets:
        replies += await _drain(comm)
        await comm.disconnect()
    assert all(isinstance(r, dict) and r.get("type") for r in replies)
    assert len([r for r in replies if r["type"] == "error"]) <= sent
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]
    await sync_to_async(_replayed_equals_served)(match_id)


# --- Socket.IO (/socket.io/): event names, payloads and frames ----------------------------------

SIO_NAMES = ["connect", "disconnect", "connect_error", "disconnecting", "newListener",
             "game:move", "game:resign", "game:reconnect", "matchmaking:join", "message",
             "", "\x00", "game:move\x00", "x" * 70, 5, None, [1], {"a": 1}]  # fmt: skip
ENGINE_JUNK = [
    "",
    "x",
    "9",
    "0",
    "4",
    "b@@",
    "4\x00",
    "41/nope,",
    "43[1]",
    '45-["a"]',
    "6junk",
    "3",
    "5",
    "2",
]  # fmt: skip (no "1": a close packet closes, as it should)


def sio_frame(rng: random.Random) -> str | bytes:
    """One generated Socket.IO frame: mostly events with generated names and payloads,
    some deep JSON, some engine.io-level junk, some bytes."""
    roll = rng.random()
    if roll < 0.1:
        return rng.choice(ENGINE_JUNK)
    if roll < 0.15:
        return "42" + deep_json(rng, 4000)
    if roll < 0.18:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 20)))
    name = rng.choice(SIO_NAMES)
    args = [] if rng.random() < 0.3 else [rng.choice(JUNK_VALUES + [{"position": 4}])]
    if name == "matchmaking:join":  # never a real match: a rule set that is no id
        args = [{"ruleSet": "junk", "difficulty": rng.choice(["easy", "nope", None])}]
    if name == "game:move" and rng.random() < 0.5:
        args = [{"position": _value(rng)}]
    return "42" + json.dumps([name, *args])


@pytest.mark.parametrize("seed", range(2 * FUZZ_SCALE))
async def test_generated_socketio_frames_never_break_a_connection(seed, creator, caplog):
    from play.socketio_server import sio
    from tests.socketio_helpers import joined, next_event

    rng = random.Random(seed)
    comm, sid = await joined(creator)
    reader = (await sio.get_session(sid))["reader"]
    for _ in range(60):
        data = sio_frame(rng)
        key = "bytes" if isinstance(data, bytes) else "text"
        await comm.send_input({"type": "websocket.receive", key: data})
    await comm.send_to(text_data='42["game:move",{"position":4}]')  # a probe: still answered
    while True:
        name, data = await next_event(comm)
        assert name == "error" and set(data) == {"code", "reason"}, (name, data)
        if data["code"] == "not-seated":
            break
    assert not reader.done()  # no `disconnect` event released the connection
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors][:5]
    await comm.disconnect()
