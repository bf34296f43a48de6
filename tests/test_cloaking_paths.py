"""No leak on any path (issue 20): random games of a cloaked game (3Blotto13: each seat
may see only its own soldiers until the end) played through the websocket consumer, with
reconnects, a spectator, refused moves, the match, replay, list, player and leaderboard
pages, and a bot seat. Every message a seat receives is read back and checked against a
rule that does not use the engine's own filter: before the end, a seat's messages hold
no piece of the other colour and never the other seat's notation (``bN:2,1`` is a white
placement, ``bN:1,1`` a black one); a spectator's hold no piece and no placement."""

from __future__ import annotations

import json
import random
import re

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from cloak_helpers import blotto_cloaked, blotto_data, blotto_game, cloak_doc
from django.test import Client

from config.routing import websocket_urlpatterns
from play import services
from play.models import Match
from tests.play_helpers import bot, later, rule_set, start

pytestmark = [pytest.mark.django_db(transaction=True)]

COLOR = {0: "black", 1: "white"}
NOTATION = {0: re.compile(r"b[123]:1,1"), 1: re.compile(r"b[123]:2,1")}


def cloaked_rule_set(name="Blotto-paths"):
    """A saved 3Blotto13 (every space cloaked), through the rule-set services."""
    doc = cloak_doc(blotto_data(), blotto_cloaked())
    return rule_set(name, **{k: v for k, v in doc.items() if k != "name"})


def pieces(payload) -> list[dict]:
    found = []
    if isinstance(payload, dict):
        if "at" in payload and "color" in payload:
            found.append(payload)
        for value in payload.values():
            found += pieces(value)
    elif isinstance(payload, list):
        for value in payload:
            found += pieces(value)
    return found


def check(payload, seat: int | None, where: str) -> None:
    """``payload`` (a message, or a page's data) leaks nothing to ``seat`` (None: a
    spectator) while the match is on."""
    text = json.dumps(payload)
    others = [s for s in (0, 1) if s != seat]
    for s in others:
        found = NOTATION[s].findall(text)
        assert not found, f"{where}: seat {seat} was sent seat {s}'s moves {found}"
        shown = [p for p in pieces(payload) if p["color"] == COLOR[s]]
        assert not shown, f"{where}: seat {seat} was sent seat {s}'s pieces {shown}"


class Socket:
    def __init__(self, match, user, seat):
        self.match, self.user, self.seat = match, user, seat
        self.state = None
        self.comm = None
        self.received = 0

    async def open(self):
        self.comm = WebsocketCommunicator(
            URLRouter(websocket_urlpatterns), f"/ws/match/{self.match.pk}/"
        )
        self.comm.scope["user"] = self.user
        connected, _ = await self.comm.connect(timeout=5)
        assert connected
        await self.until("state")

    async def until(self, kind, ply=None):
        while True:
            event = await self.comm.receive_json_from(timeout=5)
            self.received += 1
            over = event["type"] == "game:over" or (
                event["type"] == "state" and event.get("outcome") is not None
            )
            if not over:
                check(event, self.seat, f"socket event {event['type']}")
            if event["type"] == "state":
                self.state = event
            if event["type"] == kind and (ply is None or event.get("ply", ply) >= ply):
                return event

    async def reconnect(self):
        await self.comm.disconnect()
        await self.open()

    async def close(self):
        await self.comm.disconnect()


def page_data(client, url, script_id):
    response = client.get(url)
    assert response.status_code == 200, url
    html = response.content.decode()
    match = re.search(
        rf'<script id="{script_id}" type="application/json">(.*?)</script>', html, re.S
    )
    assert match, f"{url}: no {script_id}"
    return json.loads(match.group(1)), html


