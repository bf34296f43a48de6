"""Issue 38 in the browser, what remained: a gentle first game against a bot, related
games in words, the matches list's endings, a menu on one line, stories."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.play_helpers import rule_set
from tests.play_helpers import start as start_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/shots/newcomer")
SIZES = [(1366, 768), (390, 844)]


def shoot(page, name: str, full: bool = True) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_a_first_ultimate_game_against_a_bot_is_gentle(person):
    """Play New Game with Ultimate and the default bot: no turn clock, and after the game
    no "game 2 of the series" (no Ready); the page says there is no turn timer."""
    ultimate = rule_set("Ultimate-Tic-Tac-Toe")
    for width, height in SIZES:
        page = person(f"newbie{width}", width=width, height=height)
        page.goto("/play/")
        page.select_option("[data-testid=start-game]", str(ultimate.pk))
        page.get_by_test_id("play-new").click()
        page.wait_for_url("**/matches/*/")
        page.wait_for_selector("[data-testid=board] [data-testid=cell]")
        page.get_by_test_id("match-untimed").wait_for()
        page.wait_for_selector("[data-testid=turn]:has-text('Your')")
        assert page.get_by_test_id("turn-timer").is_hidden()
        assert no_sideways_scroll(page)
        shoot(page, f"gentle-match-{width}", full=False)
        page.get_by_test_id("resign").click()
        page.get_by_test_id("resign-confirm").click()
        page.get_by_test_id("game-over").wait_for()
        page.wait_for_selector("#vf-resign-modal", state="hidden")
        assert page.get_by_test_id("series").is_hidden()
        assert page.get_by_test_id("series-ready").is_hidden()
        shoot(page, f"gentle-over-{width}", full=False)
        # Chosen, the clock and the series are kept, even in a first game.
        page.goto("/play/")
        page.select_option("[data-testid=start-game]", str(ultimate.pk))
        page.locator("[data-testid=start-timers] summary").click()
        page.select_option("[data-testid=start-turntimer]", "on")
        page.select_option("[data-testid=start-series]", "on")
        shoot(page, f"gentle-choice-{width}")
        page.get_by_test_id("play-new").click()
        page.wait_for_url("**/matches/*/")
        page.wait_for_selector("[data-testid=turn-timer]:visible")
        assert page.get_by_test_id("match-untimed").count() == 0
        page.get_by_test_id("resign").click()
        page.get_by_test_id("resign-confirm").click()
        page.get_by_test_id("series-ready").wait_for()


def test_the_matches_list_ends_a_match_in_the_match_page_s_words(person):
    """A StagHunt played out: the list says "No moves left · …" as the game-over card
    does, never "stalemate"."""
    from tests.api_helpers import play_out
    from tests.play_helpers import bot

    stag = rule_set("StagHunt")
    for width, height in SIZES:
        page = person(f"lister{width}", width=width, height=height)
        players = (bot(f"Ann{width}", "random"), bot(f"Bob{width}", "random"))
        match = play_out(start_match(stag, page.user, *players))
        page.goto("/matches/")
        listed = page.get_by_test_id("match-ending").first.inner_text()
        assert "stalemate" not in page.locator("main").inner_text().lower()
        assert no_sideways_scroll(page)
        shoot(page, f"matches-list-{width}", full=False)
        page.goto(match.get_absolute_url())
        page.get_by_test_id("game-over").wait_for()
        reason = page.get_by_test_id("game-over-reason").inner_text()
        detail = page.get_by_test_id("game-over-detail").inner_text()
        assert listed == f"{reason} · {detail}" and reason == "No moves left"


def menu_lines(page) -> int:
    """How many lines the open top menu takes (1 when every entry shares the brand's)."""
    return page.evaluate(
        """() => {
        const tops = new Set();
        for (const el of document.querySelectorAll('.navbar-brand, #site-nav .nav-item')) {
          const r = el.getBoundingClientRect();
          if (r.width > 0) tops.add(Math.round(r.top + r.height / 2));
        }
        return tops.size;
    }"""
    )


@pytest.mark.parametrize("role", ["trainer", "admin", "creator"])
def test_the_top_menu_keeps_one_line_at_every_width(person, role):
    """992-1250 px used to wrap a Trainer's menu onto two lines: it folds behind the
    toggler below 1200 px for Trainers and Admins (992 for others) and fits above."""
    for width in (1000, 1100, 1250, 1366):
        name = f"{role}_with_a_long_name_{width}"  # shortened in the menu
        page = person(name, role=role, width=width, height=768)
        page.goto("/games/")
        header = page.get_by_test_id("site-header")
        toggler = page.locator(".navbar-toggler")
        if toggler.is_visible():
            assert role != "creator" and width < 1200
            toggler.click()
            page.wait_for_selector("#site-nav.show")
        else:
            assert menu_lines(page) == 1, f"{role} at {width}px: the menu wraps"
            assert header.bounding_box()["height"] < 80
        if role != "creator":
            page.get_by_test_id("nav-my-bots").wait_for(state="visible")
        account = page.get_by_test_id("nav-account")
        assert name in account.get_attribute("title")
        assert no_sideways_scroll(page)
        shoot(page, f"menu-{role}-{width}", full=False)
        account.click()
        page.get_by_test_id("nav-logout").wait_for(state="visible")
        if width == 1250:
            shoot(page, f"menu-{role}-{width}-account", full=False)


def test_related_games_say_the_difference_in_words(person):
    """Tic-Tac-Toe's page: "Like Achi, but enough pieces to fill the board instead of 4
    each …", not the raw diff ("Played on 3x3x1 hash; not: …")."""
    from variants.analysis_jobs import run_analysis

    ttt = rule_set("Tic-Tac-Toe")
    assert run_analysis(ttt.pk, seconds=2)
    for width, height in SIZES:
        page = person(f"reader{width}", width=width, height=height)
        page.goto(ttt.get_absolute_url())
        related = page.get_by_test_id("analysis-related")
        related.scroll_into_view_if_needed()
        text = related.inner_text()
        lines = text.splitlines()
        assert len(lines) == 3 and all(line.startswith("Like ") for line in lines)
        assert "Like Achi, but enough pieces to fill the board instead of 4 each" in text
        assert "not:" not in text and "Played on" not in text and "3x3x1" not in text
        assert no_sideways_scroll(page)
        related.screenshot(path=str(SHOTS / f"related-{width}.png"))
        shoot(page, f"related-page-{width}", full=False)


def test_the_contract_and_public_goods_games_tell_their_story(person):
    """ContractPD's page says what signing does and shows its outcome table; a
    3P-PublicGoods match names the pot and the purses; Strategic-Map says how to play."""
    from tests.play_helpers import bot

    contract, goods = rule_set("ContractPD"), rule_set("3P-PublicGoods")
    strategic = rule_set("Strategic-Map")
    for width, height in SIZES:
        page = person(f"storyreader{width}", width=width, height=height)
        page.goto(contract.get_absolute_url())
        story = page.get_by_test_id("game-story")
        assert "contract" in story.inner_text() and "signs" in story.inner_text()
        table = page.get_by_test_id("story-outcomes")
        assert "White signs; both cooperate" in table.inner_text()
        # Related games show while the analysis still waits for a worker.
        assert page.get_by_test_id("analysis-progress").count() == 1
        assert page.get_by_test_id("analysis-related").inner_text().startswith("Like ")
        card = page.get_by_test_id("analysis-card")
        card.screenshot(path=str(SHOTS / f"related-while-analysing-{width}.png"))
        assert no_sideways_scroll(page)
        shoot(page, f"story-contractpd-{width}")
        page.goto(strategic.get_absolute_url())
        assert "route map" in page.get_by_test_id("game-story").inner_text()
        shoot(page, f"story-strategic-map-{width}", full=False)
        match = start_match(goods, page.user, page.user, bot(f"W{width}"), bot(f"P{width}"))
        page.goto(match.get_absolute_url())
        page.wait_for_selector("[data-testid=board] [data-testid=cell]")
        assert "pot" in page.get_by_test_id("match-story-how").inner_text()
        assert no_sideways_scroll(page)
        shoot(page, f"story-publicgoods-match-{width}", full=False)
