"""Own bots (issue 26) in-process: registering and tokens, the /ws/bot/ socket's every
refusal, a live match played through it (each "your move" is exactly the seat's
``state.view(seat)``), and the tournament mailbox a worker asks through."""

from __future__ import annotations

import hashlib
import json
import threading
import time

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.test import override_settings

from accounts.models import Player
from ownbots import asking, consumers, keys, turns
from ownbots.models import BotConnection, BotKey, BotTurn, GameVersion
from play import services
from play.models import Match
from play.replay import current_state
from tests.ownbot_helpers import bot_socket, own_bot, until
from tests.play_helpers import rule_set, start

pytestmark = pytest.mark.django_db(transaction=True)


# --- registering and tokens ------------------------------------------------------------------


def test_only_trainers_and_admins_register_and_the_token_is_stored_hashed(
    creator, trainer, site_admin
):
    with pytest.raises(keys.BotError, match="Trainers and Admins"):
        keys.register(creator, "Sneaky")
    player, token = keys.register(trainer, "Learner")
    assert player.kind == Player.Kind.OWN_BOT and player.owner == trainer
    key = BotKey.objects.get(player=player)
    assert key.token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert token not in str(BotKey.objects.filter(player=player).values().first())
    assert keys.bot_for_token(token) == player
    assert keys.bot_for_token(token + "x") is None
    with pytest.raises(keys.BotError, match="name: there is already"):
        keys.register(site_admin, "learner")
    with pytest.raises(keys.BotError, match="name: 3 to 40"):
        keys.register(site_admin, "ab")


def test_a_replaced_token_stops_working_and_a_revoked_bot_has_none(trainer, creator):
    player, old = keys.register(trainer, "Learner")
    with pytest.raises(keys.BotError):
        keys.replace(creator, player)  # not the owner
    new = keys.replace(trainer, player)
    assert new != old
    assert keys.bot_for_token(old) is None and keys.bot_for_token(new) == player
    keys.revoke(trainer, player)
    assert keys.bot_for_token(new) is None
    assert BotKey.objects.get(player=player).revoked is not None


# --- the socket's refusals ------------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_wrong_token_is_refused_and_the_socket_closed(trainer):
    await sync_to_async(own_bot)(trainer)
    comm = await bot_socket("vfb_wrong")
    error = await comm.receive_json_from(timeout=5)
    assert error == {
        "type": "error",
        "code": "unauthorized",
        "reason": "That token opens no bot (wrong, replaced or revoked).",
    }
    assert (await comm.receive_output(timeout=5))["type"] == "websocket.close"


@pytest.mark.asyncio
@pytest.mark.parametrize("which", ["revoked", "replaced", "long", "empty"])
async def test_revoked_replaced_and_junk_tokens_are_refused(trainer, which):
    player, token = await sync_to_async(own_bot)(trainer)
    if which == "revoked":
        await sync_to_async(keys.revoke)(trainer, player)
    elif which == "replaced":
        await sync_to_async(keys.replace)(trainer, player)
    else:
        token = "vfb_" + "a" * 300 if which == "long" else ""
    comm = await bot_socket(token)
    error = await comm.receive_json_from(timeout=5)
    assert error["code"] == "unauthorized"
    assert not token or token not in error["reason"]
    assert (await comm.receive_output(timeout=5))["type"] == "websocket.close"


@pytest.mark.asyncio
async def test_no_hello_in_time_is_refused(trainer, monkeypatch):
    monkeypatch.setattr(consumers, "HELLO_SECONDS", 0.2)
    comm = await bot_socket(None)
    error = await comm.receive_json_from(timeout=5)
    assert error["code"] == "unauthorized" and "hello" in error["reason"]


