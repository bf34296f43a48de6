"""The board as it is plays the general family: click a piece, then its destination.

(The full board work for moving pieces, highlights, drag, animation, stacks, is in the
factory-and-board issue.)"""

from __future__ import annotations

import pytest

from tests.browser import board_views as bv
from tests.browser.test_board_render import board, moves, page, site  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser

TAPATAN_PLACED = ["1,1,1", "2,1,1", "3,2,1", "1,3,1", "2,3,1", "3,3,1"]


def test_click_a_piece_then_its_destination(board):  # noqa: F811
    view = bv.view_after("Tapatan", TAPATAN_PLACED)
    page = board(view)  # noqa: F811
    piece = page.locator("[data-coords='1,1,1']")
    assert piece.get_attribute("aria-label").startswith("Move the piece at")
    piece.click()
    assert moves(page) == []  # a piece asks where to go
    choices = page.locator("[data-testid=choice]")
    found = sorted(choices.nth(i).get_attribute("data-move") for i in range(choices.count()))
    assert found == ["1,1,1-1,2,1", "1,1,1-2,2,1"]
    page.locator("[data-testid=choice][data-move='1,1,1-2,2,1']").click()
    assert moves(page) == ["1,1,1-2,2,1"]
    # A piece with a single destination still asks (click the piece, then where).
    page.locator("[data-coords='2,3,1']").click()
    assert page.locator("[data-testid=choice]").count() == 1
    assert moves(page) == ["1,1,1-2,2,1"]


def test_the_last_step_is_marked_where_the_piece_went(board):  # noqa: F811
    view = bv.view_after("Tapatan", [*TAPATAN_PLACED, "1,1,1-1,2,1"])
    page = board(view, interactive=False)  # noqa: F811
    assert "is-last" in page.locator("[data-coords='1,2,1']").get_attribute("class")


def test_a_promotion_is_offered_with_the_shape_it_becomes(board):  # noqa: F811
    doc = {
        "name": "Pawns",
        "shapes": ["circle", "pentagon"],
        "board": {"type": "squares", "size": [3, 3, 1]},
        "reserves": {"black": {"circle": 1}, "white": {"circle": 1}},
        "shape_rules": {"circle": {"move": "forward-orthogonal"}, "pentagon": {"move": "adjacent"}},
    }
    view = bv.view_after(doc, ["circle 1,1,1", "circle 3,3,1", "1,1,1-1,2,1", "3,3,1-3,2,1"])
    page = board(view)  # noqa: F811
    page.locator("[data-coords='1,2,1']").click()
    choice = page.locator("[data-testid=choice]")
    assert choice.count() == 1
    assert "as pentagon" in choice.inner_text()
    choice.click()
    assert moves(page) == ["1,2,1-1,3,1=pentagon"]


def test_a_piece_moving_by_stack_is_clicked_at_its_stack(board):  # noqa: F811
    doc = {
        "name": "ByStack",
        "board": {"type": "stacks", "size": [3, 1, 2]},
        "reserves": {"black": {"circle": 2}, "white": {"circle": 1}},
        "shape_rules": {"circle": {"move": "orthogonal-by-stack"}},
    }
    view = bv.view_after(doc, ["1,1", "1,1", "3,1"])
    page = board(view)  # noqa: F811
    page.locator("[data-testid=cell][data-key='1:1,1']").first.click()
    choices = page.locator("[data-testid=choice]")
    found = sorted(choices.nth(i).get_attribute("data-move") for i in range(choices.count()))
    assert found == ["1,1,2-2,1", "1,1,2-3,1"]
