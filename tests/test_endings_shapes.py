"""The ending measures release 1.7's games need (issue 34; rules/endings.py): lines of one
shape ("4-same-shape-in-a-row wins"), lines of one colour *and* shape ("Most
2-same-color-and-kind-in-a-row wins") and "Adjacent mixed shapes loses". Each is checked
by hand on small positions and, where an older path measures the same thing, side by side
with it over random games."""

import random

import pytest

from gamecore.bots.common import for_seat
from gamecore.engine import compile_game
from gamecore.engine.general import endings as general_endings
from gamecore.rules import RulesError, parse, summary
from gamecore.rules.endings import label, offered
from gamecore.rules.schema import Ending

SHAPE4 = {"measure": "in-a-row", "k": 4, "same": "shape", "when": "turn"}
MIXED = {"measure": "mixed", "when": "turn", "result": "loses"}
R = {"black": {"circle": 4, "x": 4}, "white": {"circle": 4, "x": 4}}
KIND2 = {"measure": "in-a-row", "k": 2, "same": "color-and-shape", "comparison": "most"}


def problems(doc) -> dict[str, str]:
    with pytest.raises(RulesError) as info:
        parse(doc)
    return {e["path"]: e["message"] for e in info.value.errors}


def test_labels_are_the_releases_words_and_the_factory_offers_them():
    words = [label(Ending(**e)) for e in (SHAPE4, MIXED, KIND2)]
    assert words == [
        "4-same-shape-in-a-row wins",
        "Adjacent mixed shapes loses",
        "Most 2-same-color-and-kind-in-a-row wins",
    ]
    assert set(words) <= {text for _key, text in offered()}
    doc = parse({"name": "T", "shapes": ["circle", "x"], "turn_checks": [], "endings": [MIXED]})
    assert "Adjacent mixed shapes loses" in summary(doc)
    # the old words keep theirs
    assert label(Ending(measure="in-a-row", k=2, comparison="most")) == (
        "Most 2-same-color-in-a-row wins"
    )


@pytest.mark.parametrize(
    "ending, path",
    [
        ({**SHAPE4, "when": "stalemate"}, "endings[0].when"),  # counts what a move made
        ({**MIXED, "comparison": "most", "when": "stalemate"}, "endings[0].when"),
        ({"measure": "in-a-row", "same": "shape", "when": "turn"}, "endings[0].k"),  # no k
        ({"measure": "pieces", "same": "shape"}, "endings[0].k"),  # only for in-a-row
    ],
)
def test_the_new_measures_are_bounded(ending, path):
    doc = {"name": "T", "shapes": ["circle", "x"], "turn_checks": [], "endings": [ending]}
    assert path in problems(doc)


def test_a_same_shape_turn_ending_is_not_a_turn_check():
    """ "First k-same-color-in-a-row" is the state's fast path; a same-shape line is not
    (normalisation keeps it among the endings, with its ``same``)."""
    ending = {**SHAPE4, "comparison": "any"}
    doc = parse({"name": "T", "shapes": ["circle", "x"], "turn_checks": [], "endings": [ending]})
    assert doc.turn_checks == () and doc.endings[0].same == "shape"


def _play(state, seat, text):
    move = next(m for m in state.legal_moves(seat) if str(m) == text)
    state.apply(seat, move)


def posts(endings, reserves=None):
    return compile_game(
        {
            "name": "Posts",
            "board": {"type": "stacks", "size": [3, 1, 4]},
            "shapes": ["circle", "x"],
            "reserves": reserves
            or {"black": {"circle": 4, "x": 4}, "white": {"circle": 4, "x": 4}},
            "turn_checks": [],
            "endings": endings,
        }
    )


def test_four_of_one_shape_in_a_row_wins_for_the_mover_whatever_the_colours():
    g = posts([SHAPE4])
    state = g.new_initial_state(seed=0)
    for seat, text in [(0, "circle 1,1"), (1, "circle 1,1"), (0, "circle 1,1")]:
        _play(state, seat, text)
        assert not state.is_terminal()
    _play(state, 1, "circle 1,1")  # white's circle makes four circles: black, white, black, white
    assert state.is_terminal()
    assert state.outcome.results == ("loss", "win")  # "... wins" alone: the others lose
    assert state.outcome.detail == "4-same-shape-in-a-row wins"


def test_adjacent_mixed_shapes_lose_for_the_mover_only_within_a_stack():
    g = posts([MIXED])
    state = g.new_initial_state(seed=0)
    _play(state, 0, "circle 1,1")
    _play(state, 1, "x 2,1")  # beside a circle, on the next post: pieces on posts do not touch
    assert not state.is_terminal()
    _play(state, 0, "circle 1,1")  # same shape on top: fine
    assert not state.is_terminal()
    _play(state, 1, "circle 2,1")  # white's circle on white's X: a mixed pair
    assert state.is_terminal() and state.outcome.results == ("win", "loss")  # "loses" alone


