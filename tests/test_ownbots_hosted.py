"""Own-bot games hosted by the bot's socket (issue 36, ``tournaments.hosted_games``): a
worker hands a batch of one own bot's games against Random to the web process that holds
the bot's connection, which plays them in its event loop and hands the PlayedGames back.
Here the worker's side runs on a thread and the socket in-process (the whole path across
real processes: ``test_ownbots_live``). The bot is sent its seat's view, its answers are
checked as the mailbox checks them, and whatever goes wrong sends the worker back to the
mailbox, promptly."""

from __future__ import annotations

import asyncio
import json
import random
import time
from datetime import UTC, datetime

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connection
from django.test import override_settings

from accounts.models import Player
from accounts.services import random_player
from gamecore.engine.outcome import Outcome
from ownbots import connections, fastlane, hosting
from ownbots.models import BotTurn
from play import json_text
from play.models import Move
from play.recording import PlayedGame, PlayedMove
from play.replay import apply_record
from play.services import game_of_rule_set
from tests.ownbot_helpers import Inbox, own_bot
from tests.play_helpers import rule_set
from tournaments.hosted_games import HostingBotConsumer, dump, host_player, load, play_hosted

pytestmark = pytest.mark.django_db(transaction=True)
SHAPE = settings.REDIS_URL and "postgresql" in settings.DATABASES["default"]["ENGINE"]
hosted_shape = pytest.mark.skipif(not SHAPE, reason="hosting needs PostgreSQL + Redis")


def _tournament(trainer, games: int, game: str = "Tic-Tac-Toe"):
    from leaderboards.models import Tournament
    from leaderboards.services import default_universe

    return Tournament.objects.create(
        name="t", rule_set=rule_set(game), universe=default_universe(),
        created_by=trainer, seed=1, total_games=games, batch_size=games,
    )  # fmt: skip


def _listeners(player_id: int) -> int:
    return fastlane.client().pubsub_numsub(fastlane.turns_channel(player_id))[0][1]


async def _socket(player, token: str, version: str = "v1"):
    """The bot's hosting socket, connected, said hello, listening on its channel."""
    comm = WebsocketCommunicator(HostingBotConsumer.as_asgi(), "/ws/bot/")
    connected, _ = await comm.connect(timeout=5)
    assert connected
    await comm.send_json_to({"type": "hello", "token": token, "version": version})
    inbox = Inbox(comm)
    await inbox.until("welcome")
    deadline = time.monotonic() + 5
    while not await sync_to_async(_listeners)(player.pk):
        assert time.monotonic() < deadline, "the socket never listened on its channel"
        await asyncio.sleep(0.01)
    return comm, inbox


def _worker(t, games: list, out: dict) -> None:
    """The worker's side, on a thread: the batch handed to the socket."""
    try:
        began = time.monotonic()
        out["games"] = play_hosted(t, games)
        out["seconds"] = time.monotonic() - began
    finally:
        connection.close()


async def _answer_all(
    comm, inbox, task, choose=lambda turn: turn["legal"][0], seen=lambda event: None
) -> list[dict]:
    """Answer every turn until the worker's task ends (each message shown to ``seen``);
    the turns received."""
    got = []
    while not task.done():
        if not inbox.kept and await comm.receive_nothing(timeout=0.05):
            continue  # (a communicator's wait that times out would end the consumer)
        event = await inbox.next()
        seen(event)
        if event["type"] == "your-move" and event.get("tournament"):
            got.append(event)
            await comm.send_json_to({"type": "move", "turn": event["turn"], "move": choose(event)})
    await task
    return got


def _states(t, played: PlayedGame) -> list:
    """The position before each move of a played game (its replay)."""
    game = game_of_rule_set(t.rule_set)
    state = game.new_initial_state(seed=played.seed)
    states = [state.clone()]
    for move in played.moves:
        apply_record(game, state, move.kind, move.seat, move.notation)
        states.append(state.clone())
    return states


# --- the whole hand-over ---------------------------------------------------------------------


@hosted_shape
@pytest.mark.asyncio
@override_settings(OWNBOT_MOVE_SECONDS=5, OWNBOT_WAIT_SECONDS=5)
async def test_a_batch_against_random_is_played_by_the_bots_socket(trainer):
    """Three games handed over and back: each turn the bot got was its seat's view of the
    game as played, its moves are the answers it sent, its version is the game's, and
    no turn row is written (the move log holds what one would)."""
    player, token = await sync_to_async(own_bot)(trainer)
    t = await sync_to_async(_tournament)(trainer, 3)
    rnd = await sync_to_async(random_player)()
    comm, inbox = await _socket(player, token)
    out: dict = {}
    games = [(n, [player, rnd] if n % 2 else [rnd, player]) for n in (1, 2, 3)]
    task = asyncio.ensure_future(sync_to_async(_worker, thread_sensitive=False)(t, games, out))
    received = await _answer_all(comm, inbox, task)
    await comm.disconnect()
    played = out["games"]
    assert played is not None and len(played) == 3
    assert {turn["game"] for turn in received} == {1, 2, 3}
    for number, game in zip((1, 2, 3), played, strict=True):
        seat = 0 if number % 2 else 1
        assert game.outcome is not None and game.versions == {seat: "v1"}
        states = _states(t, game)
        mine = [turn for turn in received if turn["game"] == number]
        for turn in mine:
            state = states[turn["ply"]]
            assert turn["seat"] == seat
            assert turn["view"] == json.loads(json.dumps(state.view(seat)))
            assert turn["legal"] == [str(m) for m in state.legal_moves(seat)]
        moves = [m.notation for m in game.moves if m.seat == seat]
        assert moves == [turn["legal"][0] for turn in mine]  # what it answered, in order
    assert not await sync_to_async(BotTurn.objects.filter(tournament=t).exists)()


