"""The board plays the general family: click a piece, its destinations light up, click one
(or Enter on it, or drag the piece there); promotions ask for the shape; marked spaces
carry badges and a legend; captures and conversions are animated."""

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
    assert moves(page) == []  # a piece asks where to go: its destinations light up
    assert "is-selected" in piece.get_attribute("class")
    assert sorted(targets(page)) == ["1,1,1-1,2,1", "1,1,1-2,2,1"]
    page.locator("[data-target='1,1,1-2,2,1']").click()
    assert moves(page) == ["1,1,1-2,2,1"]
    assert targets(page) == []  # put down after the move
    # A piece with a single destination still asks (click the piece, then where); a
    # second click on the piece puts it down.
    other = page.locator("[data-coords='2,3,1']")
    other.click()
    assert targets(page) == ["2,3,1-2,2,1"]
    other.click()
    assert targets(page) == [] and moves(page) == ["1,1,1-2,2,1"]


def targets(page) -> list[str]:  # noqa: F811
    lit = page.locator("[data-target]")
    return [lit.nth(i).get_attribute("data-target") for i in range(lit.count())]


def test_keyboard_enter_picks_up_and_arrows_reach_a_destination(board):  # noqa: F811
    view = bv.view_after("Tapatan", TAPATAN_PLACED)
    page = board(view)  # noqa: F811
    page.locator("[data-coords='1,1,1']").focus()
    page.keyboard.press("Enter")
    assert sorted(targets(page)) == ["1,1,1-1,2,1", "1,1,1-2,2,1"]
    page.keyboard.press("Escape")
    assert targets(page) == []
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowUp")  # the nearest lit space above: 1,2,1
    focused = page.evaluate("document.activeElement.getAttribute('data-target')")
    assert focused == "1,1,1-1,2,1"
    page.keyboard.press("Enter")
    assert moves(page) == ["1,1,1-1,2,1"]


def test_drag_a_piece_onto_a_destination(board):  # noqa: F811
    view = bv.view_after("Tapatan", TAPATAN_PLACED)
    page = board(view)  # noqa: F811
    source = page.locator("[data-coords='1,1,1']").bounding_box()
    target = page.locator("[data-coords='2,2,1']").bounding_box()
    page.mouse.move(source["x"] + source["width"] / 2, source["y"] + source["height"] / 2)
    page.mouse.down()
    for k in range(1, 6):
        page.mouse.move(
            source["x"] + (target["x"] - source["x"]) * k / 5 + source["width"] / 2,
            source["y"] + (target["y"] - source["y"]) * k / 5 + source["height"] / 2,
        )
    page.mouse.up()
    assert moves(page) == ["1,1,1-2,2,1"]


def test_marked_spaces_have_badges_and_a_legend(board):  # noqa: F811
    doc = {
        "name": "Marked",
        "players": "2-vs-chaos",
        "board": {"type": "squares", "size": [3, 3, 1]},
        "shape_rules": {"circle": {"move": "adjacent"}},
        "sticky": [{"at": [1, 1, 1]}],
        "exclusive": [{"at": [2, 2, 1], "seats": [1, 3]}],
        "space_locks": [{"at": [3, 3, 1], "seats": [2], "exit": False}],
    }
    view = bv.view_after(doc)
    page = board(view, interactive=False)  # noqa: F811
    assert page.locator(".vf-mark-sticky").count() == 1
    assert page.locator(".vf-badge-exclusive").text_content() == "1,3"
    assert page.locator(".vf-badge-locked").text_content() == "✕2 e"
    label = page.locator("[data-coords='2,2,1']").get_attribute("aria-label")
    assert "only player 1 and 3 may enter or leave" in label
    page.evaluate(
        "() => { const ul = document.createElement('ul'); ul.id = 'legend';"
        " document.body.append(ul); return import('/static/js/board.js').then(m =>"
        " m.renderLegend(document.getElementById('board'), ul)); }"
    )
    legend = page.locator("#legend li")
    words = [legend.nth(i).get_attribute("data-legend") for i in range(legend.count())]
    assert {"vf-mark-exclusive", "vf-badge-locked", "vf-mark-sticky"} <= set(words)