def test_adjacent_mixed_shapes_on_a_flat_board_are_orthogonal_neighbours():
    g = compile_game(
        {"name": "Flat", "board": {"type": "squares", "size": [3, 3, 1]},
         "shapes": ["circle", "x"], "turn_checks": [], "endings": [MIXED], "reserves": R}
    )  # fmt: skip
    state = g.new_initial_state(seed=0)
    _play(state, 0, "circle 1,1,1")
    _play(state, 1, "x 2,2,1")  # diagonal: not adjacent
    assert not state.is_terminal()
    _play(state, 0, "x 1,2,1")  # beside its own circle: the mover loses
    assert state.is_terminal() and state.outcome.results == ("loss", "win")


def _random_game(g, seed):
    state, rng, seen = g.new_initial_state(seed=seed), random.Random(seed), []
    while not state.is_terminal() and len(seen) < 60:
        seat = state.to_move()[0]
        move = rng.choice(for_seat(state, seat).legal_moves(seat))
        state.apply(seat, move)
        seen.append(state.clone())
    return seen


def test_color_and_kind_pairs_agree_with_color_pairs_when_there_is_one_shape():
    """Side by side with the older measure: with one shape, a line of one colour and one
    shape is a line of one colour."""
    doc = {"name": "One", "board": {"type": "squares", "size": [4, 4, 1]}, "turn_checks": []}
    new = compile_game({**doc, "endings": [KIND2]})
    old = compile_game({**doc, "endings": [{**KIND2, "same": "color"}]})
    checked = 0
    for seed in range(30):
        for state in _random_game(new, seed):
            twin = old.new_initial_state(seed=seed)
            twin.board = state.board  # the same position, measured by the older path
            a = general_endings.measure(state, new.ends.stalemate[0])
            b = general_endings.measure(twin, old.ends.stalemate[0])
            assert a == b
            checked += 1
    assert checked > 100


def test_color_and_kind_pairs_count_each_shape_apart():
    g = compile_game(
        {"name": "Two", "board": {"type": "squares", "size": [3, 1, 1]},
         "shapes": ["circle", "x"], "turn_checks": [], "endings": [KIND2],
         "reserves": {"black": {"circle": 1, "x": 1}, "white": {"circle": 1, "x": 1}}}
    )  # fmt: skip
    state = g.new_initial_state(seed=0)
    _play(state, 0, "circle 1,1,1")
    _play(state, 1, "circle 3,1,1")
    _play(state, 0, "x 2,1,1")  # black circle, black X: one colour, two shapes: no pair
    assert general_endings.measure(state, g.ends.stalemate[0]) == {0: 0, 1: 0}


def test_same_shape_lines_agree_with_the_turn_checks_when_each_colour_has_one_shape():
    """Side by side with the state's fast path ("First 4-same-color-in-a-row wins"): when
    black has only circles and white only Xs, a line of one shape is a line of one colour,
    and the mover's line is the mover's win."""
    base = {
        "name": "Four",
        "board": {"type": "squares", "size": [5, 5, 1]},
        "shapes": ["circle", "x"],
        "reserves": {"black": {"circle": 13, "x": 0}, "white": {"circle": 0, "x": 12}},
    }
    new = compile_game({**base, "turn_checks": [], "endings": [SHAPE4]})
    old = compile_game({**base, "turn_checks": [{"k": 4}]})
    wins = 0
    for seed in range(40):
        a, b = new.new_initial_state(seed=seed), old.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not a.is_terminal():
            seat = a.to_move()[0]
            move = rng.choice(a.legal_moves(seat))
            a.apply(seat, move)
            b.apply(seat, next(m for m in b.legal_moves(seat) if str(m) == str(move)))
            assert a.is_terminal() == b.is_terminal()
        winners = [r == "win" for r in a.outcome.results]
        assert winners == [r == "win" for r in b.outcome.results]
        wins += any(winners)
    assert wins > 10


POSTS = {**KIND2, "posts": True}


def test_pairs_on_posts_run_up_a_stack_only():
    """BeerQuiche60's reading of "posts": a line of two runs up one stack, never across
    to the next stack (nor diagonally)."""
    assert label(Ending(**POSTS)) == "Most 2-same-color-and-kind-in-a-row on posts wins"
    g = posts([POSTS])
    across = posts([KIND2])
    state, other = g.new_initial_state(seed=0), across.new_initial_state(seed=0)
    for seat, text in [(0, "circle 1,1"), (1, "x 3,1"), (0, "circle 2,1"), (1, "x 3,1")]:
        for s in (state, other):
            _play(s, seat, text)
    # black: two circles side by side (a pair across, none up a post); white: two Xs up post 3
    assert general_endings.measure(state, g.ends.stalemate[0]) == {0: 0, 1: 1}
    assert general_endings.measure(other, across.ends.stalemate[0]) == {0: 1, 1: 1}


def test_posts_are_for_stacks_with_a_length():
    flat = {"name": "T", "shapes": ["circle", "x"], "turn_checks": []}
    assert "endings[0].posts" in problems({**flat, "endings": [POSTS]})
    stacks = {**flat, "board": {"type": "stacks", "size": [3, 1, 3]}}
    assert "endings[0].posts" in problems({**stacks, "endings": [{**POSTS, "k": None}]})
    parse({**stacks, "endings": [POSTS]})  # fine
