"""Own bots in a hidden-information game (issues 26 and 20): 3Blotto13, where each seat
may see only its own soldiers until the battle is over. The bot, in white's seat, plays
through ``/ws/bot/``: a live match against a person, and a tournament game asked by a
worker through the mailbox. Every message the bot receives before the end is compared
with the truth: its "your move" is exactly ``state.view(seat)`` and its legal moves, and
holds none of black's soldiers (the truth does) nor black's notation (``bN:1,1``)."""

from __future__ import annotations

import json
import random
import re
import threading

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.test import override_settings

from accounts.services import random_player
from gamecore.engine.general.view import view as full_view
from ownbots.models import BotTurn
from play import services
from play.models import Match
from play.replay import current_state
from tests.ownbot_helpers import Inbox, bot_socket, own_bot, until
from tests.play_helpers import rule_set, start
from tournaments import ownbot_games as remote

pytestmark = pytest.mark.django_db(transaction=True)

BLACK_MOVE = re.compile(r"b[123]:1,1")  # a black placement (black's stacks are x = 1)


def pieces(payload, color: str | None = None) -> list[dict]:
    """Every piece in a payload (dicts with ``at`` and ``color``), of ``color`` if given."""
    found = []
    if isinstance(payload, dict):
        if "at" in payload and "color" in payload:
            found.append(payload)
        for value in payload.values():
            found += pieces(value)
    elif isinstance(payload, list):
        for value in payload:
            found += pieces(value)
    return [p for p in found if color is None or p["color"] == color]


def as_sent(data):
    return json.loads(json.dumps(data))


def check_turn(turn: dict, state, seat: int = 1) -> int:
    """``turn`` (a "your move" to white) is its seat's view of ``state`` (the truth) and
    leaks nothing of black: the number of black soldiers the truth holds on the board."""
    assert turn["seat"] == seat
    assert turn["view"] == as_sent(state.view(seat))
    assert turn["legal"] == [str(m) for m in state.legal_moves(seat)]
    truth = full_view(state, None)  # every piece, as the revealed replay shows it
    assert pieces(turn, "black") == [], "black's soldiers were sent to white"
    assert not BLACK_MOVE.search(json.dumps(turn)), "black's moves were sent to white"
    assert len(pieces(turn["view"], "white")) == len(pieces(truth, "white"))  # its own, all
    return len(pieces(truth, "black"))


def check_quiet(event: dict) -> None:
    """Any other message before the end: nothing of black's either."""
    assert pieces(event, "black") == [] and not BLACK_MOVE.search(json.dumps(event)), event


# --- a live match ------------------------------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.parametrize("seed", [1, 2])
async def test_a_live_blotto_match_sends_the_bot_only_its_seats_view(trainer, creator, seed):
    player, token = await sync_to_async(own_bot)(trainer)
    game = await sync_to_async(rule_set)("3Blotto13")
    match = await sync_to_async(start)(game, creator, creator, player, seed=seed)
    comm = await bot_socket(token, "hidden-1")
    await until(comm, "welcome")
    inbox = Inbox(comm)
    rng = random.Random(seed)
    truth_of = sync_to_async(lambda: current_state(Match.objects.get(pk=match.pk)))
    turns = hidden = 0
    while True:
        state = await truth_of()
        if state.is_terminal():
            break
        black = [str(m) for m in state.legal_moves(0)]
        await sync_to_async(services.play)(match.pk, creator, rng.choice(black))
        while True:  # the bot's messages until its turn (or the end)
            event = await inbox.next()
            if event["type"] in ("your-move", "game:over"):
                break
            check_quiet(event)
        if event["type"] == "game:over":
            break
        state = await truth_of()
        hidden = max(hidden, check_turn(event, state))
        turns += 1
        await comm.send_json_to(
            {"type": "move", "turn": event["turn"], "move": rng.choice(event["legal"])}
        )
        moved = await inbox.until("moved")
        check_quiet(moved)
    final = await sync_to_async(Match.objects.get)(pk=match.pk)
    assert final.is_over and turns == 13  # white placed all 13 soldiers through the socket
    assert hidden >= 12  # the truth held black's soldiers the bot was never sent
    if event["type"] != "game:over":
        event = await inbox.until("game:over")
    assert event["match"] == match.pk and event["outcome"] == final.outcome
    await comm.disconnect()


# --- the tournament path --------------------------------------------------------------------


