"""Simultaneous rounds (issue 19; engine/general/rounds.py): every seat to move plans
against the board as it was when the round began; plans are hidden from the other seats;
when all are in they resolve together, and moves to the same place collide (by rank where
it applies, else every piece moved there is destroyed). Forfeit, skip, draw offers,
``without_plans``, clone and replay work with rounds, and random play always ends."""

import itertools
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamecore.engine import IllegalMove, compile_game
from gamecore.engine.general.generate import stack_pieces
from tests.engine_helpers import game


def plan(state, seat, text):
    state.apply(seat, state.game.parse_move(text))


def legal(state, seat) -> set[str]:
    return {str(m) for m in state.legal_moves(seat)}


def row(n, players="2", per_seat=1, **extra):
    """A 1 x n column of squares (the seed's 4P-TrendSetter is 1x3x1), simultaneous."""
    colors = ("black", "white", "pink", "yellow")[: {"2": 2, "3": 3, "4": 4}[players]]
    return {
        "players": players,
        "board": {"type": "squares", "size": [1, n, 1]},
        "reserves": {c: {"circle": per_seat} for c in colors},
        "turn_checks": [],
        "phases": [{"order": "simultaneous"}],
        **extra,
    }


def at(state, x, y, z=1):
    """(seat, shape) of the piece on a space, or None."""
    g = state.game
    code = state.board[g.geometry.index(0, x - 1, y - 1, z - 1)]
    if code <= 0:
        return None
    owner, _color, shape = g.decode(code)
    return owner, g.shape_names[shape]


# -- planning ------------------------------------------------------------------------------
def test_every_seat_plans_and_a_planned_seat_has_no_move():
    s = game(row(3, players="3")).new_initial_state()
    assert s.to_move() == (0, 1, 2)
    plan(s, 1, "1,2,1")
    assert s.to_move() == (0, 2) and s.legal_moves(1) == []
    with pytest.raises(IllegalMove, match="already planned"):
        plan(s, 1, "1,3,1")
    assert s.pending_plans() == {1: s.game.parse_move("1,2,1")}
    assert at(s, 1, 2) is None  # nothing moves before the round resolves


def test_a_plan_is_legal_as_if_its_seat_moved_first():
    s = game(row(3, per_seat=2)).new_initial_state()
    plan(s, 0, "1,1,1")
    assert "1,1,1" in legal(s, 1)  # the board is still the round's start for white
    plan(s, 1, "1,1,1")
    assert s.round == 1 and at(s, 1, 1) is None  # they collided
    plan(s, 0, "1,2,1")
    with pytest.raises(IllegalMove):
        plan(s, 0, "1,3,1")  # black has planned: no second plan in a round
    plan(s, 1, "1,3,1")
    assert at(s, 1, 2) == (0, "circle") and at(s, 1, 3) == (1, "circle")
    with pytest.raises(IllegalMove):  # both black circles are gone: no reserve left
        plan(s, 0, "1,1,1")


def test_a_plan_is_hidden_from_the_other_seats():
    s = game(row(3, players="3")).new_initial_state()
    plan(s, 0, "1,3,1")
    mine, other, spectator = s.view(0), s.view(1), s.view(None)
    assert mine["plans"] == {"registered": [1], "mine": "1,3,1", "to_plan": [2, 3]}
    assert other["plans"] == {"registered": [1], "mine": None, "to_plan": [2, 3]}
    assert spectator["plans"]["mine"] is None
    for view in (other, spectator):
        text = json.dumps({k: v for k, v in view.items() if k != "legal_moves"})
        assert "1,3,1" not in text and view["boards"][0]["pieces"] == []
    plan(s, 1, "1,1,1")
    plan(s, 2, "1,2,1")
    assert s.view(1)["last_round"] == [[1, "1,3,1"], [2, "1,1,1"], [3, "1,2,1"]]


def test_without_plans_forgets_the_other_seats_plans():
    s = game(row(3, players="3")).new_initial_state()
    plan(s, 0, "1,1,1")
    plan(s, 1, "1,2,1")
    mine = s.without_plans(1)
    assert mine.pending_plans() == {1: s.game.parse_move("1,2,1")}
    assert mine.to_move() == (0, 2)
    assert s.to_move() == (2,) and len(s.pending_plans()) == 2  # the original is untouched


