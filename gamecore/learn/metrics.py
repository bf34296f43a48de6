"""Accuracy, F1 and Long Game over an AI's last 100 predictions (LATER.md: "Accuracy and
F1 (tactical) and Long Game (strategic)").

Each pair is (predicted label, actual label), both LABELS; only the last 100 count.

- **accuracy**: the share of pairs whose *tactical* result (win, lose or draw: a label's
  strategic form folded away) was predicted right.
- **f1**: macro F1 over the tactical classes win, lose and draw, each class's F1 =
  2·TP / (2·TP + FP + FN), averaged over the classes that occur among the predicted or
  the actual results (as scikit-learn's macro average does); a class that never occurs
  says nothing and is left out.
- **long_game**: the share of pairs whose *strategic sign* was predicted right: +1 for
  win and strategic lose, -1 for lose, unstrategic win and unstrategic draw, 0 for a
  plain draw (the plan's sScore groups).

Each is None when there are no pairs yet.
"""

from .labels import LABELS, STRATEGIC_SIGN, TACTICAL

WINDOW = 100
TACTICAL_CLASSES = ("win", "lose", "draw")


def _last(pairs) -> list[tuple[str, str]]:
    pairs = list(pairs)[-WINDOW:]
    for predicted, actual in pairs:
        if predicted not in LABELS or actual not in LABELS:
            raise ValueError(f"pairs hold LABELS, not {(predicted, actual)!r}")
    return pairs


def accuracy(pairs) -> float | None:
    pairs = _last(pairs)
    if not pairs:
        return None
    return sum(TACTICAL[p] == TACTICAL[a] for p, a in pairs) / len(pairs)


def f1(pairs) -> float | None:
    pairs = [(TACTICAL[p], TACTICAL[a]) for p, a in _last(pairs)]
    if not pairs:
        return None
    scores = []
    for c in TACTICAL_CLASSES:
        tp = sum(p == c and a == c for p, a in pairs)
        fp = sum(p == c and a != c for p, a in pairs)
        fn = sum(p != c and a == c for p, a in pairs)
        if tp + fp + fn:
            scores.append(2 * tp / (2 * tp + fp + fn))
    return sum(scores) / len(scores)


def long_game(pairs) -> float | None:
    pairs = _last(pairs)
    if not pairs:
        return None
    return sum(STRATEGIC_SIGN[p] == STRATEGIC_SIGN[a] for p, a in pairs) / len(pairs)
