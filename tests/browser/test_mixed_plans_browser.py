"""Plans mixing games and a game's Tournaments tab in headless Chromium, on a desktop and
a phone: a set's game chosen (and refused, with the reason, when it seats another number
of players), Study on an unrun plan; the tab's universe choice and its sortable columns
(issue 34)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import Player
from accounts.services import random_player
from leaderboards.models import Tournament, Universe
from leaderboards.services import default_universe
from tests.ai_helpers import make_ai
from tests.browser.conftest import screenshot
from tests.play_helpers import bot, rule_set
from tournaments import services as tournaments

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"desktop": (1366, 768), "phone": (390, 844)}


@pytest.mark.parametrize("size", SIZES)
def test_a_sets_game_is_chosen_on_the_plan_page(person, size):
    ttt, sq, notakto = rule_set("Tic-Tac-Toe"), rule_set("3on5sq"), rule_set("3P-Notakto")
    width, height = SIZES[size]
    page = person("tina", "trainer", width=width, height=height)
    ai = make_ai(page.user, name="Tron", algorithm="naive_bayes")
    sets = [([bot("Alpha").pk, random_player().pk], 100), ([ai.player_id, random_player().pk], 50)]
    plan = tournaments.Plan(ttt, default_universe(), "Tron-II", sets, "B", "from a leaderboard")
    t = tournaments.create_from_plan(plan, page.user, run=False)
    page.goto(t.get_absolute_url())
    games = page.locator("[data-testid=plan-set-game]")
    assert games.count() == 2 and games.nth(1).input_value() == str(ttt.pk)
    # The second set plays 3on5sq: the plan mixes games and is now Other
    games.nth(1).select_option(str(sq.pk))
    page.locator("[data-testid=plan-set-game-save]").nth(1).click()
    page.wait_for_selector("text=Set saved: 50 games of 3on5sq. The plan is now Other")
    assert page.locator("[data-testid=kind]").inner_text() == "Other"
    assert page.locator("[data-testid=plan-set-game]").nth(1).input_value() == str(sq.pk)
    assert page.locator("[data-testid=plan-game]").all_inner_texts() == ["Tic-Tac-Toe", "3on5sq"]
    screenshot(page, f"plan-mixed-{size}")
    # A three-seat game for a two-player set: refused, saying why; nothing changes
    page.locator("[data-testid=plan-set-game]").first.select_option(str(notakto.pk))
    page.locator("[data-testid=plan-set-game-save]").first.click()
    page.wait_for_selector("text=3P-Notakto seats 3 players and this set has 2")
    screenshot(page, f"plan-mixed-error-{size}")
    assert list(t.sets.order_by("order").values_list("rule_set_id", flat=True)) == [ttt.pk, sq.pk]
    assert page.locator("[data-testid=plan-set-game]").first.input_value() == str(ttt.pk)
    # The first set: 30 games, Medium in the second seat (the mockup's spinner and seats)
    medium = bot("Medium", "medium")
    page.reload()
    first = page.locator("[data-testid=plan-set]").first
    first.locator("[data-testid=plan-set-games-input]").fill("30")
    first.locator("[data-testid=plan-set-seat]").nth(1).select_option(str(medium.pk))
    first.locator("[data-testid=plan-set-game-save]").click()
    page.wait_for_selector("text=Set saved: 30 games of Tic-Tac-Toe.")
    s = t.sets.get(order=0)
    assert (s.games, s.players[1]) == (30, medium.pk)
    assert (
        page.locator("[data-testid=planned-note]")
        .inner_text()
        .startswith("A plan, not started yet: 80 games")
    )
    # Out of bounds: the browser's own check stops it (min 1), the server names it too
    first = page.locator("[data-testid=plan-set]").first
    first.locator("[data-testid=plan-set-games-input]").fill("0")
    first.locator("[data-testid=plan-set-game-save]").click()
    assert first.locator("[data-testid=plan-set-games-input]").evaluate(
        "e => e.validity.rangeUnderflow"
    )
    assert t.sets.get(order=0).games == 30
    page.reload()
    page.locator("[data-testid=plan-set]").first.scroll_into_view_if_needed()
    screenshot(page, f"plan-set-edit-{size}")
    # Study: the unrun plan goes into the AI's curriculum
    study = page.locator("[data-testid=plan-study] [data-testid=study]")
    assert study.is_visible()
    study.click()
    page.wait_for_selector("text=Tron will study Tron-II")
    assert ai.curriculum.filter(tournament=t).exists()


def made(trainer, rule, universe, name, moves, draws, days, kind="S"):
    r = random_player().pk
    plan = tournaments.Plan(rule, universe, name, [([r, r], 10 + days)], kind)
    t = tournaments.create_from_plan(plan, trainer, run=False)
    Tournament.objects.filter(pk=t.pk).update(
        status="done",
        created=timezone.now() - timedelta(days=days),
        results={"average_moves": moves, "draw_rate": draws, "games": 10},
    )
    return t


@pytest.mark.parametrize("size", SIZES)
def test_the_tournaments_tab_sorts_and_follows_the_universe(person, size):
    ttt = rule_set("Tic-Tac-Toe")
    width, height = SIZES[size]
    page = person("tina", "trainer", width=width, height=height)
    lab = Universe.objects.create(name="Lab", slug="lab")
    lab.members.add(Player.objects.create(kind="persona", owner=page.user, name="Tina at the lab"))
    main = default_universe()
    made(page.user, ttt, main, "Tic-Tac-Toe-Tron", 7.0, 0.27, 3)
    made(page.user, ttt, main, "Tic-Tac-Toe-12-7", 7.7, 0.49, 11, kind="B")
    made(page.user, ttt, main, "Tic-Tac-Toe-Old", 5.5, 0.10, 40, kind="O")
    made(page.user, ttt, lab, "Lab-Only", 6.0, 0.0, 1)
    page.goto(reverse("leaderboards:game_tournaments", args=[ttt.pk]) + "?universe=main")

    def names():
        return page.locator("[data-testid=tournament-row] .game-name").all_inner_texts()

    assert names() == ["Tic-Tac-Toe-Tron", "Tic-Tac-Toe-12-7", "Tic-Tac-Toe-Old"]  # newest first
    screenshot(page, f"game-tournaments-{size}")
    for key, first in (
        ("draw_rate", "Tic-Tac-Toe-Old"),
        ("average_moves", "Tic-Tac-Toe-Old"),
        ("total_games", "Tic-Tac-Toe-Tron"),
        ("kind", "Tic-Tac-Toe-12-7"),  # Benchmark, Other, Standard
        ("created", "Tic-Tac-Toe-Old"),
    ):
        page.locator(f"[data-testid=sort-{key}]").click()
        page.wait_for_url(lambda url, key=key: url.endswith(f"?sort={key}"))
        assert names()[0] == first, key
        page.locator(f"[data-testid=sort-{key}]").click()  # again: the other way
        page.wait_for_url(lambda url, key=key: url.endswith(f"?sort=-{key}"))
        assert names()[-1] == first, key
    page.locator("[data-testid=universe]").select_option("lab")
    page.wait_for_url(lambda url: "universe=lab" in url)
    assert names() == ["Lab-Only"]
    assert "in Lab" in page.locator("[data-testid=recent-note]").inner_text()


@pytest.mark.parametrize("size", SIZES)
def test_a_finished_mixed_tournament_links_each_games_leaderboard(person, size):
    from tests.ai_helpers import played_tournament

    ttt, sq = rule_set("Tic-Tac-Toe"), rule_set("3on5sq")
    width, height = SIZES[size]
    page = person("tina", "trainer", width=width, height=height)
    easy, rnd = bot("Easy"), random_player()
    sets = [([easy.pk, rnd.pk], 10, ttt), ([easy.pk, rnd.pk], 10, sq)]
    t = played_tournament(page.user, sets=sets, game=ttt, name="Mixed")
    page.goto(t.get_absolute_url())
    links = page.locator("[data-testid=set-game]")
    assert links.all_inner_texts() == ["Tic-Tac-Toe", "3on5sq"]
    assert page.locator("[data-testid=games]").inner_text() == "20"
    screenshot(page, f"tournament-mixed-done-{size}")
    links.nth(1).click()
    page.wait_for_selector("[data-testid=tab-leaderboard][aria-selected=true]")
    assert page.url.split("?")[0].endswith(reverse("leaderboards:leaderboard", args=[sq.pk]))
    assert "Easy" in page.content()


@pytest.mark.parametrize("size", SIZES)
def test_the_factory_gives_each_set_its_game(person, size):
    ttt, sq, notakto = rule_set("Tic-Tac-Toe"), rule_set("3on5sq"), rule_set("3P-Notakto")
    width, height = SIZES[size]
    page = person("tina", "trainer", width=width, height=height)
    a, b, r = bot("Alpha", "easy"), bot("Beta", "easy"), random_player()
    page.goto(reverse("leaderboards:factory") + f"?game={ttt.pk}")
    page.fill("[data-testid=plan-name]", "Two games")
    sets = page.locator("[data-testid=plan-set]")
    first = sets.nth(0)
    first.locator("[data-testid=set-games]").fill("4")
    first.locator("[data-testid=set-seat]").nth(0).select_option(str(a.pk))
    first.locator("[data-testid=set-seat]").nth(1).select_option(str(b.pk))
    page.click("[data-testid=add-set]")
    second = sets.nth(1)
    second.locator("[data-testid=set-games]").fill("6")
    second.locator("[data-testid=set-game]").select_option(str(notakto.pk))
    second.locator("[data-testid=set-seat]").nth(0).select_option(str(a.pk))
    second.locator("[data-testid=set-seat]").nth(1).select_option(str(r.pk))
    page.click("[data-testid=plan-save]")
    page.wait_for_selector("text=Set 2: choose 3 players and a number of games for 3P-Notakto")
    screenshot(page, f"factory-set-game-error-{size}")
    assert not Tournament.objects.exists()
    second = page.locator("[data-testid=plan-set]").nth(1)
    assert second.locator("[data-testid=set-game]").input_value() == str(notakto.pk)
    second.locator("[data-testid=set-game]").select_option(str(sq.pk))
    page.click("[data-testid=plan-save]")
    page.wait_for_selector("[data-testid=plan]")
    assert page.locator("[data-testid=plan-game]").all_inner_texts() == ["Tic-Tac-Toe", "3on5sq"]
    t = Tournament.objects.get()
    assert list(t.sets.order_by("order").values_list("rule_set", flat=True)) == [ttt.pk, sq.pk]
