"""Captures on stacks boards (catalogue/READINGS.md, "Captures on stacks"): a cover takes
a stack's top piece; pieces moving by stack or by full stack settle a showdown of poker
hands on the destination stack and the captors split the pot. Each test fails if its
rule is played wrong."""

from collections import Counter

import pytest

from gamecore.engine import IllegalMove
from gamecore.engine.general.generate import stack_pieces
from gamecore.engine.general.hands import best_hand
from tests.engine_helpers import game, play

CIRCLE, TRIANGLE, X, CROSS, STAR, PENTAGON = range(6)


def legal(state) -> set[str]:
    return {str(m) for m in state.legal_moves(state.to_move()[0])}


def stack(state, x: int, y: int = 1) -> list[tuple[int | None, str]]:
    """(seat, shape) of the pieces of stack x,y, bottom up."""
    g = state.game
    pos = (x - 1) + g.geometry.X * (y - 1)
    return [
        (g.piece[state.board[s]][0], g.shape_names[g.piece[state.board[s]][2]])
        for s in stack_pieces(state, pos)
    ]


def reserve(state, color: str, shape: str) -> int:
    g = state.game
    return state.reserves[g.color_names.index(color) * g.nshapes + g.shape_names.index(shape)]


# -- poker hands -------------------------------------------------------------------------
# One hand of each category, from the seed's highest to its lowest.
LADDER = [
    ("five of a shape", [CIRCLE] * 5),
    ("four of a shape", [CIRCLE] * 4),
    ("5-straight", [CIRCLE, TRIANGLE, X, CROSS, STAR]),
    ("full house", [CIRCLE] * 3 + [TRIANGLE] * 2),
    ("4-straight", [CIRCLE, TRIANGLE, X, CROSS]),
    ("three of a shape", [CIRCLE] * 3),
    ("two pair", [CIRCLE, CIRCLE, TRIANGLE, TRIANGLE]),
    ("3-straight", [CIRCLE, TRIANGLE, X]),
    ("pair", [CIRCLE, CIRCLE]),
    ("2-straight", [CIRCLE, TRIANGLE]),
    ("singleton", [CIRCLE]),
]


@pytest.mark.parametrize("i", range(len(LADDER) - 1))
def test_each_hand_outranks_the_next_even_with_the_lowest_shapes(i):
    (_name, low_of_higher), (_next, lower) = LADDER[i], LADDER[i + 1]
    # the lowest hand of a category still beats the highest of the one below it
    highest = [r + PENTAGON - max(lower) for r in lower]
    assert best_hand(low_of_higher)[0] > best_hand(highest)[0] > best_hand(lower)[0] > ()
    assert sorted(best_hand(low_of_higher)[1]) == sorted(low_of_higher)


def test_highest_and_straights_follow_pentagon_down_to_circle():
    assert best_hand([PENTAGON])[0] > best_hand([STAR])[0] > best_hand([CIRCLE])[0]
    # a straight is consecutive shapes, named by its highest; circle does not follow
    # pentagon (that exception is for duels of single pieces)
    assert best_hand([STAR, PENTAGON])[0] > best_hand([TRIANGLE, X])[0]
    assert best_hand([PENTAGON, CIRCLE]) == ((0, PENTAGON), [PENTAGON])
    assert best_hand([PENTAGON, STAR, X]) == ((1, PENTAGON), [PENTAGON, STAR])
    assert best_hand([PENTAGON, STAR, CROSS]) == ((3, PENTAGON), [PENTAGON, STAR, CROSS])
    # a full house by its three, then its pair; two pair by the higher pair first
    assert best_hand([X, X, X, CIRCLE, CIRCLE])[0] > best_hand([TRIANGLE] * 3 + [STAR] * 2)[0]
    assert best_hand([STAR, STAR, CIRCLE, CIRCLE])[0] > best_hand([CROSS, CROSS, X, X])[0]
    # only the pieces that make the hand count: no kickers
    assert best_hand([PENTAGON, PENTAGON, CIRCLE])[0] == best_hand([PENTAGON, PENTAGON])[0]
    assert best_hand([PENTAGON, PENTAGON, CIRCLE])[1] == [PENTAGON, PENTAGON]
    assert best_hand([X, X, X, X, X, X])[1] == [X] * 5