def _tournament(trainer):
    from leaderboards.models import Tournament
    from leaderboards.services import default_universe

    return Tournament.objects.create(
        name="hidden",
        rule_set=rule_set("3Blotto13"),
        universe=default_universe(),
        created_by=trainer,
        seed=5,
        total_games=1,
        batch_size=1,
    )


def _states_by_ply(game, seed: int, moves) -> dict:
    """The truth before each ply of a tournament game (``remote.game_steps``' start)."""
    state = game.new_initial_state(seed=random.Random(seed).randrange(2**32))
    states = {0: state.clone()}
    for ply, (seat, text, *_rest) in enumerate(moves, start=1):
        state.apply(seat, game.parse_move(text))
        states[ply] = state.clone()
    return states


@pytest.mark.asyncio
@override_settings(OWNBOT_MOVE_SECONDS=5, OWNBOT_WAIT_SECONDS=5)
async def test_a_tournament_blotto_game_asks_the_bot_with_its_seats_view_only(trainer):
    """A worker (a thread here) plays the game; the bot answers through its socket. What
    it was sent is the stored turn, and that is the seat's view of the truth."""
    player, token = await sync_to_async(own_bot)(trainer)
    t = await sync_to_async(_tournament)(trainer)
    opponent = await sync_to_async(random_player)()
    comm = await bot_socket(token, "hidden-t")
    await until(comm, "welcome")
    inbox = Inbox(comm)
    done = {}

    def worker():
        try:
            done["game"] = remote.play_tournament_game(t, 1, [opponent, player])
        except BaseException as exc:  # surfaced by the assertion below
            done["error"] = exc
        finally:
            connection.close()

    thread = threading.Thread(target=worker)
    thread.start()
    received = []
    rng = random.Random(7)
    while thread.is_alive() or len(received) < 13:
        try:
            event = await inbox.next(timeout=10)
        except TimeoutError:
            break
        check_quiet({k: v for k, v in event.items() if k != "outcome"})
        if event["type"] != "your-move":
            continue
        assert event["turn"] not in {r["turn"] for r in received}, "a turn was sent twice"
        received.append(event)
        await comm.send_json_to(
            {"type": "move", "turn": event["turn"], "move": rng.choice(event["legal"])}
        )
        await inbox.until("moved")
        if len(received) == 13:
            break
    await sync_to_async(thread.join)(30)
    assert "error" not in done, done.get("error")
    played = done["game"]
    assert len(received) == 13 and played.outcome is not None
    game = await sync_to_async(services.game_of_rule_set)(t.rule_set)
    states = _states_by_ply(game, played.seed, [(m.seat, m.notation) for m in played.moves])
    hidden = 0
    for turn in received:
        row = await sync_to_async(BotTurn.objects.get)(pk=int(turn["turn"][1:]))
        assert turn["view"] == row.view and turn["legal"] == row.legal
        assert turn["tournament"] == t.pk and turn["match"] is None
        hidden = max(hidden, check_turn(turn, states[turn["ply"]]))
    assert hidden >= 12
    await comm.disconnect()


def test_a_built_in_bot_beside_an_own_bot_is_given_its_seats_position(trainer):
    """In a tournament game with an own bot, the built-in bot of the other seat thinks on
    its seat's position (``seat_state``), never the truth, as in ``play_timed``."""
    from gamecore.bots import RandomAgent

    player, _ = own_bot(trainer)
    t = _tournament(trainer)
    game = services.game_of_rule_set(t.rule_set)
    given = []

    class Spy(RandomAgent):
        def choose(self, state, seat):
            white = [c for c in state.board if c > 0 and game.piece[c][1] == 1]
            given.append((type(state).__name__, len(white)))
            return super().choose(state, seat)

    # The game driven as the worker drives it, the own bot answering its first legal move.
    steps = remote.game_steps(game, [Spy(seed=1), remote.RemoteAgent(player, t.pk, 1)], seed=3)
    reply = None
    while True:
        try:
            agent, state, seat, ply = steps.send(reply)
        except StopIteration as done:
            state, moves, _ = done.value
            break
        reply = (agent.request(state, seat, ply)[6][0], "v1")
    assert state.is_terminal() and len(given) == 13
    assert {name for name, _ in given} == {"SeatState"}
    assert all(white == 0 for _, white in given)  # white's soldiers, hidden from black
