ALGORITHMS = {
    "logistic": {
        "label": "Logistic Regression",
        "params": [
            {"name": "alpha", "label": "Alpha", "min": 0.0, "max": 0.0003, "default": 0.0001,
             "step": 0.00001},
            {"name": "l1_ratio", "label": "L1 ratio", "min": 0.0, "max": 1.0, "default": 0.15,
             "step": 0.01},
        ],
    },
    "naive_bayes": {
        "label": "Naive Bayes",
        "params": [
            {"name": "smoothing", "label": "Smoothing", "min": 0.0, "max": 3.0, "default": 1.0,
             "step": 0.1},
        ],
    },
}  # fmt: skip

PERSONALITY = [
    {"name": n, "label": n.title(), "min": 0.0, "max": 1.0, "default": 0.5, "step": 0.1}
    for n in ("offense", "tactical", "faith")
]


def validate_settings(algorithm, params, personality):
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}")
    out = {"algorithm": algorithm, "params": {}, "personality": {}}
    for spec in ALGORITHMS[algorithm]["params"]:
        value = float(params.get(spec["name"], spec["default"]))
        if not spec["min"] <= value <= spec["max"]:
            raise ValueError(f"{spec['label']}: from {spec['min']} to {spec['max']}")
        out["params"][spec["name"]] = value
    for spec in PERSONALITY:
        value = float(personality.get(spec["name"], spec["default"]))
        if not spec["min"] <= value <= spec["max"]:
            raise ValueError(f"{spec['label']}: from {spec['min']} to {spec['max']}")
        out["personality"][spec["name"]] = value
    return out
