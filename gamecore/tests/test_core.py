"""What a trainer relies on after `pip install`: documents validate with named errors, the
engine counts Tic-Tac-Toe's positions right, games end, and the bots play legal moves."""

import random

import pytest

from gamecore.bots import make_agent
from gamecore.bots.arena import play_game
from gamecore.engine import IllegalMove, RulesError, compile_game, perft
from gamecore.rules import fingerprint

TIC_TAC_TOE = {"name": "Tic-Tac-Toe"}  # the factory's defaults are Tic-Tac-Toe


def test_tic_tac_toe_perft_matches_the_known_counts():
    state = compile_game(TIC_TAC_TOE).new_initial_state(seed=1)
    assert [perft(state, depth) for depth in (1, 2, 3, 4)] == [9, 72, 504, 3024]


def test_a_bad_document_names_the_field_and_the_limit():
    with pytest.raises(RulesError, match=r"board\.size\[0\]: at most 19"):
        compile_game({"name": "x", "board": {"size": [99, 1, 1]}})


def test_the_name_is_not_part_of_the_fingerprint():
    assert fingerprint({"name": "a"}) == fingerprint({"name": "b"})
    assert fingerprint({"name": "a"}) != fingerprint({"name": "a", "board": {"type": "squares"}})


def test_an_illegal_move_leaves_the_state_untouched():
    game = compile_game(TIC_TAC_TOE)
    state = game.new_initial_state(seed=1)
    state.apply(0, game.parse_move("2,2,1"))
    before = state.view(None)
    with pytest.raises(IllegalMove):
        state.apply(1, game.parse_move("2,2,1"))
    assert state.view(None) == before


@pytest.mark.parametrize("spec", ["random", "easy", "medium", "hard", "mcts:50"])
def test_every_bot_plays_legal_moves_to_the_end(spec):
    game = compile_game(TIC_TAC_TOE)
    agents = [make_agent(spec, seed=3), make_agent("random", seed=4)]
    state, moves = play_game(game, agents, seed=5)
    assert 5 <= moves <= 9
    assert state.is_terminal() and state.outcome is not None


def test_random_playouts_end_and_report_an_outcome():
    game = compile_game({"name": "x", "board": {"type": "squares", "size": [4, 4, 1]}})
    rng = random.Random(0)
    for seed in range(20):
        state = game.new_initial_state(seed=seed)
        state.playout(rng)
        assert state.is_terminal()
        assert set(state.outcome.results) <= {"win", "loss", "draw"}
