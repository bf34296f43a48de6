"""A seat's view made straight as JSON text (gamecore/engine/view_text.py, for own bots'
turns) against the view itself encoded (play.json_text, orjson): the same text, on every
catalogue game of the flat family, at random positions, for every seat and none."""

import random

import pytest

from gamecore.engine import compile_game
from gamecore.engine.state import State
from play import json_text
from variants import catalogue


def positions(game, count=12, seed=7):
    """States along random playouts: the start, the middle, the end."""
    rng = random.Random(seed)
    for k in range(count):
        state = game.new_initial_state(seed=k)
        yield state
        for _ in range(rng.randrange(1, 60)):
            if state.is_terminal():
                break
            seat = rng.choice(state.to_move())
            moves = state.legal_moves(seat)
            if not moves:
                break
            state.apply(seat, rng.choice(moves))
            yield state


FLAT = [
    name
    for name in catalogue.names()
    if isinstance(compile_game(catalogue.get(name)).new_initial_state(seed=1), State)
]


def test_the_comparison_covers_the_flat_family():
    # (the general and nested families' own-bot turns encode their views: no text path)
    assert len(FLAT) >= 12 and {"Tic-Tac-Toe", "Connect4", "Qubic-4"} <= set(FLAT)


@pytest.mark.parametrize("name", FLAT)
def test_the_view_text_is_the_view_encoded(name):
    game = compile_game(catalogue.get(name))
    seen = 0
    for state in positions(game):
        for seat in [None, *range(game.nseats)]:
            assert state.view_text(seat) == json_text.dumps(state.view(seat)), (name, seat)
            seen += 1
        for seat in state.to_move():  # given the legal moves, as a worker does
            legal = [str(m) for m in state.legal_moves(seat)]
            assert state.view_text(seat, legal) == json_text.dumps(state.view(seat))
    assert seen > 20


def test_a_state_that_filters_its_view_gets_its_own_view_as_text():
    state = compile_game(catalogue.get("3P-Notakto")).new_initial_state(seed=1)
    assert type(state) is State  # the straight path
    assert json_text.loads(state.view_text(1)) == state.view(1)

    class Hiding(State):
        __slots__ = ()

        def view(self, seat=None):
            return {"hidden": True, "seat": seat}

    state.__class__ = Hiding
    assert json_text.loads(state.view_text(1)) == {"hidden": True, "seat": 1}
