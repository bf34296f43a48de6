"""Unrun tournament plans and their page (issue 34): save without starting, delete a set,
add the sets of a plan (the choice remembered), Copy, Start, Delete; plan types with their
reasons (editing by hand makes Other); Social plans from the Favouritism tab."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.services import random_player
from leaderboards.models import Tournament, TournamentBatch
from leaderboards.services import default_universe
from tests.leaderboard_helpers import finish
from tests.play_helpers import bot, rule_set
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db


@pytest.fixture
def ttt(db):
    return rule_set("Tic-Tac-Toe")


def plan(ttt, trainer, kind="B", reason="made from a leaderboard", sets=None):
    a, b = bot("A"), bot("B")
    sets = sets or [([a.pk, b.pk], 100), ([a.pk, random_player().pk], 50)]
    p = tournaments.Plan(ttt, default_universe(), "Tron-II", sets, kind, reason)
    return tournaments.create_from_plan(p, trainer, run=False)


def act(client, t, **data):
    return client.post(reverse("leaderboards:plan_action", args=[t.pk]), data, follow=True)


def text(response) -> str:
    return response.content.decode()


def test_a_plan_saved_from_the_factory_does_not_start(client, ttt, trainer, no_broker):
    a, b = bot("A"), bot("B")
    client.force_login(trainer)
    data = {"name": "Later", "game": ttt.pk, "universe": "main", "set1_games": 20,
            "set1_seat1": a.pk, "set1_seat2": b.pk, "action": "save"}  # fmt: skip
    response = client.post(reverse("leaderboards:factory"), data)
    t = Tournament.objects.get(name="Later")
    assert response.status_code == 302 and t.status == "planned" and t.total_games == 20
    assert not TournamentBatch.objects.filter(tournament=t).exists() and no_broker == []
    page = text(client.get(t.get_absolute_url()))
    for control in ("plan-delete-set", "plan-add", "plan-start", "plan-delete", "plan-copy"):
        assert f'data-testid="{control}"' in page
    assert 'data-testid="progress-section"' not in page


def test_delete_a_set_makes_the_plan_other_and_says_why(client, ttt, trainer):
    t = plan(ttt, trainer)
    client.force_login(trainer)
    assert "Benchmark: made from a leaderboard" in text(client.get(t.get_absolute_url()))
    page = text(act(client, t, action="delete_set", set="0"))
    t.refresh_from_db()
    assert t.kind == "O" and t.kind_reason == "edited by hand: was Benchmark, now Other"
    assert "Other: edited by hand: was Benchmark, now Other" in page
    assert list(t.sets.values_list("games", flat=True)) == [50] and t.total_games == 50
    assert "That set is not in this plan" in text(act(client, t, action="delete_set", set="0"))
    assert "Say which set to delete" in text(act(client, t, action="delete_set", set="-1"))
    assert "Say which set to delete" in text(act(client, t, action="delete_set", set="x" * 9))
    assert "There is no such button" in text(act(client, t, action="explode"))


def test_add_the_sets_of_a_plan_remembers_the_choice(client, ttt, trainer):
    t = plan(ttt, trainer, kind="C", reason="social")
    other = plan(ttt, trainer)
    client.force_login(trainer)
    act(client, t, action="add_sets", source=str(t.pk))  # its own sets, again
    t.refresh_from_db()
    assert list(t.sets.values_list("games", flat=True)) == [100, 50, 100, 50]
    assert t.kind == "O" and "was Social" in t.kind_reason and t.total_games == 300
    page = text(act(client, t, action="add_sets", source=str(other.pk)))
    assert t.sets.count() == 6
    assert f'<option value="{other.pk}" selected>' in page  # the last choice, remembered
    assert "Choose a tournament" in text(act(client, t, action="add_sets", source="junk"))
    chess = rule_set("3on5sq")
    elsewhere = plan(chess, trainer)
    page = text(act(client, t, action="add_sets", source=str(elsewhere.pk)))
    assert "A plan plays one game" in page and t.sets.count() == 6
    missing = act(client, t, action="add_sets", source="999999")
    assert missing.status_code == 404


def test_add_is_bounded(client, ttt, trainer, monkeypatch):
    from tournaments import plan_edits as edits

    monkeypatch.setattr(edits, "MAX_PLAN_SETS", 3)
    t = plan(ttt, trainer)
    client.force_login(trainer)
    assert "more than 3 sets" in text(act(client, t, action="add_sets", source=str(t.pk)))
    assert t.sets.count() == 2


def test_copy_makes_a_new_unrun_plan_with_the_same_sets(client, ttt, trainer, creator):
    t = plan(ttt, trainer)
    Tournament.objects.filter(pk=t.pk).update(status="done")
    client.force_login(trainer)
    response = client.post(reverse("leaderboards:plan_action", args=[t.pk]), {"action": "copy"})
    copy = Tournament.objects.exclude(pk=t.pk).get()
    assert response.url == copy.get_absolute_url()
    assert copy.status == "planned" and copy.kind == "B" and copy.name == "Copy of Tron-II"
    assert list(copy.sets.values_list("players", "games")) == list(
        t.sets.values_list("players", "games")
    )
    client.force_login(creator)
    assert "Only Trainers and Admins" in text(act(client, t, action="copy"))
    assert Tournament.objects.count() == 2


def test_start_runs_the_plan(client, ttt, trainer, no_broker, django_capture_on_commit_callbacks):
    t = plan(ttt, trainer)
    client.force_login(trainer)
    act(client, t, action="delete_set", set="0")
    with django_capture_on_commit_callbacks(execute=True):
        act(client, t, action="start")
    t.refresh_from_db()
    assert t.status == "running" and t.total_games == 50
    assert list(t.sets.values_list("order", flat=True)) == [0]  # renumbered
    assert TournamentBatch.objects.filter(tournament=t).count() == 5
    assert any(s[0] == "run_batch" for s in no_broker)
    page = text(act(client, t, action="delete_set", set="0"))
    assert "has started" in page and 'data-testid="progress-section"' in page
    assert "has started" in text(act(client, t, action="delete"))


def test_start_refuses_an_empty_plan(client, ttt, trainer):
    t = plan(ttt, trainer)
    client.force_login(trainer)
    act(client, t, action="delete_set", set="0")
    page = text(act(client, t, action="delete_set", set="1"))
    assert 'data-testid="plan-empty"' in page
    assert "at least one set" in text(act(client, t, action="start"))
    assert Tournament.objects.get(pk=t.pk).status == "planned"


def test_delete_the_plan(client, ttt, trainer):
    t = plan(ttt, trainer)
    client.force_login(trainer)
    response = client.post(reverse("leaderboards:plan_action", args=[t.pk]), {"action": "delete"})
    assert response.url == reverse("leaderboards:game_tournaments", args=[ttt.pk])
    assert not Tournament.objects.filter(pk=t.pk).exists()


def test_only_its_trainer_or_an_admin_edits(client, ttt, trainer, make_user, site_admin):
    t = plan(ttt, trainer)
    client.force_login(make_user("tom", "trainer"))
    page = text(client.get(t.get_absolute_url()))
    assert 'data-testid="plan-start"' not in page and 'data-testid="plan-copy"' in page
    for action in ("start", "delete", "delete_set"):
        assert "Only the Trainer who made this plan" in text(act(client, t, action=action, set="0"))
    assert Tournament.objects.get(pk=t.pk).sets.count() == 2
    client.force_login(site_admin)
    act(client, t, action="delete_set", set="1")
    assert Tournament.objects.get(pk=t.pk).sets.count() == 1
    client.logout()
    response = client.post(reverse("leaderboards:plan_action", args=[t.pk]), {"action": "start"})
    assert response.status_code == 302 and "login" in response.url
    assert Tournament.objects.get(pk=t.pk).status == "planned"


def test_get_on_the_buttons_changes_nothing(client, ttt, trainer):
    t = plan(ttt, trainer)
    client.force_login(trainer)
    response = client.get(reverse("leaderboards:plan_action", args=[t.pk]) + "?action=delete")
    assert response.status_code == 302 and Tournament.objects.filter(pk=t.pk).exists()


def test_benchmark_confirmation_saves_a_plan(client, ttt, trainer, no_broker):
    a, b = bot("A"), bot("B")
    client.force_login(trainer)
    ids = [a.pk, b.pk, random_player().pk]
    data = {"rule_set": ttt.pk, "universe": "main", "players": ids, "action": "save"}
    client.post(reverse("leaderboards:benchmark"), data)
    t = Tournament.objects.get()
    assert t.status == "planned" and t.total_games == 300 and t.kind == "S"
    assert t.kind_reason.startswith("not a Benchmark: ") and no_broker == []


# --- Social plans from the Favouritism tab ---------------------------------------------------


def social_url(ttt, shown, players):
    ids = "".join(f"&players={p.pk}" for p in players)
    query = f"rule_set={ttt.pk}&universe=main&player={shown.pk}{ids}"
    return f"{reverse('leaderboards:social')}?{query}"


def test_social_plan_with_random_and_a_boosted_player(client, ttt, trainer):
    me, friend, rnd = bot("Me"), bot("Friend"), random_player()
    for _ in range(3):  # Friend wins beyond what the ratings expected: kick back > 7%
        finish(ttt, [me, friend], ["loss", "win"])
    client.force_login(trainer)
    url = social_url(ttt, me, [me, friend, rnd])
    page = text(client.get(url))
    assert "<strong>Social</strong>: made from Me&#x27;s Favouritism stats" in page
    assert "Friend (" in page and "300 games" in page
    response = client.post(url.split("?")[0], {
        "rule_set": ttt.pk, "universe": "main", "player": me.pk,
        "players": [me.pk, friend.pk, rnd.pk],
    })  # fmt: skip
    t = Tournament.objects.get()
    assert response.url == t.get_absolute_url()
    assert t.status == "planned" and t.kind == "C" and t.sets.count() == 3
    assert all(games == 100 for games in t.sets.values_list("games", flat=True))


def test_social_without_random_or_boost_is_other_with_the_reason(client, ttt, trainer):
    me, friend, stranger = bot("Me"), bot("Friend"), bot("Stranger")
    for _ in range(3):
        finish(ttt, [me, friend], ["loss", "win"])
    client.force_login(trainer)
    page = text(client.get(social_url(ttt, me, [me, friend, stranger])))
    assert "<strong>Other</strong>: not Social: add Random." in page
    page = text(client.get(social_url(ttt, me, [me, stranger, random_player()])))
    assert "not Social: add a player whose win boost, draw boost or kick back" in page


def test_social_errors(client, ttt, trainer, creator):
    me = bot("Me")
    client.force_login(creator)
    assert client.get(social_url(ttt, me, [me, random_player()])).status_code == 403
    client.force_login(trainer)
    response = client.get(social_url(ttt, me, [me]), follow=True)
    assert "Check at least 2 bots" in text(response)
    missing = f"{reverse('leaderboards:social')}?rule_set={ttt.pk}&player=junk"
    assert client.get(missing).status_code == 404
    assert not Tournament.objects.exists()


def test_the_favouritism_tab_offers_social(client, ttt, trainer):
    me, friend = bot("Me"), bot("Friend")
    finish(ttt, [me, friend], ["loss", "win"])
    client.force_login(trainer)
    page = text(client.get(f"{me.get_absolute_url()}?tab=favouritism"))
    assert 'data-testid="favour-social"' in page
    assert f'formaction="{reverse("leaderboards:social")}"' in page
    assert f'name="player" value="{me.pk}"' in page
