"""Hard: alpha-beta with a transposition table and iterative deepening.

Values are from the point of view of the root seat's team ("paranoid" search: every
other team, Chaos included, is assumed to play against it, which for two teams is plain
minimax). A finished game scores +-WIN, adjusted by its distance so that quick wins and
slow losses are preferred; a position at the depth limit scores the mean result of a few
random rollouts, scaled into (-SCALE, SCALE), far below any proven value.

Search stops at ``depth`` plies, at an ``effort`` budget (nodes plus rollout moves, so a
move costs the same on any machine and games are reproducible), or at ``time_limit``
seconds, whichever comes first; it returns the best move of the deepest search done (or
of the one cut short, once its first move is searched). A small game is searched to its
end and is then played perfectly: first a search without a depth limit is tried on a
quarter of the effort (unless ``depth`` is set lower than MAX_DEPTH: that asks for a
weaker bot), and deepening stops as soon as a search reached no heuristic leaf.
"""

import random

from gamecore.engine import IllegalMove

from .common import REWARD, Budget, rollout, sample_root, traits
from .keys import PathKey

WIN = 1_000_000
SCALE = 1_000  # heuristic values lie in (-SCALE, SCALE)
EXACT, LOWER, UPPER = 0, 1, 2
MAX_DEPTH = 20
DEFAULT_EFFORT = 100_000
ROLLOUTS = 4  # random playouts per heuristic leaf
NODE_COST = 3  # a node (clone, apply, list and order moves) costs about 3 rollout moves
PROVEN = 10**6  # the depth stored with an entry whose subtree holds no heuristic leaf
PROOF_DEPTH = 80  # the proof attempt's horizon (the search recurses: keep off the stack limit)


class OutOfBudget(Exception):
    pass


