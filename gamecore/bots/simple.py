"""The cheap bots: easy (uniform random) and medium (wins or blocks in one, else random)."""

import random

from .base import RandomAgent
from .common import Budget, after, is_draw_offer, sample_root

# Medium's ranks of a move, best first.
WINS, SAFE, OFFER, THREATENED, LOSES = 4, 3, 2, 1, 0


class EasyAgent(RandomAgent):
    """Plays randomly, with no threat detection (seed 003's "easy")."""

    def __init__(self, seed: int | None = None, **_options):
        super().__init__(seed)
        self.spec = {"kind": "easy"}


class MediumAgent:
    """Wins at once when it can, else avoids moves that let the next seat win at once (or
    that lose on the spot, as completing a line does in Notakto), else plays at random.

    Facing two threats it cannot stop both, but it blocks one: among threatened moves it
    keeps those that leave the fewest winning replies (seed 003: "blocks immediately
    when possible"; a move that blocks neither is never chosen over one that blocks one).

    "Win" and "loss" are read from the outcome's per-seat results, so teams, shared
    colours and "loses" checks need no special case. With nothing safe left it offers a
    draw where the game allows one; it declines offers (it cannot judge them)."""

    def __init__(self, seed: int | None = None, time_limit: float | None = None, **_options):
        self.rng = random.Random(seed)
        self.time_limit = time_limit
        self.spec = {"kind": "medium"}

    def choose(self, state, seat: int):
        moves = list(state.legal_moves(seat))  # the engine's list is shared: copy
        answers = [m for m in moves if str(m) == "decline"]
        if answers or len(moves) == 1:
            return answers[0] if answers else moves[0]
        self.rng.shuffle(moves)  # ties, and a move cut short by the clock, fall at random
        state = sample_root(state, seat, self.rng)  # never another seat's hidden plan
        budget = Budget(self.time_limit)
        killers: list = []  # replies that won somewhere: try them first elsewhere
        best, best_rank = [], (-1, 0)
        for move in moves:
            if best and budget.over():
                break
            rank = self._rank(state, seat, move, killers, budget)
            if rank[0] == WINS:
                return move
            if rank > best_rank:
                best, best_rank = [move], rank
            elif rank == best_rank:
                best.append(move)
        return self.rng.choice(best)

    def _rank(self, state, seat: int, move, killers: list, budget=None) -> tuple[int, int]:
        """(rank, tie-break): a threatened move that leaves fewer winning replies is better."""
        if is_draw_offer(move):
            return OFFER, 0
        child = after(state, seat, move)
        mine = state.game.teams[seat]
        if child.is_terminal():
            result = child.outcome.results[seat]
            return (WINS if result == "win" else LOSES if result == "loss" else SAFE), 0
        nxt = child.to_move()[0]
        if state.game.teams[nxt] == mine:
            return SAFE, 0
        # One scan: a safe move's scan finds nothing and reads every reply either way.
        threats = self._winning_replies(child, nxt, seat, killers, budget)
        return (THREATENED, -threats) if threats else (SAFE, 0)

    @staticmethod
    def _winning_replies(state, nxt: int, victim: int, killers: list, budget=None) -> int:
        """How many moves of ``nxt`` win at once and beat ``victim``, as far as the clock
        lets it look: a move's time limit holds inside this loop too."""
        replies = state.legal_moves(nxt)
        ordered = [k for k in killers if k in replies] + [r for r in replies if r not in killers]
        found = 0
        for reply in ordered:
            if budget is not None and budget.over():
                return found
            if is_draw_offer(reply):
                continue
            child = after(state, nxt, reply)
            if not child.is_terminal():
                continue
            results = child.outcome.results
            if results[nxt] == "win" and results[victim] != "win":
                if reply not in killers:
                    killers.append(reply)
                found += 1
        return found
