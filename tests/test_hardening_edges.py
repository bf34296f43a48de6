"""Hardening, second round (issue 39) at the edges: deep JSON, NUL bytes, big frames,
Socket.IO's reserved event names. Each test failed on the code as it was found."""

from __future__ import annotations

import json
import logging

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from config.routing import websocket_urlpatterns
from ownbots.consumers import BotConsumer
from tests.play_helpers import rule_set, start
from variants import json_input

DEEP = "[" * 4000  # under the sockets' 4 KB limit


# --- deep JSON --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (DEEP, "nested deeper than 32 levels"),
        ("{" * 40, "nested deeper than 32 levels"),
        ('{"a":' * 33 + "1" + "}" * 33, "nested deeper than 32 levels"),
        ("x" * 5001, "larger than 5000 bytes"),
        ("é" * 2501, "larger than 5000 bytes"),
        (b"\xff", "not UTF-8"),
        ("{nope", "not JSON"),
    ],
    ids=["deep-arrays", "deep-objects", "deep-members", "long", "long-utf8", "bytes", "junk"],
)
def test_json_input_names_what_is_wrong(raw, message):
    with pytest.raises(json_input.InvalidJson, match=message):
        json_input.loads(raw, max_bytes=5000)


def test_json_input_reads_json_and_ignores_brackets_in_strings():
    text = json.dumps({"move": "[" * 50 + '"\\' + "{" * 50, "n": [[1], {"a": [2]}]})
    assert json_input.loads(text, max_bytes=4096)["n"] == [[1], {"a": [2]}]
    nested = json_input.loads(b"[" * 32 + b"]" * 32, max_bytes=100)  # at the bound: read
    for _ in range(31):
        nested = nested[0]
    assert nested == []


async def _open(path: str, user=None, app=None) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(app or URLRouter(websocket_urlpatterns), path)
    comm.scope["user"] = user or AnonymousUser()
    connected, _ = await comm.connect(timeout=5)
    assert connected
    return comm


async def _deep_json_is_answered(comm: WebsocketCommunicator, probe: dict) -> None:
    """A deep frame gets an ``error`` naming the depth; the socket still answers after it."""
    await comm.send_to(text_data=DEEP)
    reply = await comm.receive_json_from(timeout=5)
    assert reply["type"] == "error" and reply["code"] == "malformed", reply
    assert "nested" in reply["reason"], reply
    await comm.send_to(text_data=json.dumps(probe))
    assert (await comm.receive_json_from(timeout=5))["type"]  # still open, still answering
    await comm.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_deep_json_on_the_match_socket_gets_an_error(creator, other_creator, caplog):
    def make():
        match = start(rule_set("Tic-Tac-Toe"), creator, creator, other_creator)
        return match.pk

    match_id = await sync_to_async(make)()
    comm = await _open(f"/ws/match/{match_id}/", creator)
    assert (await comm.receive_json_from(timeout=5))["type"] == "state"
    await _deep_json_is_answered(comm, {"type": "nope"})
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_deep_json_on_the_lobby_socket_gets_an_error(creator):
    comm = await _open("/ws/lobby/", creator)
    await _deep_json_is_answered(comm, {"type": "nope"})


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_deep_json_on_the_bot_socket_before_hello_gets_an_error():
    comm = await _open("/ws/bot/", app=BotConsumer.as_asgi())
    await _deep_json_is_answered(comm, {"type": "ping"})


@pytest.mark.django_db
def test_deep_phases_in_the_factory_are_a_clear_error_not_a_500(client, creator):
    client.force_login(creator)
    data = {
        "family": "flat", "name": "Deep", "board_type": "squares", "size_x": "3",
        "size_y": "3", "size_z": "1", "check": "3-wins-d", "shape": "circle",
        "phases": DEEP,
    }  # fmt: skip
    assert client.post("/games/new/refresh/", data).status_code == 200  # redrawn, one phase
    response = client.post("/games/new/", data)
    assert response.status_code == 400
    assert "nested deeper than 4 levels" in response.content.decode()


# --- NUL and other control characters -------------------------------------------------------

NUL_PATHS = [
    # (who, method, path, data): every path the hostile pass found answering 500
    (None, "get", "/games/{game}/leaderboard/", {"player": "a\x00b"}),
    (None, "get", "/games/{game}/evolution/", {"add": "a\x00b"}),
    ("creator", "post", "/friends/request/", {"username": "a\x00b"}),
    ("creator", "post", "/games/new/", {"family": "flat", "name": "X\x00Y", "size_x": "3"}),
    ("admin", "post", "/games/{game}/manage/", {"action": "rename", "name": "a\x00b"}),
    ("trainer", "post", "/bots/", {"name": "a\x00b"}),
    ("trainer", "get", "/games/", {"q": "tab\x1bescape"}),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("who", "method", "path", "data"), NUL_PATHS)
def test_a_control_character_from_outside_is_a_400_that_says_so(
    client, people, who, method, path, data
):
    game = rule_set("Tic-Tac-Toe")
    if who:
        client.force_login(people[who])
    response = getattr(client, method)(path.format(game=game.pk), data)
    assert response.status_code == 400, response.status_code
    html = response.content.decode()
    field = next(iter(k for k, v in data.items() if any(c < " " for c in v)))
    assert f"“{field}”" in html and "control character" in html, html[-2000:]
    assert 'data-testid="error-page"' in html


@pytest.mark.django_db
def test_a_cookie_with_a_nul_is_no_cookie(client, creator):
    client.force_login(creator)
    session = client.cookies["sessionid"].value
    client.cookies["sessionid"] = session[:20] + "\x00" + session[20:]
    client.cookies["csrftoken"] = "a\x00b"
    response = client.get("/games/")  # on PostgreSQL the session lookup answered 500
    assert response.status_code == 200
    assert "carla" not in response.content.decode()  # no session: anonymous


@pytest.mark.django_db
def test_tabs_and_line_breaks_are_text(client, creator):
    client.force_login(creator)
    assert client.get("/games/", {"q": "a\tb\r\nc"}).status_code == 200


def test_names_refuse_control_characters_below_the_edge_too():
    from gamecore.rules.validation import RulesError, validate_name

    for name in ("a\x00b", "a\x1bb", "a\x7fb"):
        with pytest.raises(RulesError, match="control character"):
            validate_name(name)


@pytest.mark.django_db
def test_an_own_bots_name_refuses_control_characters(trainer):
    from ownbots.keys import BotError, clean_name

    with pytest.raises(BotError, match="control character"):
        clean_name("a\x00b")
