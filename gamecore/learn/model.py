"""A learning AI's model: the classifier, what it has studied, and how it is stored.

``Learner`` wraps one scikit-learn estimator (algorithms.py) over the six LABELS:

- ``partial_fit(X, y)`` always passes ``classes=LABELS``, so a model that has only seen
  wins still knows the other five labels; it counts ``moves_studied`` and remembers the
  day each position was last studied (a bounded map, for the plan's Faith term);
- ``predict_proba(X)`` gives (n, 6) probabilities in LABELS order, computed here in
  numpy from the model's arrays (one matrix product: a move's choice scores every legal
  move in one call, with none of scikit-learn's per-call checks). Logistic regression
  uses scikit-learn's own formula (normalised one-vs-rest sigmoids); **the hinge,
  perceptron and passive-aggressive models have no probabilities, so their one-vs-rest
  scores go through a softmax** (a monotone map: the order of the scores is kept, the
  values are not calibrated frequencies), and so does modified Huber (its clipped
  formula saturates: algorithms.PROBABILITY says why); Naive Bayes is
  its joint likelihood with a Laplace-smoothed class prior, normalised. The SGD family
  sees each row scaled to length 1 (``unit_rows``: why there);
- ``to_bytes()`` / ``from_bytes()``: a zip of ``meta.json`` and ``.npy`` arrays read with
  ``allow_pickle=False`` — nothing in the file can run code on load; every size, shape,
  dtype and value is checked first (serial.py), and a file that fails raises ValueError.
"""

import hashlib
from datetime import UTC, datetime

import numpy as np

from .algorithms import PROBABILITY, make_classifier, validate_settings
from .labels import LABELS
from .limits import LAST_DAY, MAX_POSITIONS, SORTED

TO_LABELS = np.array([SORTED.index(label) for label in LABELS])  # column permutation


def today() -> int:
    """Days since 0001-01-01 (UTC): the unit of the plan's t."""
    return datetime.now(UTC).date().toordinal()


def unit_rows(X: np.ndarray) -> np.ndarray:
    """Each row scaled to length 1: what the SGD family learns from and predicts on.

    The plan fixes their step at a constant 1 (eta0). A position is some tens of ones,
    so unscaled every step is tens of times that, the weights swing with the last few
    moves studied, and the default algorithm (logistic regression) ended up *worse* than
    Random on the acceptance plan (score 0.085-0.33 against Random); scaled, 0.9-0.98.
    Perceptron and passive-aggressive steps do not depend on the scale; it is harmless
    to them. Naive Bayes reads 0/1 features and is not scaled."""
    X = np.asarray(X, dtype=np.float32)
    norms = np.sqrt(np.einsum("ij,ij->i", X, X))
    return X / np.maximum(norms, 1e-12)[:, None]


def position_keys(X: np.ndarray) -> np.ndarray:
    """A 64-bit key per row (a position as its features): what the day map remembers."""
    X = np.ascontiguousarray(X, dtype=np.float32)
    out = np.empty(len(X), dtype=np.uint64)
    for i, row in enumerate(X):
        out[i] = int.from_bytes(hashlib.blake2b(row.tobytes(), digest_size=8).digest(), "little")
    return out