# -- a cover on stacks -------------------------------------------------------------------
def covering(**circle) -> dict:
    return {
        "board": {"type": "stacks", "size": [3, 1, 2]},
        "reserves": {"black": {"circle": 2}, "white": {"circle": 2}},
        "shape_rules": {"circle": {"move": "adjacent-orthogonal", "power": "can-capture",
                                   **circle}},
        "turn_checks": [],
    }  # fmt: skip


def test_a_cover_takes_the_top_piece_of_a_stack_and_lands_in_its_space():
    doc = covering(result="reincarnate")
    doc["shapes"] = ["circle", "x"]  # x: no power, so it may be placed over black's piece
    doc["reserves"] = {"black": {"circle": 2}, "white": {"circle": 1, "x": 1}}
    s = play(game(doc).new_initial_state(), "circle 2,1", "x 2,1", "circle 1,1", "circle 3,1")
    # black's piece on 1,1 covers white's top piece of the full stack 2,1 (no room to
    # land on top: a cover takes the top piece's space)
    assert legal(s) == {"1,1x2,1"}
    play(s, "1,1x2,1")
    assert stack(s, 2) == [(0, "circle"), (0, "circle")]
    assert stack(s, 1) == [] and s.heights == [0, 2, 1]
    assert reserve(s, "black", "x") == 1  # the captive reincarnated as black's
    assert legal(s) == {"3,1x2,1"}  # white covers black's top piece in turn


def test_on_stacks_a_piece_that_cannot_capture_only_stacks_on_top():
    doc = covering()
    doc["shape_rules"] = {"circle": {"move": "adjacent-orthogonal"}}
    s = play(game(doc).new_initial_state(), "2,1", "1,1", "3,1", "3,1")
    assert legal(s) == {"2,1-1,1"}  # onto white's piece, which stays (2,1 -> 3,1: full)
    play(s, "2,1-1,1")
    assert stack(s, 1) == [(1, "circle"), (0, "circle")]


@pytest.mark.parametrize("power", ["can-capture", "must-capture"])
def test_must_capture_on_stacks_leaves_only_the_cover(power):
    doc = covering(power=power)
    doc["board"]["size"] = [4, 1, 2]
    s = play(game(doc).new_initial_state(), "2,1", "3,1", "2,1", "4,1")
    # black's top piece on 2,1 may step to the empty 1,1, or cover white's piece on 3,1
    if power == "can-capture":
        assert legal(s) == {"2,1-1,1", "2,1x3,1"}
    else:
        assert legal(s) == {"2,1x3,1"}
        with pytest.raises(IllegalMove):
            s.apply(0, s.game.parse_move("2,1-1,1"))


def test_cover_by_rank_on_stacks_duels_with_the_top_piece():
    doc = {
        "shapes": ["circle", "x", "pentagon"],
        "board": {"type": "stacks", "size": [2, 1, 3]},
        "reserves": {"black": {"x": 1}, "white": {"pentagon": 1, "circle": 1}},
        "shape_rules": {
            s: {"move": "adjacent-orthogonal", "power": "can-capture", "condition": "cover-by-rank"}
            for s in ("circle", "x", "pentagon")
        },
        "turn_checks": [],
    }
    # black's x covers white's pentagon on top of white's circle: the pentagon wins
    s = play(game(doc).new_initial_state(), "x 1,1", "circle 2,1")
    play(s, "1,1x2,1")  # x over circle: x outranks circle
    assert stack(s, 2) == [(0, "x")] and stack(s, 1) == []
    t = play(game(doc).new_initial_state(), "x 1,1", "pentagon 2,1")
    play(t, "1,1x2,1")  # x over pentagon: pentagon outranks x and takes it
    assert stack(t, 2) == [(1, "pentagon")] and stack(t, 1) == []


# -- showdowns of poker hands --------------------------------------------------------------
def poker(players="2", result="reincarnate", size=(2, 1, 6), reserves=None, move=None) -> dict:
    mover = {"move": move or "orthogonal-by-stack", "power": "can-capture", "result": result}
    return {
        "players": players,
        "shapes": ["circle", "x", "pentagon"],
        "board": {"type": "stacks", "size": list(size)},
        "reserves": reserves,
        "shape_rules": {"x": mover, "pentagon": mover},  # circles are chips
        "turn_checks": [],
    }


