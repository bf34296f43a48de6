"""Bots playing the game: balance between equals, and how much skill pays.

**Balance under equal bots**: every non-Chaos seat is the same MCTS bot (``EQUAL``
simulations a move), so a seat's edge is the game's, not a bot's.

**Difficulty** (defined once, comparable across games): the share of the points a strong
bot (MCTS, ``STRONG`` simulations) takes from a weak one (MCTS, ``WEAK`` simulations) in
games where the strong bot sits in every seat in turn and the weak one fills the others;
a win is 1 point, a draw half. 50% means skill does not pay (pure luck, or a game so
simple the weak bot already plays it well); 100% means the stronger player always wins.
The level is that share mapped onto 0–100: ``max(0, share - 0.5) * 200``.
"""

from __future__ import annotations

import random
import time

from gamecore.bots.arena import play_game
from gamecore.bots.specs import make_agent

from .sampling import Tally

EQUAL = 100
STRONG, WEAK = 200, 20


MIN_GAMES = 10  # fewer than this and the card says the figure is too thin to tell


def _out_of_time(deadline: float, played: int) -> bool:
    return played > 0 and time.perf_counter() > deadline


def _move_time(seconds: float) -> float:
    """A move's thinking limit: a big board's game must not eat the whole budget."""
    return max(0.005, min(0.2, seconds / 400))


def equal_bots(game, games: int, seed: int = 0, seconds: float = 10.0) -> Tally:
    rng = random.Random(seed)
    tally = Tally(game.nseats)
    deadline = time.perf_counter() + seconds
    players = game.nseats - (game.chaos is not None)
    limit = _move_time(seconds)
    for _ in range(games):
        if _out_of_time(deadline, tally.games):
            break
        agents = [
            make_agent(f"mcts:{EQUAL}", seed=rng.randrange(2**31), time_limit=limit)
            for _ in range(players)
        ]
        state, moves = play_game(game, agents, rng.randrange(2**31), deadline)
        if state is None:
            break
        tally.add(state.outcome, moves)
    return tally


def difficulty(game, games: int, seed: int = 0, seconds: float = 10.0) -> dict:
    rng = random.Random(seed)
    players = game.nseats - (game.chaos is not None)
    points, played = 0.0, 0
    deadline = time.perf_counter() + seconds
    for i in range(games):
        if _out_of_time(deadline, played):
            break
        strong_at = i % players  # the strong bot sits in every seat in turn
        # No time limit a move: one would cut the strong bot down to the weak one's size
        # on a big board. A game the deadline interrupts is not counted.
        agents = [
            _Until(
                make_agent(f"mcts:{STRONG if s == strong_at else WEAK}", seed=rng.randrange(2**31)),
                deadline,
            )
            for s in range(players)
        ]
        state, _moves = play_game(game, agents, rng.randrange(2**31), deadline)
        if state is None:
            break
        seat = _seat_of_agent(game, strong_at)
        result = state.outcome.results[seat]
        points += {"win": 1.0, "draw": 0.5}.get(result, 0.0)
        played += 1
    share = points / played if played else 0.5
    return {
        "games": played,
        "share": share,
        # Too few games to tell: no level rather than a guess.
        "level": round(max(0.0, share - 0.5) * 200) if played >= MIN_GAMES else None,
        "strong": STRONG,
        "weak": WEAK,
    }


class _Until:
    """A bot whose every move stops at the analysis's deadline (and not before): a
    rollout may last a game's whole move limit, tens of thousands of moves. A move cut
    short belongs to a game the deadline interrupts, which is not counted."""

    def __init__(self, agent, deadline: float):
        self.agent, self.deadline = agent, deadline
        self.spec = agent.spec

    def choose(self, state, seat: int):
        self.agent.time_limit = max(0.001, self.deadline - time.perf_counter())
        return self.agent.choose(state, seat)


def _seat_of_agent(game, index: int) -> int:
    """The seat of the ``index``-th agent (``play_game`` puts Chaos in its own seat)."""
    if game.chaos is not None and index >= game.chaos:
        return index + 1
    return index