@hosted_shape
@pytest.mark.asyncio
@override_settings(OWNBOT_MOVE_SECONDS=5, OWNBOT_WAIT_SECONDS=5)
async def test_a_hosted_hidden_game_sends_the_bot_its_seats_view_only(trainer):
    """3Blotto13, where a seat sees only its own soldiers until the battle is over: each
    turn the socket sent is the seat's view of the truth (replayed), and no message the
    bot gets before its game ends holds a soldier or a move of the other seat."""
    from tests.test_ownbots_cloaked import check_quiet, check_turn

    player, token = await sync_to_async(own_bot)(trainer)
    t = await sync_to_async(_tournament)(trainer, 2, "3Blotto13")
    rnd = await sync_to_async(random_player)()
    comm, inbox = await _socket(player, token)
    out: dict = {}
    games = [(1, [rnd, player]), (2, [rnd, player])]
    task = asyncio.ensure_future(sync_to_async(_worker, thread_sensitive=False)(t, games, out))
    rng = random.Random(3)

    def seen(event):
        check_quiet({k: v for k, v in event.items() if k != "outcome"})

    received = await _answer_all(comm, inbox, task, lambda turn: rng.choice(turn["legal"]), seen)
    await comm.disconnect()
    hidden = 0
    for number, game in zip((1, 2), out["games"], strict=True):
        states = _states(t, game)
        mine = [turn for turn in received if turn["game"] == number]
        assert len(mine) == 13 and game.outcome is not None
        hidden = max([hidden] + [check_turn(turn, states[turn["ply"]]) for turn in mine])
    assert hidden >= 12  # the truth held the other seat's soldiers the bot never saw


@hosted_shape
@pytest.mark.asyncio
@override_settings(OWNBOT_MOVE_SECONDS=5, OWNBOT_WAIT_SECONDS=5)
async def test_a_hosted_turns_answers_are_checked_as_the_mailboxs(trainer):
    """An illegal move and an unknown turn are refused with the mailbox's codes and the
    turn stays open; an answer to a turn of a batch that is over is "late"."""
    player, token = await sync_to_async(own_bot)(trainer)
    t = await sync_to_async(_tournament)(trainer, 1)
    rnd = await sync_to_async(random_player)()
    comm, inbox = await _socket(player, token)
    out: dict = {}
    task = asyncio.ensure_future(
        sync_to_async(_worker, thread_sensitive=False)(t, [(1, [player, rnd])], out)
    )
    first = await inbox.until("your-move", timeout=10)
    await comm.send_json_to({"type": "move", "turn": first["turn"], "move": "zz9"})
    assert (await inbox.until("error"))["code"] == "illegal"
    await comm.send_json_to({"type": "move", "turn": "t999999999", "move": "a1"})
    assert (await inbox.until("error"))["code"] == "unknown-turn"
    move = first["legal"][0]
    await comm.send_json_to({"type": "move", "turn": first["turn"], "move": move})
    assert (await inbox.until("moved"))["turn"] == first["turn"]
    await _answer_all(comm, inbox, task)
    assert out["games"][0].moves[0].notation == move
    await comm.send_json_to({"type": "move", "turn": first["turn"], "move": move})
    assert (await inbox.until("error"))["code"] == "late"
    await comm.disconnect()


@hosted_shape
@pytest.mark.asyncio
@override_settings(OWNBOT_MOVE_SECONDS=0.2, OWNBOT_WAIT_SECONDS=5)
async def test_a_hosted_turn_not_answered_in_time_gets_the_rules_timeout(trainer):
    """A connected bot that does not answer: the turn times out on the socket's side
    (its move time and the grace), and the rules' consequence ends the game."""
    player, token = await sync_to_async(own_bot)(trainer)
    t = await sync_to_async(_tournament)(trainer, 1)
    rnd = await sync_to_async(random_player)()
    comm, inbox = await _socket(player, token)
    out: dict = {}
    worker = sync_to_async(_worker, thread_sensitive=False)
    await asyncio.wait_for(worker(t, [(1, [player, rnd])], out), 10)
    await comm.disconnect()
    [game] = out["games"]
    assert game.moves[-1].kind == Move.Kind.TIMEOUT and game.moves[-1].seat == 0
    assert game.outcome.reason == "timeout" and game.outcome.results[0] == "loss"


