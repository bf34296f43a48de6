"""How fast the bots think: used by ``manage.py variant bench``."""

import time

from .mcts import MctsAgent


def mcts_rate(game, seconds: float = 1.0) -> float:
    """MCTS simulations per second from the start position, over about ``seconds``."""
    state = game.new_initial_state(seed=0)
    seats = state.to_move()
    if not seats:
        return 0.0
    agent = MctsAgent(seed=0, ms=max(1, round(seconds * 1000)))
    started = time.perf_counter()
    agent.choose(state, seats[0])
    elapsed = time.perf_counter() - started
    return agent.last_simulations / elapsed if elapsed > 0 else 0.0
