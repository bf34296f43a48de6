def accuracy(pairs):
    return sum(p == a for p, a in pairs) / len(pairs)


def f1(pairs):
    """Macro F1 over the labels that occur."""
    labels = {a for _, a in pairs} | {p for p, _ in pairs}
    scores = []
    for label in labels:
        tp = sum(p == a == label for p, a in pairs)
        fp = sum(p == label != a for p, a in pairs)
        fn = sum(a == label != p for p, a in pairs)
        scores.append(2 * tp / (2 * tp + fp + fn) if tp else 0.0)
    return sum(scores) / len(scores)


def long_game(pairs):
    """Share of strategic forms predicted right among the moves whose actual is strategic."""
    strategic = [(p, a) for p, a in pairs if a.startswith(("strategic", "unstrategic"))]
    return sum(p == a for p, a in strategic) / len(strategic) if strategic else None
