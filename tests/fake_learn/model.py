import json
import os
import time

from .labels import LABELS

MAGIC = b"FAKELEARN1\n"


class Learner:
    def __init__(self, settings: dict, counts: dict, moves_studied: int):
        self.settings, self.counts, self.moves_studied = settings, counts, moves_studied

    @classmethod
    def new(cls, algorithm, params, personality, seed):
        settings = {"algorithm": algorithm, "params": params, "personality": personality}
        return cls(settings, {label: 0 for label in LABELS}, 0)

    def partial_fit(self, X, y, day=None, game=None):
        # The worker test slows studying down to kill a worker in the middle of it.
        time.sleep(float(os.environ.get("FAKE_LEARN_SLEEP", "0") or 0))
        for label in y:
            self.counts[str(label)] += 1
        self.moves_studied += len(y)

    def predict_proba(self, X):
        total = sum(self.counts.values()) or 1
        return [[self.counts[label] / total for label in LABELS] for _ in X]

    def to_bytes(self) -> bytes:
        data = {"settings": self.settings, "counts": self.counts, "moves": self.moves_studied}
        return MAGIC + json.dumps(data).encode()

    @classmethod
    def from_bytes(cls, data: bytes):
        if not data.startswith(MAGIC):
            raise ValueError("not a model file")
        try:
            body = json.loads(data[len(MAGIC) :])
            return cls(
                body["settings"], {k: int(body["counts"][k]) for k in LABELS}, int(body["moves"])
            )
        except (ValueError, KeyError, TypeError):
            raise ValueError("a damaged model file") from None
