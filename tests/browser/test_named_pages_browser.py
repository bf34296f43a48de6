"""Issue 35 game pages (desktop, phone): 3P-9X-HideSeek says the ring's pink circles are
nobody's scenery and how the seeker wins; 3P-BoS tells its battle and its table."""

from pathlib import Path

import pytest

from tests.play_helpers import rule_set

SHOTS = Path("/tmp/shots/named2")
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("size", [(1366, 768), (390, 844)])
def test_hideseek_page_says_the_ring_is_nobodys(person, size):
    SHOTS.mkdir(parents=True, exist_ok=True)
    width, height = size
    page = person(f"seeker{width}", width=width, height=height)
    game = rule_set("3P-9X-HideSeek")
    page.goto(f"/games/{game.pk}/")
    story = page.get_by_test_id("game-story").inner_text()
    assert "scenery" in story and "finding both" in story
    pieces = page.get_by_test_id("rules-in-words").inner_text()
    assert "The pink circles set up belong to nobody" in pieces
    page.get_by_test_id("summary-line").locator("summary").click()
    assert "pink circle (nobody's) at (1,1,1)" in page.locator("#fc-summary").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    page.screenshot(path=str(SHOTS / f"hideseek-game-{width}.png"), full_page=True)


@pytest.mark.parametrize("size", [(1366, 768), (390, 844)])
def test_3p_bos_page_tells_the_battle_and_its_table(person, size):
    SHOTS.mkdir(parents=True, exist_ok=True)
    width, height = size
    page = person(f"friend{width}", width=width, height=height)
    game = rule_set("3P-BoS")
    page.goto(f"/games/{game.pk}/")
    assert "Chaos then places its circle" in page.get_by_test_id("game-story").inner_text()
    assert "All apart" in page.get_by_test_id("story-outcomes").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    page.screenshot(path=str(SHOTS / f"3pbos-game-{width}.png"), full_page=True)
