"""A recorded game's log is packed in its match's row (play.move_log, issue 36): every
reader of a match's moves reads it as it reads Move rows — replay frames (whole and
windowed, a spectator's and a seat's), the API's match log, the position, the stats'
think times, studying — and the migration packs existing tournament rows and unpacks
them again."""

import importlib
import random

import pytest
from django.apps import apps
from django.utils import timezone

from api.reads import match_detail
from gamecore.engine import compile_game
from leaderboards.models import Tournament
from leaderboards.services import default_universe
from leaderboards.stats import player_stats
from play import replay
from play.models import Match, Move, Seat
from play.move_log import LogRow, pack, rows_of, rows_of_many, think_totals, unpack
from play.recording import PlayedGame, PlayedMove, record_game
from tests.play_helpers import bot, rule_set

pytestmark = pytest.mark.django_db
migration = importlib.import_module("play.migrations.0009_packed_move_logs")


def test_pack_and_unpack_keep_every_row_and_its_kind():
    moves = [PlayedMove(0, "1,1,1", 5), PlayedMove(1, "", 60000, Move.Kind.TIMEOUT),
             (0, "2,2,1", 7), PlayedMove(1, "a;b,\"c\"", 0)]  # fmt: skip
    assert unpack(pack(moves)) == [
        LogRow(1, 0, "move", "1,1,1", True, 5),
        LogRow(2, 1, "timeout", "", True, 60000),
        LogRow(3, 0, "move", "2,2,1", True, 7),
        LogRow(4, 1, "move", 'a;b,"c"', True, 0),
    ]
    assert think_totals(moves, 2) == [(2, 12), (1, 0)]  # a timer's row is no move
    with pytest.raises(ValueError, match="ply 1: unknown kind"):
        unpack('[[0,"1,1,1",0,"teleport"]]')


def played(name: str, seed: int, tournament=None):
    """A random game of ``name`` recorded as a tournament's (packed)."""
    rules = rule_set(name)
    game = compile_game(rules.document)
    state, rng, moves = game.new_initial_state(seed=seed), random.Random(seed), []
    while not state.is_terminal() and len(moves) < 400:
        seat = rng.choice(state.to_move())
        move = rng.choice(state.legal_moves(seat))
        state.apply(seat, move)
        moves.append(PlayedMove(seat, str(move), rng.randrange(50)))
    assert state.is_terminal()
    now = timezone.now()
    players = [bot(f"P{i}") for i in range(len(state.outcome.results) - (game.chaos is not None))]
    game_over = PlayedGame(seed=seed, moves=moves, outcome=state.outcome, started=now,
                           finished=now)  # fmt: skip
    match = record_game(rules, players, game.chaos, game_over, tournament=tournament,
                        game_number=1 if tournament else None)  # fmt: skip
    match.played = moves
    return match


def as_rows(match: Match) -> Match:
    """The same match with its log as Move rows (the live representation)."""
    Move.objects.bulk_create(
        Move(
            match=match,
            ply=r.ply,
            seat=r.seat,
            kind=r.kind,
            notation=r.notation,
            auto=r.auto,
            think_ms=r.think_ms,
        )  # fmt: skip
        for r in rows_of(match)
    )
    Match.objects.filter(pk=match.pk).update(move_log=None)
    Seat.objects.filter(match=match).update(moves_made=None, think_total_ms=None)
    replay._cache.clear()  # the position cache would hide a reader's own work
    return Match.objects.get(pk=match.pk)


def readings(match: Match) -> dict:
    replay._cache.clear()
    match = Match.objects.get(pk=match.pk)
    players = [s.player for s in match.seats.exclude(player=None).select_related("player")]
    return {
        "rows": rows_of(match),
        "many": rows_of_many([match.pk])[match.pk],
        "frames": replay.frames(match),
        "seat frames": replay.frames(match, you=[0]),
        "window": replay.frame_window(match, start=3, count=4),
        "api": match_detail(match),
        "view": replay.current_state(match).view(0),
        "think": [
            [(r.rule_set_name, r.matches, r.think_ms) for r in player_stats(p, [match.rule_set])]
            for p in players
        ],
    }


@pytest.mark.parametrize("name", ["Tic-Tac-Toe", "Shopping9", "StagHunt", "Ultimate-Tic-Tac-Toe"])
def test_every_reader_reads_a_packed_log_as_its_rows(catalogue, name):
    match = played(name, seed=3)
    assert match.move_log and not Move.objects.filter(match=match).exists()
    packed = readings(match)
    assert [(r.seat, r.notation, r.think_ms) for r in packed["rows"]] == [
        (m.seat, m.notation, m.think_ms) for m in match.played
    ]
    assert packed["think"][0][0][2] is not None
    unpacked = readings(as_rows(match))
    assert Move.objects.filter(match=match).count() == match.ply
    assert packed == unpacked


def test_the_migration_packs_tournament_rows_and_unpacks_them_again(catalogue):
    t = Tournament.objects.create(name="t", rule_set=rule_set("Tic-Tac-Toe"),
                                  universe=default_universe(), total_games=1, seed=1)  # fmt: skip
    match = played("Tic-Tac-Toe", seed=5, tournament=t)
    live = played("Tic-Tac-Toe", seed=6)  # not a tournament's: its rows stay rows
    want = rows_of(match)
    totals = list(Seat.objects.filter(match=match).values_list("moves_made", "think_total_ms"))
    as_rows(live)
    migration.unpack_logs(apps, None)  # the way back: every packed log as rows
    assert Match.objects.get(pk=match.pk).move_log is None
    assert Move.objects.filter(match=match).count() == len(want)
    migration.pack_tournament_logs(apps, None)
    match.refresh_from_db()
    assert rows_of(match) == want and not Move.objects.filter(match=match).exists()
    seats = Seat.objects.filter(match=match).values_list("moves_made", "think_total_ms")
    assert list(seats) == totals
    assert Match.objects.get(pk=live.pk).move_log is None  # left as it was
    assert Move.objects.filter(match=live).count() == live.ply


def test_bot_moves_pack_and_total_as_the_general_path_does():
    """``pack``/``think_totals`` take a fast path for a bot game's (seat, notation, ms)
    tuples: the same text and totals as the general path (PlayedMoves) gives."""
    from play.move_log import pack, think_totals
    from play.recording import PlayedMove

    moves = [(0, "d1", 3), (1, "c1", 0), (0, 'e\\"1', 7), (5, "x", 2)]
    general = [PlayedMove(*m) for m in moves]
    assert pack(moves) == pack(general) == '[[0,"d1",3],[1,"c1",0],[0,"e\\\\\\"1",7],[5,"x",2]]'
    assert think_totals(moves, 2) == think_totals(general, 2) == [(2, 10), (1, 0)]
