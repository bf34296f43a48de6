"""Own bots at speed (issue 36): a batch's own-bot games are in flight at once, a game's
turns (with Redis) open there and are written as rows at the game's end, and a game
sent again closes the turns its dead try left open. Run on both shapes: embedded (the
database is the mailbox) and PostgreSQL + Redis (``fastlane``)."""

from __future__ import annotations

import json
import threading
import time
from unittest.mock import patch

import pytest
from django.db import connection
from django.test import override_settings

from accounts.models import Player
from accounts.services import random_player
from ownbots import asking, connections, fastlane, turns
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


@override_settings(OWNBOT_MOVE_SECONDS=5, OWNBOT_WAIT_SECONDS=5)
def test_a_batchs_own_bot_games_are_all_in_flight_at_once_on_one_thread(trainer):
    """The worker opens each game's first turn before any answer comes (one by one, the
    first game would wait for ever: nothing is answered until four are open), with Redis
    in one message to the bot's socket; it plays on its own thread alone."""
    player, _ = own_bot(trainer)
    connections.claim(player.pk, "chan", "proc", "v9")
    t = _tournament(trainer, 4)
    seated = [player, random_player()]
    pushed = _subscribed(player.pk)
    done, threads = {}, set()
    real_wait = asking.Asking.wait

    def wait(self):
        threads.add(threading.get_ident())
        return real_wait(self)

    def worker():
        try:
            with patch.object(asking.Asking, "wait", wait):
                done["games"] = remote.play_tournament_games(t, [(n, seated) for n in (1, 2, 3, 4)])
        finally:
            connection.close()

    thread = threading.Thread(target=worker)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while len(turns.open_ids(player.pk)) < 4:
            assert time.monotonic() < deadline, "the four games never asked together"
            time.sleep(0.005)
        if pushed is not None:  # the first four turns, in one message to the socket
            first = _next_message(pushed)
            assert sorted(json.loads(text)["game"] for _id, _at, text in first) == [1, 2, 3, 4]
        _answer_until_done(player, thread)
    finally:
        thread.join(10)
    assert threads == {thread.ident}
    assert [g.versions for g in done["games"]] == [{0: "v9"}] * 4  # in the order asked
    assert all(g.outcome is not None for g in done["games"])
    assert turns.open_ids(player.pk) == []


def _subscribed(player_id: int):
    """With Redis, a subscription to the bot's channel (what its socket would get)."""
    if not fastlane.enabled():
        return None
    pubsub = fastlane.client().pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(fastlane.turns_channel(player_id))
    return pubsub


def _next_message(pubsub) -> list:
    for _ in range(100):
        message = pubsub.get_message(timeout=0.1)
        if message is not None:
            return fastlane._unpublished(message["data"])
    raise AssertionError("nothing published")


def _answer_until_done(player, thread) -> list[int]:
    """Answer every open turn (its last legal move) until the worker's thread ends."""
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
    return answered


@pytest.mark.parametrize("record_at", [100, 1])
@override_settings(OWNBOT_MOVE_SECONDS=5, OWNBOT_WAIT_SECONDS=5)
def test_a_game_played_through_the_mailbox_stores_each_turn_once_with_its_answer(
    trainer, monkeypatch, record_at
):
    """A worker (a thread) plays a game; the bot answers each open turn. Stored: a row
    per turn with the seat's view, its legal moves, the answer and version; nothing left
    open. With Redis the closed turns' rows are written ``RECORD_AT`` at a time while the
    game goes on (1: a write at each wait after the first answer), the rest at its end."""
    monkeypatch.setattr(asking, "RECORD_AT", record_at)
    writes = []
    real_record = asking.record_turns
    monkeypatch.setattr(asking, "record_turns", lambda t: (writes.append(len(t)), real_record(t)))
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
    answered = _answer_until_done(player, thread)
    game = done["game"]
    rows = list(BotTurn.objects.filter(tournament=t).order_by("pk"))
    assert [r.pk for r in rows] == answered and len(rows) == sum(m.seat == 0 for m in game.moves)
    assert {(r.status, r.version) for r in rows} == {("answered", "v9")}
    if fastlane.enabled() and record_at == 1:  # as the game went: a row a write (the
        assert writes == [1] * len(rows)  # last turn's at the end)
    elif fastlane.enabled():
        assert writes == [len(rows)]
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
    The game's next try (``start_games``) closes it: the bot's answer to it is late, it
    is offered no more, and the new try's turns are answered as usual."""
    player, _ = own_bot(trainer)
    other = Player.objects.create(kind="ownbot", name="Other", owner=trainer)
    t = _tournament(trainer)
    dead = turns.open_turn(player.pk, t.pk, 1, 0, 0, {"v": 1}, ["a", "b"])
    kept = turns.open_turn(other.pk, t.pk, 2, 0, 0, {"v": 1}, ["a"])  # another game's
    assert turns.open_ids(player.pk) == [dead.pk]
    turns.start_games(t.pk, [1])
    assert turns.open_ids(player.pk) == []
    assert turns.status(dead.pk) == "expired" and turns.status(kept.pk) == "waiting"
    with pytest.raises(services.MatchError) as refused:
        turns.answer(player.pk, dead.pk, "a", "v1")
    assert refused.value.code == "late"
    turns.answer(other.pk, kept.pk, "a", "v1")
    assert turns.status(kept.pk) == "answered"


