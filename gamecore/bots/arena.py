"""Bots playing whole games: the Python twin of ``manage.py variant play``."""

import random
import time

from .base import RandomAgent
from .common import checked, for_seat
from .specs import make_agent, parse_spec, spec_text


def play_game(game, agents: list, seed: int | None = None, deadline: float | None = None):
    """Play one game to its end. ``agents`` has one bot per non-Chaos seat, in seat
    order; Chaos (if the game has it) plays uniformly at random. Returns (state, moves);
    the state is None if ``deadline`` (a ``time.perf_counter()`` value) passed first."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed=rng.randrange(2**32))
    seats = list(agents)
    if game.chaos is not None:
        seats.insert(game.chaos, RandomAgent(seed=rng.randrange(2**32)))
    moves = 0
    while not state.is_terminal():
        if deadline is not None and time.perf_counter() > deadline:
            return None, moves
        for seat in state.to_move():
            if state.is_terminal() or seat not in state.to_move():
                break
            move = seats[seat].choose(for_seat(state, seat), seat)  # the seat's view only
            state.apply(seat, checked(state, seat, move))
            moves += 1
    return state, moves


def play_games(game, specs: list, games: int, seed: int = 0, time_limit=None) -> dict:
    """Play ``games`` games with the same seating; tallies per seat (see ``variant play``)."""
    players = game.nseats - (game.chaos is not None)
    if len(specs) != players:
        raise ValueError(
            f"{game.name} needs {players} seat(s) besides Chaos, got {len(specs)}"
            if game.chaos is not None
            else f"{game.name} needs {players} seats, got {len(specs)}"
        )
    specs = [parse_spec(s) for s in specs]
    rng = random.Random(seed)
    agents = [make_agent(s, seed=rng.randrange(2**32), time_limit=time_limit) for s in specs]
    labels = [spec_text(s) for s in specs]
    if game.chaos is not None:
        labels.insert(game.chaos, "chaos")
    tally = [{"spec": label, "wins": 0, "draws": 0, "losses": 0} for label in labels]
    total_moves = 0
    started = time.perf_counter()
    for _ in range(games):
        state, moves = play_game(game, agents, seed=rng.randrange(2**32))
        total_moves += moves
        for seat, result in enumerate(state.outcome.results):
            tally[seat][{"win": "wins", "draw": "draws", "loss": "losses"}[result]] += 1
    return {
        "game": game.name,
        "games": games,
        "mean_moves": total_moves / games if games else 0.0,
        "seconds": round(time.perf_counter() - started, 3),
        "seats": tally,
    }
