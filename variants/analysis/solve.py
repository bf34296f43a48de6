"""The value of a game under perfect play, where exhaustive search is within reach.

A depth-first minimax over every line, with a table of the positions already solved
(transpositions), stopped at a node budget: the answer is exact or there is none (the
card says "not solved", never a guess). Two teams and no Chaos (whose moves are random,
so a game with Chaos has no minimax value); the flat and general families, whose
positions are their pieces (nested boards route by the last move: not solved here).
"""

from __future__ import annotations

import json
import sys
import time

SCORE = {"win": 1, "draw": 0, "loss": -1}
# The longest line searched: a game may last up to its move limit (tens of thousands of
# moves on a big board where captives reincarnate), deeper than Python's stack.
MAX_DEPTH = 2_000
WORDS = {1: "first player wins", 0: "draw", -1: "second player wins"}


class OutOfBudget(Exception):
    pass


def _key(state):
    key = getattr(state, "key", None)
    if key is not None:
        return key()
    view = state.view(None)
    # The flat family's position: its pieces, reserves and whose turn (not the move order).
    return json.dumps(
        [view["boards"], view["reserves"], view["to_move"], view["placed_this_turn"],
         view["draw_offer"]],
        sort_keys=True,
    )  # fmt: skip


def why_not(game) -> str | None:
    """Why this game is not searched at all (None: it is, within the budget)."""
    if game.chaos is not None:
        return "Chaos moves at random, so there is no perfect-play value"
    if len(set(game.teams)) != 2:
        return "more than two sides: no single perfect-play value"
    if game.family not in ("flat", "general"):
        return "nested boards are not searched exhaustively here"
    return None


def solvable(game) -> bool:
    return why_not(game) is None


def solve(game, budget: int = 200_000, seconds: float | None = None) -> dict:
    """{"solved": True, "value": 1/0/-1 for the first player's team, "words", "positions"}
    or {"solved": False, "why": ...}."""
    if not solvable(game):
        return {"solved": False, "why": why_not(game)}
    table: dict = {}
    first_team = game.teams[0]
    nodes = [0]
    deadline = None if seconds is None else time.perf_counter() + seconds

    def value(state, depth: int = 0) -> int:
        """The first team's result under perfect play from ``state``."""
        if state.is_terminal():
            seat = game.teams.index(first_team)
            return SCORE[state.outcome.results[seat]]
        key = _key(state)
        if key in table:
            return table[key]
        nodes[0] += 1
        if depth > MAX_DEPTH:
            raise OutOfBudget(f"lines longer than {MAX_DEPTH:,} moves")
        if nodes[0] > budget:
            raise OutOfBudget(f"more than {budget:,} positions")
        if deadline is not None and nodes[0] % 512 == 0 and time.perf_counter() > deadline:
            raise OutOfBudget(f"not within {seconds:g} s")
        seat = state.to_move()[0]
        maximise = game.teams[seat] == first_team
        best = -2 if maximise else 2
        for move in state.legal_moves(seat):
            if str(move) == "draw":
                continue  # an offer is answered by the others: it changes no value here
            child = state.clone()
            child.apply(seat, move)
            v = value(child, depth + 1)
            if maximise and v > best or not maximise and v < best:
                best = v
            if best == (1 if maximise else -1):
                break  # cannot do better
        table[key] = best
        return best

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        result = value(game.new_initial_state(seed=0))
    except OutOfBudget as exc:
        return {"solved": False, "why": str(exc)}
    finally:
        sys.setrecursionlimit(limit)
    return {"solved": True, "value": result, "words": WORDS[result], "positions": len(table)}
