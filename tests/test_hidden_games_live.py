"""Hidden games stay hidden (issue 39): sockets opened on a game's matches before an Admin
hides (or removes) it are told, get no more states and can no longer move; an own bot's
public page lists no match of a hidden or removed game."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from config.routing import websocket_urlpatterns
from play import moves, services
from play.errors import MatchError
from tests.ownbot_helpers import own_bot
from tests.play_helpers import start
from tests.rule_set_helpers import game_doc
from variants.services import create_rule_set, hide_rule_set, remove_rule_set

SECRET = "Zebrasecret"


async def _open(path: str, user) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), path)
    comm.scope["user"] = user or AnonymousUser()
    connected, _ = await comm.connect(timeout=5)
    assert connected
    assert (await comm.receive_json_from(timeout=5))["type"] == "state"
    return comm


async def _told_and_closed(comm: WebsocketCommunicator) -> None:
    """The socket gets the ``hidden`` error, then its close; no state after it."""
    got = []
    while True:
        out = await comm.receive_output(timeout=5)
        if out["type"] == "websocket.close":
            break
        got.append(out["text"])
    assert got and '"code": "hidden"' in got[-1], got
    assert not any('"type": "state"' in text for text in got), got


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("how", ["hide", "remove"])
async def test_sockets_of_a_game_an_admin_hides_are_told_and_can_no_longer_play(
    how, creator, other_creator, site_admin
):
    def make():
        game = create_rule_set(game_doc(3, name=SECRET), creator)
        match = start(game, creator, creator, other_creator)
        services.answer_invitation(match.pk, other_creator, accept=True)
        return game, match.pk

    game, match_id = await sync_to_async(make)()
    player = await _open(f"/ws/match/{match_id}/", creator)
    spectator = await _open(f"/ws/match/{match_id}/", None)
    admin = await _open(f"/ws/match/{match_id}/", site_admin)
    change = hide_rule_set if how == "hide" else remove_rule_set
    args = (game, True, site_admin) if how == "hide" else (game, site_admin)
    await sync_to_async(change)(*args)
    await _told_and_closed(player)
    await _told_and_closed(spectator)
    assert await admin.receive_nothing(timeout=0.3)  # an Admin still sees hidden games
    with pytest.raises(MatchError) as refused:  # a socket that missed the message
        await sync_to_async(moves.play)(match_id, other_creator, "1,1,1")
    assert refused.value.code == "hidden" and "Admin" in refused.value.reason
    await admin.disconnect()


@pytest.mark.django_db
@pytest.mark.parametrize("how", ["hide", "remove"])
def test_an_own_bots_page_lists_no_match_of_a_hidden_game(client, how, trainer, site_admin):
    bot, _token = own_bot(trainer, "Hider")
    game = create_rule_set(game_doc(4, name=SECRET), trainer)
    start(game, trainer, trainer, bot)
    page = f"/players/{bot.pk}/"
    assert SECRET in client.get(page).content.decode()  # visible while the game is
    if how == "hide":
        hide_rule_set(game, True, site_admin)
    else:
        remove_rule_set(game, site_admin)
    for who in (None, trainer):
        client.logout()
        if who:
            client.force_login(who)
        assert SECRET not in client.get(page).content.decode(), who
    client.force_login(site_admin)
    assert SECRET in client.get(page).content.decode()  # Admins see hidden games


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_an_own_bot_is_told_and_its_moves_refused_when_the_game_is_hidden(
    trainer, creator, site_admin
):
    from tests.ownbot_helpers import bot_socket, until

    player, token = await sync_to_async(own_bot)(trainer)
    game = await sync_to_async(create_rule_set)(game_doc(5, name=SECRET), creator)
    match = await sync_to_async(start)(game, creator, creator, player)
    comm = await bot_socket(token, "v1")
    await until(comm, "welcome")
    await sync_to_async(services.play)(match.pk, creator, "1,1,1")
    turn = await until(comm, "your-move")
    await sync_to_async(hide_rule_set)(game, True, site_admin)
    told = await until(comm, "error")
    assert told["code"] == "hidden" and told["match"] == match.pk
    await comm.send_json_to({"type": "move", "turn": turn["turn"], "move": turn["legal"][0]})
    refused = await until(comm, "error")
    assert refused["code"] == "hidden" and refused["turn"] == turn["turn"]
    await comm.disconnect()
