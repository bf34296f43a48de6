"""Bots: agents over the engine's public API (pure Python, no Django).

``make_agent("mcts:2000", seed=1)`` makes one; ``play_games`` pits them against each other.
"""

from .arena import play_game, play_games
from .base import Agent, RandomAgent
from .specs import REGISTRY, SpecError, make_agent, parse_spec, register, spec_text

__all__ = [
    "REGISTRY",
    "Agent",
    "RandomAgent",
    "SpecError",
    "make_agent",
    "parse_spec",
    "play_game",
    "play_games",
    "register",
    "spec_text",
]
