"""A player makes a universe for a persona on the personas page, starts a match there from
the start form, and the match page says where it is rated."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounts.personas import create_persona
from leaderboards.models import Universe
from play.models import Match
from tests.browser.conftest import screenshot
from tests.play_helpers import bot, rule_set

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_make_a_universe_and_play_in_it(person):
    ttt = rule_set("Tic-Tac-Toe")
    easy = bot("Easy")
    page = person("carla", width=390, height=844)  # a phone
    create_persona(page.user, "Alter")
    page.goto("/personas/")
    page.fill("[data-testid=universe-name]", "Night Club")
    page.click("[data-testid=join-universe]")
    expect(page.locator(".messages")).to_contain_text("You made Night Club; Alter is in it")
    expect(page.locator("[data-testid=persona-universe]")).to_contain_text("Night Club")
    screenshot(page, "personas-universe")

    page.goto("/play/")
    page.select_option("[data-testid=start-game]", str(ttt.pk))
    persona = page.user.owned_players.get(name="Alter")
    page.select_option("[data-testid=seat-1]", f"player:{persona.pk}")
    page.select_option("[data-testid=seat-2]", f"player:{easy.pk}")
    page.select_option("[data-testid=start-universe]", "night-club")
    with page.expect_navigation():
        page.click("[data-testid=play-new]")
    expect(page.locator("[data-testid=match-universe]")).to_contain_text("Rated in Night Club")
    assert Match.objects.get().universe == Universe.objects.get(slug="night-club")

    # Taking the persona out again keeps the page tidy and says what happened.
    page.goto("/personas/")
    with page.expect_navigation():
        page.click("[data-testid=leave-universe]")
    expect(page.locator(".messages")).to_contain_text("Alter left Night Club")
    expect(page.locator("[data-testid=persona-universe]")).to_have_count(0)
