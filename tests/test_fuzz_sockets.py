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
         "matchmaking:join", "matchmaking:leave", "nope", ""]  # fmt: skip
NOTATIONS = [f"{x},{y},1" for x in (1, 2, 3) for y in (1, 2, 3)] + [
    "pass", "draw", "accept", "decline", "0,0,0", "9,9,9", "1,1", "²,1,1", "b2:1,1,1", "",
    " 1 , 1 , 1 ", "9" * 60, "x" * 70, "\x00",
]  # fmt: skip
JUNK_VALUES = [None, True, False, 0, -1, 1, 2, 7, 10**30, -(10**30), 1.5, "1", "", [], {}, [1],
               "9" * 4000]  # fmt: skip


def _value(rng: random.Random):
    return rng.choice(JUNK_VALUES + NOTATIONS[:3])


def frame(rng: random.Random, ruleset_id: int) -> str | bytes:
    """One generated frame: mostly plausible messages with junk in their fields, some
    plain junk (not JSON, not an object, too large, bytes)."""
    roll = rng.random()
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
