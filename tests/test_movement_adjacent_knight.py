""" "Moves adjacent or knight" (seed 004, 3P-9X-HideSeek's circles): one step in any
direction or a knight's leap over anything, as a word of the vocabulary with its label,
its validation and its summary."""

import pytest

from gamecore import rules
from gamecore.engine import IllegalMove
from gamecore.engine.general.tables import Board2
from gamecore.rules import RulesError, parse
from gamecore.rules.vocabulary import MOVEMENT_LABELS, Movement
from tests.engine_helpers import game, play


def legal(state) -> set[str]:
    return {str(m) for m in state.legal_moves(state.to_move()[0])}


def test_the_word_is_in_the_vocabulary_with_the_seeds_label():
    assert "adjacent-or-knight" in Movement.__args__
    assert MOVEMENT_LABELS["adjacent-or-knight"] == "Moves adjacent or knight"


@pytest.mark.parametrize(
    "at, count",
    [
        ((2, 3, 0), 8 + 8),  # the middle of 5x7: every step, every leap
        ((0, 0, 0), 3 + 2),  # a corner: 3 steps, 2 leaps
        ((1, 0, 0), 5 + 3),  # beside it on the edge
    ],
)
def test_reach_is_the_steps_and_the_leaps(at, count):
    board = Board2((5, 7, 1), stacks=False, hash_board=False)
    reach = board.reach("adjacent-or-knight", board.pos(*at))
    assert all(len(ray) == 1 for ray in reach.rays)  # steps, never slides
    assert sum(map(len, reach.rays)) + len(reach.leaps) == count
    steps = set(board.reach("adjacent", board.pos(*at)).rays)
    leaps = set(board.reach("knight", board.pos(*at)).leaps)
    assert set(reach.rays) == steps and set(reach.leaps) == leaps


DOC = {
    "board": {"type": "squares", "size": [4, 4, 1]},
    "reserves": {"black": {"circle": 1}, "white": {"circle": 2}},
    "shape_rules": {"circle": {"move": "adjacent-or-knight"}},
    "turn_checks": [],
}


def test_a_circle_steps_one_space_or_leaps_but_never_slides():
    s = play(game(DOC).new_initial_state(), "1,1,1", "2,1,1")  # black (1,1); white (2,1)
    assert legal(s) == {
        "1,1,1-1,2,1", "1,1,1-2,2,1",  # the free steps ((2,1) is white's)
        "1,1,1-3,2,1", "1,1,1-2,3,1",  # the leaps
    }  # fmt: skip
    with pytest.raises(IllegalMove):  # two spaces in a line is no step and no leap
        s.apply(0, s.game.parse_move("1,1,1-1,3,1"))
    with pytest.raises(IllegalMove):  # occupied, and these circles do not capture
        s.apply(0, s.game.parse_move("1,1,1-2,1,1"))


def test_a_boxed_in_circle_still_leaps_over_the_crowd():
    doc = {**DOC, "reserves": {"black": {"circle": 2}, "white": {"circle": 3}}}
    s = play(game(doc).new_initial_state(), "1,1,1", "2,1,1", "4,4,1", "1,2,1")
    play(s, "4,4,1-4,3,1", "2,2,1")  # white (2,1) (1,2) (2,2) round black's (1,1)
    mine = {m for m in legal(s) if m.startswith("1,1,1-")}
    assert mine == {"1,1,1-3,2,1", "1,1,1-2,3,1"}


def test_validation_and_summary():
    doc = parse({"name": "K", **DOC})
    assert rules.summary(doc).endswith("; Moves adjacent or knight")  # one shape: no name
    with pytest.raises(RulesError) as wrong:
        parse({"name": "K", **DOC, "shape_rules": {"circle": {"move": "adjacent-or-knigt"}}})
    assert "shape_rules.circle.move" in str(wrong.value)
    jumps = {"move": "adjacent-or-knight", "power": "can-capture", "condition": "jump"}
    parse({"name": "K", **DOC, "shape_rules": {"circle": jumps}})  # its steps jump
