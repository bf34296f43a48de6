"""Small helpers for engine tests: compile catalogue games, play moves by notation."""

from gamecore.engine import compile_game
from variants import catalogue


def game(name_or_doc):
    if isinstance(name_or_doc, str):
        return compile_game(catalogue.get(name_or_doc))
    return compile_game({"name": "Test", **name_or_doc})


def play(state, *texts):
    """Apply each move for the (first) seat to move; returns the state."""
    for text in texts:
        seat = state.to_move()[0]
        state.apply(seat, state.game.parse_move(text))
    return state