@pytest.mark.asyncio
async def test_every_bad_message_gets_its_error(trainer):
    player, token = await sync_to_async(own_bot)(trainer)
    comm = await bot_socket(None)
    cases = [
        ("not json", "malformed"),
        ('{"type": "move", "turn": "t1", "move": "1,1,1"}', "unauthorized"),  # before hello
        ('{"type": "hello", "token": "x"}', "malformed"),  # no version
        ('{"type": "hello", "version": "$$$"}', "malformed"),
        ('{"type": "hello", "version": "v1", "token": 12}', "malformed"),
        ("[1, 2]", "malformed"),
        ('{"type": "dance"}', "unknown-type"),
        ('{"type": "hello", "version": "v1", "batch": "yes"}', "malformed"),
        ("x" * 40000, "too-large"),
    ]
    for text, code in cases:
        await comm.send_to(text_data=text)
        error = await comm.receive_json_from(timeout=5)
        assert error["type"] == "error" and error["code"] == code, (text[:40], error)
    await comm.send_json_to({"type": "hello", "token": token, "version": "v1"})
    assert (await comm.receive_json_from(timeout=5))["type"] == "welcome"
    after = [
        ({"type": "move", "turn": "zz", "move": "1,1,1"}, "unknown-turn"),
        ({"type": "move", "turn": "t999999", "move": "1,1,1"}, "unknown-turn"),
        ({"type": "move", "turn": "t1"}, "malformed"),
        ({"type": "move", "turn": "t1", "move": 7}, "malformed"),
        ({"type": "hello", "token": token, "version": "v2"}, "malformed"),  # twice
        ({"type": "moves", "moves": []}, "malformed"),
        ({"type": "moves", "moves": "t1 a"}, "malformed"),
        ({"type": "moves", "moves": [1]}, "malformed"),
        ({"type": "moves", "moves": [{"turn": "t1"}]}, "malformed"),
        ({"type": "moves", "moves": [{"turn": "t1", "move": "a"}] * 201}, "malformed"),
        ({"type": "moves", "moves": [{"turn": "zz", "move": "a"}]}, "unknown-turn"),
    ]
    for message, code in after:
        await comm.send_json_to(message)
        error = await until(comm, "error")
        assert error["code"] == code, (message, error)
    await comm.send_json_to({"type": "ping"})
    assert (await until(comm, "pong"))["type"] == "pong"
    await comm.disconnect()


@pytest.mark.asyncio
@override_settings(OWNBOT_MOVE_SECONDS=5, OWNBOT_WAIT_SECONDS=5)
async def test_a_client_that_takes_several_turns_gets_them_together_and_answers_together(
    trainer,
):
    """``batch``: the turns a worker opened together come in one ``your-moves``; one
    ``moves`` answers them (one ``moved`` names those taken, a refused one its error),
    and the worker has every answer."""
    player, token = await sync_to_async(own_bot)(trainer)
    t = await sync_to_async(_tournament)(trainer, player)
    comm = await bot_socket(None)
    await comm.send_json_to({"type": "hello", "token": token, "version": "v4", "batch": True})
    await until(comm, "welcome")

    def open_three():
        asked = asking.Asking()
        for number in (1, 2, 3):
            asked.ask(number, player.pk, t.pk, number, 0, 0, {"v": number}, ["a", "b"])
        asked.wait()  # opens them (nothing answered yet)
        return asked

    asked = await sync_to_async(open_three)()
    event = await until(comm, "your-moves")
    assert sorted((e["game"], e["view"], e["legal"]) for e in event["turns"]) == [
        (n, {"v": n}, ["a", "b"]) for n in (1, 2, 3)
    ]
    answers = [{"turn": e["turn"], "move": "b"} for e in event["turns"]]
    twice = {"turn": event["turns"][0]["turn"], "move": "a"}
    await comm.send_json_to({"type": "moves", "moves": [*answers, twice]})
    error = await until(comm, "error")
    assert (error["code"], error["turn"]) == ("late", twice["turn"])
    moved = await until(comm, "moved")
    assert moved["turns"] == [a["turn"] for a in answers]

    def collect():
        got, deadline = [], time.monotonic() + 5
        while len(got) < 3 and time.monotonic() < deadline:
            got += asked.wait()
        return got

    got = await sync_to_async(collect)()
    assert sorted(got) == [(n, ("b", "v4")) for n in (1, 2, 3)]
    await comm.disconnect()


@pytest.mark.asyncio
async def test_the_token_may_come_as_a_bearer_header(trainer):
    _, token = await sync_to_async(own_bot)(trainer)
    comm = await bot_socket(token, header=True)
    welcome = await comm.receive_json_from(timeout=5)
    assert welcome["type"] == "welcome" and welcome["version"] == "v1"
    await comm.disconnect()


@pytest.mark.asyncio
async def test_connected_twice_the_newest_connection_wins(trainer):
    player, token = await sync_to_async(own_bot)(trainer)
    first = await bot_socket(token, "v1")
    assert (await first.receive_json_from(timeout=5))["replaced"] is False
    second = await bot_socket(token, "v2")
    welcome = await second.receive_json_from(timeout=5)
    assert welcome["type"] == "welcome" and welcome["replaced"] is True
    error = await first.receive_json_from(timeout=5)
    assert error["code"] == "replaced" and "newest connection wins" in error["reason"]
    row = await sync_to_async(BotConnection.objects.get)(player=player)
    assert row.version == "v2"
    await second.disconnect()


