"""The factory's "Lower levels' routing" (Strategic's rule sets combined) in Chromium: a
Map-like top level with Hypermap-like tactical cells, made by clicking on a phone, saved,
and its game page with the seed's credit."""

from __future__ import annotations

import re

import pytest

from gamecore import rules
from tests.browser.conftest import SCREENSHOTS, screenshot
from tests.browser.test_factory_browser import choose
from variants.models import RuleSet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_combination_of_rule_sets_by_clicking_on_a_phone(person):
    page = person("mila", width=390, height=844)
    page.goto("/games/new/")
    page.fill("#id_name", "MapThenHyper")
    choose(page, "id_family", "nested")
    assert page.locator("#id_n_lower_routing").is_disabled()  # depth 2: nothing below
    choose(page, "id_n_depth", "3")
    choose(page, "id_n_routing", "map")
    assert page.locator("#id_n_lower_routing").is_enabled()
    choose(page, "id_n_lower_routing", "hypermap")
    assert "810 numbers" in page.inner_text("#id_n_route_map-help")  # 81 + 729
    page.select_option("#id_n_draws_count_for_all", "1")
    page.locator("#id_n_lower_routing").scroll_into_view_if_needed()
    screenshot(page, "strategic-factory-phone")
    gameplay = page.locator("#id_n_lower_routing").locator("xpath=ancestor::fieldset")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    gameplay.screenshot(path=str(SCREENSHOTS / "strategic-factory-phone-routing.png"))
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    page.click("#fc-save")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    doc = rules.parse(RuleSet.objects.get(name="MapThenHyper").document)
    assert doc.nested.level_routing == ("map", "hypermap")
    assert "Map-like, then Hypermap-like" in page.text_content("#fc-summary")
    credit = page.inner_text("[data-testid=game-credit]")
    assert "Demchenko" in credit and "Shashkov" in credit and "CC BY 4.0" in credit
    page.locator("[data-testid=game-credit]").scroll_into_view_if_needed()
    rules_box = page.locator("[data-testid=rules-in-words]")
    rules_box.screenshot(path=str(SCREENSHOTS / "strategic-game-page-phone-rules.png"))
