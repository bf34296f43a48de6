"""The findings of the adversarial pass (issue 17), each a regression test of its own:
what once took the server down or ended in a server error, or leaked, does not."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from config.routing import websocket_urlpatterns
from leaderboards.models import Tournament, TournamentBatch
from leaderboards.services import default_universe
from tests.play_helpers import bot, rule_set
from tournaments import services as tournaments
from variants.bounded import OutOfBounds, bounded_int, whole_number
from variants.services import hide_rule_set

NINES = "9" * 5000
# A refused Save redraws the page; it may never be larger than this, whatever was posted
# (the largest page the seed's limits allow is well under it).
MAX_PAGE = 1_500_000


# --- the bounded parser ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("abc", "must be a whole number"),
        ("", "must be a whole number"),
        ("²", "must be a whole number"),
        ("1.5", "must be a whole number"),
        ("0", "at least 1"),
        ("20", "at most 19"),
        (NINES, "at most 19"),
        ("-" + NINES, "at least 1"),
    ],
)
def test_whole_number_names_what_is_wrong(text, message):
    with pytest.raises(OutOfBounds, match=message):
        whole_number(text, 1, 19)


def test_whole_number_reads_plain_numbers():
    assert whole_number(" 7 ", 1, 19) == 7 and whole_number("-3", -5, 5) == -3
    assert whole_number("+0019", 1, 19) == 19
    assert bounded_int(NINES, 0, 10**30) is None and bounded_int("12", 0, 99) == 12


# --- 1. one POST must not exhaust memory ----------------------------------------------------


def _factory_post(client, **fields):
    data = {
        "family": "flat", "name": "X", "board_type": "squares", "size_x": "3", "size_y": "3",
        "size_z": "1", "check": "3-wins-d", "shape": "circle",
    }  # fmt: skip
    return client.post("/games/new/", {**data, **fields})


@pytest.mark.django_db
@pytest.mark.parametrize(
    "fields",
    [
        {"size_z": "99999999999999999999999"},
        {"size_z": "20000"},
        {"boards": "2000"},
        {"size_x": "300", "size_y": "300"},
        {"size_x": "19", "size_y": "19", "size_z": "19", "boards": "3"},
        {"reserve-black-1": NINES, "reserve-white-1": "100000"},
        {"check": ["3-wins-d"] * 500},
        {"shape": ["circle"] * 500, "shape_count": NINES},
        {"locked": " ".join(f"1,{x},1,1" for x in range(1, 20000))},
    ],
)
def test_a_refused_save_never_grows_with_what_was_posted(client, creator, fields):
    client.force_login(creator)
    response = _factory_post(client, **fields)
    assert response.status_code == 400
    assert len(response.content) < MAX_PAGE
    html = response.content.decode()
    assert "invalid-feedback" in html or "alert-danger" in html  # says what is wrong


@pytest.mark.django_db
def test_a_size_past_its_limit_is_named(client, creator):
    client.force_login(creator)
    html = _factory_post(client, size_z="99999999999999999999999").content.decode()
    assert 'id="id_size_z-error"' in html and "At most 19" in html


# --- 2. numbers past int()'s 4,300 digits ---------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/games/new/refresh/", "/games/new/"])
@pytest.mark.parametrize(
    "fields",
    [
        {"marker": f"piece-black-{NINES}", "action": "toggle", "toggle": "1,1,1,1"},
        {"pieces": f"1,1,1,1,black,{NINES}"},
        {"pieces": f"{NINES},1,1,1,black,1", "locked": f"1,{NINES},1,1"},
        {"action": f"delete_check-{NINES}"},
        {"check": f"{NINES}-wins-d"},
        {"family": "nested", "n_side": NINES, "n_route_map": NINES},
    ],
)
def test_huge_numbers_are_refused_not_a_server_error(client, creator, url, fields):
    client.force_login(creator)
    response = _factory_post(client, **fields) if url == "/games/new/" else None
    if response is None:
        response = client.post(url, {"family": "flat", **fields})
    assert response.status_code in (200, 400)
    assert len(response.content) < MAX_PAGE


# --- 3. an unknown websocket path ----------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "path",
    ["/ws/nope/", "/ws/match/abc/", f"/ws/match/{NINES}/", "/ws/match/99999999999999999999/"],
)
async def test_an_unknown_websocket_path_is_refused_quietly(path, caplog):
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), path)
    comm.scope["user"] = AnonymousUser()
    connected, code = await comm.connect(timeout=5)
    assert not connected and code == 4404
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]
    await comm.disconnect()


# --- 4. tournament progress follows the game's visibility -----------------------------------


@pytest.mark.django_db
def test_a_hidden_games_tournament_progress_is_hidden(client, trainer, site_admin, no_broker):
    ttt = rule_set("Tic-Tac-Toe")
    plan = tournaments.Plan(ttt, default_universe(), "T", [([bot("A").pk, bot("B").pk], 4)])
    t = tournaments.create_from_plan(plan, trainer)
    url = f"/tournaments/{t.pk}/progress/"
    assert client.get(url).status_code == 200
    hide_rule_set(ttt, True, site_admin)
    old = timezone.now() - timedelta(hours=1)
    TournamentBatch.objects.filter(tournament=t).update(touched=old)
    Tournament.objects.filter(pk=t.pk).update(touched=old)
    sent_before = list(no_broker)
    for who in (None, trainer):
        client.logout()
        if who:
            client.force_login(who)
        assert client.get(url).status_code == 404
        assert client.get(f"/tournaments/{t.pk}/").status_code == 404
    assert no_broker == sent_before  # no nudge for those who may not see it
    client.force_login(site_admin)
    assert client.get(url).status_code == 200
    assert client.get(f"/tournaments/{'9' * 30}/progress/").status_code == 404


# --- 5. AFK settings out of range are errors naming the field -------------------------------


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"afkTimeout": 0}, "afkTimeout must be from 10 to 3600"),
        ({"afkTimeout": 99999}, "afkTimeout must be from 10 to 3600"),
        ({"afkWarning": 0}, "afkWarning must be from 1 to 3599"),
        ({"ruleSet": 10**40}, "ruleSet must be from 1 to"),
        ({"ruleSet": 0}, "ruleSet must be from 1 to"),
    ],
)
async def test_lobby_settings_out_of_range_are_named(creator, fields, named):
    from asgiref.sync import sync_to_async

    ttt = await sync_to_async(rule_set)("Tic-Tac-Toe")
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/lobby/")
    comm.scope["user"] = creator
    connected, _ = await comm.connect(timeout=5)
    assert connected
    await comm.send_json_to({"type": "matchmaking:join", "ruleSet": ttt.pk, **fields})
    reply = await comm.receive_json_from(timeout=5)
    assert reply["type"] == "error" and reply["code"] == "malformed", reply
    assert named in reply["reason"]
    await comm.disconnect()


# --- 6. no CSRF token in a URL ----------------------------------------------------------------


@pytest.mark.django_db
def test_the_leaderboards_selection_is_a_get_form_without_a_token(client, trainer, no_broker):
    ttt = rule_set("Tic-Tac-Toe")
    a, b = bot("A"), bot("B")
    client.force_login(trainer)
    html = client.get(f"/games/{ttt.pk}/leaderboard/").content.decode()
    form = html[html.index('id="lb-selected"') - 40 :]
    form = form[: form.index("</form>")]
    assert 'method="get"' in form and "csrfmiddlewaretoken" not in form
    # Benchmark (a GET from that form) asks first; nothing starts until it is confirmed.
    query = {"rule_set": ttt.pk, "universe": "main", "players": [a.pk, b.pk]}
    response = client.get("/tournaments/benchmark/", query)
    assert response.status_code == 200 and not Tournament.objects.exists()
    html = response.content.decode()
    assert "100 games" in html and 'data-testid="confirm-benchmark"' in html
    response = client.post("/tournaments/benchmark/", query)
    assert response.status_code == 302 and Tournament.objects.count() == 1


# --- found by the longer fuzz run -------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("target", ["1", "home", "//evil.example/", "https://evil.example/", ""])
def test_a_next_that_is_no_local_path_goes_to_the_default(client, creator, target):
    client.force_login(creator)
    response = client.post("/friends/request/", {"username": "nobody", "next": target})
    assert response.status_code == 302 and response.url == "/friends/"
    response = client.post("/friends/request/", {"username": "nobody", "next": "/games/"})
    assert response.url == "/games/"


@pytest.mark.django_db
def test_error_pages_are_the_sites_own(client, rf):
    from django.views import defaults

    html = defaults.server_error(rf.get("/")).content.decode()
    assert "Something went wrong on our side" in html and "Variant Foundry" in html
    html = defaults.bad_request(rf.get("/"), Exception("x")).content.decode()
    assert "could not be read" in html
    response = client.get("/games/999999/")
    assert response.status_code == 404 and b'data-testid="error-page"' in response.content
    from django.test import Client

    response = Client(enforce_csrf_checks=True).post("/accounts/login/", {"username": "x"})
    assert response.status_code == 403 and b"Please try again" in response.content
