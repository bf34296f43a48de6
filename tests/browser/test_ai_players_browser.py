"""The player factory in a browser, at desktop and phone size: the kind and algorithm
choices show only their own settings, a slider shows its value, a bad value is refused
with its error named beside it, and a good form makes the AI; no page scrolls sideways."""

from __future__ import annotations

import pytest

from aiplayers.models import AIPlayer
from tests.browser.conftest import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def visible(page, selector: str) -> bool:
    return page.locator(selector).first.is_visible()


@pytest.mark.parametrize("width", [1200, 360])
def test_the_factory_form_at_desktop_and_phone_size(person, width):
    page = person(f"tina{width}", role="trainer", width=width, height=800)
    page.goto("/")
    if width < 576:  # the menu is behind the toggler on a phone
        page.click(".navbar-toggler")
        # the menu opens with an animation: a click before it settles can miss the link
        page.wait_for_selector("[data-testid=nav-ai]", state="visible")
        page.wait_for_function("() => !document.querySelector('.navbar-collapse.collapsing')")
    with page.expect_navigation():
        page.click("[data-testid=nav-ai]")
    page.click("[data-testid=new-ai]")
    assert page.url.endswith("/ai/new/")
    # Learning is the default kind: its classifier's settings show, search's do not.
    assert visible(page, "[data-kind-part=learning]")
    assert not visible(page, "[data-kind-part=search]")
    page.check("#kind-search")
    assert visible(page, "#id_s_mcts_simulations") and not visible(page, "#id_s_hard_depth")
    page.select_option("#id_search_algorithm", "hard")
    assert visible(page, "#id_s_hard_depth") and not visible(page, "#id_s_mcts_simulations")
    page.check("#kind-learning")
    page.select_option("#id_learning_algorithm", "naive_bayes")
    assert visible(page, "#id_l_naive_bayes_smoothing")
    assert not visible(page, "#id_l_logistic_alpha")
    page.locator("#id_p_offense").fill("0.8")  # a slider: its value shows beside it
    assert page.locator("output[data-for=id_p_offense]").inner_text() == "0.8"
    assert page.locator("#future-empath").is_disabled()
    page.fill("#id_name", "Tron Legacy")
    page.fill("#id_l_naive_bayes_smoothing", "5")
    page.click("[data-testid=save]")
    name_error = page.locator("[data-testid=error-name]").inner_text()
    assert "Name may not contain whitespace" in name_error
    error = page.locator("[data-testid=error-l_naive_bayes_smoothing]")
    assert error.inner_text() == "Smoothing: at most 3.0."
    assert visible(page, "[data-kind-part=learning]")  # the choice survived the round trip
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, f"ai-factory-errors-{width}")
    page.fill("#id_name", f"Tron-{width}")
    page.fill("#id_l_naive_bayes_smoothing", "2")
    page.click("[data-testid=save]")
    assert page.locator("[data-testid=ai-name]").inner_text() == f"Tron-{width}"
    ai = AIPlayer.objects.get(player__name=f"Tron-{width}")
    assert ai.params == {"smoothing": 2.0} and ai.personality["offense"] == 0.8
    for tab in ("curriculum", "stats", "settings"):
        page.click(f"[data-testid=tab-{tab}]")
        assert page.evaluate("document.documentElement.scrollWidth") <= width, tab
        screenshot(page, f"ai-{tab}-{width}")
