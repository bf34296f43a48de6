LABELS = ("win", "unstrategic_win", "lose", "strategic_lose", "draw", "unstrategic_draw")
_SHARPENED = {
    ("lose", "strategic"): "strategic_lose",
    ("win", "unstrategic"): "unstrategic_win",
    ("draw", "unstrategic"): "unstrategic_draw",
}
TACTICAL = {label: label.split("_")[-1] for label in LABELS}
STRATEGIC_SIGN = {"win": 1, "strategic_lose": 1, "lose": -1, "unstrategic_win": -1,
                  "unstrategic_draw": -1, "draw": 0}  # fmt: skip


def label_for(result: str, strategic: str | None) -> str:
    result = {"loss": "lose"}.get(result, result)
    if result not in ("win", "lose", "draw") or strategic not in (None, "strategic", "unstrategic"):
        raise ValueError("bad label")
    return _SHARPENED.get((result, strategic), result)
