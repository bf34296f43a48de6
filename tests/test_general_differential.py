"""The general family plays every flat catalogue game exactly as the flat family does:
random games side by side, the same awaited seats, legal moves, views and outcomes
(winning lines included) move by move. (200 games each: benchmarks/general_differential.py)"""

import pytest

from variants import catalogue
from variants.engine import compile_game
from variants.engine.compare import play_both

FLAT = [n for n, d in catalogue.documents().items() if compile_game(d).family == "flat"]


def test_there_are_fourteen_flat_games():
    assert len(FLAT) == 14


@pytest.mark.parametrize("name", FLAT)
def test_general_family_agrees_with_flat(name):
    doc = catalogue.get(name)
    for seed in range(8):
        assert play_both(doc, seed) is None, f"{name} seed {seed}"


def test_the_comparison_can_fail(monkeypatch):
    """A general game with one rule changed (no diagonal lines) is caught."""
    import variants.engine.compare as compare

    doc = catalogue.get("Tic-Tac-Toe")
    other = {**doc, "turn_checks": [{"k": 3, "result": "wins", "diagonal": False}]}
    real = compare.compile_game
    monkeypatch.setattr(
        compare, "compile_game", lambda d, family: real(d if family == "flat" else other, family)
    )
    assert any(play_both(doc, seed) for seed in range(20))