class Learner:
    def __init__(self, settings: dict, seed: int):
        self.algorithm = settings["algorithm"]
        self.params = settings["params"]
        self.personality = settings["personality"]
        self.seed = int(seed)
        self.estimator = make_classifier(self.algorithm, self.params, self.seed)
        self.moves_studied = 0
        self.n_features: int | None = None
        self.layout: str | None = None  # the rule document's fingerprint, once known
        self.game: str | None = None
        self.positions: dict[int, int] = {}  # position key -> day last studied
        self._cache = None

    @classmethod
    def new(cls, algorithm: str, params=None, personality=None, seed: int = 0) -> "Learner":
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError("seed: a whole number")
        return cls(validate_settings(algorithm, params, personality), seed)

    @property
    def fitted(self) -> bool:
        return self.n_features is not None and self.moves_studied > 0

    def settings(self) -> dict:
        return {"algorithm": self.algorithm, "params": dict(self.params),
                "personality": dict(self.personality), "seed": self.seed}  # fmt: skip

    # -- learning ------------------------------------------------------------------------
    def partial_fit(self, X, y, day: int | None = None, game=None) -> None:
        """Study the rows of ``X`` labelled ``y`` (LABELS strings). ``day`` (days since
        0001-01-01; default today) is when these positions occurred in the curriculum;
        ``game`` (optional) ties the model to that rule document's feature layout."""
        X = np.asarray(X, dtype=np.float32)
        y = np.asarray(y)
        if X.ndim != 2 or len(X) != len(y):
            raise ValueError("X: one row of features per label in y")
        if not len(X):
            return
        unknown = set(y.tolist()) - set(LABELS)
        if unknown:
            raise ValueError(f"y: labels are {', '.join(LABELS)}, not {sorted(unknown)}")
        if self.n_features is not None and X.shape[1] != self.n_features:
            raise ValueError(
                f"X: this model reads {self.n_features} features, not {X.shape[1]} "
                "(a model learns one game's layout)"
            )
        day = today() if day is None else day
        if isinstance(day, bool) or not isinstance(day, int) or not 1 <= day <= LAST_DAY:
            raise ValueError(f"day: a day number from 1 to {LAST_DAY} (date.toordinal())")
        layout = None
        if game is not None:
            from .features import layout_for

            layout = layout_for(game)
            if self.layout is not None and layout.fingerprint != self.layout:
                raise ValueError(f"game: this model learns {self.game!r}, not {game.name!r}")
            if layout.size != X.shape[1]:
                raise ValueError(f"X: {game.name} has {layout.size} features, not {X.shape[1]}")
        # Naive Bayes counts with a float64 product: float32 features would mix types
        # and leave numpy's fast matrix product (50x slower)
        fit_X = X.astype(np.float64) if self.algorithm == "naive_bayes" else unit_rows(X)
        self.estimator.partial_fit(fit_X, y, classes=list(LABELS))
        if layout is not None:
            self.layout, self.game = layout.fingerprint, game.name
        self.n_features = X.shape[1]
        self.moves_studied += len(X)
        self._cache = None
        self.remember(position_keys(X), day)

    def remember(self, keys: np.ndarray, day: int) -> None:
        positions = self.positions
        for key in keys.tolist():
            positions[key] = max(day, positions.get(key, day))
        if len(positions) > MAX_POSITIONS * 5 // 4:  # trim now and then, not every call
            kept = sorted(positions.items(), key=lambda kv: kv[1], reverse=True)
            self.positions = dict(kept[:MAX_POSITIONS])

    def days_since(self, keys: np.ndarray, day: int | None = None) -> list[int | None]:
        """Per key: days since it was last studied, or None if never (or forgotten)."""
        day = today() if day is None else day
        get = self.positions.get
        return [None if (d := get(k)) is None else max(0, day - d) for k in keys.tolist()]

    # -- predicting ----------------------------------------------------------------------
    def _arrays(self):
        """What a prediction needs, made once per model state."""
        if self._cache is None:
            est = self.estimator
            if self.algorithm == "naive_bayes":
                alpha = est.alpha if est.alpha > 1e-10 else 1e-10
                fc, cc = est.feature_count_, est.class_count_
                flp = np.log(fc + alpha) - np.log(cc + 2 * alpha)[:, None]
                neg = np.log1p(-np.exp(flp))
                prior = np.log((cc + 1.0) / (cc.sum() + len(cc)))
                self._cache = ((flp - neg).T.copy(), neg.sum(axis=1) + prior)
            else:
                self._cache = (est.coef_.T.astype(np.float64), est.intercept_.copy())
        return self._cache

    def predict_proba(self, X) -> np.ndarray:
        """(n, 6) probabilities in LABELS order; uniform before any study."""
        X = np.asarray(X, dtype=np.float32)
        if X.ndim == 1:
            X = X[None, :]
        if not self.fitted:
            return np.full((len(X), len(LABELS)), 1.0 / len(LABELS))
        if X.shape[1] != self.n_features:
            raise ValueError(f"X: this model reads {self.n_features} features, not {X.shape[1]}")
        weights, bias = self._arrays()
        kind = PROBABILITY[self.algorithm]
        X = (X > 0.5).astype(np.float64) if kind == "bayes" else unit_rows(X)
        scores = X @ weights + bias
        if kind in ("softmax", "bayes"):
            scores -= scores.max(axis=1, keepdims=True)
            prob = np.exp(scores)
        else:  # logistic
            prob = 1.0 / (1.0 + np.exp(-np.clip(scores, -500, 500)))
        total = prob.sum(axis=1, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            prob = np.where(total > 0, prob / total, 1.0 / len(LABELS))
        return prob[:, TO_LABELS]

    # -- storing -------------------------------------------------------------------------
    def to_bytes(self) -> bytes:
        from .serial import dump

        return dump(self)

    @classmethod
    def from_bytes(cls, data: bytes) -> "Learner":
        from .serial import load

        return load(cls, data)
