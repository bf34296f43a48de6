"""Property tests of the general family: random legal play always ends with an outcome;
an illegal move raises IllegalMove and changes nothing; views are JSON; clone() is
independent; ``parse_move(str(m)) == m`` for every legal move."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gamecore.engine import IllegalMove, compile_game
from gamecore.engine.general.moves import PLACE, SPECIAL, STEP, Move
from variants import catalogue


def _moving(name, size, move, **extra):
    return {
        "name": name,
        "board": {"type": "squares", "size": size},
        "reserves": extra.pop("reserves", {"black": {"circle": 3}, "white": {"circle": 3}}),
        "shape_rules": {"circle": {"move": move, **extra.pop("circle", {})}},
        **extra,
    }


CAPTURE = {"power": "can-capture"}
DOCS = {
    name: catalogue.get(name) for name in ("Tapatan", "Achi", "9-Holes", "Tic-Tac-Toe", "Connect4")
} | {
    "cover": _moving("cover", [4, 4, 1], "adjacent", circle=CAPTURE),
    "must": _moving("must", [4, 4, 1], "linear", circle={"power": "must-capture"}),
    "jump": _moving(
        "jump", [4, 4, 1], "adjacent-orthogonal", circle={**CAPTURE, "condition": "jump"}
    ),
    "chain": _moving(
        "chain", [5, 5, 1], "adjacent", circle={**CAPTURE, "condition": "chain-jump"},
        reserves={"black": {"circle": 5}, "white": {"circle": 5}},
    ),
    "reincarnate": _moving(
        "reincarnate", [4, 4, 1], "knight", circle={**CAPTURE, "result": "reincarnate-x2"},
        stalemate="most-pieces-wins",
    ),
    "locks": _moving(
        "locks", [4, 4, 1], "linear-or-knight", sticky=[{"at": [2, 2, 1]}],
        exclusive=[{"at": [1, 1, 1], "seats": [1]}],
        space_locks=[{"at": [4, 4, 1], "seats": [2], "entry": False}],
        stalemate="most-area-wins", allow_pass=True, agree_draw=True,
    ),
    "3d": _moving("3d", [3, 3, 3], "knight-3d", players="3",
                  reserves={"black": {"circle": 3}, "white": {"circle": 3}, "pink": {"circle": 3}}),
    "forward": {
        "name": "forward",
        "shapes": ["circle", "x", "pentagon"],
        "board": {"type": "squares", "size": [4, 4, 1]},
        "shape_rules": {
            "circle": {"move": "adjacent-no-back", "power": "can-capture", "condition": "jump"},
            "x": {"move": "forward-diagonal", "power": "must-capture"},
            "pentagon": {"move": "linear", "power": "can-capture"},
        },
        "reserves": {"black": {"circle": 2, "x": 2}, "white": {"circle": 2, "x": 2}},
    },
    "reversi": _moving(
        "reversi", [4, 4, 1], "stationary",
        reserves={"black": {"circle": 8}, "white": {"circle": 8}},
        circle={"power": "must-capture", "condition": "surround-line", "result": "convert"},
        turn_checks=[], stalemate="most-pieces-wins", allow_pass=True,
    ),
    "approach": _moving(
        "approach", [5, 5, 1], "adjacent",
        circle={"power": "must-capture", "condition": "approach"},
        reserves={"black": {"circle": 6}, "white": {"circle": 6}},
    ),
    "sides": _moving(
        "sides", [4, 4, 1], "orthogonal",
        circle={"power": "can-capture", "condition": "surround-orthogonal", "result": "convert"},
    ),
    "ranks": {
        "name": "ranks",
        "shapes": ["circle", "x", "pentagon"],
        "board": {"type": "squares", "size": [4, 4, 1]},
        "shape_rules": {
            "circle": {"move": "adjacent", "power": "can-capture", "condition": "cover-by-rank"},
            "x": {"move": "knight"},
            "pentagon": {"move": "linear", "power": "must-capture", "condition": "cover-by-rank",
                         "result": "reincarnate"},
        },
        "reserves": {"black": {"circle": 2, "x": 1, "pentagon": 1},
                     "white": {"circle": 2, "x": 1, "pentagon": 1}},
    },
    "paralyse": _moving(
        "paralyse", [4, 4, 1], "adjacent",
        circle={"power": "can-capture", "condition": "approach", "result": "paralyse"},
    ),
    "draughts": {
        "name": "draughts",
        "shapes": ["circle", "pentagon"],
        "board": {"type": "squares", "size": [5, 5, 1]},
        "shape_rules": {
            "circle": {"move": "forward-diagonal", "power": "must-capture",
                       "condition": "chain-jump-back"},
            "pentagon": {"move": "diagonal", "power": "must-capture", "condition": "chain-jump"},
        },
        "reserves": {"black": {"circle": 4}, "white": {"circle": 4}},
        "turn_checks": [],
        "stalemate": "most-pieces-wins",
    },
    "by-stack": {
        "name": "by-stack",
        "players": "3",
        "board": {"type": "stacks", "size": [4, 2, 4]},
        "shape_rules": {"circle": {"move": "orthogonal-by-stack"}},
        "reserves": {"black": {"circle": 3}, "white": {"circle": 3}, "pink": {"circle": 3}},
    },
    "boards": {
        "name": "boards",
        "boards": 2,
        "board": {"type": "squares", "size": [3, 3, 1]},
        "exclusive": [{"board": 2, "at": [2, 2, 1], "seats": [1]}],
        "sticky": [{"board": 1, "at": [1, 1, 1]}],
        "stalemate": "most-area-wins",
        "allow_pass": True,
    },
    "pawns": {
        "name": "pawns",
        "shapes": ["circle", "x", "pentagon"],
        "board": {"type": "squares", "size": [4, 5, 1]},
        "shape_rules": {
            "circle": {"move": "orthogonal-no-back", "power": "must-capture",
                       "condition": "diagonal-en-passant"},
            "x": {"move": "adjacent-orthogonal", "power": "can-capture", "condition": "triagonal"},
            "pentagon": {"move": "linear", "power": "can-capture"},
        },
        "reserves": {"black": {"circle": 3, "x": 1}, "white": {"circle": 3, "x": 1}},
    },
    "chess-pawns": {
        "name": "chess-pawns",
        "shapes": ["circle", "pentagon"],
        "board": {"type": "squares", "size": [4, 6, 1]},
        "shape_rules": {
            "circle": {"move": "pawn-forward-center", "power": "must-capture",
                       "condition": "diagonal-en-passant"},
            "pentagon": {"move": "linear", "power": "can-capture"},
        },
        "reserves": {"black": {"circle": 4}, "white": {"circle": 4}},
        "turn_checks": [{"k": 3, "result": "wins", "diagonal": False}],
    },
    "poker": {
        "name": "poker",
        "players": "3",
        "shapes": ["circle", "x", "star", "pentagon"],
        "board": {"type": "stacks", "size": [3, 2, 6]},
        "shape_rules": {
            "x": {"move": "orthogonal-by-stack", "power": "can-capture", "result": "convert"},
            "star": {"move": "orthogonal-by-full-stack", "power": "must-capture",
                     "result": "reincarnate-x2"},
            "pentagon": {"move": "orthogonal-by-stack", "power": "can-capture",
                         "condition": "cover-by-rank", "result": "reincarnate"},
        },
        "reserves": {c: {"circle": 1, "x": 2, "star": 1, "pentagon": 1}
                     for c in ("black", "white", "pink")},
        "initial_pieces": [{"at": [2, 2, 1], "color": "black", "shape": "star"}],
        "turn_checks": [{"k": 4, "result": "wins"}],
        "stalemate": "most-pieces-wins",
    },
    "stack-cover": {
        "name": "stack-cover",
        "shapes": ["circle", "x", "pentagon"],
        "board": {"type": "stacks", "size": [3, 3, 3]},
        "shape_rules": {
            "circle": {"move": "adjacent", "power": "can-capture", "condition": "cover-by-rank"},
            "x": {"move": "knight", "power": "must-capture", "result": "reincarnate"},
            "pentagon": {"move": "linear", "power": "can-capture", "condition": "cover-by-rank",
                         "result": "reincarnate-x2"},
        },
        "reserves": {c: {"circle": 2, "x": 1, "pentagon": 1} for c in ("black", "white")},
    },
    "stacks": {
        "name": "stacks",
        "board": {"type": "stacks", "size": [4, 1, 4]},
        "shape_rules": {"circle": {"move": "orthogonal"}},
        "turn_checks": [{"k": 4, "result": "wins"}],
        "reserves": {"black": {"circle": 4}, "white": {"circle": 4}},
    },
}  # fmt: skip
NAMES = sorted(DOCS)


def game_of(name):
    return compile_game(DOCS[name], family="general")


def random_game(name, seed, stop_after=None):
    g = game_of(name)
    rng = random.Random(seed)
    s = g.new_initial_state(seed=seed)
    moves = 0
    while not s.is_terminal() and (stop_after is None or moves < stop_after):
        seat = rng.choice(s.to_move())
        legal = s.legal_moves(seat)
        assert legal, f"seat {seat} is to move in {name} but has no legal move"
        for m in legal:
            assert g.parse_move(str(m)) == m, f"{m!r} does not read back in {name}"
        s.apply(seat, rng.choice(legal))
        moves += 1
    return g, s, rng


@settings(max_examples=80, deadline=None)
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 2**32))
def test_random_play_ends_with_an_outcome(name, seed):
    _g, s, _rng = random_game(name, seed)
    out = s.outcome
    assert out is not None and s.to_move() == ()
    assert out.reason in {"victory", "draw", "stalemate", "agreed-draw", "boards"}
    if out.reason == "victory":
        assert out.lines and all(len(line) >= 3 for line in out.lines)


@settings(max_examples=80, deadline=None)
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 2**32), stop=st.integers(0, 30))
def test_illegal_moves_raise_and_change_nothing(name, seed, stop):
    g, s, rng = random_game(name, seed, stop_after=stop)
    before = json.dumps([s.view(None), s.to_move(), s.ply, s.key()])
    awaited = set(s.to_move())
    n = g.npos
    candidates = [Move(PLACE, t, c, "?") for t in range(-1, n + 1) for c in (0, 9)]
    candidates += [Move(STEP, t, -1, "?", o) for t in range(-1, n + 1) for o in range(-1, n + 1)]
    candidates += list(SPECIAL.values())
    for seat in range(g.nseats):
        legal = set(s.legal_moves(seat))
        for move in rng.sample(candidates, min(60, len(candidates))):
            if seat in awaited and move in legal:
                continue
            try:
                s.apply(seat, move)
            except IllegalMove:
                pass
            else:
                raise AssertionError(f"{move!r} by seat {seat} was accepted in {name}")
            assert json.dumps([s.view(None), s.to_move(), s.ply, s.key()]) == before


@settings(max_examples=50, deadline=None)
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 2**32), stop=st.integers(0, 40))
def test_views_are_json_and_clones_are_independent(name, seed, stop):
    g, s, rng = random_game(name, seed, stop_after=stop)
    for seat in [None, *range(g.nseats)]:
        data = s.view(seat)
        assert json.loads(json.dumps(data)) == data
        assert data["family"] == "general"
    if s.is_terminal():
        return
    before = json.dumps([s.view(None), s.key()])
    copy = s.clone()
    while not copy.is_terminal():
        seat = rng.choice(copy.to_move())
        copy.apply(seat, rng.choice(copy.legal_moves(seat)))
    assert json.dumps([s.view(None), s.key()]) == before
