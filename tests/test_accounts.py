"""Roles, players, sign-up / log-in / log-out, the Users page and the player pages."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction

from accounts.models import Player, Role
from accounts.roles import is_admin, is_trainer_or_admin, role_of
from accounts.services import RoleChangeRefused, random_player, set_role, system_user
from tests.rule_set_helpers import create_games
from variants.services import hide_rule_set, remove_rule_set

pytestmark = pytest.mark.django_db


# --- Roles ------------------------------------------------------------------------------


def test_roles_of_each_kind_of_visitor(people, make_user):
    expected = {
        "anonymous": (None, False, False),
        "creator": (Role.CREATOR, False, False),
        "other_creator": (Role.CREATOR, False, False),
        "trainer": (Role.TRAINER, False, True),
        "admin": (Role.ADMIN, True, True),
    }
    for who, user in people.items():
        assert (role_of(user), is_admin(user), is_trainer_or_admin(user)) == expected[who], who
    assert role_of(AnonymousUser()) is None
    boss = make_user("boss", is_superuser=True)  # role field says creator
    assert role_of(boss) == Role.ADMIN and is_admin(boss)


def test_a_new_account_is_a_creator():
    user = get_user_model().objects.create_user("newbie")
    assert user.role == Role.CREATOR == role_of(user)


def test_an_admin_grants_roles(creator, site_admin):
    set_role(creator, "trainer", by=site_admin)
    creator.refresh_from_db()
    assert role_of(creator) == Role.TRAINER
    set_role(creator, Role.ADMIN, by=site_admin)
    assert is_admin(get_user_model().objects.get(pk=creator.pk))


@pytest.mark.parametrize("who", ["anonymous", "creator", "other_creator", "trainer"])
def test_only_admins_grant_roles(people, who, other_creator):
    target = people["creator"]
    with pytest.raises(PermissionDenied):
        set_role(target, "admin", by=people[who])
    target.refresh_from_db()
    assert target.role == Role.CREATOR


def test_role_changes_that_nobody_may_make(site_admin, make_user, creator):
    boss = make_user("boss", is_superuser=True)
    for target, message in [
        (site_admin, "own role"),
        (boss, "superuser"),
        (system_user(), "site's own account"),
    ]:
        with pytest.raises(RoleChangeRefused, match=message):
            set_role(target, "creator", by=site_admin)
    with pytest.raises(RoleChangeRefused, match="Unknown role"):
        set_role(creator, "emperor", by=site_admin)


# --- Players ----------------------------------------------------------------------------


def test_every_user_gets_a_human_player(creator):
    player = creator.player
    assert player.kind == Player.Kind.HUMAN
    assert str(player) == player.display_name == "carla"
    assert player.get_absolute_url() == f"/players/{player.pk}/"


def test_there_is_exactly_one_random_player():
    random = random_player()
    assert random == random_player() == Player.objects.get(kind="random")
    assert str(random) == "Random"
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(kind="random", name="Another")


def test_players_are_consistent_in_the_database(creator):
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(kind="bot", name="No-Spec")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(kind="human", name="Nobody")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(kind="bot", name="Tied", user=creator, bot_spec={"kind": "random"})


def test_a_bot_spec_is_checked_and_normalised(creator):
    bot = Player(kind="bot", name="Randy", owner=creator, bot_spec="random")
    bot.full_clean()
    assert bot.bot_spec == {"kind": "random"}
    bot.save()
    for bad in [None, "telepath", {"kind": "random", "depth": 3}]:
        with pytest.raises(ValidationError) as caught:
            Player(kind="bot", name="Bad", bot_spec=bad).full_clean()
        assert "bot_spec" in caught.value.message_dict


# --- Sign-up, log-in, log-out --------------------------------------------------------------


def test_sign_up_makes_a_logged_in_creator(client):
    page = client.get("/accounts/signup/")
    assert page.status_code == 200 and "up to 15 games" in page.content.decode()
    response = client.post(
        "/accounts/signup/",
        {"username": "newbie", "password1": "a-long-passphrase", "password2": "a-long-passphrase"},
    )
    assert response.status_code == 302
    user = get_user_model().objects.get(username="newbie")
    assert role_of(user) == Role.CREATOR and user.player.kind == "human"
    html = client.get("/games/").content.decode()
    assert "newbie" in html and "Creator" in html and "Log out" in html


@pytest.mark.parametrize(
    "name, message",
    [
        ("Foundry", "already exists"),
        ("random", "reserved"),
        ("CHAOS", "reserved"),
        ("Carla", "already exists"),
    ],
)
def test_sign_up_refuses_reserved_and_taken_names(client, creator, name, message):
    response = client.post(
        "/accounts/signup/",
        {"username": name, "password1": "a-long-passphrase", "password2": "a-long-passphrase"},
    )
    assert response.status_code == 200 and message in response.content.decode()
    assert not get_user_model().objects.filter(username=name).exclude(pk=creator.pk).exists()


def test_log_in_and_out(client, make_user):
    make_user("lena", password="a-long-passphrase")
    assert client.get("/accounts/login/").status_code == 200
    response = client.post(
        "/accounts/login/",
        {"username": "lena", "password": "a-long-passphrase", "next": "/games/?q=x"},
    )
    assert response.status_code == 302 and response.url == "/games/?q=x"
    assert "lena" in client.get("/games/").content.decode()
    assert client.post("/accounts/logout/").status_code == 302
    assert "Log in" in client.get("/games/").content.decode()


def test_log_in_page_is_safe_with_odd_next_values(client, creator):
    for url in [
        "/accounts/login/?next=/accounts/login/",
        "/accounts/login/?next=http://evil.example/",
    ]:
        assert client.get(url).status_code == 200
    client.force_login(creator)
    for url in ["/accounts/login/?next=/accounts/login/", "/accounts/login/?next=//evil.example"]:
        response = client.get(url)
        assert response.status_code == 302 and "evil" not in response.url


def test_wrong_password_is_refused(client, make_user):
    make_user("lena", password="a-long-passphrase")
    response = client.post("/accounts/login/", {"username": "lena", "password": "wrong"})
    assert response.status_code == 200 and "_auth_user_id" not in client.session


# --- The Users page -----------------------------------------------------------------------


def test_users_page_lists_users_with_their_roles(client, people, site_admin):
    client.force_login(site_admin)
    html = client.get("/users/").content.decode()
    for name in ("carla", "otto", "tina", "ada", "foundry"):
        assert name in html
    assert 'name="role"' in html and "own role" in html  # the Admin's own row is locked
    assert "otto" in client.get("/users/?q=ott").content.decode()
    assert "carla" not in client.get("/users/?q=ott").content.decode()


def test_changing_a_role_asks_first(client, creator, site_admin):
    client.force_login(site_admin)
    url = f"/users/{creator.pk}/role/"
    confirm = client.post(url, {"role": "trainer"})
    assert confirm.status_code == 200 and "Change the role of carla to Trainer?" in (
        confirm.content.decode()
    )
    creator.refresh_from_db()
    assert creator.role == Role.CREATOR  # nothing changed yet
    done = client.post(url, {"role": "trainer", "confirm": "True"}, follow=True)
    assert "carla is now a Trainer" in done.content.decode()
    creator.refresh_from_db()
    assert creator.role == Role.TRAINER


def test_role_change_refusals_are_messages(client, site_admin, creator):
    client.force_login(site_admin)
    own = client.post(f"/users/{site_admin.pk}/role/", {"role": "creator", "confirm": "True"})
    assert own.status_code == 302
    assert "own role" in client.get("/users/").content.decode()
    junk = client.post(f"/users/{creator.pk}/role/", {"role": "emperor", "confirm": "True"})
    assert junk.status_code == 302
    creator.refresh_from_db()
    site_admin.refresh_from_db()
    assert creator.role == Role.CREATOR and site_admin.role == Role.ADMIN


# --- Player pages -------------------------------------------------------------------------


def test_player_page_tabs(client, creator):
    games = create_games(creator, 2)
    url = creator.player.get_absolute_url()
    stats = client.get(url).content.decode()
    assert "carla" in stats and "has not finished a match yet" in stats
    creations = client.get(url + "?tab=creations").content.decode()
    for rule_set in games:
        assert rule_set.name in creations and rule_set.get_absolute_url() in creations
    assert "has not finished a match yet" in client.get(url + "?tab=nonsense").content.decode()


def test_creations_tab_hides_what_the_visitor_may_not_see(client, creator, site_admin):
    shown, hidden, removed = create_games(creator, 3)
    hide_rule_set(hidden, True, by=site_admin)
    remove_rule_set(removed, by=site_admin)
    url = creator.player.get_absolute_url() + "?tab=creations"
    html = client.get(url).content.decode()
    assert shown.name in html and hidden.name not in html and removed.name not in html
    client.force_login(site_admin)
    html = client.get(url).content.decode()
    assert all(g.name in html for g in (shown, hidden, removed))
    assert "Hidden" in html and "Removed" in html


def test_random_and_bot_pages(client, creator):
    random = random_player()
    assert "Random" in client.get(random.get_absolute_url()).content.decode()
    bot = Player.objects.create(
        kind="bot", name="Randy", owner=creator, bot_spec={"kind": "random"}
    )
    html = client.get(bot.get_absolute_url() + "?tab=creations").content.decode()
    assert "Randy" in html and "only people create them" in html and "carla" in html


def test_creations_of_the_catalogue_owner(client, catalogue):
    url = system_user().player.get_absolute_url() + "?tab=creations"
    pages = -(-len(catalogue) // 25)  # 25 a page, by name
    html = "".join(client.get(f"{url}&page={n}").content.decode() for n in range(1, pages + 1))
    assert "Tic-Tac-Toe" in html and "Connect4" in html and pages >= 3


# --- Django's admin ------------------------------------------------------------------------


def test_django_admin_edits_roles_and_bots(admin_client, creator):
    assert admin_client.get("/admin/accounts/user/").status_code == 200
    page = admin_client.get(f"/admin/accounts/user/{creator.pk}/change/")
    assert page.status_code == 200 and 'name="role"' in page.content.decode()
    assert admin_client.get("/admin/accounts/player/").status_code == 200
    added = admin_client.post(
        "/admin/accounts/player/add/",
        {"kind": "bot", "name": "Minnie", "bot_spec": '"random"', "owner": creator.pk},
    )
    assert added.status_code == 302
    assert Player.objects.get(name="Minnie").bot_spec == {"kind": "random"}
    refused = admin_client.post(
        "/admin/accounts/player/add/", {"kind": "bot", "name": "Bad", "bot_spec": '"telepath"'}
    )
    assert refused.status_code == 200 and "unknown bot" in refused.content.decode()
    human = admin_client.post("/admin/accounts/player/add/", {"kind": "human", "name": "X"})
    assert human.status_code == 200 and not Player.objects.filter(name="X").exists()
