"""Real engine views for the board's browser tests (pure Python: no database, no server).

Each function compiles a catalogue game (or a small document), plays a few moves with
``state.apply`` and returns ``state.view(seat)``: exactly what the match page receives.
"""

from __future__ import annotations

import random

from gamecore.engine import compile_game
from variants import catalogue


def game(name_or_doc):
    doc = catalogue.documents()[name_or_doc] if isinstance(name_or_doc, str) else name_or_doc
    return compile_game(doc)


def play(name_or_doc, moves=(), seed=1):
    """The state after ``moves`` (notation), each played by the seat to move."""
    g = game(name_or_doc)
    state = g.new_initial_state(seed=seed)
    for text in moves:
        state.apply(state.to_move()[0], g.parse_move(text))
    return state


def mover_view(state):
    """The view of the seat to move (legal moves included), or a spectator's when over."""
    to_move = state.to_move()
    return state.view(to_move[0] if to_move else None)


def view_after(name_or_doc, moves=(), seed=1):
    return mover_view(play(name_or_doc, moves, seed))


def random_until(name_or_doc, predicate, seed=0, tries=400):
    """Random playouts until ``predicate(state)`` holds; returns that state."""
    g = game(name_or_doc)
    rng = random.Random(seed)
    for _ in range(tries):
        state = g.new_initial_state(seed=rng.randrange(1 << 30))
        while not state.is_terminal():
            if predicate(state):
                return state
            seat = state.to_move()[0]
            moves = [m for m in state.legal_moves(seat) if str(m) not in ("draw", "pass")]
            state.apply(seat, rng.choice(moves))
        if predicate(state):
            return state
    raise AssertionError("no playout reached the wanted position")


TWO_BOARDS = {"name": "Two-boards", "boards": 2, "board": {"type": "hash", "size": [3, 3, 1]}}
SHAPES_CHOSEN = {
    "name": "Chosen-shapes",
    "colors": "choose",
    "shapes": ["circle", "triangle"],
    "agree_draw": True,
    "allow_pass": True,
    "board": {"type": "squares", "size": [4, 4, 1]},
    "reserves": {
        "black": {"circle": 4, "triangle": 4},
        "white": {"circle": 4, "triangle": 4},
    },
}
OBSTACLES = {
    "name": "Obstacles",
    "board": {"type": "nested"},
    "nested": {"side": 3, "depth": 2, "symmetric_obstacles": True, "lock_captured": True},
}
