"""Issue 38 in the browser: the flat factory form's controls carry visible words, and a game
nobody can win (5 in a row on the 3x3 hash) is warned as the turn check is chosen, before
Save; at 1366x768 and 390x844, with screenshots."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.test_factory_browser import refreshing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/shots/factorylabels")


@pytest.mark.parametrize("width,height", [(1366, 768), (390, 844)])
def test_labels_show_and_the_unwinnable_game_is_warned_before_save(person, width, height):
    page = person(f"lena{width}", width=width, height=height)
    page.goto("/games/new/")
    for words in ("Game name", "Stalemate rule", "Turn check 1", "Players", "Mark spaces"):
        assert page.get_by_text(words, exact=True).first.is_visible(), words
    assert page.locator("#fc-add-check").inner_text().strip() == "Add check"
    assert page.locator("[data-testid=game-warnings]").count() == 0
    refreshing(page, lambda: page.select_option("#id_check_0", "5-wins-d"))
    warning = page.locator("[data-testid=game-warnings]")
    assert "No line of 5 fits on a 3×3×1 board" in warning.inner_text()
    reminder = page.locator("[data-testid=game-warnings-reminder]")
    assert reminder.is_visible() and "No line of 5 fits" in reminder.inner_text()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"factory-warned-{width}x{height}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
