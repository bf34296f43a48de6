"""Seed 001's intermission in the browser: after an Ultimate game both players press
Ready on the game-over panel, and both pages move to the series' next game, where the
colours have swapped. Screenshots of the panel at 1366x768 and 390x844."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from play import services
from play.models import Match
from tests.play_helpers import rule_set, start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(os.environ.get("SERIES_SCREENSHOTS", "/tmp/shots"))
READY = "[data-testid=series-ready]"


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"series-{name}.png"))


def test_both_players_press_ready_and_move_to_the_next_game(person):
    x = person("xena", width=1366, height=768)
    o = person("oscar", width=390, height=844)
    match = start(rule_set("Ultimate-Tic-Tac-Toe"), x.user, x.user, o.user)
    services.answer_invitation(match.pk, o.user, accept=True)
    for page in (x, o):
        page.goto(match.get_absolute_url())
        page.wait_for_selector("[data-testid=board] [data-testid=cell]")
    o.locator("[data-testid=resign]").click()
    o.locator("[data-testid=resign-confirm]").click()
    o.wait_for_selector("#vf-resign-modal", state="hidden")  # the dialog has gone, not "a while"
    for page in (x, o):
        page.wait_for_selector(READY, state="visible")
        assert "Ready for game 2" in page.locator(READY).inner_text()
        assert "colours swapped" in page.locator("[data-testid=series-text]").inner_text()
        assert "left to get ready" in page.locator("[data-testid=series-clock]").inner_text()
        assert page.locator("[data-testid=series-person]").count() == 2
    x.locator("[data-testid=game-over]").scroll_into_view_if_needed()
    o.locator(READY).scroll_into_view_if_needed()
    shoot(x, "desktop-1366")
    shoot(o, "phone-390")

    x.locator(READY).click()
    x.wait_for_selector(f"{READY}[disabled]")
    assert "You are ready" in x.locator(READY).inner_text()
    shoot(x, "desktop-1366-ready")
    o.wait_for_selector("[data-testid=series-person][data-ready='1']")
    assert "xena: ready" in o.locator("[data-testid=series-who]").inner_text()
    shoot(o, "phone-390-other-ready")
    assert o.url.endswith(match.get_absolute_url())  # nobody moves before all are ready

    o.locator(READY).click()
    new = None
    for page in (x, o):
        page.wait_for_url(lambda url: not url.endswith(match.get_absolute_url()))
        page.wait_for_selector("[data-testid=board] [data-testid=cell]")
        new = new or Match.objects.get(previous=match)
        assert page.url.endswith(new.get_absolute_url())
    seats = {s.index: s.player.user_id for s in new.seats.select_related("player")}
    assert seats == {0: o.user.pk, 1: x.user.pk}  # colours swapped: Oscar plays X now
    o.wait_for_function("document.querySelector('[data-testid=turn]').textContent === 'Your move'")
    assert "Game 2 of a series" in x.locator("[data-testid=status]").inner_text()
