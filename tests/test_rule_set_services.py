"""variants.services as the factory uses it: who may create, quotas (also under concurrent
saves), duplicates, renaming, hiding, removing, and what each visitor sees."""

import threading

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db import connection

from accounts.services import set_role, system_user
from gamecore import rules
from tests.rule_set_helpers import create_games, game_doc
from variants.models import RuleSet
from variants.services import (
    CREATOR_QUOTA,
    DuplicateRules,
    NameTaken,
    QuotaExceeded,
    can_create,
    create_rule_set,
    hide_rule_set,
    remaining_quota,
    remove_rule_set,
    rename_rule_set,
    visible_rule_sets,
)

pytestmark = pytest.mark.django_db


# --- Creating ---------------------------------------------------------------------------


def test_the_creator_is_recorded(creator):
    rule_set = create_rule_set(game_doc(1), creator)
    assert rule_set.creator == creator
    assert list(creator.rule_sets.all()) == [rule_set]
    assert not rule_set.hidden and rule_set.removed_at is None


@pytest.mark.parametrize("nobody", [None, AnonymousUser()])
def test_anonymous_visitors_cannot_create(nobody):
    with pytest.raises(PermissionDenied):
        create_rule_set(game_doc(1), nobody)
    assert not can_create(nobody)
    assert remaining_quota(nobody) == 0
    assert RuleSet.objects.count() == 0


def test_an_invalid_document_names_the_field_and_saves_nothing(creator):
    with pytest.raises(rules.RulesError) as caught:
        create_rule_set({"name": "Bad name", "board": {"type": "squares"}}, creator)
    assert caught.value.errors and all({"path", "message"} <= set(e) for e in caught.value.errors)
    assert RuleSet.objects.count() == 0


def test_the_catalogue_belongs_to_the_foundry_admin(catalogue):
    foundry = system_user()
    assert RuleSet.objects.exclude(creator=foundry).count() == 0
    assert not foundry.has_usable_password()
    assert RuleSet.objects.count() == len(catalogue) > CREATOR_QUOTA  # an Admin: no limit


# --- Quotas -----------------------------------------------------------------------------


def test_a_creator_gets_fifteen_and_the_sixteenth_is_refused(creator):
    assert remaining_quota(creator) == CREATOR_QUOTA == 15
    create_games(creator, 14)
    assert remaining_quota(creator) == 1 and can_create(creator)
    create_rule_set(game_doc(14), creator)
    assert remaining_quota(creator) == 0 and not can_create(creator)
    with pytest.raises(QuotaExceeded, match="15"):
        create_rule_set(game_doc(15), creator)
    assert creator.rule_sets.count() == 15
    assert not RuleSet.objects.filter(name="Game-15").exists()


def test_the_quota_is_per_creator(creator, other_creator):
    create_games(creator, 15)
    assert create_rule_set(game_doc(15), other_creator).creator == other_creator
    assert remaining_quota(other_creator) == 14


def test_hidden_and_removed_games_still_count(creator, site_admin):
    games = create_games(creator, 15)
    hide_rule_set(games[0], True, by=site_admin)
    remove_rule_set(games[1], by=site_admin)
    with pytest.raises(QuotaExceeded):
        create_rule_set(game_doc(15), creator)


@pytest.mark.parametrize("role", ["trainer", "admin"])
def test_trainers_and_admins_have_no_limit(make_user, role):
    user = make_user("unlimited", role)
    create_games(user, 17)
    assert user.rule_sets.count() == 17
    assert remaining_quota(user) is None and can_create(user)


def test_superusers_have_no_limit(make_user):
    boss = make_user("boss", is_superuser=True)
    create_games(boss, 16)
    assert remaining_quota(boss) is None


def test_a_promotion_lifts_the_limit_and_a_demotion_restores_it(creator, site_admin):
    create_games(creator, 15)
    set_role(creator, "trainer", by=site_admin)
    create_rule_set(game_doc(15), creator)
    set_role(creator, "creator", by=site_admin)
    with pytest.raises(QuotaExceeded):
        create_rule_set(game_doc(16), creator)


