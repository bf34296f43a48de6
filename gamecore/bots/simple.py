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
        best, best_rank = [], -1
        for move in moves:
            if best and budget.over():
                break
            rank = self._rank(state, seat, move, killers, budget)
            if rank == WINS:
                return move
            if rank > best_rank:
                best, best_rank = [move], rank
            elif rank == best_rank:
                best.append(move)
        return self.rng.choice(best)

    def _rank(self, state, seat: int, move, killers: list, budget=None) -> int:
        if is_draw_offer(move):
            return OFFER
        child = after(state, seat, move)
        mine = state.game.teams[seat]
        if child.is_terminal():
            result = child.outcome.results[seat]
            return WINS if result == "win" else LOSES if result == "loss" else SAFE
        nxt = child.to_move()[0]
        if state.game.teams[nxt] == mine:
            return SAFE
        return THREATENED if self._can_win(child, nxt, seat, killers, budget) else SAFE

    @staticmethod
    def _can_win(state, nxt: int, victim: int, killers: list, budget=None) -> bool:
        """Whether ``nxt`` has a move that wins at once and beats ``victim`` (as far as
        the clock lets it look: a move's time limit holds inside this loop too)."""
        replies = state.legal_moves(nxt)
        ordered = [k for k in killers if k in replies] + replies
        for reply in ordered:
            if budget is not None and budget.over():
                return False
            if is_draw_offer(reply):
                continue
            child = after(state, nxt, reply)
            if not child.is_terminal():
                continue
            results = child.outcome.results
            if results[nxt] == "win" and results[victim] != "win":
                if reply not in killers:
                    killers.append(reply)
                return True
        return False
