"""The reference client's examples without a server: the OpenSpiel agent (when
open_spiel is importable) reads the site's view of a 3x3 game and answers in the site's
notation; anything else falls back to a random legal move."""

from __future__ import annotations

import pytest

from foundry_bot.examples import openspiel_bot, random_bot


def view_of(pieces: dict[tuple[int, int], int]) -> dict:
    return {
        "boards": [
            {
                "size": [3, 3, 1],
                "pieces": [{"at": [x, y, 1], "owner": o} for (x, y), o in pieces.items()],
            }
        ],
        "seats": 2,
        "pieces_per_turn": 1,
    }


def test_the_random_example_plays_a_legal_move():
    legal = ["1,1,1", "2,2,1"]
    assert {random_bot.choose({}, legal) for _ in range(50)} == set(legal)


def test_the_openspiel_agent_takes_a_win_in_one_in_site_notation():
    pytest.importorskip("pyspiel")
    choose = openspiel_bot.make_choose(seed=1)
    view = view_of({(1, 1): 0, (2, 1): 0, (1, 2): 1, (2, 2): 1})
    legal = ["3,1,1", "3,2,1", "1,3,1", "2,3,1", "3,3,1"]
    assert choose(view, legal) == "3,1,1"
    # as the second player: block the first player's column
    view = view_of({(1, 1): 0, (2, 2): 1, (1, 2): 0})
    legal = ["2,1,1", "3,1,1", "3,2,1", "1,3,1", "2,3,1", "3,3,1"]
    assert choose(view, legal) == "1,3,1"


def test_the_openspiel_agent_falls_back_to_a_legal_move_elsewhere():
    choose = openspiel_bot.make_choose(seed=1)
    view = {"boards": [{"size": [7, 6, 1], "pieces": []}], "seats": 2, "pieces_per_turn": 1}
    assert choose(view, ["4,1,1", "5,1,1"]) in ("4,1,1", "5,1,1")
