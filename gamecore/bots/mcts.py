"""MCTS: UCT with random rollouts, for any number of seats.

The search (select, expand, back up) is kept apart from the evaluation (a random
rollout scored per seat: win 1, draw 0.5, loss 0), as in open_spiel's ``mcts.py``. Each
node keeps its statistics from the point of view of the seat that moved into it, so
selection at every node maximises the mover's own reward: this is max-n, and needs no
idea of alternation (two placements a turn, three or four seats, teams, draw offers all
follow from ``to_move``). Chaos plays uniformly at random, so the tree models it so.

One enhancement, for tactics: when a node is first expanded and its mover can win at
once, that winning move is its only child ("decisive moves", Teytaud & Teytaud 2010).
Without it UCT needs thousands of simulations to notice that a reply loses on the spot.

Simultaneous rounds (several seats plan at once, none seeing the others' plans) are one
node whose children are the joint plans, searched by regret matching per seat
(``rounds.py``); the search starts from ``sample_root``, which forgets the other seats'
unresolved plans (``state.without_plans(seat)``).
"""

import math
import random

from .common import Budget, rewards, rollout, sample_root, winning_move
from .rounds import RoundStats, is_round

DEFAULT_SIMULATIONS = 1000
EXPLORATION = 1.0  # UCT's c, for rewards in [0, 1]


class Node:
    __slots__ = (
        "move", "mover", "parent", "player", "untried", "children", "visits", "value", "round",
    )  # fmt: skip

    def __init__(self, move=None, mover=None, parent=None):
        self.move = move
        self.mover = mover  # the seat that played ``move`` into this node
        self.parent = parent
        self.player = None  # the seat to move here, set on expansion
        self.untried = None  # moves not yet tried here; None until expanded
        self.children = []
        self.visits = 0
        self.value = 0.0  # sum of the mover's rewards
        self.round = None  # RoundStats where seats plan a simultaneous round here

    def expand(self, state, player: int, budget=None) -> None:
        seats = state.to_move()
        if is_round(state, seats):  # several seats plan at once: one node, joint plans
            self.round = RoundStats(state, seats, state.game.chaos)
            self.untried = ()
            return
        self.player = player
        moves = state.legal_moves(player)
        # Chaos moves at random, so it is not assumed to take its wins.
        thinks = len(moves) > 1 and player != state.game.chaos
        win = winning_move(state, player, moves, budget) if thinks else None
        self.untried = [win] if win is not None else list(moves)  # shared: copy


class MctsAgent:
    """UCT within ``simulations`` (default 1000) and/or ``ms`` milliseconds a move;
    ``time_limit`` (seconds) caps both. With only a simulation budget it is reproducible."""

    def __init__(
        self, seed=None, time_limit=None, simulations=None, ms=None, exploration=None, **_options
    ):
        self.rng = random.Random(seed)
        # ``exploration``: UCT's c in hundredths (a spec option is a whole number).
        self.c = EXPLORATION if exploration is None else exploration / 100
        self.time_limit = time_limit
        if simulations is None and ms is None:
            simulations = DEFAULT_SIMULATIONS
        self.simulations = simulations
        self.ms = ms
        self.spec = {"kind": "mcts"}
        self.last_simulations = 0  # simulations run for the last move (see bench.py)

    def choose(self, state, seat: int):
        budget = Budget(self.time_limit, None if self.ms is None else self.ms / 1000)
        root_state = sample_root(state, seat, self.rng)
        root = Node()
        root.expand(root_state, seat, budget)
        rnd = root.round  # a simultaneous round: ``seat`` is one of its planners
        options = root.untried if rnd is None else rnd.moves[rnd.seats.index(seat)]
        if len(options) == 1:  # forced, or a winning move: nothing to think about
            self.last_simulations = 0
            return options[0]
        n = 0
        while (self.simulations is None or n < self.simulations) and not budget.over():
            self._simulate(root, root_state, budget)
            n += 1
        self.last_simulations = n
        if rnd is not None:
            return rnd.choose(seat, self.rng)
        return self._best(root)

    def _simulate(self, root: Node, root_state, budget) -> None:
        state = root_state.clone()
        rounds = []  # (RoundStats, picks) met on the way down
        node = self._descend(root, state, rounds, budget)
        if state.outcome is None:
            rollout(state, self.rng, budget)  # the deadline holds inside the rollout too
        reward = rewards(state.outcome, state.game.nseats)  # cut short: a draw
        while node is not None:
            node.visits += 1
            if node.mover is not None:
                node.value += reward[node.mover]
            node = node.parent
        for stats, picks in rounds:
            stats.update(picks, reward)

    def _descend(self, node: Node, state, rounds: list, budget=None) -> Node:
        """Select down the tree, playing its moves on ``state``; add one new node."""
        chaos = state.game.chaos
        sqrt, log, c2 = math.sqrt, math.log, self.c * self.c
        play = getattr(state, "play", state.apply)  # the trusted apply: moves it listed
        while state.outcome is None:
            if node.untried is None:
                node.expand(state, state.to_move()[0], budget)
            if node.round is not None:  # a simultaneous round: every seat plans
                stats = node.round
                picks = stats.pick(self.rng)
                for k, (index, _p) in enumerate(picks):
                    if state.outcome is not None:
                        break
                    play(stats.seats[k], stats.moves[k][index])
                rounds.append((stats, picks))
                key = tuple(index for index, _p in picks)
                child = stats.children.get(key)
                if child is None:
                    child = stats.children[key] = Node(None, None, node)
                    return child
                node = child
                continue
            untried = node.untried
            if untried:
                i = int(self.rng.random() * len(untried))
                move = untried[i]
                untried[i] = untried[-1]
                untried.pop()
                play(node.player, move)
                child = Node(move, node.player, node)
                node.children.append(child)
                return child
            if node.player == chaos:
                node = self._select(node, chaos)
            else:  # UCT, as in _select, inlined: this runs at every level of every simulation
                c2_log_n = c2 * log(node.visits)
                best, best_score = None, -1.0
                for child in node.children:
                    visits = child.visits
                    score = child.value / visits + sqrt(c2_log_n / visits)
                    if score > best_score:
                        best, best_score = child, score
                node = best
            play(node.mover, node.move)
        return node

    def _select(self, node: Node, chaos) -> Node:
        if node.player == chaos:  # Chaos moves uniformly at random
            return self.rng.choice(node.children)
        c2_log_n = self.c * self.c * math.log(node.visits)
        sqrt = math.sqrt
        best, best_score = None, -1.0
        for child in node.children:
            visits = child.visits
            score = child.value / visits + sqrt(c2_log_n / visits)
            if score > best_score:
                best, best_score = child, score
        return best

    def _best(self, root: Node):
        if not root.children:  # no simulation ran (no time at all): any legal move
            return self.rng.choice(root.untried)
        best = max(root.children, key=lambda c: (c.visits, c.value))
        return best.move