@pytest.mark.asyncio
async def test_revoking_the_token_ends_the_connection(trainer):
    player, token = await sync_to_async(own_bot)(trainer)
    comm = await bot_socket(token)
    await until(comm, "welcome")
    await sync_to_async(keys.revoke)(trainer, player)
    error = await until(comm, "error")
    assert error["code"] == "unauthorized" and "revoked" in error["reason"]


# --- a live match through the socket ------------------------------------------------------------


def _expected_view(match_id: int, seat: int) -> dict:
    return current_state(Match.objects.get(pk=match_id)).view(seat)


@pytest.mark.asyncio
async def test_a_live_match_against_a_person_sends_the_seat_view_and_checks_answers(
    trainer, creator
):
    player, token = await sync_to_async(own_bot)(trainer)
    game = await sync_to_async(rule_set)("Tic-Tac-Toe")
    match = await sync_to_async(start)(game, creator, creator, player)
    other = await sync_to_async(start)(game, creator, creator, "open")  # not the bot's
    comm = await bot_socket(token, "v7")
    await until(comm, "welcome")
    await sync_to_async(services.play)(match.pk, creator, "1,1,1")
    turn = await until(comm, "your-move")
    assert turn["match"] == match.pk and turn["seat"] == 1 and turn["ply"] == 1
    assert turn["view"] == await sync_to_async(_expected_view)(match.pk, 1)
    assert turn["legal"] == turn["view"]["legal_moves"] and "1,1,1" not in turn["legal"]
    assert 0 < turn["timeLeft"] <= 60
    # refusals: a seat it does not hold (as unknown as no turn), an illegal move, a stale turn
    await comm.send_json_to({"type": "move", "turn": f"m{other.pk}.0.1", "move": "2,2,1"})
    assert (await until(comm, "error"))["code"] == "unknown-turn"
    await comm.send_json_to({"type": "move", "turn": f"m{match.pk}.1.0", "move": "2,2,1"})
    assert (await until(comm, "error"))["code"] == "unknown-turn"
    await comm.send_json_to({"type": "move", "turn": turn["turn"], "move": "1,1,1"})
    error = await until(comm, "error")
    assert error["code"] == "illegal" and error["turn"] == turn["turn"]
    await comm.send_json_to({"type": "move", "turn": f"m{match.pk}.0.1", "move": "2,2,1"})
    assert (await until(comm, "error"))["code"] == "late"
    await comm.send_json_to({"type": "move", "turn": turn["turn"], "move": "2,1,1"})
    assert (await until(comm, "moved"))["move"] == "2,1,1"
    for mine in ["2,2,1", "3,3,1"]:
        await sync_to_async(services.play)(match.pk, creator, mine)
        if mine == "3,3,1":
            break
        turn = await until(comm, "your-move")
        assert turn["view"] == await sync_to_async(_expected_view)(match.pk, 1)
        await comm.send_json_to({"type": "move", "turn": turn["turn"], "move": "3,1,1"})
        await until(comm, "moved")
    over = await until(comm, "game:over")
    assert over["match"] == match.pk and over["outcome"]["winner"] == 0
    version = await sync_to_async(GameVersion.objects.get)(match=match, seat=1)
    assert version.version == "v7"
    await comm.disconnect()


# --- the tournament mailbox -------------------------------------------------------------


def _tournament(trainer, player):
    from leaderboards.models import Tournament
    from leaderboards.services import default_universe

    return Tournament.objects.create(
        name="t",
        rule_set=rule_set("Tic-Tac-Toe"),
        universe=default_universe(),
        created_by=trainer,
        seed=1,
        total_games=1,
        batch_size=1,
    )


@override_settings(OWNBOT_MOVE_SECONDS=5, OWNBOT_WAIT_SECONDS=0.3)
def test_a_worker_turn_waits_a_bounded_time_for_a_bot_that_is_away(trainer):
    player, _ = own_bot(trainer)
    t = _tournament(trainer, player)
    with pytest.raises(turns.NoAnswer) as missed:
        asking.ask(player.pk, t.pk, 1, 1, 0, {"v": 1}, ["a"])
    assert missed.value.why == "disconnect"
    assert BotTurn.objects.get().status == BotTurn.Status.EXPIRED


