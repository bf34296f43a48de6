"""Every guarded action for every kind of visitor: the allowed get it; anonymous visitors
are sent to log in and everyone else gets 403 (or, for games they may not see, 404) — and
no request, however odd its ids or query string, ends in a server error."""

import pytest

from tests.rule_set_helpers import create_games, game_doc
from variants.models import RuleSet
from variants.services import create_rule_set, hide_rule_set, remove_rule_set

pytestmark = pytest.mark.django_db

EVERYONE = ["anonymous", "creator", "other_creator", "trainer", "admin"]


@pytest.fixture
def as_visitor(client, people):
    """``as_visitor("trainer")``: the test client, logged in as that person (or not)."""

    def login(who: str):
        client.logout()
        if people[who] is not None:
            client.force_login(people[who])
        return client

    return login


@pytest.fixture
def game(creator):
    return create_rule_set(game_doc(1), creator)


def expect_refused(response, who: str) -> None:
    if who == "anonymous":
        assert response.status_code == 302 and response.url.startswith("/accounts/login/")
    else:
        assert response.status_code == 403


# --- Moderation: rename, hide, show, remove ---------------------------------------------------


@pytest.mark.parametrize("who", EVERYONE)
def test_manage_page(as_visitor, game, who):
    response = as_visitor(who).get(f"/games/{game.pk}/manage/")
    if who == "admin":
        assert response.status_code == 200 and "Rename" in response.content.decode()
    else:
        expect_refused(response, who)


@pytest.mark.parametrize("who", EVERYONE)
def test_rename(as_visitor, game, who):
    response = as_visitor(who).post(
        f"/games/{game.pk}/manage/", {"action": "rename", "name": "Renamed"}
    )
    game.refresh_from_db()
    if who == "admin":
        assert response.status_code == 302 and game.name == "Renamed"
    else:
        expect_refused(response, who)
        assert game.name == "Game-1"


@pytest.mark.parametrize("who", EVERYONE)
def test_hide_and_show(as_visitor, game, who, site_admin):
    client = as_visitor(who)
    response = client.post(f"/games/{game.pk}/manage/", {"action": "hide"})
    game.refresh_from_db()
    if who == "admin":
        assert response.status_code == 302 and game.hidden
        client.post(f"/games/{game.pk}/manage/", {"action": "show"})
        game.refresh_from_db()
        assert not game.hidden
    else:
        expect_refused(response, who)
        assert not game.hidden
        hide_rule_set(game, True, by=site_admin)
        expect_refused(client.post(f"/games/{game.pk}/manage/", {"action": "show"}), who)
        game.refresh_from_db()
        assert game.hidden


@pytest.mark.parametrize("who", EVERYONE)
def test_remove_asks_first(as_visitor, game, who):
    client = as_visitor(who)
    url = f"/games/{game.pk}/manage/"
    response = client.post(url, {"action": "remove"})
    game.refresh_from_db()
    assert game.removed_at is None
    if who != "admin":
        expect_refused(response, who)
        expect_refused(client.post(url, {"action": "remove", "confirm": "yes"}), who)
        game.refresh_from_db()
        assert game.removed_at is None
        return
    assert response.status_code == 200 and "stay reserved" in response.content.decode()
    done = client.post(url, {"action": "remove", "confirm": "yes"}, follow=True)
    game.refresh_from_db()
    assert game.removed_at is not None
    assert "stay reserved" in done.content.decode()


def test_admin_rename_errors_are_shown(as_visitor, game, creator):
    create_rule_set(game_doc(2), creator)
    client = as_visitor("admin")
    url = f"/games/{game.pk}/manage/"
    for name, message in [
        ("has space", "whitespace"),
        ("game-2", "already taken"),
        ("", "required"),
    ]:
        response = client.post(url, {"action": "rename", "name": name})
        assert response.status_code == 400 and message in response.content.decode()
    bogus = client.post(url, {"action": "explode"})
    assert bogus.status_code == 200 and "Choose rename" in bogus.content.decode()


# --- Seeing hidden and removed games -----------------------------------------------------------


@pytest.mark.parametrize("who", EVERYONE)
def test_hidden_and_removed_game_pages(as_visitor, creator, site_admin, who):
    hidden, removed = create_games(creator, 2)
    hide_rule_set(hidden, True, by=site_admin)
    remove_rule_set(removed, by=site_admin)
    client = as_visitor(who)
    for rule_set in (hidden, removed):
        status = client.get(rule_set.get_absolute_url()).status_code
        assert status == (200 if who == "admin" else 404), rule_set.name
    listed = client.get("/games/").content.decode()
    assert (hidden.name in listed) == (who == "admin")
    assert (removed.name in listed) == (who == "admin")