@override_settings(OWNBOT_MOVE_SECONDS=5)
def test_a_turns_message_is_its_seats_view_and_legal_moves_with_its_times(trainer):
    """What a socket passes on (``timed_text`` of ``message_text``, never parsed on the
    way) is the ``your-move`` of the protocol, field by field."""

    player, _ = own_bot(trainer)
    t = _tournament(trainer)
    view = {"board": [[0, 1], [2, 0]], "note": 'a "quoted" \\ text', "é": None}
    turn = turns.new_turn(player.pk, t.pk, 7, 1, 12, view, ["a1", "b2"], up=True)
    turn.pk = 4321
    deadline = int(turn.deadline.timestamp() * 1000)
    sent = json.loads(fastlane.timed_text(turns.message_text(turn), deadline))
    left = sent.pop("timeLeft")
    assert sent == {
        "type": "your-move", "turn": "t4321", "match": None, "tournament": t.pk, "game": 7,
        "seat": 1, "ply": 12, "view": view, "legal": ["a1", "b2"], "deadline": deadline,
    }  # fmt: skip
    assert 4 < left <= 5 and isinstance(turn, turns.Turn)


def test_a_turns_view_is_stored_as_written_and_read_back_whole(trainer):
    """``JsonText``: PostgreSQL keeps the view as ``json`` text (no ``jsonb`` parse for a
    row nobody searches inside); the ORM and the worker's COPY both write it, and it is
    read back as the same values, keys that are numbers included, as JSON has them."""
    player, _ = own_bot(trainer)
    t = _tournament(trainer)
    view = {"board": [[0, 1], [2, None]], "hands": {0: ["a"]}, "note": 'é "q" \\'}
    saved = turns.new_turn(player.pk, t.pk, 1, 0, 3, view, ["a", "b"], up=True)
    turns.insert_turns([saved])
    copied = [turns.new_turn(player.pk, t.pk, 2, 0, 3, view, ["a"], up=True) for _ in range(2)]
    for turn in copied:
        turn.pk, turn.status = turns.new_id() or None, BotTurn.Status.ANSWERED
    turns.record_turns(copied)
    expected = json.loads(json.dumps(view))
    rows = BotTurn.objects.filter(tournament=t).order_by("game_number", "pk")
    assert [(r.view, r.legal) for r in rows] == [
        (expected, ["a", "b"]), (expected, ["a"]), (expected, ["a"])
    ]  # fmt: skip
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT data_type FROM information_schema.columns "
                "WHERE table_name = %s AND column_name IN ('view', 'legal')",
                [BotTurn._meta.db_table],
            )
            assert {row[0] for row in cursor.fetchall()} == {"json"}


def test_a_turn_made_with_its_view_as_text_sends_and_stores_that_view(trainer):
    """A flat game's view comes as JSON text (``ViewText``, from ``State.view_text``):
    the message carries it as it is, and the row, by the ORM or by COPY, holds the view."""
    player, _ = own_bot(trainer)
    t = _tournament(trainer)
    view = {"board": [[0, 1]], "note": 'é "q"'}
    text = turns.ViewText(json.dumps(view))
    made = [turns.new_turn(player.pk, t.pk, n, 0, 3, text, ["a"], up=True) for n in (1, 2, 3)]
    turns.insert_turns(made[:1])  # the ORM's row
    assert json.loads(turns.message_text(made[0]))["view"] == view
    for turn in made[1:]:
        turn.pk, turn.status = turns.new_id() or None, BotTurn.Status.ANSWERED
    turns.record_turns(made[1:])  # COPY on PostgreSQL
    rows = BotTurn.objects.filter(tournament=t).order_by("game_number")
    assert [r.view for r in rows] == [view, view, view]


def test_a_turns_player_is_found_by_the_player_and_status_index_alone(db):
    """One index fewer to update a turn (ownbots/0004): lookups by player use the
    (player, status) index, and no index on the player alone is left beside it."""
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, BotTurn._meta.db_table)
    indexed = [tuple(c["columns"]) for c in found.values() if c["index"] and not c["primary_key"]]
    assert ("player_id", "status") in indexed
    assert ("player_id",) not in indexed