def race(creator, docs: list[dict]) -> list[str]:
    """Save every document at once, each from its own thread and database connection."""
    barrier = threading.Barrier(len(docs))
    outcomes: list[str] = []

    def save(doc):
        try:
            barrier.wait()
            create_rule_set(doc, creator)
            outcomes.append("saved")
        except QuotaExceeded:
            outcomes.append("refused")
        except Exception as exc:  # noqa: BLE001 - reported by the assertion below
            outcomes.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=save, args=(doc,)) for doc in docs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_concurrent_saves_never_pass_the_quota(creator):
    """Six saves race for the last two slots: exactly two win, on SQLite and PostgreSQL."""
    create_games(creator, 13)
    outcomes = race(creator, [game_doc(n) for n in range(100, 106)])
    assert sorted(outcomes) == ["refused"] * 4 + ["saved"] * 2
    assert RuleSet.objects.filter(creator=creator).count() == 15


@pytest.mark.django_db(transaction=True)
def test_concurrent_saves_from_empty_stop_at_fifteen(creator):
    outcomes = race(creator, [game_doc(n) for n in range(200, 220)])
    assert outcomes.count("saved") == 15 and outcomes.count("refused") == 5
    assert RuleSet.objects.filter(creator=creator).count() == 15


# --- Duplicates and names -----------------------------------------------------------------


def test_same_rules_under_another_name_is_refused_naming_the_game(creator, other_creator):
    original = create_rule_set(game_doc(1), creator)
    with pytest.raises(DuplicateRules, match="Game-1") as caught:
        create_rule_set({**game_doc(1), "name": "Copycat"}, other_creator)
    assert caught.value.existing == original
    assert "more than its name" in str(caught.value)


def test_a_duplicate_of_a_removed_game_says_its_rules_stay_reserved(creator, site_admin):
    original = create_rule_set(game_doc(1), creator)
    remove_rule_set(original, by=site_admin)
    with pytest.raises(DuplicateRules, match="stay reserved"):
        create_rule_set({**game_doc(1), "name": "Again"}, creator)
    with pytest.raises(NameTaken, match="stay reserved"):
        create_rule_set({**game_doc(2), "name": "game-1"}, creator)


def test_a_refused_duplicate_does_not_use_up_the_quota(creator):
    create_games(creator, 14)
    with pytest.raises(DuplicateRules):
        create_rule_set({**game_doc(0), "name": "Copy"}, creator)
    assert create_rule_set(game_doc(14), creator)


# --- Renaming ---------------------------------------------------------------------------


def test_an_admin_renames_and_the_fingerprint_stays(creator, site_admin):
    rule_set = create_rule_set(game_doc(1), creator)
    fingerprint = rule_set.fingerprint
    rename_rule_set(rule_set, "Better-Name", by=site_admin)
    rule_set.refresh_from_db()
    assert rule_set.name == rule_set.document["name"] == "Better-Name"
    assert rule_set.fingerprint == fingerprint
    assert rules.fingerprint(rule_set.rule_doc()) == fingerprint


@pytest.mark.parametrize("who", ["creator", "other_creator", "trainer", "anonymous"])
def test_only_admins_rename(people, who, creator):
    rule_set = create_rule_set(game_doc(1), creator)
    with pytest.raises(PermissionDenied):
        rename_rule_set(rule_set, "Mine-Now", by=people[who])
    rule_set.refresh_from_db()
    assert rule_set.name == "Game-1"


def test_rename_checks_the_name(creator, site_admin):
    rule_set = create_rule_set(game_doc(1), creator)
    create_rule_set(game_doc(2), creator)
    with pytest.raises(rules.RulesError):
        rename_rule_set(rule_set, "has space", by=site_admin)
    with pytest.raises(NameTaken, match="Game-2"):
        rename_rule_set(rule_set, "GAME-2", by=site_admin)
    assert rename_rule_set(rule_set, "GAME-1", by=site_admin).name == "GAME-1"  # own name


