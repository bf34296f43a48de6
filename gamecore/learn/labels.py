"""The six outcome labels a studied move gets (LATER.md, "Educated AI").

A move is labelled with its mover's result, sharpened by the strategic test of release
1.3 where it is known: 20 matches later the mover's rating has risen by at least 2σ (or
is within σ of the top): *strategic*; fallen by at least 2σ: *unstrategic*. The plan
names only three sharpened forms — a **strategic** lose, an **unstrategic** win and an
**unstrategic** draw — so the other three pairs fold to the plain label (a strategic
win is a win, an unstrategic lose a lose, a strategic draw a draw), as does a result
whose strategic test is not known yet (``None``).
"""

LABELS = ("win", "unstrategic_win", "lose", "strategic_lose", "draw", "unstrategic_draw")
RESULTS = ("win", "lose", "draw")
STRATEGIC = (None, "strategic", "unstrategic")

# The engine's Outcome says "loss"; the plan and these labels say "lose".
_ALIASES = {"loss": "lose"}

_SHARPENED = {
    ("lose", "strategic"): "strategic_lose",
    ("win", "unstrategic"): "unstrategic_win",
    ("draw", "unstrategic"): "unstrategic_draw",
}

# What each label says on the plan's two axes: the tactical result, and the strategic
# sign that sScore gives it (+1: win or strategic lose; -1: lose, unstrategic win or
# unstrategic draw; 0: a plain draw).
TACTICAL = {
    "win": "win",
    "unstrategic_win": "win",
    "lose": "lose",
    "strategic_lose": "lose",
    "draw": "draw",
    "unstrategic_draw": "draw",
}
STRATEGIC_SIGN = {
    "win": 1,
    "strategic_lose": 1,
    "lose": -1,
    "unstrategic_win": -1,
    "unstrategic_draw": -1,
    "draw": 0,
}


def label_for(result: str, strategic: str | None = None) -> str:
    """The label of a move whose mover ended with ``result`` ("win", "lose", "draw"; the
    engine's "loss" reads as "lose") and, where known, ``strategic``."""
    result = _ALIASES.get(result, result)
    if result not in RESULTS:
        raise ValueError(f"result: one of {', '.join(RESULTS)}, not {result!r}")
    if strategic not in STRATEGIC:
        raise ValueError(f"strategic: None, 'strategic' or 'unstrategic', not {strategic!r}")
    return _SHARPENED.get((result, strategic), result)