def test_the_highest_hand_on_the_destination_stack_takes_the_pot():
    reserves = {"black": {"circle": 1, "x": 2, "pentagon": 1},
                "white": {"circle": 1, "x": 1, "pentagon": 2}}  # fmt: skip
    s = game(poker(reserves=reserves)).new_initial_state(seed=3)
    play(s, "x 1,1", "pentagon 2,1", "x 1,1", "pentagon 2,1", "circle 1,1", "circle 2,1")
    play(s, "pentagon 1,1", "x 2,1")
    assert legal(s) == {"1,1,4x2,1"}  # only the top piece has room to move by stack
    play(s, "1,1,4x2,1")
    # on 2,1: white's pair of pentagons against black's single pentagon (chips ignored):
    # white takes black's pentagon, reincarnated into white's reserve; nothing of white's
    # is taken, and its chip stays
    assert stack(s, 2) == [(1, "pentagon"), (1, "pentagon"), (1, "circle"), (1, "x")]
    assert reserve(s, "white", "pentagon") == 1 and reserve(s, "black", "pentagon") == 0


def test_a_showdown_that_the_mover_wins_takes_the_chips_and_the_stack_falls():
    reserves = {"black": {"x": 1, "pentagon": 1}, "white": {"circle": 1, "x": 1}}
    doc = poker(result="remove", reserves=reserves)
    s = play(game(doc).new_initial_state(), "x 1,1", "circle 2,1", "pentagon 1,1", "x 2,1")
    # black's x carries black's pentagon onto white's chip and x: black's single pentagon
    # (x and pentagon are no straight: star and cross lie between) beats white's single x
    play(s, "1,1,1x2,1")
    assert stack(s, 2) == [(0, "x"), (0, "pentagon")]  # white's pieces removed, no gaps
    assert s.heights == [0, 2]


def test_tied_captors_split_the_pot_by_the_seeds_example():
    """The seed: three reincarnate (x2) captors of two pieces: one gets two, the others
    one each, dealt in descending rank round-robin from a seeded random start."""
    mover = {"move": "orthogonal-by-stack", "power": "can-capture", "result": "reincarnate-x2"}
    reserves = {c: {"circle": 1, "pentagon": 1} for c in ("black", "white", "pink")}
    doc = {
        "players": "4",
        "shapes": ["circle", "triangle", "pentagon"],  # circles and triangles are chips
        "board": {"type": "stacks", "size": [3, 1, 6]},
        "reserves": {**reserves, "yellow": {"circle": 1, "triangle": 1}},
        "shape_rules": {"pentagon": mover},
        "turn_checks": [],
    }
    opening = ("pentagon 1,1", "pentagon 2,1", "pentagon 2,1", "triangle 2,1",
               "circle 3,1", "circle 3,1", "circle 3,1", "circle 2,1")  # fmt: skip
    seats = ["black", "white", "pink"]
    starts = set()
    for seed in range(12):
        s = play(game(doc).new_initial_state(seed=seed), *opening)
        play(s, "1,1,1x2,1")  # three single pentagons tie; yellow's two chips are the pot
        assert stack(s, 2) == [(1, "pentagon"), (2, "pentagon"), (0, "pentagon")]
        gains = {c: (reserve(s, c, "triangle"), reserve(s, c, "circle")) for c in seats}
        assert Counter(gains.values()) == Counter({(1, 1): 1, (1, 0): 1, (0, 1): 1}), gains
        first = next(i for i, c in enumerate(seats) if gains[c] == (1, 1))
        # descending rank: the start gets a triangle, the next captor the other one, the
        # third a circle, and the start the last circle
        assert gains[seats[(first + 1) % 3]] == (1, 0)
        assert gains[seats[(first + 2) % 3]] == (0, 1)
        starts.add(first)
        again = play(game(doc).new_initial_state(seed=seed), *opening, "1,1,1x2,1")
        assert again.reserves == s.reserves  # a replay deals the same
    assert len(starts) > 1  # the start is drawn, not fixed


def test_tied_converting_captors_share_the_pot():
    reserves = {"black": {"pentagon": 1, "x": 1}, "white": {"pentagon": 1, "circle": 1},
                "pink": {"circle": 2}}  # fmt: skip
    doc = poker(players="3", result="convert", size=(4, 1, 6), reserves=reserves)
    opening = ("x 1,1", "pentagon 2,1", "circle 2,1", "pentagon 1,1", "circle 3,1", "circle 4,1")
    owners = set()
    for seed in range(10):
        s = play(game(doc).new_initial_state(seed=seed), *opening)
        play(s, "1,1,2x2,1")  # black's single pentagon ties white's; pink's chip is
        # dealt to one of them and becomes theirs where it stands
        assert [shape for _o, shape in stack(s, 2)] == ["pentagon", "circle", "pentagon"]
        (w, _), (owner, _), (b, _) = stack(s, 2)
        assert (w, b) == (1, 0) and owner in (0, 1)
        owners.add(owner)
        assert stack(s, 3) == [(1, "circle")] and stack(s, 4) == [(2, "circle")]
    assert owners == {0, 1}


