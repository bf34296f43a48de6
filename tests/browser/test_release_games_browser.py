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
    seats = {"4P-Blind-TTT": 3, "KPoker": 1}.get(name, 2)
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
