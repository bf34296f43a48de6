"""Release 1.7's games (issue 34) on the live match page, desktop and phone: the board
draws (the poker pot 26 high too), a blind seat is shown none of the dealt circles, a
poker seat its own hole cards but not the others', and a person can move from the page.
Screenshots go to /tmp/shots/relgames/ (or FACTORY_SCREENSHOTS)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from play.models import Match
from tests.play_helpers import bot, rule_set, start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(os.environ.get("FACTORY_SCREENSHOTS", "/tmp/shots/relgames"))
SIZES = {"desktop": (1366, 768), "phone": (390, 844)}
PIECES = "() => [...document.querySelectorAll('#vf-board .vf-piece')].length"
CELLS = "[data-testid=board] [data-testid=cell]"


def _open(person, name, size, username):
    width, height = SIZES[size]
    page = person(username, width=width, height=height)
    page.js_errors = []
    page.on("pageerror", lambda error: page.js_errors.append(str(error)))
    rules = rule_set(name)
    seats = {"4P-Blind-TTT": 3, "KPoker": 1, "TheoryOfMind": 3, "BeerQuiche60": 1}.get(name, 2)
    others = [bot(f"R{i}", "random") for i in range(seats)]
    match = start(rules, page.user, page.user, *others, seed=3)
    page.goto(match.get_absolute_url())
    page.wait_for_selector(CELLS)
    return page, match


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("name", ["4P-Blind-TTT", "KPoker", "3P-NeedyPoker"])
def test_a_release_game_draws_on_the_match_page(person, name, size):
    page, match = _open(person, name, size, f"p{size[0]}{len(name)}")
    shown = page.evaluate(PIECES)
    if name == "4P-Blind-TTT":
        assert shown == 0  # both dealt circles are face down, for every seat
        assert page.locator(".vf-fog").count() == 9
    else:
        mine = page.locator("#vf-board .vf-piece.vf-c-black")
        assert mine.count() >= 1 and shown > mine.count()  # chips, cards, the pot
    if name == "3P-NeedyPoker":  # the pot's stack, 26 high, is drawn whole
        assert page.locator("[data-coords^='7,1']").count() >= 1
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-{size}.png"), full_page=True)
    assert not page.js_errors, page.js_errors
    match = Match.objects.get(pk=match.pk)
    assert match.status == "active"


def test_a_person_places_a_blind_mark_from_the_page(person):
    page, match = _open(person, "4P-Blind-TTT", "desktop", "blindy")
    page.locator(f"{CELLS}[data-move]").first.click()
    page.wait_for_function(
        f"({PIECES})() >= 1 || document.querySelector('.vf-attempt, [data-attempt]') !== null"
        f" || document.querySelector('{CELLS}[data-move]') === null"
    )
    assert Match.objects.get(pk=match.pk).ply >= 1
    assert not page.js_errors, page.js_errors


@pytest.mark.parametrize("size", list(SIZES))
def test_theory_of_mind_draws_with_a_seats_own_post_obscured(person, size):
    """Issue 34 (lane relgames2): black's page shows the shapes of the open post and of
    the others' posts (its own pieces there), and only colours on its own post (2)."""
    page, _match = _open(person, "TheoryOfMind", size, f"mind{size[0]}")
    shown = page.evaluate(
        "() => [...document.querySelectorAll('#vf-board .vf-piece:not(.is-obscured)')]"
        ".map(e => e.closest('[data-coords]')?.dataset.coords || '')"
    )
    posts = {c.split(",")[0] for c in shown if c}
    assert {"1", "4", "5", "6"} <= posts and "2" not in posts, shown
    assert page.locator("#vf-board .vf-piece.is-obscured").count() >= 3  # post 2, at least
    shots = Path(os.environ.get("FACTORY_SCREENSHOTS", "/tmp/shots/relgames2"))
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / f"TheoryOfMind-{size}.png"), full_page=True)
    assert not page.js_errors, page.js_errors


@pytest.mark.parametrize("size", list(SIZES))
def test_the_factory_offers_stacks_26_high(person, size):
    from tests.browser.test_factory_browser import FACTORY, choose

    width, height = SIZES[size]
    page = person(f"tall{size[0]}", width=width, height=height)
    page.goto(FACTORY)
    choose(page, "id_board_type", "stacks")
    choose(page, "id_size_y", "1")
    choose(page, "id_size_x", "8")
    choose(page, "id_size_z", "26")
    heights = page.eval_on_selector_all("#id_size_z option", "os => os.map(o => o.value)")
    assert heights[-1] == "26"
    shots = Path(os.environ.get("FACTORY_SCREENSHOTS", "/tmp/shots/relgames2"))
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / f"factory-stacks26-{size}.png"), full_page=True)


@pytest.mark.parametrize("size", list(SIZES))
def test_beer_quiche_draws_for_the_sender(person, size):
    """Black, the sender, sees its dealt type (three pieces of one shape) and moves first."""
    page, _match = _open(person, "BeerQuiche60", size, f"beer{size[0]}")
    black = page.locator("#vf-board .vf-piece.vf-c-black:not(.is-obscured)")
    assert black.count() == 3
    shots = Path(os.environ.get("FACTORY_SCREENSHOTS", "/tmp/shots/relgames2"))
    page.screenshot(path=str(shots / f"BeerQuiche60-{size}.png"), full_page=True)
    assert page.get_by_text("Your plan").count() >= 1  # black signals first (one round)
    assert not page.js_errors, page.js_errors
