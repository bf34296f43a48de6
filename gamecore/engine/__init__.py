"""The rules engine: compile a rule document into a Game; a State runs a match.

Pure Python, no Django. The public API (DESIGN §3) is what tests, bots, tools and the
site use::

    game = compile_game(doc)
    state = game.new_initial_state(seed=7)
    state.to_move(); state.legal_moves(seat); state.apply(seat, move)
    state.is_terminal(); state.outcome; state.view(seat); state.clone()
"""

from .errors import IllegalMove, InvalidMoveText, RulesError
from .game import Game, compile_game
from .moves import Move
from .outcome import Outcome
from .state import State
from .tools import perft, playout_rate, random_playout

__all__ = [
    "Game",
    "IllegalMove",
    "InvalidMoveText",
    "Move",
    "Outcome",
    "RulesError",
    "State",
    "compile_game",
    "perft",
    "playout_rate",
    "random_playout",
]
