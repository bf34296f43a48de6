"""The general family plays every flat catalogue game exactly as the flat family does:
random games side by side, the same awaited seats, legal moves, views and outcomes
(winning lines included) move by move. (200 games each: benchmarks/general_differential.py)"""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamecore.engine import RulesError, compile_game
from gamecore.engine.compare import play_both
from variants import catalogue

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
    import gamecore.engine.compare as compare

    doc = catalogue.get("Tic-Tac-Toe")
    other = {**doc, "turn_checks": [{"k": 3, "result": "wins", "diagonal": False}]}
    real = compare.compile_game
    monkeypatch.setattr(
        compare, "compile_game", lambda d, family: real(d if family == "flat" else other, family)
    )
    assert any(play_both(doc, seed) for seed in range(20))


# -- random placement documents, not only the catalogue's -----------------------------------
@st.composite
def placement_docs(draw):
    kind = draw(st.sampled_from(["hash", "squares", "stacks"]))
    if kind == "hash":
        size = [3, 3, 1]
    elif kind == "squares":
        size = [draw(st.integers(1, 5)), draw(st.integers(1, 5)), draw(st.integers(1, 2))]
    else:
        size = [draw(st.integers(1, 4)), draw(st.integers(1, 2)), draw(st.integers(2, 4))]
    players = draw(st.sampled_from(["2", "3", "4", "partners", "2-vs-chaos", "3-vs-chaos"]))
    colors = draw(st.sampled_from(["assigned", "shared", "choose"]))
    if colors == "assigned" and players == "partners":
        colors = draw(st.sampled_from(["assigned", "partners-share"]))
    shapes = draw(st.sampled_from([["circle"], ["circle", "x"]]))
    k = draw(st.integers(2, 4))
    checks = [{"k": k, "result": draw(st.sampled_from(["wins", "loses"])),
               "diagonal": draw(st.booleans())}]  # fmt: skip
    if draw(st.booleans()):
        checks.append({"k": k + 1, "result": "wins"})
    doc = {
        "name": "Random",
        "players": players,
        "colors": colors,
        "shapes": shapes,
        "board": {"type": kind, "size": size},
        "turn_checks": draw(st.sampled_from([checks, []])),
        "stalemate": draw(
            st.sampled_from(
                [
                    "draw",
                    "all-win",
                    "all-lose",
                    "most-in-a-row-wins",
                    "least-in-a-row-loses",
                    "most-pieces-wins",
                ]
            )
        ),  # fmt: skip
        "pieces_per_turn": draw(st.integers(1, 2)),
        "boards": draw(st.sampled_from([1, 1, 2, 3])),
        "allow_pass": draw(st.booleans()),
        "agree_draw": draw(st.booleans()),
    }
    spaces = [(x, y, z) for x in range(1, size[0] + 1) for y in range(1, size[1] + 1)
              for z in range(1, size[2] + 1)]  # fmt: skip
    floor = [s for s in spaces if kind != "stacks" or s[2] == 1]
    if kind != "hash" and floor and draw(st.booleans()):
        board = draw(st.integers(1, doc["boards"]))
        doc["locked"] = [{"board": board, "at": list(draw(st.sampled_from(floor)))}]
    if floor and draw(st.integers(0, 3)) == 0:
        at = list(draw(st.sampled_from(floor)))
        if {"board": 1, "at": at} not in doc.get("locked", []):
            doc["initial_pieces"] = [{"at": at, "color": "black", "shape": shapes[-1]}]
    return doc


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=placement_docs(), seed=st.integers(0, 2**16))
def test_general_family_agrees_with_flat_on_random_documents(doc, seed):
    try:
        compile_game(doc)
    except RulesError:
        return  # e.g. a check longer than the board: not a game
    assert play_both(doc, seed) is None
