"""A learning AI at the table: ``LearnerAgent(learner).choose(state, seat) -> Move``.

It scores the position each legal move leads to, as the seat would see it, with the
plan's formula (LATER.md, "Choosing a move"), all legal moves in one batched
prediction, and plays the best; ties fall at random (seeded). Over calibrated
probabilities P of the six labels:

    tScore = Offense·P(win ∨ unstrategic win) − (1 − Offense)·P(lose ∨ strategic lose)
    sScore = P(win ∨ strategic lose) − P(lose ∨ unstrategic win ∨ unstrategic draw)
    score  = Faith^(ln(t + 20) / 3) · (Tactical·tScore + (1 − Tactical)·sScore)

t = days since the position last occurred in the curriculum (the learner's day map;
``recent`` replaces it); a position never studied counts as UNSEEN_DAYS old (README).

**Hidden information.** The positions are made from ``sample_root(state, seat, rng)``
(common.py: without the other seats' unresolved plans in a simultaneous round; a plain
copy where nothing is hidden) — except in a cloaked game, where the agent plays forward
from the seat's own position (``seat_state``: hidden pieces absent) instead of a
determinised sample: a sample's invented pieces would show in ``view(seat)`` of the
position after the move, where a seat's view (and so every studied position) never
shows them. Either way only ``view(seat)`` reaches the features.
"""

import random

import numpy as np

from gamecore.bots.common import Budget, after, sample_root

from .features import layout_for
from .labels import LABELS
from .model import position_keys, today

UNSEEN_DAYS = 365
_I = {label: i for i, label in enumerate(LABELS)}
TIE = 1e-9


def scores(prob: np.ndarray, personality: dict, days: list) -> np.ndarray:
    """The plan's score of each row of ``prob`` (LABELS order); ``days``: t per row
    (None: never studied)."""
    p = {label: prob[:, i] for label, i in _I.items()}
    offense, tactical, faith = (personality[k] for k in ("offense", "tactical", "faith"))
    t_score = offense * (p["win"] + p["unstrategic_win"]) - (1 - offense) * (
        p["lose"] + p["strategic_lose"]
    )
    s_score = (p["win"] + p["strategic_lose"]) - (
        p["lose"] + p["unstrategic_win"] + p["unstrategic_draw"]
    )
    ages = np.array([UNSEEN_DAYS if t is None else t for t in days], dtype=np.float64)
    trust = faith ** (np.log(ages + 20) / 3) if faith > 0 else np.zeros_like(ages)
    return trust * (tactical * t_score + (1 - tactical) * s_score)


class LearnerAgent:
    """A bot over a ``Learner``. ``recent``: position key -> day last studied, used
    instead of the learner's own map; ``day``: today's day number (tests, replays)."""

    def __init__(self, learner, seed=None, time_limit=None, recent=None, day=None):
        self.learner = learner
        self.rng = random.Random(seed)
        self.time_limit = time_limit
        self.recent = recent
        self.day = day
        self.spec = {"kind": "learner", "algorithm": learner.algorithm}
        self.last_prediction: dict | None = None

    def _root(self, state, seat: int):
        seat_state = getattr(state, "seat_state", None)
        if seat_state is not None:  # handed the truth of a cloaked game
            return seat_state(seat)
        if hasattr(state, "viewer"):  # already the seat's own position (for_seat)
            return state
        return sample_root(state, seat, self.rng)

    def _days(self, keys: np.ndarray) -> list:
        day = today() if self.day is None else self.day
        if self.recent is None:
            return self.learner.days_since(keys, day)
        get = self.recent.get
        return [None if (d := get(k)) is None else max(0, day - d) for k in keys.tolist()]

    def candidates(self, state, seat: int):
        """(moves, X): the seat's legal moves and, row by row, the features of the
        position each leads to as the seat sees it (fewer rows if the clock ran out)."""
        moves = list(state.legal_moves(seat))  # the engine's list is shared: copy
        if not moves:
            raise ValueError(f"seat {seat} has no legal move")
        layout = layout_for(state.game)
        learner = self.learner
        if learner.layout is not None and learner.layout != layout.fingerprint:
            raise ValueError(f"this AI learnt {learner.game!r}, not {state.game.name!r}")
        if learner.fitted and learner.n_features != layout.size:
            raise ValueError(f"this AI reads {learner.n_features} features, not {layout.size}")
        root = self._root(state, seat)
        budget = Budget(None if self.time_limit is None else self.time_limit * 0.8)
        X = np.zeros((len(moves), layout.size), dtype=np.float32)
        done = 0
        for i, move in enumerate(moves):
            if done and budget.over():
                break  # the clock: choose among the moves scored so far
            layout.encode_into(after(root, seat, move).view(seat), seat, X[i])
            done += 1
        return moves[:done], X[:done]

    def choose(self, state, seat: int):
        moves, X = self.candidates(state, seat)
        learner = self.learner
        done = len(moves)
        prob = learner.predict_proba(X)
        score = scores(prob, learner.personality, self._days(position_keys(X)))
        best = float(score.max())
        ties = [i for i in range(done) if score[i] >= best - TIE]
        pick = ties[0] if len(ties) == 1 else self.rng.choice(ties)
        row = prob[pick]
        self.last_prediction = {
            "label": LABELS[int(np.argmax(row))],
            "probabilities": {label: float(row[i]) for label, i in _I.items()},
        }
        return moves[pick]
