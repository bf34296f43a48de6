""" "Pawn move forward/center" (catalogue/READINGS.md): one step straight forward, or two
while the pawn lands no further than the centre line across its way (chess's double step
from the second to the fourth rank); with "Move on diag + en passant" it is chess's pawn.
Each test fails if the rule is played wrong."""

import pytest

from gamecore.engine import IllegalMove
from gamecore.engine.general.tables import Board2
from tests.engine_helpers import game, play

PAWNS = {
    "shapes": ["circle", "pentagon"],
    "board": {"type": "squares", "size": [3, 5, 1]},
    "reserves": {"black": {"circle": 2}, "white": {"circle": 2}},
    "shape_rules": {
        "circle": {"move": "pawn-forward-center", "power": "can-capture",
                   "condition": "diagonal-en-passant"},
        "pentagon": {"move": "adjacent"},
    },
    "turn_checks": [],
}  # fmt: skip


def legal(state) -> set[str]:
    return {str(m) for m in state.legal_moves(state.to_move()[0])}


def test_the_double_step_reaches_the_centre_line_and_no_further_as_in_chess():
    board = Board2((8, 8, 1), stacks=False, hash_board=False)
    up, down = (0, 1, 0), (0, -1, 0)
    # the second rank to the fourth, and not from the third; likewise for the other side
    assert board.pawn_limit(board.pos(4, 1, 0), up) == 2
    assert board.pawn_limit(board.pos(4, 2, 0), up) == 1
    assert board.pawn_limit(board.pos(4, 6, 0), down) == 2
    assert board.pawn_limit(board.pos(4, 5, 0), down) == 1
    five = Board2((3, 5, 1), stacks=False, hash_board=False)
    assert five.pawn_limit(five.pos(0, 0, 0), up) == 2  # to the middle row
    assert five.pawn_limit(five.pos(0, 1, 0), up) == 1
    three = Board2((3, 3, 1), stacks=False, hash_board=False)
    assert three.pawn_limit(three.pos(0, 0, 0), up) == 1  # no room to double on 3x3


def test_a_pawn_steps_forward_one_or_two_never_sideways_or_back():
    s = play(
        game(PAWNS).new_initial_state(),
        "circle 1,1,1",
        "circle 3,5,1",
        "circle 2,2,1",
        "circle 3,4,1",
    )
    assert legal(s) == {"1,1,1-1,2,1", "1,1,1-1,3,1", "2,2,1-2,3,1"}
    with pytest.raises(IllegalMove):
        s.apply(0, s.game.parse_move("2,2,1-2,4,1"))  # beyond the centre row
    with pytest.raises(IllegalMove):
        s.apply(0, s.game.parse_move("2,2,1-1,2,1"))  # sideways


def test_a_pawn_does_not_move_onto_a_piece_nor_double_step_over_one():
    s = play(
        game(PAWNS).new_initial_state(),
        "circle 1,1,1",
        "circle 1,2,1",
        "circle 3,1,1",
        "circle 3,3,1",
    )
    # white's pieces block 1,1 entirely and 3,1's double step
    assert legal(s) == {"3,1,1-3,2,1"}


def test_a_double_step_can_be_taken_en_passant():
    t = play(
        game(PAWNS).new_initial_state(),
        "circle 2,2,1",
        "circle 1,5,1",
        "circle 2,1,1",
        "circle 3,5,1",
    )
    play(t, "2,2,1-2,3,1", "1,5,1-1,3,1")  # white passed 1,4,1: black's pawn on 2,3,1...
    assert "2,3,1x1,4,1" in legal(t)  # ...takes it en passant, diagonally forward
    play(t, "2,3,1x1,4,1")
    assert t.board[t.game.geometry.index(0, 0, 2, 0)] == 0  # the passer is gone


def test_a_pawn_reaching_its_goal_becomes_a_shape_that_moves_backwards():
    s = play(
        game(PAWNS).new_initial_state(),
        "circle 1,4,1",
        "circle 3,1,1",
        "circle 2,1,1",
        "circle 3,2,1",
    )
    assert {"1,4,1-1,5,1=pentagon"} <= legal(s)
    assert "1,4,1-1,5,1" not in legal(s)
