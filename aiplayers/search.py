"""Search AIs' settings: the factory's choices, their ranges, and the bot spec each makes
(``gamecore.bots`` specs, so a search AI is a bot like the standard ones)."""

from __future__ import annotations

# Same shape as gamecore.learn's ALGORITHMS: key -> {label, params: [...]}.
SEARCH_ALGORITHMS: dict[str, dict] = {
    "mcts": {
        "label": "MCTS (Monte Carlo tree search)",
        "params": [
            {"name": "simulations", "label": "Simulations", "min": 10, "max": 100_000,
             "default": 1000, "step": 10, "integer": True,
             "help": "Playouts a move: more plays better and slower."},
            {"name": "exploration", "label": "Exploration", "min": 0.05, "max": 5.0,
             "default": 1.0, "step": 0.05,
             "help": "UCT's constant c: higher tries more unlikely moves."},
        ],
    },
    "hard": {
        "label": "Alpha-beta search",
        "params": [
            {"name": "depth", "label": "Depth", "min": 1, "max": 20, "default": 6, "step": 1,
             "integer": True, "help": "Plies looked ahead."},
        ],
    },
    "medium": {"label": "Medium (wins or blocks when it can)", "params": []},
    "easy": {"label": "Easy (plays at random)", "params": []},
}  # fmt: skip


def validate_search(algorithm: str, params: dict) -> dict:
    """The params normalised (defaults filled), or ValueError naming the bad one."""
    if algorithm not in SEARCH_ALGORITHMS:
        raise ValueError(f"Unknown search algorithm {algorithm!r}.")
    out = {}
    for spec in SEARCH_ALGORITHMS[algorithm]["params"]:
        value = params.get(spec["name"], spec["default"])
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"{spec['label']}: a number from {spec['min']} to {spec['max']}.")
        if spec.get("integer") and value != int(value):
            raise ValueError(f"{spec['label']}: a whole number.")
        if not spec["min"] <= value <= spec["max"]:
            raise ValueError(f"{spec['label']}: from {spec['min']} to {spec['max']}.")
        out[spec["name"]] = int(value) if spec.get("integer") else float(value)
    return out


def spec_of(algorithm: str, params: dict) -> dict:
    """The bot spec of valid settings (checked again by ``gamecore.bots.parse_spec``)."""
    from gamecore.bots import parse_spec

    spec: dict = {"kind": algorithm}
    if algorithm == "mcts":
        spec["simulations"] = params["simulations"]
        spec["exploration"] = round(params["exploration"] * 100)  # hundredths
    elif algorithm == "hard":
        spec["depth"] = params["depth"]
    return parse_spec(spec)
