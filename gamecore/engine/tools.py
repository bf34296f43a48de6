"""Helpers over the public API: perft and a random playout."""

import random


def perft(state, depth: int) -> int:
    """Move sequences of exactly ``depth`` moves (a line that ends earlier is not counted).
    When several seats are awaited, each (seat, move) pair is a move."""
    if state.is_terminal():
        return 0
    if depth == 1:  # bulk count: every legal move makes a sequence of exactly depth moves
        return sum(len(state.legal_moves(s)) for s in state.to_move())
    total = 0
    for seat in state.to_move():
        for move in state.legal_moves(seat):
            child = state.clone()
            child.apply(seat, move)
            total += perft(child, depth - 1)
    return total


def random_playout(state, rng: random.Random) -> int:
    """Play uniformly random legal moves until the end; returns the number of moves."""
    n = 0
    choice = rng.choice
    while not state.is_terminal():
        seat = state.to_move()[0]
        state.apply(seat, choice(state.legal_moves(seat)))
        n += 1
    return n


def playout_rate(game, seconds: float = 1.0, seed: int = 0) -> tuple[float, float]:
    """Random-playout speed through the public API: (moves per second, games per second)."""
    import time

    choice = random.Random(seed).choice
    moves = games = 0
    started = time.perf_counter()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state(seed=games)
        while not state.is_terminal():
            seat = state.to_move()[0]
            state.apply(seat, choice(state.legal_moves(seat)))
            moves += 1
        games += 1
    elapsed = time.perf_counter() - started
    return moves / elapsed, games / elapsed