# --- Hiding and removing ------------------------------------------------------------------


@pytest.mark.parametrize("who", ["creator", "other_creator", "trainer", "anonymous"])
def test_only_admins_hide_and_remove(people, who, creator):
    rule_set = create_rule_set(game_doc(1), creator)
    with pytest.raises(PermissionDenied):
        hide_rule_set(rule_set, True, by=people[who])
    with pytest.raises(PermissionDenied):
        remove_rule_set(rule_set, by=people[who])
    rule_set.refresh_from_db()
    assert not rule_set.hidden and rule_set.removed_at is None


def test_hidden_and_removed_games_are_seen_by_admins_only(people, creator, site_admin):
    shown, hidden, removed = create_games(creator, 3)
    hide_rule_set(hidden, True, by=site_admin)
    remove_rule_set(removed, by=site_admin)
    for who, user in people.items():
        expected = {shown, hidden, removed} if who == "admin" else {shown}
        assert set(visible_rule_sets(user)) == expected, who
    hide_rule_set(hidden, False, by=site_admin)
    assert set(visible_rule_sets(creator)) == {shown, hidden}


def test_removing_keeps_the_row_and_the_first_time(creator, site_admin):
    rule_set = create_rule_set(game_doc(1), creator)
    first = remove_rule_set(rule_set, by=site_admin).removed_at
    assert first is not None
    assert remove_rule_set(rule_set, by=site_admin).removed_at == first
    assert RuleSet.objects.filter(pk=rule_set.pk).exists()


def test_saved_rules_cannot_change_through_the_model(creator):
    rule_set = create_rule_set(game_doc(1), creator)
    rule_set.document = {**rule_set.document, "stalemate": "draw"}
    with pytest.raises(ValueError, match="cannot change"):
        rule_set.save()
    with pytest.raises(ValueError, match="cannot change"):
        rule_set.save(update_fields=["fingerprint"])


# --- Django's admin -----------------------------------------------------------------------


def test_admin_shows_every_field_read_only_but_the_name(admin_client, creator):
    rule_set = create_rule_set(game_doc(1), creator)
    html = admin_client.get(f"/admin/variants/ruleset/{rule_set.pk}/change/").content.decode()
    assert 'name="name"' in html
    for field in ("document", "fingerprint", "summary", "hidden", "removed_at", "creator"):
        assert f'name="{field}"' not in html
    assert admin_client.get("/admin/variants/ruleset/add/").status_code == 403
    assert admin_client.get(f"/admin/variants/ruleset/{rule_set.pk}/delete/").status_code == 403


def test_admin_actions_hide_show_and_remove(admin_client, creator):
    games = create_games(creator, 2)
    url = "/admin/variants/ruleset/"

    def run(action: str):
        selected = [g.pk for g in games]
        response = admin_client.post(url, {"action": action, "_selected_action": selected})
        assert response.status_code == 302
        return list(RuleSet.objects.filter(pk__in=selected).values_list("hidden", "removed_at"))

    assert run("hide") == [(True, None)] * 2
    assert run("unhide") == [(False, None)] * 2
    assert all(removed_at is not None for _, removed_at in run("remove"))
    assert "stay reserved" in admin_client.get(url).content.decode()


def test_staff_who_are_not_admins_cannot_change_games(client, make_user, creator):
    from django.contrib.auth.models import Permission

    staff = make_user("stef", is_staff=True)
    staff.user_permissions.add(*Permission.objects.filter(codename__endswith="_ruleset"))
    rule_set = create_rule_set(game_doc(1), creator)
    client.force_login(staff)
    url = f"/admin/variants/ruleset/{rule_set.pk}/change/"
    assert 'name="name"' not in client.get(url).content.decode()
    client.post(url, {"name": "Staff-Name"})
    client.post("/admin/variants/ruleset/", {"action": "remove", "_selected_action": [rule_set.pk]})
    rule_set.refresh_from_db()
    assert rule_set.name == "Game-1" and rule_set.removed_at is None
