"""Leaderboard, stats, friends, evolution and tournament pages in headless Chromium:
every clickable element and who sees which button. A real Celery worker (on the same
broker as the daphne server) runs the tournament started from the leaderboard."""

from __future__ import annotations

import subprocess
import sys

import pytest

from accounts.models import FriendRequest, Player
from accounts.services import random_player, send_friend_request, standard_bots
from leaderboards.models import StandardPlayer, Tournament, Universe
from tests.browser.conftest import screenshot
from tests.conftest import BASE_DIR, child_env, children_database_env, stop, wait_for_line
from tests.leaderboard_helpers import finish
from tests.play_helpers import bot, rule_set

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(scope="module")
def worker(live_server_url, django_db_blocker, tmp_path_factory):
    """A Celery worker on the broker the daphne server sends to (its default one)."""
    log = tmp_path_factory.mktemp("lb-worker") / "worker.log"
    command = [
        sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
        "--loglevel=INFO", f"--logfile={log}", "--without-gossip", "--without-mingle",
        "--without-heartbeat", "-n", "browser-lb@%h",
    ]  # fmt: skip
    with django_db_blocker.unblock():
        env = child_env(**children_database_env())
    process = subprocess.Popen(
        command, cwd=BASE_DIR, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        wait_for_line(log, " ready.", process, timeout=30)
        yield
    finally:
        stop(process)


def board(ttt, people=()):
    """Three bots on a ladder, Random beaten, an SP, and the given players rated."""
    a, b, c = bot("Alpha", "medium"), bot("Beta", "easy"), bot("Gamma", "easy")
    rnd = random_player()
    for winner, loser in [(a, b), (a, c), (b, c), (a, rnd), (b, rnd), (c, rnd)]:
        finish(ttt, [winner, loser], ["win", "loss"])
    for p in people:
        finish(ttt, [p, c], ["win", "loss"])
    StandardPlayer.objects.create(rule_set=ttt, player=c)
    return a, b, c, rnd


def row(page, name: str):
    return page.locator("[data-testid=row]", has=page.locator("[data-testid=name]", has_text=name))


def test_leaderboard_rows_and_buttons_for_a_creator(person):
    ttt = rule_set("Tic-Tac-Toe")
    page = person("carla")
    friend_user = person("otto").user
    stranger = person("stan").user
    send_friend_request(page.user, friend_user)
    send_friend_request(friend_user, page.user)
    a, b, c, rnd = board(ttt, [page.user.player, friend_user.player, stranger.player])
    page.goto(f"/games/{ttt.pk}/leaderboard/")
    screenshot(page, "leaderboard-creator")
    # seven rated players and, in the three rows left, the first standard bots (AI)
    assert page.locator("[data-testid=row]").count() == 10
    assert page.locator("[data-testid=ai-badge]").count() == 7  # 3 bots, Random, 3 standard
    assert row(page, "Alpha").locator("[data-testid=rank]").inner_text() == "1"
    assert "*Gamma" in row(page, "Gamma").inner_text() and "SP" in row(page, "Gamma").inner_text()
    assert "(" in row(page, "Alpha").locator("[data-testid=rating]").inner_text()  # held time
    # visibility: no Benchmark for a Creator, no universe combobox with one universe
    assert page.locator("[data-testid=benchmark]").count() == 0
    assert page.locator("[data-testid=universe]").count() == 0
    for name in ("Alpha", "Random", "otto", "carla"):
        assert row(page, name).locator("[data-testid=play-new-game]").count() == 1, name
        assert row(page, name).locator("[data-testid=add-friend]").count() == 0, name
    assert row(page, "stan").locator("[data-testid=add-friend]").count() == 1
    assert row(page, "stan").locator("[data-testid=play-new-game]").count() == 0
    for name in ("Alpha", "Beta", "Random"):
        assert row(page, name).locator("[data-testid=select]").count() == 1
    for name in ("otto", "stan", "carla"):
        assert row(page, name).locator("[data-testid=select]").count() == 0
    # Show Player: the Stats tab of that player
    row(page, "Beta").locator("[data-testid=show-player]").click()
    page.wait_for_url(f"**/players/{b.pk}/?tab=stats")
    assert page.locator("[data-testid=stats-row]").count() == 1
    page.go_back()
    # Play New Game: the home page with the game and the player prefilled
    row(page, "Alpha").locator("[data-testid=play-new-game]").click()
    page.wait_for_url("**/?game=*")
    assert page.input_value("[data-testid=start-game]") == str(ttt.pk)
    assert page.input_value("[data-testid=seat-2]") == f"player:{a.pk}"
    page.go_back()
    row(page, "otto").locator("[data-testid=play-new-game]").click()
    assert page.input_value("[data-testid=seat-2]") == f"player:{friend_user.player.pk}"
    page.go_back()
    # Add to Friends: a request to stan, back on the leaderboard
    row(page, "stan").locator("[data-testid=add-friend]").click()
    page.wait_for_url(f"**/games/{ttt.pk}/leaderboard/")
    assert "Friend request sent to stan" in page.content()
    assert FriendRequest.objects.filter(sender=page.user, recipient=stranger).exists()


def test_add_player_universe_and_show_evolution(person):
    ttt = rule_set("Tic-Tac-Toe")
    page = person("carla")
    bots = [bot(f"Bot{i:02d}", "easy") for i in range(12)]
    for i in range(12):
        for j in range(i + 1, min(i + 3, 12)):
            finish(ttt, [bots[i], bots[j]], ["win", "loss"])
    lab = Universe.objects.create(slug="lab", name="Lab")
    persona = Player.objects.create(kind="persona", name="Alter", owner=page.user)
    lab.members.add(persona)
    finish(ttt, [persona, bot("Labbot", "easy")], ["win", "loss"], universe=lab)
    page.goto(f"/games/{ttt.pk}/leaderboard/")
    assert row(page, "Bot11").count() == 0
    page.fill("[data-testid=player-combobox]", "Bot11")
    page.click("[data-testid=add-player]")
    page.wait_for_url(lambda url: "player=Bot11" in url)
    assert row(page, "Bot11").count() == 1 and page.locator("[data-testid=row]").count() == 10
    page.fill("[data-testid=player-combobox]", "nobody")
    page.click("[data-testid=add-player]")
    assert "Nobody called" in page.content() and row(page, "Bot11").count() == 1
    # Universe combobox: shown (the user has a persona in Lab); choosing reloads the board
    page.select_option("[data-testid=universe]", "lab")
    page.wait_for_url(lambda url: "universe=lab" in url)
    assert row(page, "Labbot").count() == 1 and row(page, "Bot00").count() == 0
    page.select_option("[data-testid=universe]", "main")
    page.wait_for_url(lambda url: "universe=main" in url)
    # checkboxes + Show Evolution: one curve per checked player
    page.locator("[data-testid=select]").first.uncheck()
    checked = page.locator("[data-testid=select]:checked").count()
    page.click("[data-testid=show-evolution]")
    page.wait_for_url(f"**/games/{ttt.pk}/evolution/**")
    assert page.locator("[data-testid=curve]").count() == checked - 1  # Random: no history here
    screenshot(page, "evolution")


def test_evolution_add_and_delete_curves(person):
    ttt = rule_set("Tic-Tac-Toe")
    page = person("carla")
    a, b, c, rnd = board(ttt)
    page.goto(f"/games/{ttt.pk}/evolution/?players={a.pk}")
    assert page.locator("[data-testid=curve]").count() == 1
    page.fill("[data-testid=curve-player]", "Beta")
    page.click("[data-testid=add-curve]")
    page.wait_for_url(lambda url: "add=Beta" in url)
    assert page.locator("[data-testid=curve]").count() == 2
    page.fill("[data-testid=curve-player]", "Gamma")
    page.click("[data-testid=add-curve]")
    assert page.locator("[data-testid=curve]").count() == 3
    # the Measure select redraws the same curves at once; deleting a curve keeps it
    page.select_option("[data-testid=measure]", "score")
    page.wait_for_url(lambda url: "measure=score" in url)
    assert page.locator("[data-testid=curve]").count() == 3
    assert "Score" in page.get_by_test_id("chart-canvas").get_attribute("aria-label")
    page.locator("[data-testid=legend-item]", has_text="Alpha").locator(
        "[data-testid=delete-curve]"
    ).click()
    page.wait_for_url(lambda url: "measure=score" in url and "add=" not in url)
    legend = page.locator("[data-testid=legend]").inner_text()
    assert "Alpha" not in legend and "Beta" in legend and "Gamma" in legend
    assert page.locator("[data-testid=measure]").input_value() == "score"
    for _ in range(2):
        page.locator("[data-testid=delete-curve]").first.click()
        page.wait_for_load_state()
    assert page.locator("[data-testid=chart-empty]").count() == 1
    page.click("[data-testid=back-to-leaderboard]")
    page.wait_for_url(f"**/games/{ttt.pk}/leaderboard/")


def test_stats_tab_buttons(person):
    ttt = rule_set("Tic-Tac-Toe")
    page = person("carla")
    board(ttt, [page.user.player])
    page.goto(page.user.player.get_absolute_url() + "?tab=stats")
    stats = page.locator("[data-testid=stats-row]")
    assert stats.count() == 1 and "100%" in stats.locator("[data-testid=won]").inner_text()
    stats.locator("[data-testid=stats-evolution]").click()
    page.wait_for_url(f"**/games/{ttt.pk}/evolution/**")
    assert page.locator("[data-testid=curve]").count() == 1
    page.go_back()
    page.locator("[data-testid=stats-leaderboard]").click()
    page.wait_for_url(f"**/games/{ttt.pk}/leaderboard/**")
    assert row(page, "carla").count() == 1
    page.go_back()
    stats.get_by_role("link", name="Tic-Tac-Toe", exact=True).click()
    page.wait_for_url(f"**/games/{ttt.pk}/")
    # the stats of someone who never played
    page.goto(person("newbie").user.player.get_absolute_url())
    assert page.locator("[data-testid=no-stats]").count() == 1


def test_friends_page_every_button(person):
    page = person("carla")
    otto, eve, mal = person("otto").user, person("eve").user, person("mal").user
    page.goto("/friends/")
    assert page.locator("[data-testid=no-friends]").count() == 1
    page.fill("[data-testid=invite-name]", "otto")
    page.click("[data-testid=invite]")
    assert "Friend request sent to otto" in page.content()
    page.locator("[data-testid=sent-request]", has_text="otto").locator(
        "[data-testid=withdraw]"
    ).click()
    page.wait_for_load_state()
    assert page.locator("[data-testid=sent-request]").count() == 0
    for sender in (otto, eve, mal):
        send_friend_request(sender, page.user)
    page.goto("/friends/")
    assert page.locator("[data-testid=incoming-request]").count() == 3

    def answer(name: str, button: str) -> None:
        page.locator("[data-testid=incoming-request]", has_text=name).locator(
            f"[data-testid={button}]"
        ).click()
        page.wait_for_load_state()

    answer("otto", "accept")
    answer("eve", "decline")
    answer("mal", "ban")
    assert page.locator("[data-testid=friend]").count() == 1
    assert page.locator("[data-testid=banned-user]", has_text="mal").count() == 1
    friend = page.locator("[data-testid=friend]", has_text="otto")
    friend.locator("[data-testid=play-friend]").click()
    page.wait_for_url("**/play/?seat2=*")
    assert page.input_value("[data-testid=seat-2]") == f"player:{otto.player.pk}"
    page.goto("/friends/")
    page.locator("[data-testid=friend]").locator("[data-testid=show-player]").click()
    page.wait_for_url(f"**/players/{otto.player.pk}/?tab=stats")
    page.goto("/friends/")
    page.locator("[data-testid=banned-user]").locator("[data-testid=unban]").click()
    page.wait_for_load_state()
    assert page.locator("[data-testid=banned-user]").count() == 0
    page.locator("[data-testid=friend]").locator("[data-testid=remove]").click()
    page.wait_for_load_state()
    assert page.locator("[data-testid=no-friends]").count() == 1
    page.click("[data-testid=nav-friends]")
    page.wait_for_url("**/friends/")


def test_benchmark_runs_live_with_a_progress_bar(person, worker):
    ttt = rule_set("Tic-Tac-Toe")
    page = person("tina", "trainer")
    a, b, c, rnd = board(ttt)
    page.goto(f"/games/{ttt.pk}/leaderboard/")
    assert page.locator("[data-testid=benchmark]").count() == 1
    for name in ("Alpha", "Beta", "Random"):
        row(page, name).locator("[data-testid=select]").check()
    for name in ("Gamma", *(p.name for p in standard_bots())):  # ranked: checked
        row(page, name).locator("[data-testid=select]").uncheck()
    page.click("[data-testid=benchmark]")
    assert "300 games" in page.inner_text("[data-testid=benchmark-total]")
    assert "csrfmiddlewaretoken" not in page.url
    page.click("[data-testid=confirm-benchmark]")
    page.wait_for_url("**/tournaments/*/")
    assert "/ 300 games" in page.inner_text("[data-testid=progress-section]")
    # the bar moves while the worker plays, then the page reloads with the results
    page.wait_for_selector("[data-testid=results]", timeout=120_000)
    screenshot(page, "tournament-done")
    assert page.get_attribute("[data-testid=progress]", "aria-valuenow") == "100"
    assert page.inner_text("[data-testid=games]") == "300"
    assert page.locator("[data-testid=player-result]").count() == 3
    t = Tournament.objects.get()
    assert t.status == "done" and t.kind == "S"
    page.locator("[data-testid=player-result]", has_text="Alpha").locator("a").click()
    page.wait_for_url(f"**/players/{a.pk}/?tab=stats")
    page.go_back()
    page.locator("[data-testid=progress-section]").wait_for()
    # the plan's game (each set names its game too: a plan may mix games)
    page.get_by_test_id("plan-game").get_by_text("Tic-Tac-Toe", exact=True).click()
    page.wait_for_url(f"**/games/{ttt.pk}/tournaments/")
    page.go_back()
    page.click("[data-testid=to-leaderboard]")
    page.wait_for_url(f"**/games/{ttt.pk}/leaderboard/**")
    # the game's tabs: Setup & Rules and back
    page.get_by_role("tab", name="Setup & Rules").click()
    page.wait_for_url(f"**/games/{ttt.pk}/")
    page.click("[data-testid=tab-leaderboard]")
    page.wait_for_url(f"**/games/{ttt.pk}/leaderboard/")
    # the Tournaments tab lists it; sorting and the trophy button work
    page.click("[data-testid=tab-tournaments]")
    page.wait_for_url(f"**/games/{ttt.pk}/tournaments/")
    for key in ("name", "created", "kind", "total_games", "average_moves", "draw_rate"):
        page.click(f"[data-testid=sort-{key}]")
        page.wait_for_url(lambda url, key=key: f"sort={key}" in url)
    page.click("[data-testid=open-tournament]")
    page.wait_for_url(f"**/tournaments/{t.pk}/")


def test_tournament_factory_buttons(person):
    ttt = rule_set("Tic-Tac-Toe")
    page = person("tina", "trainer")
    a, b = bot("Alpha", "easy"), bot("Beta", "easy")
    page.goto(f"/games/{ttt.pk}/tournaments/")
    page.click("[data-testid=new-tournament]")
    page.wait_for_url("**/tournaments/?game=*")
    sets = page.locator("[data-testid=plan-set]")
    assert sets.nth(0).is_visible() and not sets.nth(1).is_visible()
    page.click("[data-testid=add-set]")
    assert sets.nth(1).is_visible()
    sets.nth(1).locator("[data-testid=set-games]").fill("5")
    sets.nth(1).locator("[data-testid=delete-set]").click()
    assert not sets.nth(1).is_visible()
    page.fill("[data-testid=plan-name]", "Hand-made")
    first = sets.nth(0)
    first.locator("[data-testid=set-games]").fill("4")
    first.locator("[data-testid=set-seat]").nth(0).select_option(str(a.pk))
    page.click("[data-testid=plan-start]")
    assert "choose 2 players" in page.content()
    sets = page.locator("[data-testid=plan-set]")
    sets.nth(0).locator("[data-testid=set-seat]").nth(1).select_option(str(b.pk))
    page.click("[data-testid=plan-start]")
    page.wait_for_url("**/tournaments/*/")
    assert page.inner_text("[data-testid=tournament-name]") == "Hand-made"


def test_who_sees_the_benchmark_and_factory(person, anonymous):
    ttt = rule_set("Tic-Tac-Toe")
    board(ttt)
    for role, visible in (("creator", 0), ("admin", 1)):
        page = person(f"user-{role}", role)
        page.goto(f"/games/{ttt.pk}/leaderboard/")
        assert page.locator("[data-testid=benchmark]").count() == visible
        page.goto(f"/games/{ttt.pk}/tournaments/")
        assert page.locator("[data-testid=new-tournament]").count() == visible
    anonymous.goto(f"/games/{ttt.pk}/leaderboard/")
    assert anonymous.locator("[data-testid=benchmark]").count() == 0
    assert anonymous.locator("[data-testid=show-evolution]").count() == 1
    assert anonymous.locator("[data-testid=nav-friends]").count() == 0


def test_favouritism_tab(person):
    ttt, c4 = rule_set("Tic-Tac-Toe"), rule_set("Connect4")
    page = person("carla", width=390, height=844)  # a phone: the table scrolls sideways
    me, kind, tough = bot("Me"), bot("Kind"), bot("Tough")
    for _ in range(2):
        finish(ttt, [me, kind], ["win", "loss"])
    finish(ttt, [me, tough], ["loss", "win"])
    finish(c4, [me, tough], ["win", "loss"])
    page.goto(me.get_absolute_url())
    page.click("text=Favouritism")
    page.wait_for_url(lambda url: "tab=favouritism" in url)
    rows = page.locator("[data-testid=favour-row]")
    assert rows.count() == 2 and "Kind" in rows.first.inner_text()
    screenshot(page, "favouritism")
    page.select_option("[data-testid=favour-game]", f"{c4.pk}|main")
    page.wait_for_url(lambda url: f"game={c4.pk}" in url)
    assert rows.count() == 1 and "Tough" in rows.first.inner_text()
    page.click("[data-testid=favour-show-player]")
    page.wait_for_url(f"**{tough.get_absolute_url()}")
