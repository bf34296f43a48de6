"""Socket.IO at the edge (issue 39): a client cannot run the server's own ``connect`` and
``disconnect`` handlers by naming them as events, and junk frames get a clear ``error``
(never a 1011 close, never an ERROR log record). In process: engine.io over an ASGI
websocket, frames written by hand."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings

from play.socketio_server import sio
from tests.conftest import session_cookie
from tests.socketio_helpers import engine, frame, joined, next_event

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("name", ["connect", "disconnect", "connect_error", "disconnecting"])
async def test_reserved_event_names_are_refused(creator, name, caplog):
    comm, sid = await joined(creator)
    session = await sio.get_session(sid)
    reader = session["reader"]
    tasks = len(asyncio.all_tasks())
    cookie = f"{settings.SESSION_COOKIE_NAME}={await sync_to_async(session_cookie)(creator)}"
    for _ in range(5):  # the environ a hostile client would pass to connect(sid, environ)
        await comm.send_to(text_data="42" + json.dumps([name, {"HTTP_COOKIE": cookie}]))
        event, data = await next_event(comm)
        assert event == "error" and data["code"] == "reserved-event", (event, data)
        assert name in data["reason"]
    assert not reader.done()  # `disconnect` did not release this connection
    assert (await sio.get_session(sid))["reader"] is reader  # `connect` made no second one
    assert len(asyncio.all_tasks()) <= tasks + 1
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    await comm.disconnect()


JUNK_FRAMES = [
    "",  # an empty frame
    "x",
    "9",
    "4",
    "4" + "[" * 3000,
    "42",
    "42[]",
    "42{}",
    '42"game:move"',
    "42[5]",
    "42[[1]]",
    "42[null,1]",
    "42" + "[" * 3000,
    '42["game:move"' + ",[" * 1000,
    '45-["game:move"]',
    "41/nope,",
    "4\x00",
]


@pytest.mark.parametrize("logged_in", [False, True])
async def test_junk_frames_get_an_error_and_the_socket_stays(creator, logged_in, caplog):
    comm = await engine(creator if logged_in else None)
    if logged_in:
        await comm.send_to(text_data="40")
        assert (await frame(comm)).startswith("40{")
    for junk in JUNK_FRAMES:
        await comm.send_input({"type": "websocket.receive", "text": junk})
        event, data = await next_event(comm)
        assert event == "error" and data["code"] == "malformed", (junk[:20], event, data)
    await comm.send_to(bytes_data=b"\x00\x01")
    event, data = await next_event(comm)
    assert event == "error" and data["code"] == "malformed"
    # Still open and answering: a move before joining a game is refused by name.
    if logged_in:
        await comm.send_to(text_data='42["game:move",{"position":4}]')
        assert await next_event(comm) == ("error", {"code": "not-seated",
                                                     "reason": "Join a game first."})  # fmt: skip
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors][:5]
    await comm.disconnect()


async def test_a_socketio_player_is_told_when_the_game_is_hidden(creator, site_admin, caplog):
    from tests.play_helpers import rule_set
    from variants.services import hide_rule_set

    game = await sync_to_async(rule_set)("Tic-Tac-Toe")
    comm, _sid = await joined(creator)
    await comm.send_to(text_data='42["matchmaking:join",{"difficulty":"easy"}]')
    while (await next_event(comm))[0] != "game:start":
        pass
    await sync_to_async(hide_rule_set)(game, True, site_admin)
    event, data = await next_event(comm)
    assert event == "error" and data["code"] == "hidden", (event, data)
    await comm.send_to(text_data='42["game:move",{"position":4}]')
    assert (await next_event(comm))[1]["code"] == "not-seated"  # no longer following it
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    await comm.disconnect()


async def test_junk_polling_bodies_are_a_400_not_an_error_log(creator, caplog):
    from channels.testing import HttpCommunicator

    from play.socketio_server import asgi_app

    opened = HttpCommunicator(asgi_app(), "GET", "/socket.io/?EIO=4&transport=polling")
    reply = await opened.get_response(timeout=5)
    sid = json.loads(reply["body"].decode()[1:])["sid"]
    path = f"/socket.io/?EIO=4&transport=polling&sid={sid}"
    deep = ("4" + "[" * 3000).encode()  # an engine.io message: socket.io refuses it
    for body in (b"", b"x", b"4\x1e", b"\xff", b"9" * 5000, deep):
        post = HttpCommunicator(asgi_app(), "POST", path, body=body)
        answer = await post.get_response(timeout=5)
        assert answer["status"] == (200 if body is deep else 400), (body[:10], answer)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