class HardAgent:
    def __init__(self, seed=None, time_limit=None, depth=MAX_DEPTH, effort=None, **_options):
        self.rng = random.Random(seed)
        self.time_limit = time_limit
        self.depth = depth
        self.effort = DEFAULT_EFFORT if effort is None else effort
        self.spec = {"kind": "hard"}
        self.last_depth = 0  # deepest finished search for the last move (for tests and logs)

    def choose(self, state, seat: int):
        moves = list(state.legal_moves(seat))  # the engine's list is shared: copy
        if len(moves) == 1:
            return moves[0]
        self.rng.shuffle(moves)  # equal moves fall at random, reproducibly
        self._start(state, seat)
        root = sample_root(state, seat, self.rng)
        if self.depth == MAX_DEPTH:  # a depth limit asks for a weaker bot: no proof then
            solved = self._solve(root, seat, moves)
            if solved is not None:
                return solved
        return self._deepen(root, seat, moves)

    def _solve(self, root, seat: int, moves: list):
        """Try to search to the very end within a quarter of the effort. What it proves stays
        in the table (exact whatever the depth), so a failed try is not wasted."""
        self._limit = self._work + self.effort // 4
        inexact = self._inexact
        try:
            best, _value = self._root(root, seat, moves, PROOF_DEPTH)
            if self._inexact != inexact:  # the game goes on beyond PROOF_DEPTH
                return None
            self.last_depth = PROVEN  # "to the end"
            return best
        except OutOfBudget:
            if self._partial is None or self._partial_value < -WIN // 2:
                return None
            if self._partial_value > WIN // 2:  # a proven win: no need to look further
                return self._partial
            moves.remove(self._partial)
            moves.insert(0, self._partial)  # the fallback if deepening gets nowhere
            return None
        finally:
            self._limit = self.effort

    def _deepen(self, root, seat: int, moves: list):
        best, self.last_depth = moves[0], 0
        for depth in range(1, self.depth + 1):
            inexact = self._inexact
            try:
                best, _value = self._root(root, seat, moves, depth)
            except OutOfBudget:
                best = self._partial or best
                break
            self.last_depth = depth
            moves.remove(best)
            moves.insert(0, best)  # the best so far is searched first next time
            if self._inexact == inexact:  # no heuristic leaf: the value is exact
                break
        return best

    def _start(self, state, seat: int) -> None:
        game = state.game
        self._game = game
        self._team = game.teams[seat]
        self._seat = seat
        self._budget = Budget(self.time_limit)
        self._work = 0
        self._inexact = 0  # heuristic leaves (and inexact table hits) so far
        self._table: dict = {}
        self._history: dict = {}
        self._keys = PathKey(0 if traits(game).flat else 2 * game.nseats)
        self._partial = None
        self._partial_value = -WIN - 1
        self._limit = self.effort

    def _root(self, state, seat: int, moves: list, depth: int):
        self._partial, self._partial_value = None, -WIN - 1
        alpha, best = -WIN - 1, moves[0]
        for move in moves:
            value = self._child(state, seat, move, depth, 0, alpha, WIN + 1)
            if value > alpha:
                alpha, best = value, move
                self._partial, self._partial_value = move, value
        return best, alpha

    def _child(self, state, seat: int, move, depth: int, ply: int, alpha, beta):
        child = state.clone()
        try:
            child.apply(seat, move)
        except IllegalMove:
            if ply:
                raise
            # A move of the seat's own position that the sampled world forbids (cloaked
            # games: a hidden piece in its way): an attempt, so the turn ends unmoved.
            child.skip(seat)
        self._keys.push(seat, move)
        try:
            return self._search(child, depth - 1, ply + 1, alpha, beta)
        finally:
            self._keys.pop(seat, move)

    def _search(self, state, depth: int, ply: int, alpha, beta):
        self._tick(NODE_COST)
        if state.is_terminal():
            return self._terminal(state, ply)
        seats = state.to_move()
        key = self._keys.key(state, seats)
        hint, cut = self._probe(key, depth, alpha, beta)
        if cut is not None:
            return cut
        if depth <= 0:
            return self._evaluate(state, key)
        inexact = self._inexact
        value, best, flag = self._expand(state, seats[0], depth, ply, alpha, beta, hint)
        proven = self._inexact == inexact
        self._table[key] = (PROVEN if proven else depth, flag, value, best, proven)
        return value

    def _expand(self, state, player: int, depth: int, ply: int, alpha, beta, hint):
        """Search every move of ``player``; returns (value, best move, bound flag)."""
        maximise = self._game.teams[player] == self._team
        moves = self._ordered(list(state.legal_moves(player)), hint)
        start_alpha, start_beta = alpha, beta
        best_value, best = (-WIN - 1, None) if maximise else (WIN + 1, None)
        for move in moves:
            value = self._child(state, player, move, depth, ply, alpha, beta)
            if (value > best_value) if maximise else (value < best_value):
                best_value, best = value, move
                if maximise:
                    alpha = max(alpha, value)
                else:
                    beta = min(beta, value)
            if alpha >= beta:
                self._history[move] = self._history.get(move, 0) + depth * depth
                break
        if best_value <= start_alpha:
            flag = UPPER
        elif best_value >= start_beta:
            flag = LOWER
        else:
            flag = EXACT
        return best_value, best, flag

    def _ordered(self, moves: list, hint) -> list:
        history = self._history
        moves.sort(key=lambda m: -history.get(m, 0))
        if hint is not None and hint in moves:
            moves.remove(hint)
            moves.insert(0, hint)
        return moves

    def _probe(self, key, depth: int, alpha, beta):
        """(the stored best move, a value that ends the search here or None)."""
        entry = self._table.get(key)
        if entry is None:
            return None, None
        stored_depth, flag, value, best, proven = entry
        if stored_depth >= depth and (
            flag == EXACT or (flag == LOWER and value >= beta) or (flag == UPPER and value <= alpha)
        ):
            if not proven:
                self._inexact += 1
            return best, value
        return best, None

    def _terminal(self, state, ply: int) -> int:
        result = state.outcome.results[self._seat]
        if result == "win":
            return WIN - ply
        if result == "loss":
            return -WIN + ply
        return 0

    def _evaluate(self, state, key) -> float:
        """The mean result of a few random rollouts, from the root team's point of view."""
        self._inexact += 1
        total = 0.0
        for _ in range(ROLLOUTS):
            playout = state.clone()
            # Within the effort and the clock left: a rollout cut short raises OutOfBudget.
            self._tick(rollout(playout, self.rng, self._budget, self._limit - self._work + 1))
            total += REWARD[playout.outcome.results[self._seat]]
        value = (total / ROLLOUTS - 0.5) * 2 * (SCALE - 1)
        self._table[key] = (0, EXACT, value, None, False)
        return value

    def _tick(self, work: int) -> None:
        self._work += work
        if self._work > self._limit or self._budget.over():
            raise OutOfBudget