def test_a_capture_is_animated_and_reduced_motion_skips_it(board):  # noqa: F811
    doc = {
        "name": "Takers",
        "board": {"type": "squares", "size": [3, 3, 1]},
        "reserves": {"black": {"circle": 1}, "white": {"circle": 1}},
        "shape_rules": {"circle": {"move": "orthogonal", "power": "can-capture"}},
    }
    before = bv.view_after(doc, ["1,1,1", "1,3,1"])
    after = bv.view_after(doc, ["1,1,1", "1,3,1", "1,1,1x1,3,1"])
    page = board(before)  # noqa: F811
    page.evaluate("([v]) => window.draw(v, true)", [after])
    assert page.locator("[data-testid=captive]").count() == 1
    assert page.locator(".vf-anim-move").count() == 1
    page.emulate_media(reduced_motion="reduce")
    page.evaluate("([v]) => window.draw(v, true)", [before])
    page.evaluate("([v]) => window.draw(v, true)", [after])
    assert page.locator("[data-testid=captive]").count() == 0


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
    assert targets(page) == ["1,2,1-1,3,1=pentagon"]
    page.locator("[data-coords='1,3,1']").click()
    # One shape to become: nothing to ask. (Several: the chooser asks, below.)
    assert moves(page) == ["1,2,1-1,3,1=pentagon"]


def test_a_promotion_with_a_choice_asks_for_the_shape(board):  # noqa: F811
    doc = {
        "name": "Pawns2",
        "shapes": ["circle", "x", "pentagon"],
        "board": {"type": "squares", "size": [3, 3, 1]},
        "reserves": {"black": {"circle": 1}, "white": {"circle": 1}},
        "shape_rules": {
            "circle": {"move": "forward-orthogonal"},
            "x": {"move": "adjacent"},
            "pentagon": {"move": "adjacent"},
        },
    }
    view = bv.view_after(doc, ["circle 1,1,1", "circle 3,3,1", "1,1,1-1,2,1", "3,3,1-3,2,1"])
    page = board(view)  # noqa: F811
    page.locator("[data-coords='1,2,1']").click()
    page.locator("[data-coords='1,3,1']").click()
    choices = page.locator("[data-testid=choice]")
    assert choices.count() == 2
    assert page.locator("[data-testid=chooser]").get_attribute("aria-label") == (
        "Choose the shape it becomes"
    )
    page.locator("[data-testid=choice][data-move='1,2,1-1,3,1=x']").click()
    assert moves(page) == ["1,2,1-1,3,1=x"]


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
    assert sorted(targets(page)) == ["1,1,2-2,1", "1,1,2-3,1"]
    page.locator("[data-testid=cell][data-key='1:3,1']").click()
    assert moves(page) == ["1,1,2-3,1"]


def test_a_whole_stacks_mark_is_drawn_once_around_the_stack(board):  # noqa: F811
    import os
    from pathlib import Path

    doc = {
        "name": "Stacked",
        "players": "2-vs-chaos",
        "board": {"type": "stacks", "size": [4, 1, 3]},
        "reserves": {"black": {"circle": 2}, "white": {"circle": 2}, "pink": {"circle": 4}},
        "exclusive": [
            {"at": [1, 1, 0], "seats": [1]},
            {"at": [2, 1, 0], "seats": [2]},
            {"at": [3, 1, 0], "seats": [1, 3]},
        ],
        "sticky": [{"at": [4, 1, 1]}],
    }
    view = bv.view_after(doc, ["1,1", "2,1", "3,1"])
    page = board(view, interactive=False)  # noqa: F811
    # One dashed frame per exclusive stack (not one per space), and its seats once.
    assert page.locator(".vf-mark-exclusive").count() == 3
    badges = page.locator(".vf-badge-exclusive")
    assert [badges.nth(i).text_content() for i in range(3)] == ["1", "2", "1,3"]
    assert page.locator(".vf-mark-sticky").count() == 1  # the bottom space of stack 4 only
    label = page.locator("[data-key='1:3,1']").get_attribute("aria-label")
    assert "bottom up: pink circle" in label and "only player 1 and 3" in label
    shots = Path(os.environ.get("FACTORYBOARD_SHOTS", "/work/shots/factoryboard"))
    shots.mkdir(parents=True, exist_ok=True)
    page.locator("#board").screenshot(path=str(shots / "board-stacks-marks.png"))


def test_a_chain_jump_in_progress_starts_with_its_piece_picked_up(board):  # noqa: F811
    doc = {
        "name": "Chain",
        "board": {"type": "squares", "size": [5, 5, 1]},
        "reserves": {"black": {"circle": 4}, "white": {"circle": 4}},
        "shape_rules": {
            "circle": {"move": "orthogonal", "power": "can-capture", "condition": "chain-jump"}
        },
    }
    state = bv.random_until(doc, lambda s: s.chain >= 0, tries=2000)
    view = bv.mover_view(state)
    jumps = [m for m in view["legal_moves"] if m != "pass"]
    assert view["chain"] and "pass" in view["legal_moves"]  # the match page shows Pass
    page = board(view)  # noqa: F811
    piece = page.locator(f"[data-coords='{view['chain']}']")
    assert "is-selected" in piece.get_attribute("class")
    assert sorted(targets(page)) == sorted(jumps)
    page.locator(f"[data-target='{jumps[0]}']").click()
    assert moves(page) == [jumps[0]]
