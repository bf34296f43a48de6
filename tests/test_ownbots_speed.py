"""Own bots at speed (issue 36): a batch's own-bot games are in flight at once, a game's
turns (with Redis) open there and are written as rows at the game's end, and a game
sent again closes the turns its dead try left open. Run on both shapes: embedded (the
database is the mailbox) and PostgreSQL + Redis (``fastlane``)."""

from __future__ import annotations

import json
import threading

import pytest
from django.db import connection
from django.test import override_settings

from accounts.models import Player
from accounts.services import random_player
from ownbots import connections, fastlane, turns
from ownbots.models import BotTurn
from play import services
from tests.ownbot_helpers import own_bot
from tests.play_helpers import rule_set
from tournaments import ownbot_games as remote

pytestmark = pytest.mark.django_db(transaction=True)


def _tournament(trainer, games: int = 1):
    from leaderboards.models import Tournament
    from leaderboards.services import default_universe

    return Tournament.objects.create(
        name="t", rule_set=rule_set("Tic-Tac-Toe"), universe=default_universe(),
        created_by=trainer, seed=1, total_games=games, batch_size=games,
    )  # fmt: skip


def test_a_batchs_own_bot_games_are_all_in_flight_at_once(trainer, monkeypatch):
    """Each game asks its first move before any answer comes: the bot holds all four
    turns at once (one by one, the first game would wait for ever at the barrier)."""
    player, _ = own_bot(trainer)
    t = _tournament(trainer, 4)
    barrier = threading.Barrier(4, timeout=10)
    first = set()

    def fake_ask(pid, tid, number, seat, ply, view, legal, heartbeat, asked=None):
        if number not in first:
            first.add(number)
            barrier.wait()  # broken (an error) unless the four games wait together
        return legal[0], f"v{number}"

    monkeypatch.setattr(remote, "ask", fake_ask)
    seated = [player, random_player()]
    played = remote.play_tournament_games(t, [(n, seated) for n in (1, 2, 3, 4)])
    assert first == {1, 2, 3, 4}
    assert [g.versions for g in played] == [{0: f"v{n}"} for n in (1, 2, 3, 4)]  # in order
    assert all(g.outcome is not None for g in played)


def test_one_game_or_an_open_transaction_plays_one_by_one(trainer, monkeypatch):
    player, _ = own_bot(trainer)
    t = _tournament(trainer, 2)
    threads = set()

    def fake_ask(pid, tid, number, seat, ply, view, legal, heartbeat, asked=None):
        threads.add(threading.get_ident())
        return legal[0], "v1"

    monkeypatch.setattr(remote, "ask", fake_ask)
    from django.db import transaction

    with transaction.atomic():  # a thread's connection would not see these rows
        seated = [player, random_player()]
        remote.play_tournament_games(t, [(1, seated), (2, seated)])
    assert threads == {threading.get_ident()}


@override_settings(OWNBOT_MOVE_SECONDS=5, OWNBOT_WAIT_SECONDS=5)
def test_a_game_played_through_the_mailbox_stores_each_turn_once_with_its_answer(trainer):
    """A worker (a thread) plays a game; the bot answers each open turn. Stored at the
    end: a row per turn with the seat's view, its legal moves, the answer and version;
    nothing left open."""
    player, _ = own_bot(trainer)
    connections.claim(player.pk, "chan", "proc", "v9")
    t = _tournament(trainer)
    done = {}

    def worker():
        try:
            done["game"] = remote.play_tournament_game(t, 1, [player, random_player()])
        finally:
            connection.close()

    thread = threading.Thread(target=worker)
    thread.start()
    answered = []
    while thread.is_alive():
        for turn_id in turns.open_ids(player.pk):
            if turn_id in answered:
                continue
            legal = _legal(turn_id)
            if legal is None:
                continue
            turns.answer(player.pk, turn_id, legal[-1], "v9")
            answered.append(turn_id)
        thread.join(0.005)
    game = done["game"]
    rows = list(BotTurn.objects.filter(tournament=t).order_by("pk"))
    assert [r.pk for r in rows] == answered and len(rows) == sum(m.seat == 0 for m in game.moves)
    assert {(r.status, r.version) for r in rows} == {("answered", "v9")}
    bot_moves = [m.notation for m in game.moves if m.seat == 0]
    assert [r.answer for r in rows] == bot_moves == [r.legal[-1] for r in rows]
    state = services.game_of_rule_set(t.rule_set).new_initial_state(seed=game.seed)
    asked = iter(rows)
    for move in game.moves:  # each row's view was the seat's view at its ply
        if move.seat == 0:
            assert next(asked).view == json.loads(json.dumps(state.view(0)))
        state.apply(move.seat, state.game.parse_move(move.notation))
    assert turns.open_ids(player.pk) == []


def _legal(turn_id: int) -> list[str] | None:
    """An open turn's legal moves, as its socket sent them."""
    if fastlane.enabled():
        message = fastlane.client().hget(fastlane.turn_key(turn_id), "message")
        return None if message is None else json.loads(message)["legal"]
    return BotTurn.objects.filter(pk=turn_id).values_list("legal", flat=True).first()


@override_settings(OWNBOT_MOVE_SECONDS=30, OWNBOT_WAIT_SECONDS=30)
def test_a_game_sent_again_closes_the_turns_its_dead_try_left_open(trainer):
    """A worker killed mid-game left a turn open (with Redis: only there, no row yet).
    The game's next try (``start_game``) closes it: the bot's answer to it is late, it
    is offered no more, and the new try's turns are answered as usual."""
    player, _ = own_bot(trainer)
    other = Player.objects.create(kind="ownbot", name="Other", owner=trainer)
    t = _tournament(trainer)
    dead = turns.open_turn(player.pk, t.pk, 1, 0, 0, {"v": 1}, ["a", "b"])
    kept = turns.open_turn(other.pk, t.pk, 2, 0, 0, {"v": 1}, ["a"])  # another game's
    assert turns.open_ids(player.pk) == [dead.pk]
    turns.start_game(t.pk, 1)
    assert turns.open_ids(player.pk) == []
    assert turns.status(dead.pk) == "expired" and turns.status(kept.pk) == "waiting"
    with pytest.raises(services.MatchError) as refused:
        turns.answer(player.pk, dead.pk, "a", "v1")
    assert refused.value.code == "late"
    turns.answer(other.pk, kept.pk, "a", "v1")
    assert turns.status(kept.pk) == "answered"
