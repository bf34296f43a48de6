"""The factory's new controls (pieces that move, endings, phases, cloaking) put their
errors beside themselves in the browser, and nothing is saved (issue 21)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_factory_browser import FACTORY, choose, click_space, save
from variants.models import RuleSet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
IDLE = "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"


def pick(page, select_id: str, value: str) -> None:
    """A dropdown that may or may not redraw the form: pick, then (if it asks the server
    for a new form) wait for that answer and for htmx to settle, not for a fixed time."""
    if page.get_attribute(f"#{select_id}", "hx-post"):
        choose(page, select_id, value)
        return
    page.select_option(f"#{select_id}", value)
    page.wait_for_function(IDLE)
    assert page.input_value(f"#{select_id}") == value


def test_errors_of_moves_endings_and_phases_go_beside_their_controls(person):
    page = person("erin")
    page.goto(FACTORY)
    page.fill("#id_name", "BadMover")
    choose(page, "id_board_type", "squares")
    choose(page, "id_size_x", "4")
    choose(page, "id_size_y", "4")
    page.select_option("#id_reserve-black-1", "4")  # below the maximum: the shape may move
    pick(page, "id_move-1", "knight")
    pick(page, "id_power-1", "can-capture")
    pick(page, "id_power_condition-1", "jump")
    save(page)
    expect(page.locator("#id_power_condition-1-error")).to_contain_text("knight jumps nothing")
    assert page.input_value("#id_move-1") == "knight"  # what was submitted stays

    pick(page, "id_power_condition-1", "cover")  # that one fixed; now an ending
    label = "More pieces than Chaos wins"
    page.select_option("#id_stalemate", label=label)
    save(page)
    expect(page.locator("#id_stalemate-error")).to_contain_text("Chaos")

    # A cloaked space with no cloaking type: the phase's spaces say so.
    page.select_option("#id_stalemate", index=0)
    page.click("label[for=mk-cloak]")
    click_space(page, "1-2-2-1")
    assert page.locator("#sp-1-2-2-1 .fc-flag-cloak").count() == 1
    save(page)
    expect(page.get_by_role("alert").filter(has_text="cloak")).to_be_visible()
    assert not RuleSet.objects.filter(name="BadMover").exists()
