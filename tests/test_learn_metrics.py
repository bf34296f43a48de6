"""Accuracy, F1 and Long Game (gamecore/learn/metrics.py) against hand-worked examples."""

import pytest

from gamecore.learn.metrics import accuracy, f1, long_game

# (predicted, actual); tactical: (win, win) (win, win) (lose, draw) (draw, draw) (lose, lose)
PAIRS = [
    ("win", "win"),
    ("unstrategic_win", "win"),
    ("lose", "draw"),
    ("draw", "draw"),
    ("strategic_lose", "lose"),
]


def test_accuracy_counts_the_tactical_result():
    assert accuracy(PAIRS) == pytest.approx(4 / 5)


def test_f1_is_the_macro_mean_over_win_lose_draw():
    # win: TP 2, FP 0, FN 0 -> 1; lose: TP 1, FP 1 (pair 3), FN 0 -> 2/3;
    # draw: TP 1, FP 0, FN 1 (pair 3) -> 2/3; mean 7/9
    assert f1(PAIRS) == pytest.approx(7 / 9)
    # a class that never occurs is left out: only wins, all right
    assert f1([("win", "win")] * 3) == 1.0


def test_long_game_counts_the_strategic_sign():
    # signs: (+1, +1) right; (-1, +1) wrong; (-1, 0) wrong; (0, 0) right; (+1, -1) wrong
    assert long_game(PAIRS) == pytest.approx(2 / 5)


def test_only_the_last_hundred_count():
    pairs = [("lose", "win")] * 50 + [("win", "win")] * 100
    assert accuracy(pairs) == 1.0 and f1(pairs) == 1.0 and long_game(pairs) == 1.0
    assert accuracy(pairs[:51]) == pytest.approx(1 / 51)


def test_no_pairs_no_figure_and_bad_labels_refused():
    assert accuracy([]) is None and f1([]) is None and long_game([]) is None
    with pytest.raises(ValueError):
        accuracy([("won", "win")])
