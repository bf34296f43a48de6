"""The match socket sends nothing for a move that is silent for its seat (issue 32):
in Shopping9, white's socket and a spectator's see black's turn as one ``state`` (its
end), whatever black bought; black's own socket sees every circle."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from config.routing import websocket_urlpatterns
from play import services
from tests.play_helpers import rule_set, start

pytestmark = [pytest.mark.django_db(transaction=True)]


async def opened(match, user):
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/match/{match.pk}/")
    comm.scope["user"] = user
    connected, _ = await comm.connect(timeout=5)
    assert connected
    first = await comm.receive_json_from(timeout=5)
    assert first["type"] == "state"
    return comm


async def drain(comm) -> list[dict]:
    out = []
    while not await comm.receive_nothing(timeout=0.3):
        out.append(await comm.receive_json_from(timeout=5))
    return out


@pytest.mark.asyncio
async def test_black_buying_is_one_state_for_white_and_spectators(
    creator, other_creator, make_user
):
    watcher = await sync_to_async(make_user)("wanda")
    rs = await sync_to_async(rule_set)("Shopping9")
    match = await sync_to_async(start)(rs, creator, creator, other_creator, seed=3)
    await sync_to_async(services.answer_invitation)(match.pk, other_creator, accept=True)
    black, white, spectator = [await opened(match, u) for u in (creator, other_creator, watcher)]
    for comm in (black, white, spectator):
        await drain(comm)  # the acceptance's state
    for text in ("circle 1,1", "circle 1,1", "circle 1,1"):
        await sync_to_async(services.play)(match.pk, creator, text, seat=0)
    assert await drain(white) == [] and await drain(spectator) == []
    assert len([e for e in await drain(black) if e["type"] == "state"]) == 3
    await sync_to_async(services.play)(match.pk, creator, "pass", seat=0)
    for comm in (white, spectator):
        events = await drain(comm)
        assert [e["type"] for e in events] == ["state"]
        state = events[0]
        assert state["ply"] == 1 and state["view"]["ply"] == 1
        assert state["view"]["last_move"] == "(hidden move)"
        assert state["view"]["reserves"]["black"] == {"circle": 9}
        assert state["view"]["to_move"] == [1]
    for comm in (black, white, spectator):
        await comm.disconnect()
