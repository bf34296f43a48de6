"""The plan's metrics as gamecore.learn defines them: accuracy and macro F1 over the
tactical result (win, lose, draw), Long Game over the strategic sign; the last 100."""

from .labels import STRATEGIC_SIGN, TACTICAL


def _last(pairs):
    return list(pairs)[-100:]


def accuracy(pairs):
    pairs = _last(pairs)
    return sum(TACTICAL[p] == TACTICAL[a] for p, a in pairs) / len(pairs) if pairs else None


def f1(pairs):
    pairs = [(TACTICAL[p], TACTICAL[a]) for p, a in _last(pairs)]
    scores = []
    for c in ("win", "lose", "draw"):
        tp = sum(p == c == a for p, a in pairs)
        fp = sum(p == c != a for p, a in pairs)
        fn = sum(a == c != p for p, a in pairs)
        if tp + fp + fn:
            scores.append(2 * tp / (2 * tp + fp + fn))
    return sum(scores) / len(scores) if scores else None


def long_game(pairs):
    pairs = _last(pairs)
    if not pairs:
        return None
    return sum(STRATEGIC_SIGN[p] == STRATEGIC_SIGN[a] for p, a in pairs) / len(pairs)