@pytest.mark.asyncio
@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_no_message_to_a_seat_holds_what_it_may_not_see(
    seed, creator, other_creator, make_user
):
    watcher = await sync_to_async(make_user)("wanda")
    rs = await sync_to_async(cloaked_rule_set)()
    match = await sync_to_async(start)(rs, creator, creator, other_creator, seed=seed)
    await sync_to_async(services.answer_invitation)(match.pk, other_creator, accept=True)
    sockets = [
        Socket(match, creator, 0),
        Socket(match, other_creator, 1),
        Socket(match, watcher, None),
    ]
    for s in sockets:
        await s.open()
    clients = {}
    for seat, user in ((0, creator), (1, other_creator), (None, watcher)):
        clients[seat] = Client()
        await sync_to_async(clients[seat].force_login)(user)
    player = await sync_to_async(lambda: getattr(creator, "player", None))()
    pages = ["/matches/", f"/games/{rs.pk}/leaderboard/", "/admin/", "/admin/play/"]
    if player is not None:
        pages.append(f"/players/{player.pk}/")
    rng = random.Random(seed)
    ply = 0
    while True:
        mover = sockets[ply % 2]
        legal = mover.state["view"]["legal_moves"]
        if not legal:
            break
        if rng.random() < 0.3:  # a refused move: the other seat's stack, or nonsense
            bad = rng.choice([f"b{rng.randint(1, 3)}:{2 - mover.seat},1", "b4:1,1", "pass"])
            await mover.comm.send_json_to({"type": "move", "move": bad})
            error = await mover.until("error")
            assert "white" not in error["reason"] and "black" not in error["reason"], error
        await mover.comm.send_json_to({"type": "move", "move": rng.choice(legal), "ply": ply})
        ply += 1
        for s in sockets:
            await s.until("state", ply)
        if ply % 5 == 0:  # reconnects: the first state again
            await rng.choice(sockets).reconnect()
        if ply % 7 == 0:  # the pages, for each seat and the spectator
            for seat, client in clients.items():
                boot, _ = await sync_to_async(page_data)(
                    client, f"/matches/{match.pk}/", "match-boot"
                )
                check(boot, seat, "match page")
                data, _ = await sync_to_async(page_data)(
                    client, f"/matches/{match.pk}/replay/", "replay-data"
                )
                check(data, None, "replay page")
                assert {f["move"] for f in data["frames"][1:]} <= {"(hidden move)"}
                for url in pages:  # lists, stats, leaderboards, the admin (staff only)
                    response = await sync_to_async(client.get)(url)
                    assert response.status_code in (200, 302), url
                    check({"html": response.content.decode()}, None, url)
        if await sync_to_async(lambda: Match.objects.get(pk=match.pk).is_over)():
            break
        snap = await sync_to_async(services.snapshot)(match.pk, other_creator)
        check(snap, 1, "snapshot")
    final = await sync_to_async(Match.objects.get)(pk=match.pk)
    assert final.is_over and ply == 26
    # once over, everything is shown to everyone, the log named
    data, _ = await sync_to_async(page_data)(
        clients[None], f"/matches/{match.pk}/replay/", "replay-data"
    )
    colors = {p["color"] for p in pieces(data["frames"][-1]["view"])}
    assert colors == {"black", "white"}
    assert all(NOTATION[f["seat"]].fullmatch(f["move"]) for f in data["frames"][1:])
    for s in sockets:
        assert s.received > 26
        await s.close()


def test_a_bot_seat_is_given_its_seats_position(creator, monkeypatch):
    """server_move hands the bot ``seat_state`` (white's soldiers only), never the state."""
    from gamecore.bots.mcts import MctsAgent

    rs = cloaked_rule_set("Blotto-bot")
    match = start(rs, creator, bot("M", "mcts"), creator)
    given = []
    real = MctsAgent.choose

    def spy(self, state, seat):
        given.append((type(state).__name__, [c for c in state.board if c > 0], seat))
        return real(self, state, seat)

    monkeypatch.setattr(MctsAgent, "choose", spy)
    game = blotto_game()
    for ply in range(6):
        assert services.server_move(match.pk, now=later(5))
        services.play(match.pk, creator, f"b{ply % 3 + 1}:2,1")
    assert len(given) == 6
    for name, codes, seat in given:
        assert name == "SeatState" and seat == 0
        assert all(game.piece[c][1] == 0 for c in codes)  # black's own soldiers only
