import random

from .labels import LABELS


class LearnerAgent:
    def __init__(self, learner, seed=None, time_limit=None):
        self.learner, self.rng = learner, random.Random(seed)
        self.last_prediction = None

    def choose(self, state, seat):
        moves = state.legal_moves(seat)
        probabilities = dict(zip(LABELS, self.learner.predict_proba([[0]])[0], strict=True))
        best = max(LABELS, key=lambda label: probabilities[label])
        self.last_prediction = {"label": best, "probabilities": probabilities}
        return self.rng.choice(list(moves))
