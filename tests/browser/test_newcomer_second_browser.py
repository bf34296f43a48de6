"""Issue 38 in the browser: what a newcomer meets in the second ten minutes."""

from __future__ import annotations

from pathlib import Path

import pytest

from play import services
from tests.leaderboard_helpers import finish
from tests.play_helpers import bot, human, rule_set, start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

READY = "[data-testid=series-ready]"
MODAL = "#vf-resign-modal"


def test_a_quick_resign_on_a_slow_phone_does_not_leave_the_dialog_over_ready(person):
    """Resign, then Resign again before the dialog has finished opening (a quick tap on a
    slow phone; a loaded machine in the tests): Bootstrap ignores hide() while a dialog is
    still opening, so the dialog used to open over the Ready button and stay there."""
    x = person("xena")
    o = person("oscar", width=390, height=844)
    match = start(rule_set("Ultimate-Tic-Tac-Toe"), x.user, x.user, o.user)
    services.answer_invitation(match.pk, o.user, accept=True)
    o.goto(match.get_absolute_url())
    o.wait_for_selector("[data-testid=board] [data-testid=cell]")
    o.evaluate(
        """() => {
        document.querySelector('[data-testid=resign]').click();
        document.querySelector('[data-testid=resign-confirm]').click();
    }"""
    )
    o.wait_for_selector(READY, state="visible")
    o.wait_for_selector(MODAL, state="hidden", timeout=5000)
    o.locator(READY).click(timeout=5000)
    o.wait_for_selector(f"{READY}[disabled]")


SHOTS = Path("/tmp/shots/newcomer")
SIZES = [(1366, 768), (390, 844)]


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_a_trainer_reads_the_leaderboard_finds_my_bots_and_benchmarks(person):
    """Ratings without a minus sign for a beginner who lost once (the exact R on hover),
    the order said above the table, row buttons with words, My bots in the menu, and
    Benchmark Selected Bots naming what a Benchmark lacks; at 1366x768 and 390x844."""
    ttt = rule_set("Tic-Tac-Toe")
    alpha, beta = bot("Alpha", "medium"), bot("Beta", "easy")
    finish(ttt, [alpha, beta], ["win", "loss"])
    for width, height in SIZES:
        page = person(f"tina{width}", role="trainer", width=width, height=height)
        beginner = human(page.user)
        finish(ttt, [beginner, alpha], ["loss", "win"])
        page.goto(f"/games/{ttt.pk}/leaderboard/")
        mine = page.locator(f"[data-testid=row][data-player='{beginner.pk}']")
        shown = mine.locator("[data-testid=rating] .fs-5")
        assert 0 < int(shown.inner_text()) < 1000
        assert shown.get_attribute("title").startswith("R = μ − 3σ = −")
        assert "rating + top burst" in page.get_by_test_id("board-order").inner_text()
        for kind, word in (("show-player", "Player"), ("play-new-game", "Play")):
            button = page.get_by_test_id(kind).first
            assert button.is_visible() and button.inner_text().strip() == word
        assert no_sideways_scroll(page)
        scroller = "document.querySelector('.table-responsive')"
        assert page.evaluate(f"{scroller}.scrollWidth <= {scroller}.clientWidth + 1")  # all seen
        shoot(page, f"leaderboard-{width}")
        if width < 576:  # the menu folds behind the toggler on a phone
            page.locator(".navbar-toggler").click()
            page.wait_for_selector("#site-nav.show")  # opened, not opening
        menu = page.get_by_test_id("nav-my-bots")
        menu.wait_for(state="visible")
        page.screenshot(path=str(SHOTS / f"menu-{width}.png"))
        page.get_by_test_id("benchmark").click()
        page.get_by_test_id("benchmark-confirm").wait_for()
        assert no_sideways_scroll(page)
        shoot(page, f"benchmark-{width}")
        menu = page.get_by_test_id("nav-my-bots")
        if width < 576:
            page.locator(".navbar-toggler").click()
            page.wait_for_selector("#site-nav.show")
        menu.click()
        page.wait_for_url("**/bots/")


def test_an_admin_renaming_a_game_is_told_so(person):
    game = rule_set("Tic-Tac-Toe")
    for width, height in SIZES:
        page = person(f"ada{width}", role="admin", width=width, height=height)
        page.goto(game.get_absolute_url())
        new = f"Noughts-{width}"
        page.fill("#id_rename", new)
        page.locator("#fc-rename-button").click()
        alert = page.locator(".alert-success")
        alert.wait_for()
        assert f"to {new}; its rules are unchanged" in alert.inner_text()
        assert no_sideways_scroll(page)
        page.screenshot(path=str(SHOTS / f"renamed-{width}.png"))