# -- collisions ----------------------------------------------------------------------------
def test_pieces_moved_to_the_same_space_are_destroyed():
    s = game(row(3, players="4")).new_initial_state()  # 4P-TrendSetter's board
    for seat, text in enumerate(["1,1,1", "1,1,1", "1,2,1", "1,3,1"]):
        plan(s, seat, text)
    assert at(s, 1, 1) is None
    assert at(s, 1, 2) == (2, "circle") and at(s, 1, 3) == (3, "circle")
    assert s.reserves == [0, 0, 0, 0]  # the collided pieces left their reserves


RPS = {
    "board": {"type": "stacks", "size": [1, 1, 2]},
    "shapes": ["circle", "x", "pentagon"],
    "reserves": {
        "black": {"circle": 1, "x": 1, "pentagon": 1},
        "white": {"circle": 1, "x": 1, "pentagon": 1},
    },
    "shape_rules": {
        s: {"power": "can-capture", "condition": "cover-by-rank", "result": "remove"}
        for s in ("circle", "x", "pentagon")
    },
    "turn_checks": [],
    "phases": [{"order": "single"}],
}


def stack_of(state, pos=0) -> list[tuple[int, str]]:
    """(seat, shape) of the pieces of a stack, bottom up."""
    g = state.game
    pieces = [g.piece[state.board[sp]] for sp in stack_pieces(state, pos)]
    return [(owner, g.shape_names[shape]) for owner, _color, shape, _ri in pieces]


# the seed's ranks make the familiar cycle: pentagon > x > circle > pentagon
BEATS = {("pentagon", "x"), ("x", "circle"), ("circle", "pentagon")}


@pytest.mark.parametrize(("a", "b"), itertools.product(("circle", "x", "pentagon"), repeat=2))
def test_a_collision_by_rank_is_rock_paper_scissors(a, b):
    s = game(RPS).new_initial_state()
    plan(s, 0, f"{a} 1,1")
    plan(s, 1, f"{b} 1,1")
    left = stack_of(s)
    if (a, b) in BEATS:
        assert left == [(0, a)]
    elif (b, a) in BEATS:
        assert left == [(1, b)]
    else:
        assert a == b and left == []  # equal ranks destroy each other


def test_by_rank_converts_the_loser_into_the_stack_under_the_winner():
    rules = {s: {**r, "result": "convert"} for s, r in RPS["shape_rules"].items()}
    # (convert on a cover is validated only for pieces moving by stack, so far)
    by_stack = {s: {"move": "orthogonal-by-stack", **r} for s, r in rules.items()}
    doc = {**RPS, "shape_rules": by_stack}
    s = game(doc).new_initial_state()
    plan(s, 0, "x 1,1")
    plan(s, 1, "pentagon 1,1")
    left = stack_of(s)
    assert left == [(1, "x"), (1, "pentagon")]


def test_pieces_leave_before_others_arrive():
    doc = {
        "board": {"type": "squares", "size": [4, 1, 1]},
        "reserves": {"black": {"circle": 1}, "white": {"circle": 1}},
        "shape_rules": {"circle": {"move": "adjacent", "power": "can-capture"}},
        "turn_checks": [],
        "phases": [{"placement_only": True}, {"order": "simultaneous", "allow_pass": True}],
    }
    s = game(doc).new_initial_state()
    s.apply(0, s.game.parse_move("2,1,1"))
    s.apply(1, s.game.parse_move("3,1,1"))
    assert s.view(None)["phase"]["number"] == 2 and s.to_move() == (0, 1)
    plan(s, 0, "2,1,1x3,1,1")  # black, the lower seat, means to take white's piece...
    plan(s, 1, "3,1,1-4,1,1")  # ...which leaves first
    assert at(s, 3, 1) == (0, "circle") and at(s, 4, 1) == (1, "circle")


def test_every_seat_passing_ends_the_phase():
    doc = row(3, phases=[{"order": "simultaneous", "allow_pass": True}, {"locked_seats": [2]}])
    s = game(doc).new_initial_state()
    plan(s, 0, "pass")
    plan(s, 1, "pass")
    assert s.view(None)["phase"]["number"] == 2 and s.to_move() == (0,)


# -- leaving, skipping and offering a draw in a round ------------------------------------------
def test_skip_and_forfeit_leave_nothing_planned_and_the_round_resolves():
    s = game(row(3, players="3")).new_initial_state()
    plan(s, 0, "1,1,1")
    s.skip(1)
    assert s.to_move() == (2,)
    s.forfeit(2)
    assert s.round == 1 and at(s, 1, 1) == (0, "circle")
    assert s.last_round == ((0, s.game.parse_move("1,1,1")),)
    with pytest.raises(IllegalMove):
        s.skip(2)


