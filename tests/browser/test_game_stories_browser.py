"""Games that explain themselves (issue 38), in the browser: RockPaperScissors says which
shape is rock on its page and in the match's piece chooser, at desktop and phone sizes."""

from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.play_helpers import bot, rule_set, start

SHOTS = Path("/tmp/shots/explain")
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("size", [(1366, 768), (390, 844)])
def test_rock_paper_scissors_tells_its_story(person, size):
    SHOTS.mkdir(parents=True, exist_ok=True)
    width, height = size
    page = person(f"reader{width}", width=width, height=height)
    game = rule_set("RockPaperScissors")
    page.goto(f"/games/{game.pk}/")
    story = page.get_by_test_id("game-story")
    assert "Rock" in story.inner_text() and "Paper covers rock" in story.inner_text()
    assert not page.locator("#fc-summary").is_visible()  # one click away
    page.get_by_test_id("summary-line").locator("summary").click()
    assert page.locator("#fc-summary").is_visible()
    page.screenshot(path=str(SHOTS / f"rps-game-{width}.png"), full_page=True)

    match = start(game, page.user, page.user, bot())
    page.goto(f"/matches/{match.pk}/")
    assert "Rock, paper, scissors" in page.get_by_test_id("match-story-how").inner_text()
    page.get_by_text("Your plan").first.wait_for()  # the board takes moves (an event, not a sleep)
    page.screenshot(path=str(SHOTS / f"rps-match-{width}.png"), full_page=False)
    # A state event (a presence, the bot's plan) redraws the board and closes an open
    # chooser: open it again until it is read.
    words = ""
    for _ in range(3):
        page.locator("[data-coords='1,1']").click()
        try:
            words = page.get_by_test_id("chooser").inner_text(timeout=3000)
            page.screenshot(path=str(SHOTS / f"rps-chooser-{width}.png"), full_page=True)
            break
        except PlaywrightTimeout:
            continue
    assert "Rock" in words and "Scissors" in words


@pytest.mark.parametrize("size", [(1366, 768), (390, 844)])
def test_stag_hunt_page_shows_stag_hare_and_the_table(person, size):
    width, height = size
    page = person(f"hunter{width}", width=width, height=height)
    game = rule_set("StagHunt")
    page.goto(f"/games/{game.pk}/")
    table = page.get_by_test_id("story-outcomes")
    assert "Both hunt stag" in table.inner_text()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"staghunt-game-{width}.png"), full_page=True)


@pytest.mark.parametrize("size", [(1366, 768), (390, 844)])
def test_bos_page_says_a_miss_wins_nobody(person, size):
    """Issue 35: BoS measures each player against Chaos; its page says so, and that
    missing each other wins nobody (READINGS.md, BoS)."""
    width, height = size
    page = person(f"bos{width}", width=width, height=height)
    game = rule_set("BoS")
    page.goto(f"/games/{game.pk}/")
    table = page.get_by_test_id("story-outcomes").inner_text()
    assert "Apart" in table and "Nobody wins" in table
    page.get_by_test_id("summary-line").locator("summary").click()
    assert "Less area than Chaos wins" in page.locator("#fc-summary").inner_text()
    Path("/tmp/shots/named").mkdir(parents=True, exist_ok=True)
    page.screenshot(path=f"/tmp/shots/named/bos-game-{width}.png", full_page=True)
