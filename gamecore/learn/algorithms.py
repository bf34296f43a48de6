"""The seven classifiers of the plan, their parameters, and the personality sliders.

``ALGORITHMS`` and ``PERSONALITY`` are what the player factory's form shows (label,
range, default, step); ``validate_settings`` is the one check of a trainer's choice
(ValueError naming the field); ``make_classifier`` builds the scikit-learn estimator.

All learn incrementally (``partial_fit``). The SGD family is scikit-learn's
``SGDClassifier``: Linear SVM (hinge), Logistic Regression (log loss) and Modified Huber
with the plan's constant learning rate (eta0 = 1) and elastic net; Perceptron is
``SGDClassifier(loss="perceptron")`` with no penalty (what ``Perceptron`` is); Passive
Aggressive I and II are ``SGDClassifier(loss="hinge", learning_rate="pa1"/"pa2",
eta0=C)``, which scikit-learn 1.8 made the replacement of the deprecated
``PassiveAggressiveClassifier``. Naive Bayes is ``BernoulliNB``: the features are
mostly 0/1 (a piece of whom on which space), and it models an empty space as evidence
too; shares (reserves, ply) count as present from one half.

Modified Huber has an **epsilon** in the plan; scikit-learn's ``modified_huber`` loss has
a fixed margin and ignores ``epsilon`` (it is used by ``huber`` and the epsilon-
insensitive losses only). The setting is kept, validated and passed on, so a model
records what its trainer chose, but it changes nothing today.
"""


def _param(name, label, low, high, default, step):
    return {"name": name, "label": label, "min": low, "max": high, "default": default, "step": step}


_ELASTIC = [
    _param("alpha", "Alpha (regularisation)", 0.0, 0.0003, 0.0001, 0.00001),
    _param("l1_ratio", "L1 ratio", 0.0, 1.0, 0.15, 0.01),
]
# PA's C is the step size (PA-I) or its regulariser (PA-II): scikit-learn needs C > 0.
_C = [_param("C", "C (aggressiveness)", 0.01, 3.0, 1.0, 0.01)]

ALGORITHMS: dict[str, dict] = {
    "naive_bayes": {
        "label": "Naive Bayes",
        "params": [_param("smoothing", "Smoothing", 0.0, 3.0, 1.0, 0.1)],
    },
    "perceptron": {"label": "Perceptron", "params": []},
    "passive_aggressive_1": {"label": "Passive Aggressive I", "params": list(_C)},
    "passive_aggressive_2": {"label": "Passive Aggressive II", "params": list(_C)},
    "linear_svm": {"label": "Linear SVM (SGD, hinge)", "params": list(_ELASTIC)},
    "logistic_regression": {"label": "Logistic Regression (SGD)", "params": list(_ELASTIC)},
    "modified_huber": {
        "label": "Modified Huber (SGD)",
        "params": [*_ELASTIC, _param("epsilon", "Epsilon", 0.0, 0.3, 0.1, 0.01)],
    },
}
DEFAULT_ALGORITHM = "logistic_regression"

PERSONALITY: list[dict] = [
    {**_param("offense", "Offense", 0.0, 1.0, 0.5, 0.1), "enabled": True},
    {**_param("tactical", "Tactical", 0.0, 1.0, 0.5, 0.1), "enabled": True},
    {**_param("faith", "Faith", 0.0, 1.0, 0.5, 0.1), "enabled": True},
    {**_param("introvert", "Introvert", 0.0, 1.0, 0.5, 0.1), "enabled": False},
    {**_param("empath", "Empath", 0.0, 1.0, 0.5, 0.1), "enabled": False},
    {**_param("curious", "Curious", 0.0, 1.0, 0.5, 0.1), "enabled": False},
]
_TRAITS = {p["name"]: p for p in PERSONALITY if p["enabled"]}
_LATER = {p["name"] for p in PERSONALITY if not p["enabled"]}

