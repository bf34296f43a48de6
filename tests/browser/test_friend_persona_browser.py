"""A friend's persona on a leaderboard, in headless Chromium: its row's Play New Game
opens the start form with the persona in seat 2, and starting invites the friend (issue
35). Screenshots at desktop and phone size go to /tmp/shots/factoryfix/."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from accounts.models import Player
from accounts.services import send_friend_request
from play.models import Match
from tests.leaderboard_helpers import finish
from tests.play_helpers import bot, rule_set

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(os.environ.get("FACTORYFIX_SHOTS", "/tmp/shots/factoryfix"))
SIZES = {"desktop": (1366, 768), "phone": (390, 844)}


def test_play_new_game_against_a_friends_persona(person):
    page = person("paula", width=1366, height=768)
    me = get_user_model().objects.get(username="paula")
    friend = get_user_model().objects.create_user("fred", password=None)
    send_friend_request(me, friend)
    send_friend_request(friend, me)  # accepts
    game = rule_set("Tic-Tac-Toe")
    masked = Player.objects.create(kind="persona", name="Masked", owner=friend)
    finish(game, [masked, bot("Bot")], ["win", "loss"])
    page.goto(f"/games/{game.pk}/leaderboard/")
    row = page.locator(
        "[data-testid=row]", has=page.locator("[data-testid=name]", has_text="Masked")
    )
    assert row.locator("[data-testid=add-friend]").count() == 0
    play = row.locator("[data-testid=play-new-game]")
    SHOTS.mkdir(parents=True, exist_ok=True)
    for name, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        row.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"leaderboard-friend-persona-{name}.png"))
    page.set_viewport_size({"width": 1366, "height": 768})
    play.click()
    page.wait_for_url(f"**/?game={game.pk}*")
    assert page.input_value("#id_seat_2") == f"player:{masked.pk}"
    page.click("[data-testid=play-new]")
    page.wait_for_url("**/matches/*/")
    match = Match.objects.order_by("-pk").first()  # (finish() made the rated one)
    assert match.status == Match.Status.INVITED
    assert match.seats.get(index=1).player == masked