# -- by full stack ----------------------------------------------------------------------------
def test_a_by_full_stack_piece_moves_only_from_the_bottom_carrying_the_stack():
    doc = {
        "board": {"type": "stacks", "size": [3, 1, 3]},
        "reserves": {"black": {"circle": 2}, "white": {"circle": 2}},
        "shape_rules": {"circle": {"move": "orthogonal-by-full-stack"}},
        "turn_checks": [],
    }
    s = play(game(doc).new_initial_state(), "1,1", "1,1", "1,1", "2,1")
    # black's bottom piece carries all three (2,1 has no room for them; a slide passes
    # over it); black's top piece is not at the bottom
    assert legal(s) == {"1,1,1-3,1"}
    with pytest.raises(IllegalMove):
        s.apply(0, s.game.parse_move("1,1,3-2,1"))
    play(s, "1,1,1-3,1")
    assert stack(s, 3) == [(0, "circle"), (1, "circle"), (0, "circle")]
    assert legal(s) == {"2,1,1-1,1"}  # white's piece in 3,1 is not at the bottom


def test_a_by_full_stack_showdown():
    reserves = {"black": {"pentagon": 2}, "white": {"pentagon": 1, "x": 1}}
    doc = poker(reserves=reserves, move="orthogonal-by-full-stack", size=(2, 1, 4))
    s = play(game(doc).new_initial_state(), "pentagon 1,1", "pentagon 2,1", "pentagon 1,1")
    play(s, "x 2,1")
    assert legal(s) == {"1,1,1x2,1"}  # from the bottom only, the whole stack
    play(s, "1,1,1x2,1")  # black's pair of pentagons beats white's single pentagon
    assert stack(s, 2) == [(0, "pentagon"), (0, "pentagon")]
    assert reserve(s, "black", "pentagon") == 1 and reserve(s, "black", "x") == 1


# -- placing on a stack -------------------------------------------------------------------
def test_a_placed_piece_that_captures_by_cover_takes_the_top_piece_it_covers():
    s = play(game(covering(result="reincarnate")).new_initial_state(), "1,1", "1,1")
    assert stack(s, 1) == [(1, "circle")]  # black's piece taken; white's landed in its space
    assert reserve(s, "white", "circle") == 2  # one left to place, one reincarnated
    play(s, "1,1")  # black's last piece takes white's in turn
    assert stack(s, 1) == [(0, "circle")]
    doc = covering()
    doc["shape_rules"] = {"circle": {"move": "adjacent-orthogonal"}}  # no power: it stacks
    t = play(game(doc).new_initial_state(), "1,1", "1,1")
    assert stack(t, 1) == [(0, "circle"), (1, "circle")]


def test_a_placed_piece_duels_by_rank_with_the_piece_it_covers():
    doc = {
        "shapes": ["circle", "x", "pentagon"],
        "board": {"type": "stacks", "size": [2, 1, 3]},
        "reserves": {"black": {"pentagon": 1, "circle": 1}, "white": {"x": 2}},
        "shape_rules": {
            "x": {"move": "adjacent-orthogonal", "power": "can-capture",
                  "condition": "cover-by-rank"},
            "pentagon": {"move": "adjacent-orthogonal", "power": "can-capture",
                         "condition": "cover-by-rank", "result": "reincarnate"},
        },
        "turn_checks": [],
    }  # fmt: skip
    s = play(game(doc).new_initial_state(), "pentagon 1,1", "x 1,1")
    assert stack(s, 1) == [(0, "pentagon")]  # the x lost: taken, into black's reserve
    assert reserve(s, "black", "x") == 1 and reserve(s, "white", "x") == 1
    play(s, "circle 2,1", "x 2,1")  # a chip is no rank: the x takes it
    assert stack(s, 2) == [(1, "x")]


def test_a_placed_piece_that_moves_by_stack_makes_a_showdown():
    reserves = {"black": {"x": 2}, "white": {"pentagon": 1}}
    s = play(game(poker(reserves=reserves)).new_initial_state(), "x 1,1", "pentagon 1,1")
    assert stack(s, 1) == [(1, "pentagon")]  # white's pentagon over black's single x
    assert reserve(s, "white", "x") == 1
