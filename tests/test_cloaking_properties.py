"""Random games of cloaked documents (issue 20): properties every position must have,
checked against the truth (not against the filter that made the views).

- a seat's view invents nothing: every piece in it is on that space in the truth, with
  its colour (and its shape unless obscured);
- a seat always sees the pieces it placed and every piece on a space not cloaked;
- a spectator sees nothing a seat does not;
- a legal move never marks a capture ("x") of a piece hidden from the seat;
- a refused move is refused with the words the seat's own position gives;
- a legal move is always accepted (played, or an attempt that reveals);
- clone and replay give the same views.
"""

import random

import pytest
from cloak_helpers import blotto_cloaked, blotto_data, cloak_game

from gamecore.engine import IllegalMove
from gamecore.engine.general.fog import CloakedState
from gamecore.engine.general.knowledge import cloaked_spaces, hidden
from variants import catalogue

SQUARES = {
    "name": "Fog5",
    "players": "2",
    "shapes": ["circle", "x", "pentagon"],
    "board": {"type": "squares", "size": [5, 3, 1]},
    "reserves": {
        "black": {"circle": 3, "x": 2, "pentagon": 1},
        "white": {"circle": 3, "x": 2, "pentagon": 1},
    },
    "turn_checks": [{"k": 3}],
    "shape_rules": {
        "circle": {"move": "adjacent"},
        "x": {"move": "linear", "power": "can-capture", "condition": "cover"},
        "pentagon": {"move": "adjacent", "power": "must-capture", "condition": "jump"},
    },
    "allow_pass": True,
}
FOG5 = [[(1, x, y, 1) for x in (3, 4, 5) for y in (1, 2, 3)]]
THREE = {
    "name": "Fog3P",
    "players": "3",
    "shapes": ["circle", "pentagon"],
    "board": {"type": "squares", "size": [4, 4, 1]},
    "reserves": {c: {"circle": 3, "pentagon": 1} for c in ("black", "white", "pink")},
    "turn_checks": [{"k": 3}],
    "shape_rules": {
        "circle": {"move": "orthogonal"},
        "pentagon": {"move": "adjacent", "power": "can-capture", "condition": "cover"},
    },
    "allow_pass": True,
}
FOG3 = [[(1, x, y, 1) for x in (1, 2, 3, 4) for y in (3, 4)]]
HIDESEEK_CENTRE = [(1, x, y, 1) for x in (3, 4, 5) for y in (3, 4, 5)]

CASES = [
    ("fog5-hides", {**SQUARES, "cloaking": "hides"}, FOG5),
    ("fog5-obscures", {**SQUARES, "cloaking": "obscures"}, FOG5),
    ("fog3p-hides", {**THREE, "cloaking": "hides"}, FOG3),
    ("blotto", blotto_data(4), blotto_cloaked()),
    (
        "fog5-simultaneous",
        {**SQUARES, "cloaking": "hides", "phases": [{"order": "simultaneous"}]},
        FOG5,
    ),
    # 3P-9X-HideSeek: four seats, pieces that move and capture, the centre cloaked
    ("hideseek", catalogue.get("3P-9X-HideSeek"), [HIDESEEK_CENTRE, HIDESEEK_CENTRE]),
]


def truth(state) -> dict:
    g = state.game
    out = {}
    for i, code in enumerate(state.board):
        if code > 0:
            b, x, y, z = g.geometry.coords[i]
            _owner, color, shape = g.decode(code)
            out[(b + 1, x + 1, y + 1, z + 1)] = (g.color_names[color], g.shape_names[shape], i)
    return out


def shown(view) -> dict:
    return {(b["index"], *p["at"]): p for b in view["boards"] for p in b["pieces"]}


def check_position(state) -> None:
    g = state.game
    real = truth(state)
    cloaked = cloaked_spaces(g, 0)
    spectator = shown(state.view(None))
    for seat in range(g.nseats):
        view = shown(state.view(seat))
        for at, piece in view.items():
            assert at in real, f"seat {seat} sees a piece at {at} that is not there"
            color, shape, _i = real[at]
            assert piece["color"] == color
            assert piece.get("shape", shape) == shape and (
                "shape" in piece or piece.get("obscured")
            )
        for at, (_c, _s, i) in real.items():
            if state.own[seat] >> i & 1 or not cloaked >> i & 1:
                assert at in view and "shape" in view[at], f"seat {seat} misses {at}"
        assert set(spectator) <= set(view)
        gone = hidden(state, seat)
        for move in state.legal_moves(seat):
            if getattr(move, "capture", False) and not g.stacks and gone >> move.target & 1:
                # only a jump may land where a hidden piece is (its captive is in between,
                # in sight); a cover would name the hidden piece
                shape = g.piece[state.board[move.origin]][2]
                assert g.jumps[shape] is not None, f"seat {seat} offered {move}"


@pytest.mark.parametrize("name,data,cloaked", CASES, ids=[c[0] for c in CASES])
def test_random_cloaked_games_keep_every_property(name, data, cloaked):
    game = cloak_game(data, cloaked)
    rng = random.Random(name)
    probes = [f"{x},{y},1" for x in range(1, 6) for y in range(1, 4)] + ["b1:1,1", "b2:2,1"]
    for seed in range(30):
        state = game.new_initial_state(seed=seed)
        assert isinstance(state, CloakedState)
        played = []
        while not state.is_terminal() and len(played) < 120:
            check_position(state)
            seat = state.to_move()[0]
            legal = state.legal_moves(seat)
            mine = state.seat_state(seat)
            for text in rng.sample(probes, 3):  # refusals are worded from the seat's position
                try:
                    move = game.parse_move(text)
                except IllegalMove:
                    continue
                if move in legal:
                    continue
                words = []
                for s in (state.clone(), mine.clone()):
                    try:
                        s.apply(seat, move)
                        words.append(None)
                    except IllegalMove as exc:
                        words.append(str(exc))
                assert words[0] is not None and words[0] == words[1], (text, words)
            move = rng.choice(legal)
            state.apply(seat, move)  # a listed move is never refused
            played.append((seat, str(move)))
            copy = state.clone()
            for s in range(game.nseats):
                assert copy.view(s) == state.view(s)
        again = game.new_initial_state(seed=seed)
        for seat, text in played:
            again.apply(seat, game.parse_move(text))
        for s in [*range(game.nseats), None]:
            assert again.view(s) == state.view(s)