def test_a_draw_offer_in_a_round():
    s = game(row(3, agree_draw=True)).new_initial_state()
    plan(s, 1, "1,2,1")
    assert "draw" in legal(s, 0)
    plan(s, 0, "draw")
    assert s.to_move() == (1,) and legal(s, 1) == {"accept", "decline"}
    plan(s, 1, "decline")
    assert s.to_move() == (0,) and "draw" not in legal(s, 0)  # once a round
    assert s.pending_plans() == {1: s.game.parse_move("1,2,1")}  # white's plan stands
    plan(s, 0, "1,1,1")
    assert at(s, 1, 1) == (0, "circle") and at(s, 1, 2) == (1, "circle")


# -- every game ends; clone and replay ---------------------------------------------------------
SHAPE_RULES = [
    {},
    {"move": "adjacent"},
    {"move": "adjacent", "power": "can-capture"},
    {"move": "orthogonal", "power": "can-capture", "condition": "cover-by-rank"},
    {"move": "knight", "power": "can-capture", "result": "reincarnate"},
]
STACK_RULES = [
    {"power": "can-capture", "condition": "cover-by-rank"},
    {"move": "orthogonal-by-stack"},
    {"move": "orthogonal-by-stack", "power": "can-capture", "result": "reincarnate"},
    {"move": "adjacent", "power": "can-capture"},
]
PLAYERS = {"2": 2, "3": 3, "2-vs-chaos": 3, "4": 4}


