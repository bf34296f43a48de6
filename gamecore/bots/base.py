"""What every bot is: ``choose(state, seat) -> Move`` over the engine's public API only.

A bot never reads more than ``state.view(seat)`` would show that seat; for the flat
games of today that is the whole position. Bots that search start from
``common.sample_root(state, seat, rng)``, the one place a live state is copied, so that
hidden information can later be sampled there instead of read. Every bot takes a seed
(reproducible games) and a time budget (a live turn timer must never be missed): when
the time is up it returns its best move so far, never None.
"""

import random
from typing import Protocol


class Agent(Protocol):
    spec: dict

    def choose(self, state, seat: int): ...


class RandomAgent:
    """Uniform over the legal moves: the Random player of every leaderboard, and Chaos."""

    def __init__(self, seed: int | None = None, **_options):
        self.rng = random.Random(seed)
        self.spec = {"kind": "random"}

    def choose(self, state, seat: int):
        return self.rng.choice(state.legal_moves(seat))