@override_settings(OWNBOT_MOVE_SECONDS=0.3, OWNBOT_WAIT_SECONDS=5)
def test_a_connected_bot_that_answers_late_gets_the_timeout_and_its_answer_is_refused(trainer):
    from ownbots import connections

    player, _ = own_bot(trainer)
    connections.claim(player.pk, "chan", "proc", "v1")
    t = _tournament(trainer, player)
    with pytest.raises(turns.NoAnswer) as missed:
        asking.ask(player.pk, t.pk, 1, 1, 0, {"v": 1}, ["a"])
    assert missed.value.why == "timeout"
    turn = BotTurn.objects.get()
    with pytest.raises(services.MatchError) as refused:
        turns.answer(player.pk, turn.pk, "a", "v1")
    assert refused.value.code == "late"


@override_settings(OWNBOT_MOVE_SECONDS=5, OWNBOT_WAIT_SECONDS=5)
def test_a_worker_turn_is_answered_once_and_checked(trainer, make_user):
    from ownbots import connections

    player, _ = own_bot(trainer)
    stranger, _ = own_bot(make_user("tom", "trainer"), "Other")
    connections.claim(player.pk, "chan", "proc", "v1")
    t = _tournament(trainer, player)
    got = {}

    def worker():
        try:
            got.update(r=asking.ask(player.pk, t.pk, 1, 1, 0, {"v": 1}, ["a", "b"]))
        finally:
            connection.close()  # this thread's own connection

    thread = threading.Thread(target=worker)
    thread.start()
    while not turns.open_ids(player.pk):  # open: with Redis there, else its row
        time.sleep(0.01)
    [turn_id] = turns.open_ids(player.pk)
    for who, move, code in [(stranger.pk, "a", "unknown-turn"), (player.pk, "zz", "illegal")]:
        with pytest.raises(services.MatchError) as refused:
            turns.answer(who, turn_id, move, "v1")
        assert refused.value.code == code
    turns.answer(player.pk, turn_id, "b", "v3")
    thread.join(5)
    assert got["r"] == ("b", "v3")
    with pytest.raises(services.MatchError) as again:
        turns.answer(player.pk, turn_id, "a", "v3")
    assert again.value.code == "late"
    # what is stored (with Redis written when the worker has the answer): the answer
    row = BotTurn.objects.get(pk=turn_id)
    assert (row.status, row.answer, row.version, row.legal) == ("answered", "b", "v3", ["a", "b"])
    assert turns.open_ids(player.pk) == []


def test_tournament_turn_payload_is_the_seat_view_only(trainer):
    """What a worker sends is ``state.view(seat)`` and the legal moves, nothing else."""
    from tournaments.ownbot_games import RemoteAgent

    player, _ = own_bot(trainer)
    t = _tournament(trainer, player)
    game = services.game_of_rule_set(t.rule_set)
    state = game.new_initial_state(seed=3)
    state.apply(0, state.legal_moves(0)[0])
    *_who, view, legal = RemoteAgent(player, t.pk, 1).request(state, 1, 1)
    assert isinstance(view, str)  # the flat family's view, made as its JSON text
    assert json.loads(view) == state.view(1)
    assert legal == [str(m) for m in state.legal_moves(1)]


@pytest.mark.asyncio
async def test_a_bot_that_drops_mid_match_opens_the_reconnect_window(trainer, creator):
    """Its live seat is held like a person's: the connection's presence goes, and the
    match's reconnect window (then a forfeit by disconnect) runs for it."""
    from play.models import Seat

    player, token = await sync_to_async(own_bot)(trainer)
    game = await sync_to_async(rule_set)("Tic-Tac-Toe")
    match = await sync_to_async(start)(game, creator, player, creator)
    comm = await bot_socket(token)
    await until(comm, "welcome")
    turn = await until(comm, "your-move")
    assert turn["seat"] == 0 and turn["ply"] == 0
    seat = await sync_to_async(Seat.objects.get)(match=match, index=0)
    assert seat.disconnect_deadline is None
    await comm.disconnect()
    seat = await sync_to_async(Seat.objects.get)(match=match, index=0)
    assert seat.disconnect_deadline is not None
    assert not await sync_to_async(BotConnection.objects.filter(player=player).exists)()
    again = await bot_socket(token)
    await until(again, "welcome")
    turn = await until(again, "your-move")  # the same turn, sent again after reconnecting
    assert turn["ply"] == 0
    seat = await sync_to_async(Seat.objects.get)(match=match, index=0)
    assert seat.disconnect_deadline is None  # reconnected in time
    await again.disconnect()
