"""Simultaneous rounds in the tree search: regret matching per round (SM-MCTS).

In a simultaneous round (engine README: every seat still to plan is in ``to_move()``;
a plan is hidden until the last one resolves the round) a seat must choose without
knowing the others' plans. Searching the round as if the seats moved one after another
would let the later ones answer the earlier ones' plans, which they cannot do: in
Rock-Paper-Scissors every move would look lost. So a round is one node of the tree
whose children are the *joint* plans, and each seat keeps its own statistics over its
own plans only ("decoupled"), updated by **regret matching** with outcome sampling
(Lanctot, Lisý and Winands, *Monte Carlo Tree Search in Simultaneous Move Games with
Applications to Goofspiel*, 2013): each seat draws its plan from the strategy its
positive regrets give, mixed with ``GAMMA`` uniform exploration; after the simulation
the estimated value of every plan (the reward over the probability for the plan drawn,
0 for the others) minus the reward is added to its regret. The *average* strategy
converges to an equilibrium of the round: near uniform in Rock-Paper-Scissors, the
dominant plan where there is one.

The bot's choice at a round is drawn from its seat's average strategy, leaving out plans
the average gives less than half of a uniform share (what exploration alone keeps
alive), so a mixed equilibrium is played mixed and a dominated plan is not played.

Chaos plans uniformly at random (as it does in play) and learns nothing. A draw offer
is never one of the plans searched (as in rollouts: a random offer is noise).
"""

GAMMA = 0.1  # the share of uniform exploration mixed into each seat's strategy


def is_round(state, seats) -> bool:
    """Whether the several ``seats`` of ``to_move()`` plan a simultaneous round: plans
    that stay hidden until the last one is in (the general family's rounds, which have
    ``pending_plans``). Not a draw offer being answered, and not nested boards'
    simultaneous order, where each team's move is played at once and changes where the
    next one may go (searched one move after another, as before)."""
    if len(seats) < 2 or not hasattr(state, "pending_plans"):
        return False
    return not any(str(m) in ("accept", "decline") for m in state.legal_moves(seats[0]))


def plans_of(state, seat: int) -> list:
    moves = [m for m in state.legal_moves(seat) if str(m) != "draw"]
    return moves or list(state.legal_moves(seat))


class RoundStats:
    """The statistics of one round node: per planning seat its plans, regrets and the
    running sum of its strategies; the children per joint plan (indices, seat order)."""

    __slots__ = ("seats", "moves", "regret", "total", "children", "chaos")

    def __init__(self, state, seats, chaos):
        self.seats = tuple(seats)
        self.moves = [plans_of(state, s) for s in seats]
        self.regret = [[0.0] * len(m) for m in self.moves]
        self.total = [[0.0] * len(m) for m in self.moves]
        self.children: dict = {}
        self.chaos = chaos

    def _strategy(self, k: int) -> list[float]:
        positive = [r if r > 0 else 0.0 for r in self.regret[k]]
        s = sum(positive)
        n = len(positive)
        return [p / s for p in positive] if s > 0 else [1.0 / n] * n

    def pick(self, rng) -> list[tuple[int, float]]:
        """Each seat's plan for one simulation: (index, probability it was drawn with)."""
        picks = []
        for k, seat in enumerate(self.seats):
            n = len(self.moves[k])
            if seat == self.chaos or n == 1:
                picks.append((int(rng.random() * n), 1.0 / n))
                continue
            sigma = self._strategy(k)
            total = self.total[k]
            for b in range(n):
                total[b] += sigma[b]
            x = rng.random()
            index = n - 1
            for b in range(n):
                p = (1.0 - GAMMA) * sigma[b] + GAMMA / n
                if x < p:
                    index = b
                    break
                x -= p
            picks.append((index, (1.0 - GAMMA) * sigma[index] + GAMMA / n))
        return picks

    def update(self, picks, reward) -> None:
        """Regret matching's update from one simulation's rewards (per seat)."""
        for k, (index, prob) in enumerate(picks):
            seat = self.seats[k]
            regret = self.regret[k]
            if seat == self.chaos or len(regret) == 1:
                continue
            r = reward[seat]
            for b in range(len(regret)):
                regret[b] -= r
            regret[index] += r / prob

    def average(self, seat: int) -> list[float]:
        """``seat``'s average strategy over the search (uniform before any)."""
        total = self.total[self.seats.index(seat)]
        s = sum(total)
        n = len(total)
        return [t / s for t in total] if s > 0 else [1.0 / n] * n

    def choose(self, seat: int, rng):
        """The plan ``seat`` plays: drawn from its average strategy without the plans it
        gives less than half a uniform share."""
        k = self.seats.index(seat)
        avg = self.average(seat)
        n = len(avg)
        best = max(avg)
        kept = [(b, p) for b, p in enumerate(avg) if p >= 0.5 / n or p == best]
        x = rng.random() * sum(p for _, p in kept)
        for b, p in kept:
            if x < p:
                return self.moves[k][b]
            x -= p
        return self.moves[k][kept[-1][0]]
