"""Random play: who wins, how long games last, how many moves a seat has to choose from.

"Random play" is uniform over each seat's legal moves, draw offers left out (a random
offer is noise, not a model of play), as in the bots' rollouts. Every game is seeded, so
a figure is reproducible.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

from gamecore.engine.deadline import OutOfTime, within

Z95 = 1.959964  # two-sided 95% normal quantile


def wilson(successes: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (good near 0 and 1, unlike p ± 2σ)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Tally:
    """Results of many games: wins per seat, draws, lengths and choices."""

    seats: int
    games: int = 0
    wins: list[int] = field(default_factory=list)
    draws: int = 0  # games nobody won
    lengths: list[int] = field(default_factory=list)
    choices: int = 0  # legal moves summed over the positions sampled for branching
    positions: int = 0

    def __post_init__(self):
        self.wins = self.wins or [0] * self.seats

    def add(self, outcome, length: int) -> None:
        self.games += 1
        self.lengths.append(length)
        winners = [s for s, r in enumerate(outcome.results) if r == "win"]
        if not winners or len(winners) == len(outcome.results):
            self.draws += 1  # everybody or nobody won: nobody won more than the others
            return
        for seat in winners:
            self.wins[seat] += 1

    def summary(self) -> dict:
        n = self.games
        lengths = sorted(self.lengths)
        return {
            "games": n,
            "wins": [
                {"seat": s, "rate": w / n if n else 0.0, "interval": wilson(w, n)}
                for s, w in enumerate(self.wins)
            ],
            "draws": {"rate": self.draws / n if n else 0.0, "interval": wilson(self.draws, n)},
            "length": {
                "mean": sum(lengths) / n if n else 0.0,
                "min": lengths[0] if lengths else 0,
                "max": lengths[-1] if lengths else 0,
                "histogram": histogram(lengths),
            },
            "branching": self.choices / self.positions if self.positions else 0.0,
        }


def histogram(values: list[int], bins: int = 12) -> list[dict]:
    """Counts of ``values`` in at most ``bins`` equal ranges (for the card's chart)."""
    if not values:
        return []
    lo, hi = values[0], values[-1]
    width = max(1, math.ceil((hi - lo + 1) / bins))
    counts: dict[int, int] = {}
    for v in values:
        counts[(v - lo) // width] = counts.get((v - lo) // width, 0) + 1
    return [
        {"from": lo + i * width, "to": lo + (i + 1) * width - 1, "count": counts.get(i, 0)}
        for i in range((hi - lo) // width + 1)
    ]


def random_games(game, games: int, seed: int = 0, seconds: float | None = None) -> Tally:
    """Up to ``games`` uniformly random games (fewer if ``seconds`` runs out: the deadline
    holds between moves and inside them, ``gamecore.engine.deadline``)."""
    tally = Tally(game.nseats)
    deadline = None if seconds is None else time.perf_counter() + seconds
    try:
        with within(deadline):
            _play_games(game, games, random.Random(seed), tally, deadline)
    except OutOfTime:
        pass  # the game in progress is not counted
    return tally


def _play_games(game, games: int, rng, tally: Tally, deadline: float | None) -> None:
    for i in range(games):
        if deadline is not None and i and time.perf_counter() > deadline:
            break
        state = game.new_initial_state(seed=rng.randrange(2**31))
        moves = 0
        while not state.is_terminal():
            # One game may be long (pieces that move play up to the ply limit): the
            # deadline holds inside a game too, and an unfinished game is not counted.
            if deadline is not None and not moves & 15 and time.perf_counter() > deadline:
                return
            seats = state.to_move()
            seat = seats[0]
            legal = state.legal_moves(seat)
            plays = [m for m in legal if str(m) != "draw"] or legal
            if len(seats) == 1:
                tally.choices += len(plays)
                tally.positions += 1
            state.apply(seat, plays[rng.randrange(len(plays))])
            moves += 1
        tally.add(state.outcome, moves)
