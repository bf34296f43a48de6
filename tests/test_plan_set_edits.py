"""The plan page edits a set's number of games and players (issue 34, the mockup's
TournamentFactory): bounded and checked whole before anything is written, a clear message
for each mistake, a Benchmark or Social plan edited by hand becomes Other and says why."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import Player
from accounts.services import random_player
from leaderboards.services import default_universe
from tests.play_helpers import bot, rule_set
from tournaments import plan_edits as edits
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db


@pytest.fixture
def plan(db, trainer):
    ttt = rule_set("Tic-Tac-Toe")
    a, r = bot("A", "easy"), random_player()
    p = tournaments.Plan(ttt, default_universe(), "B", [([a.pk, r.pk], 10)], "B", "from a board")
    return tournaments.create_from_plan(p, trainer, run=False)


def post(client, t, **data):
    data = {"action": "edit_set", "set": "0", **data}
    url = reverse("leaderboards:plan_action", args=[t.pk])
    return client.post(url, data, follow=True).content.decode()


def the_set(t):
    s = t.sets.get(order=0)
    return s.games, s.players, s.rule_set.name


def test_the_set_form_changes_games_and_players_and_makes_the_plan_other(client, plan, trainer):
    ttt, (a, r) = plan.rule_set, plan.sets.get().players
    medium = bot("M", "medium")
    client.force_login(trainer)
    page = client.get(plan.get_absolute_url()).content.decode()
    assert page.count('data-testid="plan-set-seat"') == 2 and 'name="games" value="10"' in page
    assert f'<option value="{medium.pk}">' in page  # the bots a plan may hold are offered
    # The same values: nothing changes, the plan stays a Benchmark.
    page = post(client, plan, game=ttt.pk, games="10", player=[a, r])
    assert "Nothing to save" in page
    plan.refresh_from_db()
    assert plan.kind == "B"
    page = post(client, plan, game=ttt.pk, games="25", player=[medium.pk, r])
    assert "Set saved: 25 games of Tic-Tac-Toe. The plan is now Other" in page
    plan.refresh_from_db()
    assert the_set(plan) == (25, [medium.pk, r], "Tic-Tac-Toe")
    assert plan.kind == "O" and plan.kind_reason == "edited by hand: was Benchmark, now Other"
    assert (
        plan.total_games == 25
        and "25 games in 1 set" in client.get(plan.get_absolute_url()).content.decode()
    )


@pytest.mark.parametrize(
    "games, players, message",
    [
        ("0", "ok", "a whole number from 1 to 1000"),
        ("1001", "ok", "a whole number from 1 to 1000"),
        ("ten", "ok", "a whole number from 1 to 1000"),
        ("99999999999999999999999", "ok", "a whole number from 1 to 1000"),
        ("10", "one", "Tic-Tac-Toe seats 2 players and this set has 1"),
        ("10", "three", "Tic-Tac-Toe seats 2 players and this set has 3"),
        ("10", "junk", "Choose a player from the list for every seat"),
        ("10", "missing", "There is no player"),
        ("10", "human", "is not a bot"),
    ],
)
def test_a_bad_set_is_refused_with_a_message_and_nothing_written(
    client, plan, trainer, django_user_model, games, players, message
):
    ttt, (a, r) = plan.rule_set, plan.sets.get().players
    human = Player.objects.filter(kind=Player.Kind.HUMAN).first()
    if human is None:
        django_user_model.objects.create_user("hugh", password=None)
        human = Player.objects.filter(kind=Player.Kind.HUMAN).first()
    chosen = {
        "ok": [a, r], "one": [a], "three": [a, r, r], "junk": [a, "x"],
        "missing": [a, 99999999], "human": [a, human.pk],
    }[players]  # fmt: skip
    client.force_login(trainer)
    page = post(client, plan, game=ttt.pk, games=games, player=chosen)
    assert message in page
    plan.refresh_from_db()
    assert the_set(plan) == (10, [a, r], "Tic-Tac-Toe") and plan.kind == "B"


def test_only_its_trainer_edits_and_only_before_it_runs(client, plan, trainer, django_user_model):
    ttt, (a, r) = plan.rule_set, plan.sets.get().players
    other = django_user_model.objects.create_user("otto", password=None)
    other.role = "trainer"
    other.save()
    client.force_login(other)
    assert "Only the Trainer who made this plan" in post(
        client, plan, game=ttt.pk, games="5", player=[a, r]
    )
    edits.start_plan(plan.pk, trainer)
    with pytest.raises(tournaments.TournamentError, match="has started"):
        edits.edit_set(plan.pk, 0, trainer, ttt, 5, [a, r])
    plan.refresh_from_db()
    assert the_set(plan)[0] == 10
