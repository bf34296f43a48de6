"""An OpenSpiel agent as a Variant Foundry bot (when ``open_spiel`` is installed):
OpenSpiel's MCTS on its ``tic_tac_toe`` game, for the classic 3x3 games (Tic-Tac-Toe).
The site's view is turned into an OpenSpiel state by replaying its pieces (first
player's first), and OpenSpiel's action back into the site's notation ("x,y,1").
Any other game falls back to a random legal move.

    FOUNDRY_BOT_TOKEN=vfb_... python -m foundry_bot.examples.openspiel_bot --url ws://host/ws/bot/
"""

from __future__ import annotations

import random

from foundry_bot.client import main_options, run

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts
except ImportError:  # the client runs without it: say so when used
    pyspiel = None

SIMULATIONS = 200


def classic_3x3(view: dict) -> bool:
    boards = view.get("boards") or []
    return (
        len(boards) == 1
        and boards[0].get("size") == [3, 3, 1]
        and view.get("seats") == 2
        and view.get("pieces_per_turn") == 1
    )


def spiel_state(view: dict):
    """The OpenSpiel tic_tac_toe state of the view's position (None if it cannot be)."""
    game = pyspiel.load_game("tic_tac_toe")
    state = game.new_initial_state()
    pieces = {0: [], 1: []}
    for piece in view["boards"][0]["pieces"]:
        x, y, _ = piece["at"]
        pieces.setdefault(piece["owner"], []).append((y - 1) * 3 + (x - 1))
    first, second = pieces.get(0, []), pieces.get(1, [])
    if len(first) - len(second) not in (0, 1):
        return None
    for i, action in enumerate(first):
        state.apply_action(action)
        if i < len(second):
            state.apply_action(second[i])
    return state


def make_choose(seed: int = 0):
    rng = random.Random(seed)
    bot = None
    if pyspiel is not None:
        game = pyspiel.load_game("tic_tac_toe")
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
        bot = mcts.MCTSBot(
            game, 2, SIMULATIONS, evaluator, random_state=np.random.RandomState(seed)
        )

    def choose(view: dict, legal: list[str]) -> str:
        if bot is not None and classic_3x3(view):
            state = spiel_state(view)
            if state is not None and not state.is_terminal():
                action = bot.step(state)
                move = f"{action % 3 + 1},{action // 3 + 1},1"
                if move in legal:
                    return move
        return rng.choice(legal)

    return choose


if __name__ == "__main__":
    if pyspiel is None:
        print("open_spiel is not installed (pip install open_spiel): playing at random.")
    options = main_options(__doc__)
    run(options.url, options.token, make_choose(), options.version, reconnect=not options.once)
