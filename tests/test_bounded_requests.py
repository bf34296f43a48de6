"""The factory's quick estimate keeps its budget inside a move, and Checked is refused
where it was never meant (issue 39): on one flat board (depth 1) each legal-move list
played every candidate out against every reply (4-7 s a list on 10×10×10)."""

import time

import pytest

from gamecore.engine import RulesError, compile_game
from gamecore.engine.deadline import OutOfTime, check, within
from variants import catalogue
from variants.analysis.sampling import random_games
from variants.factory.estimate import estimate


def nested(side, depth, dimensions, **options):
    return {
        "name": "Nested",
        "board": {"type": "nested"},
        "nested": {"side": side, "depth": depth, "dimensions": dimensions, **options},
    }


def test_checked_on_a_flat_board_is_refused_with_a_clear_message():
    with pytest.raises(RulesError) as refused:
        compile_game(nested(10, 1, 3, checked=True))
    assert "Checked is an Ultimate option: it needs depth ≥ 2 (blocks)" in str(refused.value)
    assert "nested.checked" in str(refused.value)
    compile_game(nested(10, 1, 3))  # the same board without Checked is a game
    compile_game(catalogue.get("Ultimate-Checked"))  # the catalogue's Checked still is


def test_the_estimate_of_a_flat_checked_board_answers_at_once():
    clock = time.perf_counter()
    assert estimate(nested(10, 1, 3, checked=True)) == ""
    assert time.perf_counter() - clock < 1.0


def test_random_games_keep_their_budget_inside_costly_moves():
    game = compile_game(nested(3, 2, 3, checked=True))  # Checked played out: 729 cells
    clock = time.perf_counter()
    tally = random_games(game, 300, seed=0, seconds=0.05)
    assert time.perf_counter() - clock < 0.4
    assert tally.games == 0  # a game lasts hundreds of costly moves: none finished


def test_the_engine_deadline_raises_only_inside_within():
    check()  # no deadline: never raises
    with within(time.perf_counter() - 1), pytest.raises(OutOfTime):
        check()
    with within(None):
        check()
    check()