# How the scores of the SGD-family models become probabilities (model.py).
PROBABILITY = {
    "logistic_regression": "logistic",  # OvR sigmoids, normalised (scikit-learn's own)
    # scikit-learn's (clip(score, -1, 1) + 1) / 2 saturates at a constant step of 1:
    # most candidate positions got the same probabilities, the choice fell to the
    # tie-break, and the AI played like Random (0.52 after the plan); softmax: 0.96
    "modified_huber": "softmax",
    "perceptron": "softmax",
    "passive_aggressive_1": "softmax",
    "passive_aggressive_2": "softmax",
    "linear_svm": "softmax",
    "naive_bayes": "bayes",
}


def _number(field: str, value, spec: dict) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{field}: a number from {spec['min']} to {spec['max']}")
    value = float(value)
    if not spec["min"] <= value <= spec["max"]:  # (NaN fails this too)
        raise ValueError(f"{field}: from {spec['min']} to {spec['max']}, not {value}")
    return value


def validate_settings(algorithm, params, personality) -> dict:
    """The settings in full (defaults filled in), or ValueError naming the bad field."""
    if algorithm not in ALGORITHMS:
        raise ValueError(f"algorithm: one of {', '.join(ALGORITHMS)}, not {algorithm!r}")
    params = {} if params is None else params
    personality = {} if personality is None else personality
    if not isinstance(params, dict):
        raise ValueError("params: a mapping of parameter names to numbers")
    if not isinstance(personality, dict):
        raise ValueError("personality: a mapping of slider names to numbers")
    specs = {p["name"]: p for p in ALGORITHMS[algorithm]["params"]}
    for name in params:
        if name not in specs:
            known = ", ".join(specs) or "none"
            raise ValueError(f"params.{name}: {algorithm} has no such parameter (known: {known})")
    for name in personality:
        if name in _LATER:
            raise ValueError(f"personality.{name}: a later release (not settable yet)")
        if name not in _TRAITS:
            raise ValueError(f"personality.{name}: no such slider (known: {', '.join(_TRAITS)})")
    out_params = {
        name: _number(f"params.{name}", params.get(name, spec["default"]), spec)
        for name, spec in specs.items()
    }
    out_traits = {
        name: _number(f"personality.{name}", personality.get(name, spec["default"]), spec)
        for name, spec in _TRAITS.items()
    }
    return {"algorithm": algorithm, "params": out_params, "personality": out_traits}


def make_classifier(algorithm: str, params: dict, seed: int):
    """A fresh estimator for validated settings (``validate_settings``)."""
    # imported here: the form's tables above need no scikit-learn (a second to import)
    from sklearn.linear_model import SGDClassifier
    from sklearn.naive_bayes import BernoulliNB

    seed = int(seed) % 2**32
    p = validate_settings(algorithm, params, {})["params"]
    if algorithm == "naive_bayes":
        # alpha 0 would give log(0): the smallest smoothing scikit-learn itself allows
        return BernoulliNB(alpha=max(p["smoothing"], 1e-10), binarize=0.5, fit_prior=False)
    common = {"random_state": seed, "shuffle": True, "fit_intercept": True}
    if algorithm == "perceptron":
        return SGDClassifier(
            loss="perceptron", penalty=None, learning_rate="constant", eta0=1.0, **common
        )
    if algorithm in ("passive_aggressive_1", "passive_aggressive_2"):
        rate = "pa1" if algorithm.endswith("1") else "pa2"
        return SGDClassifier(loss="hinge", penalty=None, learning_rate=rate, eta0=p["C"], **common)
    loss = {"linear_svm": "hinge", "logistic_regression": "log_loss"}.get(
        algorithm, "modified_huber"
    )
    return SGDClassifier(
        loss=loss,
        penalty="elasticnet",
        alpha=p["alpha"],
        l1_ratio=p["l1_ratio"],
        epsilon=p.get("epsilon", 0.1),
        learning_rate="constant",
        eta0=1.0,
        **common,
    )
