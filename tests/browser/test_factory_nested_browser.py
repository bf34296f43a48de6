"""The factory's nested-board section in headless Chromium: Ultimate created by clicking,
the clamps in the live page, the saved page and Copy, keyboard access and a phone width."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.browser.test_factory_browser import choose, refreshing, saved_fingerprint_matches
from variants.models import RuleSet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FACTORY = "/games/new/"


def values(page, select_id: str) -> list[str]:
    """The enabled options of a dropdown."""
    return page.eval_on_selector_all(
        f"#{select_id} option:not([disabled])", "options => options.map(o => o.value)"
    )


def test_create_ultimate_by_clicking_then_copy_it(person):
    page = person("carla")
    page.goto(FACTORY)
    page.fill("#id_name", "MyUltimate")
    choose(page, "id_family", "nested")
    assert page.locator("#fc-nested").is_visible()
    assert page.input_value("#id_n_side") == "3" and page.input_value("#id_n_depth") == "2"
    assert page.locator("#id_n_timeout").is_disabled()  # no time control yet
    assert "Only with a time control" in page.inner_text("#id_n_timeout-reason")
    page.select_option("#id_n_lock_captured", "1")
    choose(page, "id_n_seconds", "15")
    assert page.locator("#id_n_timeout").is_enabled()
    page.select_option("#id_n_timeout", "random-move")
    screenshot(page, "factory-ultimate")
    page.click("#fc-save")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    saved_fingerprint_matches("MyUltimate", "Ultimate-Tic-Tac-Toe")

    # The saved page: the nested settings, read-only; options that are off are hidden.
    assert page.input_value("#id_n_lock_captured") == "1"
    assert page.input_value("#id_n_seconds") == "15"
    assert page.locator("#fc-nested select:not([disabled])").count() == 0
    assert not page.locator("#id_n_route_map").is_visible()
    assert "Lock captured blocks" in page.text_content("#fc-summary")
    screenshot(page, "saved-ultimate")

    page.click("#fc-copy")
    page.wait_for_url(re.compile(r"/games/new/\?copy=\d+$"))
    assert page.input_value("#id_name") == "MyUltimate-copy"
    assert page.input_value("#id_family") == "nested"
    assert page.input_value("#id_n_timeout") == "random-move"
    page.select_option("#id_n_checked", "1")  # Ultimate-Checked
    page.click("#fc-save")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    saved_fingerprint_matches("MyUltimate-copy", "Ultimate-Checked")


def test_the_controls_clamp_each_other_in_the_live_page(person):
    page = person("carla")
    page.goto(FACTORY)
    choose(page, "id_family", "nested")
    choose(page, "id_n_side", "10")
    assert page.input_value("#id_n_depth") == "1"
    assert values(page, "id_n_depth") == ["1"]
    assert values(page, "id_n_dimensions") == ["2", "3"]
    assert values(page, "id_n_win_length")[-1] == "10"
    # Depth 1: the options that need blocks are off, each with its reason.
    for name in ("lock_captured", "kyu", "quick", "win_condition", "routing"):
        assert page.locator(f"#id_n_{name}").is_disabled(), name
        assert page.locator(f"#id_n_{name}-reason").is_visible(), name
    choose(page, "id_n_side", "3")
    assert values(page, "id_n_win_length") == ["", "2", "3"]
    choose(page, "id_n_depth", "3")
    assert values(page, "id_n_dimensions") == ["2"]
    assert page.inner_text("#fc-grid-note").startswith("Ground grid 27×27")
    choose(page, "id_n_routing", "map")
    assert page.locator("#id_n_route_map").is_enabled()
    assert "81 numbers from 1 to 9" in page.inner_text("#id_n_route_map-help")
    choose(page, "id_n_routing", "tactical")
    assert page.locator("#id_n_route_map").is_disabled()
    choose(page, "id_n_depth", "2")
    choose(page, "id_n_dimensions", "3")
    assert values(page, "id_n_depth") == ["1", "2"]
    assert values(page, "id_n_routing") == ["tactical", "open"]
    choose(page, "id_n_side", "4")  # 4^(2·3) > 1000: back to 2 dimensions
    assert page.input_value("#id_n_dimensions") == "2"

    # A junk value (as a hand-made post would send) is named next to its control.
    page.eval_on_selector("#id_n_side", "s => { s.options[0].value = '99'; s.value = '99'; }")
    page.fill("#id_name", "Junk")
    page.click("#fc-save")
    assert "Side length (S): at most 16" in page.inner_text("#id_n_side-error")
    assert not RuleSet.objects.filter(name="Junk").exists()


def test_keyboard_and_phone_width(person):
    page = person("carla", width=390, height=844)
    page.goto(FACTORY)
    page.focus("#id_family")
    refreshing(page, lambda: page.keyboard.press("ArrowDown"))  # flat -> nested
    assert page.input_value("#id_family") == "nested"
    # Focus survives the re-render (htmx restores it by id), so Tab walks on.
    assert page.evaluate("document.activeElement.id") == "id_family"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "id_n_side"
    refreshing(page, lambda: page.keyboard.press("End"))  # 16
    assert page.input_value("#id_n_side") == "16"
    assert page.input_value("#id_n_depth") == "1"
    # Nothing scrolls sideways on a phone; the groups stack in one column.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    boxes = [page.locator(f"#fc-group-{i}").bounding_box() for i in (1, 2)]
    assert boxes[1]["y"] > boxes[0]["y"] + boxes[0]["height"] - 1
    screenshot(page, "factory-nested-phone")


def test_switching_family_after_changes_asks_first(person):
    page = person("carla")
    page.goto(FACTORY)
    choose(page, "id_board_type", "squares")
    choose(page, "id_size_x", "5")
    # Cancel: the family stays flat and nothing is lost.
    page.remove_listener("dialog", page.accept_dialogs)
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.select_option("#id_family", "nested")
    page.wait_for_function("document.getElementById('id_family').value === 'flat'")
    assert asked and "board settings you chose are reset" in asked[0]
    assert page.input_value("#id_size_x") == "5" and not page.locator("#fc-nested").count()
    assert "not changed" in page.inner_text("#fc-status")
    # Accept: the nested section replaces the flat one.
    page.once("dialog", lambda dialog: dialog.accept())
    choose(page, "id_family", "nested")
    assert page.locator("#fc-nested").is_visible()
    # A switch straight after a switch (nothing changed since) does not ask.
    page.on("dialog", lambda dialog: pytest.fail(f"unexpected dialog: {dialog.message}"))
    choose(page, "id_family", "flat")
    assert page.locator("#id_size_x").is_visible()


def test_the_nested_section_previews_the_starting_board(person):
    page = person("carla")
    page.goto(FACTORY)
    assert page.locator("[data-testid=nested-preview]").count() == 0  # flat: its own board
    choose(page, "id_family", "nested")
    preview = page.locator("#fc-preview")
    expect(preview.locator("svg .vf-cell")).to_have_count(81)  # Ultimate's 9×9 ground grid
    choose(page, "id_n_side", "4")
    expect(preview.locator("svg .vf-cell")).to_have_count(256)
    choose(page, "id_n_symmetric_obstacles", "1")
    assert "one example" not in page.inner_text("[data-testid=nested-preview]")
    choose(page, "id_n_random_obstacles", "4")
    assert "one example" in page.inner_text("[data-testid=nested-preview]")