# --- back to the mailbox ---------------------------------------------------------------------


@hosted_shape
@pytest.mark.asyncio
@override_settings(OWNBOT_MOVE_SECONDS=5, OWNBOT_WAIT_SECONDS=5)
async def test_a_socket_that_closes_mid_batch_sends_the_worker_to_the_mailbox(trainer):
    player, token = await sync_to_async(own_bot)(trainer)
    t = await sync_to_async(_tournament)(trainer, 2)
    rnd = await sync_to_async(random_player)()
    comm, inbox = await _socket(player, token)
    out: dict = {}
    games = [(1, [player, rnd]), (2, [player, rnd])]
    task = asyncio.ensure_future(sync_to_async(_worker, thread_sensitive=False)(t, games, out))
    await inbox.until("your-move", timeout=10)
    await comm.disconnect()
    await asyncio.wait_for(task, 10)
    assert out["games"] is None and out["seconds"] < 5  # at once, not after a deadline


@hosted_shape
def test_a_batch_nobody_can_host_goes_to_the_mailbox_at_once(trainer):
    """Not connected, or connected where no socket listens (a web process without
    hosting's channel): the worker is told at once."""
    player, _ = own_bot(trainer)
    t = _tournament(trainer, 1)
    games = [(1, [player, random_player()])]
    assert play_hosted(t, games) is None  # not connected
    connections.claim(player.pk, "nobody.listens", "proc", "v1")
    began = time.monotonic()
    assert play_hosted(t, games) is None
    assert time.monotonic() - began < 1


@hosted_shape
def test_a_host_that_never_starts_or_stops_renewing_is_given_up(monkeypatch):
    """The worker's wait: a lease never taken (the message lost) or one that lapses (the
    web process died) ends it with None, and calls the batch back: a host that comes
    late finds it cancelled."""
    monkeypatch.setattr(hosting, "START_SECONDS", 0.3)
    monkeypatch.setattr(hosting, "RENEW_SECONDS", 0.1)
    reply = hosting.new_reply()
    began = time.monotonic()
    assert hosting.wait_result(reply) is None
    assert time.monotonic() - began < 2
    assert not hosting.renew(reply)  # called back
    monkeypatch.setattr(hosting, "LEASE_SECONDS", 0.3)
    reply = hosting.new_reply()
    assert hosting.renew(reply)  # taken once, never renewed
    began = time.monotonic()
    assert hosting.wait_result(reply) is None
    assert 0.2 < time.monotonic() - began < 2
    reply = hosting.new_reply()
    assert hosting.renew(reply)
    hosting.deliver(reply, {"ok": True, "games": []})
    assert hosting.wait_result(reply) == {"ok": True, "games": []}


# --- which batches, and what crosses ------------------------------------------------------------


@hosted_shape
def test_only_one_own_bots_games_against_random_are_hosted(trainer):
    """A search bot's games stay on the worker (they wait on the search, which would take
    a web process's CPU from its sockets), as do two own bots' (two sockets) and a
    learning AI's; the setting turns hosting off."""
    mine, _ = own_bot(trainer, "Mine")
    other, _ = own_bot(trainer, "Other")
    rnd = random_player()
    search = Player.objects.create(kind="bot", name="mcts", bot_spec={"kind": "mcts"})
    assert host_player([(1, [mine, rnd]), (2, [rnd, mine])]) == mine.pk
    assert host_player([(1, [mine, mine])]) == mine.pk  # itself
    assert host_player([(1, [mine, rnd]), (2, [mine, search])]) is None
    assert host_player([(1, [mine, other])]) is None
    assert host_player([(1, [rnd, rnd])]) is None
    with override_settings(OWNBOT_HOSTED=False):
        assert host_player([(1, [mine, rnd])]) is None


def test_a_played_game_crosses_as_json_unchanged():
    """What the host hands back (JSON, through Redis) is the PlayedGame it played."""
    lines = (((1, 1, 1, 1), (1, 2, 2, 1), (1, 3, 3, 1)),)
    game = PlayedGame(
        seed=12345,
        moves=[PlayedMove(0, "a1", 3), PlayedMove(1, "", 10000, Move.Kind.TIMEOUT)],
        outcome=Outcome(("win", "loss"), "timeout", "Seat 2 ran out of time.", lines),
        started=datetime(2026, 11, 29, 18, 0, 0, 123456, tzinfo=UTC),
        finished=datetime(2026, 11, 29, 18, 0, 1, 654321, tzinfo=UTC),
        versions={1: "v2.0"},
    )
    back = load(json_text.loads(json_text.dumps(dump(game))))
    assert back == game
    assert back.outcome.lines == lines and back.moves[1].kind == Move.Kind.TIMEOUT
    unfinished = PlayedGame(1, [], None, game.started, game.finished)
    assert load(json_text.loads(json_text.dumps(dump(unfinished)))) == unfinished
