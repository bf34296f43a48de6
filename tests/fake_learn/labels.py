LABELS = ["win", "unstrategic win", "lose", "strategic lose", "draw", "unstrategic draw"]


def label_for(result: str, strategic: str | None) -> str:
    if result not in ("win", "lose", "draw") or strategic not in (None, "strategic", "unstrategic"):
        raise ValueError("bad label")
    if result == "win" and strategic == "unstrategic":
        return "unstrategic win"
    if result == "lose" and strategic == "strategic":
        return "strategic lose"
    if result == "draw" and strategic == "unstrategic":
        return "unstrategic draw"
    return result
