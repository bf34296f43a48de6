"""Plans that mix games (issue 34): each set plays its own rule set, chosen per set on the
plan page (bounded, validated, a clear message); copies and added sets keep their games;
a mixed plan played here rates each game's matches in that game's leaderboard. The
game's Tournaments tab (the 20 most recent in the universe, sortable), the Study button
of an unrun plan and a study that starts it, and the players a plan may hold."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.urls import reverse

from accounts.models import Player
from accounts.services import random_player
from leaderboards.models import Rating, Tournament, TournamentBatch, TournamentSet, Universe
from leaderboards.services import default_universe
from play.models import Match
from tests.ai_helpers import make_ai
from tests.ownbot_helpers import own_bot
from tests.play_helpers import bot, rule_set
from tournaments import plan_edits as edits
from tournaments import reports
from tournaments import services as tournaments
from tournaments.forms import PlanForm

pytestmark = pytest.mark.django_db


@pytest.fixture
def games(db):
    return rule_set("Tic-Tac-Toe"), rule_set("3on5sq"), rule_set("3P-Notakto")


def mixed(games, trainer, run=False, name="Mix"):
    ttt, sq, _ = games
    a, b = bot("A", "easy"), random_player()
    sets = [([a.pk, b.pk], 10, ttt), ([a.pk, b.pk], 10, sq)]
    plan = tournaments.Plan(ttt, default_universe(), name, sets, "O", "by hand")
    return tournaments.create_from_plan(plan, trainer, run=run)


def act(client, t, **data):
    return client.post(reverse("leaderboards:plan_action", args=[t.pk]), data, follow=True)


def text(response) -> str:
    return response.content.decode()


def set_games(t) -> list[str]:
    return list(t.sets.order_by("order").values_list("rule_set__name", flat=True))


def test_a_plan_keeps_each_sets_game(games, trainer):
    t = mixed(games, trainer)
    assert set_games(t) == ["Tic-Tac-Toe", "3on5sq"] and t.rule_set == games[0]
    one = tournaments.Plan(games[1], default_universe(), "One", [([random_player().pk] * 2, 5)])
    plain = tournaments.create_from_plan(one, trainer, run=False)
    assert set_games(plain) == ["3on5sq"] and plain.rule_set == games[1]


def test_every_set_seats_its_own_games_players(games, trainer):
    ttt, _, notakto = games
    r = random_player().pk
    plan = tournaments.Plan(ttt, default_universe(), "Bad", [([r, r], 5), ([r, r], 5, notakto)])
    with pytest.raises(tournaments.TournamentError, match="Set 2 plays 3P-Notakto, which seats 3"):
        tournaments.create_from_plan(plan, trainer, run=False)
    assert not Tournament.objects.filter(name="Bad").exists()


def test_migration_fills_the_sets_game_from_the_tournament(games, trainer):
    t = mixed(games, trainer)
    TournamentSet.objects.filter(tournament=t).update(rule_set=None)  # as before 0007
    migration = importlib.import_module("leaderboards.migrations.0007_set_rule_set")
    migration.fill(apps, None)
    assert set_games(t) == ["Tic-Tac-Toe", "Tic-Tac-Toe"]


def test_the_plan_page_chooses_each_sets_game(client, games, trainer):
    ttt, sq, notakto = games
    t = mixed(games, trainer)
    client.force_login(trainer)
    page = text(client.get(t.get_absolute_url()))
    assert page.count('data-testid="plan-set-game"') == 2
    assert f'<option value="{sq.pk}" selected>' in page
    page = text(act(client, t, action="set_game", set="0", game=str(sq.pk)))
    assert "The set plays 3on5sq." in page and set_games(t) == ["3on5sq", "3on5sq"]
    t.refresh_from_db()
    assert t.kind == "O" and t.rule_set == sq  # the plan's game: its first set's
    assert "which seats 3" not in page
    page = text(act(client, t, action="set_game", set="1", game=str(notakto.pk)))
    assert "3P-Notakto seats 3 players and this set has 2" in page
    assert "Choose a game from the list" in text(act(client, t, action="set_game", set="1"))
    assert "Choose a game from the list" in text(
        act(client, t, action="set_game", set="1", game="99999999")
    )
    assert "Say which set" in text(act(client, t, action="set_game", set="x", game=str(ttt.pk)))
    assert "not in this plan" in text(act(client, t, action="set_game", set="7", game=str(ttt.pk)))
    assert set_games(t) == ["3on5sq", "3on5sq"]


def test_choosing_a_game_makes_a_benchmark_other_and_says_why(client, games, trainer):
    ttt, sq, _ = games
    r = random_player().pk
    plan = tournaments.Plan(ttt, default_universe(), "B", [([r, r], 5)], "B", "from a board")
    t = tournaments.create_from_plan(plan, trainer, run=False)
    client.force_login(trainer)
    act(client, t, action="set_game", set="0", game=str(ttt.pk))  # the same game: no edit
    t.refresh_from_db()
    assert t.kind == "B"
    page = text(act(client, t, action="set_game", set="0", game=str(sq.pk)))
    assert "now Other" in page
    t.refresh_from_db()
    assert t.kind == "O" and "was Benchmark" in t.kind_reason


def test_a_hidden_game_cannot_be_chosen_nor_seen(client, games, trainer, creator):
    ttt, sq, _ = games
    t = mixed(games, trainer)
    sq.hidden = True
    sq.save(update_fields=["hidden"])
    client.force_login(trainer)
    assert client.get(t.get_absolute_url()).status_code == 404  # one of its games is hidden
    r = random_player().pk
    plan = tournaments.Plan(ttt, default_universe(), "P", [([r, r], 5)])
    other = tournaments.create_from_plan(plan, trainer, run=False)
    page = text(act(client, other, action="set_game", set="0", game=str(sq.pk)))
    assert "Choose a game from the list" in page and set_games(other) == ["Tic-Tac-Toe"]
    page = text(client.get(other.get_absolute_url()))
    sources = page[page.index('id="plan-source"') :].split("</select>")[0]
    assert f'value="{t.pk}"' not in sources and f'value="{other.pk}"' in sources


def test_only_its_trainer_chooses_a_sets_game(client, games, trainer, make_user):
    t = mixed(games, trainer)
    client.force_login(make_user("tom", "trainer"))
    page = text(act(client, t, action="set_game", set="0", game=str(games[1].pk)))
    assert "Only the Trainer who made this plan" in page and set_games(t)[0] == "Tic-Tac-Toe"
    assert 'data-testid="plan-set-game"' not in text(client.get(t.get_absolute_url()))


def test_copies_and_added_sets_keep_their_games(client, games, trainer):
    ttt, sq, _ = games
    t = mixed(games, trainer)
    copy = edits.copy_plan(t.pk, trainer)
    assert set_games(copy) == ["Tic-Tac-Toe", "3on5sq"]
    r = random_player().pk
    plan = tournaments.Plan(sq, default_universe(), "Sq", [([r, r], 5)])
    other = tournaments.create_from_plan(plan, trainer, run=False)
    edits.add_sets_of(other.pk, t.pk, trainer)
    assert set_games(other) == ["3on5sq", "Tic-Tac-Toe", "3on5sq"]
    other.refresh_from_db()
    assert other.total_games == 25 and other.kind == "O"


def test_a_mixed_plan_rates_each_game_in_its_own_leaderboard(games, trainer, no_broker):
    ttt, sq, _ = games
    t = mixed(games, trainer, run=True)
    first = TournamentBatch.objects.filter(tournament=t).order_by("number").first()
    tournaments.run_batches(first.pk)
    t.refresh_from_db()
    if t.status != Tournament.Status.DONE:
        tournaments.finalise(t.pk)
        t.refresh_from_db()
    assert t.status == Tournament.Status.DONE and t.results["games"] == 20
    per_game = {
        rs.name: Match.objects.filter(tournament=t, rule_set=rs).count() for rs in (ttt, sq)
    }
    assert per_game == {"Tic-Tac-Toe": 10, "3on5sq": 10}
    a = Player.objects.get(name="A")
    for rs in (ttt, sq):
        rating = Rating.objects.get(player=a, rule_set=rs, universe=default_universe())
        assert rating.matches == 10
    rows = reports.set_rows(t)
    assert [(r["game"], r["written"]) for r in rows] == [("Tic-Tac-Toe", 10), ("3on5sq", 10)]


def finished(t, moves, draw_rate, days=0):
    from datetime import timedelta

    from django.utils import timezone

    Tournament.objects.filter(pk=t.pk).update(
        status="done",
        created=timezone.now() - timedelta(days=days),
        results={"average_moves": moves, "draw_rate": draw_rate, "games": 1},
    )


def test_the_tournaments_tab_lists_the_20_most_recent_in_the_universe(client, games, trainer):
    ttt, sq, _ = games
    r = random_player().pk
    made = []
    for n in range(22):
        plan = tournaments.Plan(ttt, default_universe(), f"T{n:02}", [([r, r], 5)])
        made.append(tournaments.create_from_plan(plan, trainer, run=False))
        finished(made[-1], moves=5 + n % 3, draw_rate=n / 100, days=30 - n)
    elsewhere = Universe.objects.create(name="Lab", slug="lab", created_by=trainer)
    plan = tournaments.Plan(ttt, elsewhere, "Elsewhere", [([r, r], 5)])
    tournaments.create_from_plan(plan, trainer, run=False)
    rows = reports.recent(ttt, default_universe(), [], "-created")
    assert [row["tournament"].name for row in rows] == [f"T{n:02}" for n in range(21, 1, -1)]
    by_draws = reports.recent(ttt, default_universe(), [], "draw_rate")
    assert [row["draw_rate"] for row in by_draws] == sorted(n / 100 for n in range(2, 22))
    by_length = reports.recent(ttt, default_universe(), [], "-average_moves")
    assert [row["average_moves"] for row in by_length][:7] == [7] * 7
    page = text(client.get(reverse("leaderboards:game_tournaments", args=[ttt.pk])))
    assert page.count('data-testid="tournament-row"') == 20 and "Elsewhere" not in page
    assert "T01" not in page and page.index("T21") < page.index("T20")
    junk = client.get(reverse("leaderboards:game_tournaments", args=[ttt.pk]), {"sort": "x" * 99})
    assert junk.status_code == 200 and text(junk).index("T21") < text(junk).index("T20")


def test_a_mixed_plan_shows_in_each_of_its_games_tabs(client, games, trainer):
    ttt, sq, _ = games
    t = mixed(games, trainer)
    for rs in (ttt, sq):
        page = text(client.get(reverse("leaderboards:game_tournaments", args=[rs.pk])))
        assert t.name in page


def test_an_unrun_plan_shows_study_and_a_study_starts_it(
    client, games, trainer, no_broker, django_capture_on_commit_callbacks
):
    from aiplayers import curriculum
    from aiplayers.study import run_study

    ai = make_ai(trainer, algorithm="naive_bayes")
    ttt = games[0]
    plan = tournaments.Plan(
        ttt, default_universe(), "Lesson", [([ai.player_id, random_player().pk], 10)]
    )
    t = tournaments.create_from_plan(plan, trainer, run=False)
    client.force_login(trainer)
    page = text(client.get(t.get_absolute_url()))
    assert 'data-testid="plan-study"' in page and 'data-testid="study"' in page
    curriculum.add_tournament(ai, trainer, t)
    page = text(act(client, t, action="start"))  # its trainer: the AI is studying it
    assert "still studying" in page
    with django_capture_on_commit_callbacks(execute=True):
        assert run_study(ai.pk) == "waiting"  # it started the plan, and waits for its games
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING
    assert [s[0] for s in no_broker].count("run_batch") >= 1


def test_a_study_that_cannot_start_its_plan_says_why(games, trainer, no_broker):
    from aiplayers import curriculum
    from aiplayers.models import AIPlayer
    from aiplayers.study import run_study

    ai = make_ai(trainer, algorithm="naive_bayes")
    t = mixed(games, trainer)
    TournamentSet.objects.filter(tournament=t).delete()  # a plan with no sets left
    curriculum.add_tournament(ai, trainer, t)
    assert run_study(ai.pk) == "waiting"
    ai.refresh_from_db()
    assert ai.study == AIPlayer.Study.WAITING and "at least one set" in ai.study_note
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.PLANNED


def test_plans_hold_ai_players_and_own_bots(games, trainer):
    ttt = games[0]
    ai = make_ai(trainer, name="Brain", algorithm="naive_bayes")
    mine, _token = own_bot(trainer, "Mine")
    hard = bot("Hard", "hard")
    form = PlanForm(user=trainer)
    offered = {value for value, _ in form.fields["set1_seat1"].choices}
    for p in (ai.player, mine, random_player(), hard):
        assert str(p.pk) in offered
    easy = bot()
    sets = [([ai.player_id, mine.pk], 5), ([mine.pk, easy.pk], 5)]
    plan = tournaments.Plan(ttt, default_universe(), "Own", sets)
    t = tournaments.create_from_plan(plan, trainer, run=False)
    assert list(t.sets.values_list("players", flat=True)) == [list(p) for p, _ in sets]


def test_the_factory_chooses_a_game_per_set(client, games, trainer):
    ttt, sq, notakto = games
    a, b, r = bot("A"), bot("B"), random_player()
    client.force_login(trainer)
    data = {"name": "Mix", "game": ttt.pk, "universe": "main", "action": "save",
            "set1_games": 4, "set1_seat1": a.pk, "set1_seat2": b.pk,
            "set2_games": 2, "set2_seat1": b.pk, "set2_seat2": r.pk}  # fmt: skip
    page = client.get(reverse("leaderboards:factory")).content.decode()
    assert page.count('data-testid="set-game"') == 8 and ">As above</option>" in page
    wrong = client.post(reverse("leaderboards:factory"), {**data, "set2_game": notakto.pk})
    assert wrong.status_code == 400
    assert "Set 2: choose 3 players and a number of games for 3P-Notakto" in text(wrong)
    junk = client.post(reverse("leaderboards:factory"), {**data, "set2_game": "x" * 40})
    assert junk.status_code == 400 and "Set 2: choose a game from the list" in text(junk)
    assert not Tournament.objects.exists()
    three = {**data, "set2_game": notakto.pk, "set2_seat3": a.pk}
    response = client.post(reverse("leaderboards:factory"), {**three, "set1_game": sq.pk})
    t = Tournament.objects.get()
    assert response.url == t.get_absolute_url() and t.status == "planned"
    assert set_games(t) == ["3on5sq", "3P-Notakto"] and t.rule_set == sq


def test_the_api_hides_a_plan_with_a_hidden_games_set(games, trainer):
    from api.reads import tournament, tournament_detail

    t = mixed(games, trainer)
    detail = tournament_detail(tournament(trainer, t.pk))
    assert [s["game"] for s in detail["sets"]] == [games[0].pk, games[1].pk]
    assert detail["status"] == "planned" and detail["kind"] == "other"
    games[1].hidden = True
    games[1].save(update_fields=["hidden"])
    assert tournament(trainer, t.pk) is None