# --- Creating ---------------------------------------------------------------------------------


@pytest.mark.parametrize("who", EVERYONE)
def test_factory_page_by_role(as_visitor, who):
    response = as_visitor(who).get("/games/new/")
    if who == "anonymous":
        expect_refused(response, who)
    else:
        assert response.status_code == 200


def test_factory_page_refuses_a_creator_at_the_quota(as_visitor, creator):
    create_games(creator, 15)
    client = as_visitor("creator")
    assert client.get("/games/new/").status_code == 403
    assert client.post("/games/new/", {"name": "One-More"}).status_code == 403
    assert creator.rule_sets.count() == 15 == RuleSet.objects.count()


# --- Users and roles ----------------------------------------------------------------------------


@pytest.mark.parametrize("who", EVERYONE)
def test_users_page(as_visitor, who):
    response = as_visitor(who).get("/users/")
    if who == "admin":
        assert response.status_code == 200
    else:
        expect_refused(response, who)


@pytest.mark.parametrize("who", EVERYONE)
def test_grant_role(as_visitor, other_creator, who):
    response = as_visitor(who).post(
        f"/users/{other_creator.pk}/role/", {"role": "admin", "confirm": "True"}
    )
    other_creator.refresh_from_db()
    if who == "admin":
        assert response.status_code == 302 and other_creator.role == "admin"
    else:
        expect_refused(response, who)
        assert other_creator.role == "creator"


@pytest.mark.parametrize("who", ["creator", "admin"])
def test_role_change_needs_post(as_visitor, other_creator, who):
    response = as_visitor(who).get(f"/users/{other_creator.pk}/role/")
    assert response.status_code == (405 if who == "admin" else 403)


# --- Junk never breaks the server ----------------------------------------------------------------

JUNK_GETS = [
    "/games/?players=&board=&q=",
    "/games/?players=%00&board=%ff",
    "/games/?q=%27%3B%20DROP%20TABLE%20x%3B--",
    "/games/?page=-1",
    "/games/?page=1e9",
    "/games/?page=99999999999999999999999",
    "/games/?q[]=x&players[]=2",
    "/games/999999/manage/",
    "/games/0/manage/",
    "/games/-1/manage/",
    "/games/abc/manage/",
    "/games/999999/",
    "/players/999999/",
    "/players/0/",
    "/players/abc/",
    "/players/{player}/?tab=%00",
    "/players/{player}/?tab=creations&page=junk",
    "/players/{player}/?tab=creations&page=-5",
    "/users/?q=" + "x" * 500,
    "/users/?page=zzz",
    "/users/999999/role/",
    "/accounts/login/?next=javascript:alert(1)",
    "/accounts/signup/?next=//evil.example",
    "/",
    # ids that str.isdigit() takes but int() or the database refuse
    "/games/{game}/evolution/?players=%C2%B2",
    "/games/{game}/evolution/?players=99999999999999999999",
    "/play/?game=%C2%B2",
    "/play/?game=99999999999999999999",
    "/games/new/?copy=%C2%B2",
    "/games/new/?copy=99999999999999999999",
    "/tournaments/?game=%C2%B2",
]

JUNK_POSTS = [
    ("/games/999999/manage/", {"action": "remove", "confirm": "yes"}),
    ("/games/{game}/manage/", {}),
    ("/games/{game}/manage/", {"action": "rename"}),
    ("/games/{game}/manage/", {"action": "rename", "name": "x" * 500}),
    ("/games/{game}/manage/", {"action": ["hide", "remove"]}),
    ("/users/999999/role/", {"role": "admin", "confirm": "True"}),
    ("/users/{user}/role/", {}),
    ("/users/{user}/role/", {"role": "", "confirm": "maybe"}),
    ("/accounts/signup/", {"username": "x" * 500}),
    ("/accounts/login/", {"username": "", "password": ""}),
    ("/friends/request/", {"player": "\u00b2"}),
    ("/friends/request/", {"player": "99999999999999999999"}),
    ("/tournaments/benchmark/", {"rule_set": "\u00b2"}),
    ("/tournaments/benchmark/", {"rule_set": "1", "players": ["\u00b2", "99999999999999999999"]}),
    ("/personas/", {"action": "join", "persona": "\u00b2", "universe": "u"}),
]


@pytest.mark.parametrize("who", EVERYONE)
def test_no_request_is_a_server_error(as_visitor, game, creator, who):
    client = as_visitor(who)
    ids = {"game": game.pk, "player": creator.player.pk, "user": creator.pk}
    for path in JUNK_GETS:
        response = client.get(path.format(**ids))
        assert response.status_code < 500, path
    for path, data in JUNK_POSTS:
        response = client.post(path.format(**ids), data)
        assert response.status_code < 500, (path, data)
