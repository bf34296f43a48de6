"""Bots: agents over the engine's public API (pure Python, no Django).

``make_agent("mcts:2000", seed=1)`` makes one; ``play_games`` pits them against each other.
The kinds: random, easy (random, seed 003's "easy"), medium (wins or blocks in one),
hard (alpha-beta), mcts (UCT). None of them knows any particular game.
"""

from .alphabeta import MAX_DEPTH, HardAgent
from .arena import play_game, play_games
from .base import Agent, RandomAgent
from .mcts import MctsAgent
from .simple import EasyAgent, MediumAgent
from .specs import REGISTRY, SpecError, make_agent, parse_spec, register, spec_text

register("easy", EasyAgent)
register("medium", MediumAgent)
register("hard", HardAgent, "depth", depth=(1, MAX_DEPTH), effort=(1_000, 100_000_000))
register(
    "mcts",
    MctsAgent,
    "simulations",
    simulations=(1, 1_000_000),
    ms=(1, 600_000),
    exploration=(1, 500),  # UCT's c in hundredths (100: c = 1.0)
)

__all__ = [
    "REGISTRY",
    "Agent",
    "EasyAgent",
    "HardAgent",
    "MctsAgent",
    "MediumAgent",
    "RandomAgent",
    "SpecError",
    "make_agent",
    "parse_spec",
    "play_game",
    "play_games",
    "register",
    "spec_text",
]
