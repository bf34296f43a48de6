import json
import os
import time

from .labels import LABELS

MAGIC = b"FAKELEARN1\n"


class Learner:
    def __init__(self, settings: dict, counts: dict, moves_studied: int, game=None):
        self.settings, self.counts, self.moves_studied = settings, counts, moves_studied
        self.game = game  # as the real core: a model learns one game

    @classmethod
    def new(cls, algorithm, params, personality, seed):
        settings = {"algorithm": algorithm, "params": params, "personality": personality}
        return cls(settings, {label: 0 for label in LABELS}, 0)

    def partial_fit(self, X, y, day=None, game=None):
        # The worker test slows studying down to kill a worker in the middle of it.
        time.sleep(float(os.environ.get("FAKE_LEARN_SLEEP", "0") or 0))
        if game is not None:
            if self.game not in (None, game.name):
                raise ValueError(f"game: this model learns {self.game!r}, not {game.name!r}")
            self.game = game.name
        for label in y:
            self.counts[str(label)] += 1
        self.moves_studied += len(y)

    def predict_proba(self, X):
        total = sum(self.counts.values()) or 1
        return [[self.counts[label] / total for label in LABELS] for _ in X]

    def to_bytes(self) -> bytes:
        data = {"settings": self.settings, "counts": self.counts, "moves": self.moves_studied,
                "game": self.game}  # fmt: skip
        return MAGIC + json.dumps(data).encode()

    @classmethod
    def from_bytes(cls, data: bytes):
        if not data.startswith(MAGIC):
            raise ValueError("not a model file")
        try:
            body = json.loads(data[len(MAGIC) :])
            counts = {k: int(body["counts"][k]) for k in LABELS}
            return cls(body["settings"], counts, int(body["moves"]), body.get("game"))
        except (ValueError, KeyError, TypeError):
            raise ValueError("a damaged model file") from None