@st.composite
def phased_docs(draw):
    players = draw(st.sampled_from(sorted(PLAYERS)))
    seats = PLAYERS[players]
    stacks = draw(st.booleans())
    size = [draw(st.integers(1, 3)), draw(st.integers(1, 3)), 2 if stacks else 1]
    if size[0] * size[1] == 1 and not stacks:
        size[0] = 2
    shapes = ["circle", "x", "pentagon"][: draw(st.integers(1, 3))]
    colors = ("black", "white", "pink", "yellow")[:seats]
    top = min(2, -(-size[0] * size[1] * size[2] // seats))  # the reserve limit
    reserves = {c: {sh: draw(st.integers(0, top)) for sh in shapes} for c in colors}
    rules = {}
    for sh in shapes:
        r = dict(draw(st.sampled_from(SHAPE_RULES)))
        if stacks and r:
            r = draw(st.sampled_from(STACK_RULES))
        if r:
            rules[sh] = r
    phases = []
    for i in range(draw(st.integers(1, 3))):
        phases.append(
            {
                "order": draw(st.sampled_from(["sequential", "simultaneous", "single"])),
                "allow_pass": draw(st.booleans()),
                "placement_only": draw(st.booleans()),
                "locked_seats": draw(st.lists(st.integers(1, seats), max_size=seats - 1)),
                "fold": "none"
                if i == 2
                else draw(st.sampled_from(["none", "less-than-most-committed", "uncommitted"])),
            }
        )
    phases[-1]["fold"] = "none"
    return {
        "name": "P",
        "boards": 1 if rules else draw(st.integers(1, 2)),  # moving pieces: 1 board so far
        "players": players,
        "board": {"type": "stacks" if stacks else "squares", "size": size},
        "shapes": shapes,
        "reserves": reserves,
        "shape_rules": rules,
        "turn_checks": draw(st.sampled_from([[], [{"k": 2}], [{"k": 3, "result": "loses"}]])),
        "stalemate": draw(st.sampled_from(["draw", "most-pieces-wins", "all-lose"])),
        "sticky": [{"at": [1, 1, 0 if stacks else 1]}] if draw(st.booleans()) else [],
        "phases": phases,
    }


def snapshot(state) -> tuple:
    return (
        state.key(),
        state.to_move(),
        json.dumps(state.view(None), sort_keys=True),
        state.pending_plans(),
        state.round,
        state.last_round,
        state.outcome,
    )


@settings(max_examples=60, deadline=None)
@given(phased_docs(), st.integers(0, 10**6))
def test_random_play_of_phased_documents_ends_and_replays_the_same(doc, seed):
    g = compile_game(doc, family="general")
    rng = random.Random(seed)
    s = g.new_initial_state(seed=seed)
    played = []
    while not s.is_terminal():
        seat = rng.choice(s.to_move())
        moves = s.legal_moves(seat)
        assert moves, f"seat {seat} is to move with no legal move"
        move = rng.choice(moves)
        copy = s.clone()
        s.apply(seat, move)
        copy.play(seat, move)  # a clone plays on the same
        assert snapshot(copy) == snapshot(s)
        played.append((seat, move))
        assert len(played) < 5000, "a game went on for ever"
    again = g.new_initial_state(seed=seed)
    for seat, move in played:
        again.apply(seat, g.parse_move(str(move)))
    assert snapshot(again) == snapshot(s)


def test_random_playouts_of_simultaneous_games_end():
    for doc in (RPS, row(3, players="4"), {**RPS, "phases": [{"order": "simultaneous"}]}):
        g = game(doc)
        for seed in range(30):
            s = g.new_initial_state(seed=seed)
            n = s.playout(random.Random(seed))
            assert s.is_terminal() and n < 100


def test_a_position_repeated_three_times_between_rounds_stalemates():
    doc = {
        "board": {"type": "squares", "size": [4, 1, 1]},
        "reserves": {"black": {"circle": 1}, "white": {"circle": 1}},
        "shape_rules": {"circle": {"move": "adjacent"}},
        "turn_checks": [],
        "phases": [{"placement_only": True}, {"order": "simultaneous"}],
    }
    s = game(doc).new_initial_state()
    s.apply(0, s.game.parse_move("1,1,1"))
    s.apply(1, s.game.parse_move("4,1,1"))
    for _ in range(2):
        plan(s, 0, "1,1,1-2,1,1")
        plan(s, 1, "4,1,1-3,1,1")
        assert s.outcome is None
        plan(s, 0, "2,1,1-1,1,1")
        plan(s, 1, "3,1,1-4,1,1")
    # the round starts a third time from the same position
    assert s.outcome is not None and "three times" in s.outcome.detail
    assert s.round == 4


def test_an_illegal_plan_changes_nothing():
    doc = {
        "board": {"type": "squares", "size": [4, 1, 1]},
        "reserves": {"black": {"circle": 2}, "white": {"circle": 2}},
        "initial_pieces": [{"at": [4, 1, 1], "color": "white"}],
        "turn_checks": [],
        "phases": [{"order": "simultaneous", "placement_only": True}],
    }
    s = game(doc).new_initial_state()
    before = snapshot(s)
    for seat, move in [(0, "4,1,1"), (0, "9,1,1"), (5, "1,1,1"), (0, "pass"), (0, "accept")]:
        with pytest.raises(IllegalMove):
            plan(s, seat, move)
        assert snapshot(s) == before
    with pytest.raises(IllegalMove):
        s.apply(0, "1,1,1")  # not a Move
    assert snapshot(s) == before


@pytest.mark.parametrize(
    ("shapes", "left"),
    [
        (("circle", "x", "pentagon"), []),  # a cycle: no piece beats every other
        (("pentagon", "x", "x"), [(0, "pentagon")]),  # beats both: the x's tie is moot
        (("x", "x", "circle"), []),  # the best piece is tied: no winner
    ],
)
def test_three_piece_collisions_need_one_piece_beating_every_other(shapes, left):
    trio = {c: {"circle": 1, "x": 1, "pentagon": 1} for c in ("black", "white", "pink")}
    doc = {**RPS, "players": "3", "board": {"type": "stacks", "size": [1, 1, 3]}, "reserves": trio}
    s = game(doc).new_initial_state()
    for seat, shape in enumerate(shapes):
        plan(s, seat, f"{shape} 1,1")
    assert stack_of(s) == left


def test_a_collision_won_by_rank_reincarnates_the_loser_into_the_winner_reserve():
    rules = {s: {**r, "result": "reincarnate"} for s, r in RPS["shape_rules"].items()}
    s = game({**RPS, "shape_rules": rules}).new_initial_state()
    plan(s, 0, "pentagon 1,1")
    plan(s, 1, "x 1,1")
    g = s.game
    black_x = s.reserves[g.color_names.index("black") * g.nshapes + g.shape_names.index("x")]
    white_x = s.reserves[g.color_names.index("white") * g.nshapes + g.shape_names.index("x")]
    assert stack_of(s) == [(0, "pentagon")] and (black_x, white_x) == (2, 0)
