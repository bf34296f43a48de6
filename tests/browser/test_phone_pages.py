"""Every page fits a phone's width: nothing makes the whole page scroll sideways (wide
tables and boards scroll inside their own box)."""

from __future__ import annotations

import pytest

from accounts.personas import create_persona
from leaderboards.services import default_universe
from tests.leaderboard_helpers import finish
from tests.play_helpers import bot, rule_set, start
from tournaments import services as tournaments

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = 360  # a small phone's CSS width


def test_no_page_is_wider_than_a_phone(person, monkeypatch):
    from tournaments import tasks

    monkeypatch.setattr(tasks.run_batch, "delay", lambda *a: None)  # no worker needed here
    monkeypatch.setattr(tasks.watchdog, "apply_async", lambda *a, **k: None)
    ttt, c4 = rule_set("Tic-Tac-Toe"), rule_set("Connect4")
    page = person("carla", role="trainer", width=PHONE, height=740)
    me = page.user.player
    create_persona(page.user, "A persona with a rather long name")
    easy, hard = bot("Easy-bot-with-a-long-name"), bot("Hard")
    for results in (["win", "loss"], ["draw", "draw"], ["loss", "win"]):
        finish(ttt, [me, easy], results)
        finish(c4, [easy, hard], results)
    live = start(c4, page.user, page.user, easy)
    over = finish(ttt, [me, hard], ["win", "loss"])
    tour = tournaments.create_benchmark(ttt, default_universe(), [easy.pk, hard.pk], page.user)
    urls = [
        "/",
        "/games/",
        f"/games/{ttt.pk}/",
        "/games/new/",
        f"/games/{ttt.pk}/leaderboard/",
        f"/games/{ttt.pk}/evolution/?players={me.pk}&players={easy.pk}",
        f"/games/{ttt.pk}/tournaments/",
        "/tournaments/",
        tour.get_absolute_url(),
        me.get_absolute_url() + "?tab=stats",
        me.get_absolute_url() + "?tab=favouritism",
        me.get_absolute_url() + "?tab=creations",
        "/friends/",
        "/personas/",
        "/play/",
        "/matches/",
        live.get_absolute_url(),
        f"/matches/{over.pk}/replay/",
    ]
    wide = {}
    for url in urls:
        page.goto(url)
        page.wait_for_load_state("networkidle")
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > PHONE:
            wide[url] = width
    assert wide == {}
