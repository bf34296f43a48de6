"""The process's relay (``play/relay.py``): one group member per process and match, and
still each socket is sent exactly what its seat may see, in order."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from play import notify, services
from play.relay import Relay
from tests.play_helpers import rule_set, start
from tests.test_play_consumer import join, open_socket, send, until

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def ttt_match(creator, other_creator):
    match = start(rule_set("Tic-Tac-Toe"), creator, creator, other_creator)
    services.answer_invitation(match.pk, other_creator, accept=True)
    return match


def members(match) -> set[str]:
    """This process's channels in the match's group (in-memory or Redis pub/sub layer)."""
    layer, group = get_channel_layer(), notify.match_group(match.pk)
    if hasattr(layer, "_get_group_channel_name"):  # RedisPubSubChannelLayer
        group = layer._get_group_channel_name(group)
    return set(layer.groups.get(group, ()))


async def test_a_process_joins_a_match_group_once_and_leaves_it_with_its_last_socket(
    ttt_match, creator, other_creator, make_user
):
    wendy = await sync_to_async(make_user)("wendy")
    x, _ = await join(ttt_match, creator)
    assert len(members(ttt_match)) == 1
    o, _ = await join(ttt_match, other_creator)
    watchers = [(await join(ttt_match, user))[0] for user in (None, wendy, None)]
    assert len(members(ttt_match)) == 1  # five sockets, one member
    for comm in (x, o, *watchers):
        await comm.disconnect()
    assert members(ttt_match) == set()


async def test_each_socket_is_sent_its_own_seats_view_and_the_events(
    ttt_match, creator, other_creator, make_user
):
    """Players get their seat's view (legal moves only for the seat to move), every
    spectator (anonymous or signed in) the spectators' view; everyone gets the end."""
    wendy = await sync_to_async(make_user)("wendy")
    x, _ = await join(ttt_match, creator)
    o, _ = await join(ttt_match, other_creator)
    anonymous, _ = await join(ttt_match, None)
    signed_in, _ = await join(ttt_match, wendy)
    plays = [(x, "1,1,1"), (o, "1,2,1"), (x, "2,1,1"), (o, "2,2,1"), (x, "3,1,1")]
    for ply, (mover, move) in enumerate(plays, start=1):
        await send(mover, type="move", move=move, ply=ply - 1)
        states = {}
        for name, comm in (("x", x), ("o", o), ("a", anonymous), ("w", signed_in)):
            states[name] = await until(comm, "state")
            assert states[name]["ply"] == ply, (name, states[name])
            assert states[name]["view"]["last_move"] == move
        assert states["x"]["you"] == [0] and states["o"]["you"] == [1]
        assert states["a"]["you"] == states["w"]["you"] == [] and states["a"]["seat"] is None
        assert states["a"]["view"] == states["w"]["view"]
        assert not states["a"]["view"]["legal_moves"] and not states["w"]["view"]["legal_moves"]
        if ply < len(plays):  # only the seat to move is offered moves
            to_move = "o" if ply % 2 else "x"
            assert states[to_move]["view"]["legal_moves"]
            assert not states["x" if to_move == "o" else "o"]["view"]["legal_moves"]
    for comm in (x, o, anonymous, signed_in):
        over = await until(comm, "game:over")
        assert over["winner"] == 0 and over["reason"] == "victory"
        await comm.disconnect()


async def test_a_change_that_needs_the_database_keeps_its_place_in_line(
    ttt_match, creator, other_creator
):
    """A presence change carries no views: each socket looks its state up (on a task of
    its own), and the move made after it still reaches the socket after it."""
    x, _ = await join(ttt_match, creator)
    o, _ = await join(ttt_match, other_creator)
    spectator, _ = await join(ttt_match, None)
    await o.disconnect()
    gone = await until(spectator, "player:disconnected")
    assert gone["seat"] == 1
    await send(x, type="move", move="2,2,1")
    state = await until(spectator, "state")
    while state["ply"] == 0:  # the disconnection's own state comes first
        state = await until(spectator, "state")
    assert state["ply"] == 1 and state["view"]["last_move"] == "2,2,1"
    for comm in (x, spectator):
        await comm.disconnect()


class FakeSocket:
    def __init__(self, name: str, you: list[int], log: list[str]) -> None:
        self.name, self.you, self.log = name, you, log

    async def relayed(self, message, events) -> None:
        self.log.append(self.name)


async def test_the_players_sockets_are_served_before_the_spectators():
    relay, log = Relay(layer=None), []
    sockets = [FakeSocket("s1", [], log), FakeSocket("x", [0], log), FakeSocket("s2", [], log)]
    sockets.append(FakeSocket("o", [1], log))
    relay.members[7] = dict.fromkeys(sockets)
    await relay.deliver({"type": "match.changed", "match": 7, "events": [], "views": None})
    assert log == ["x", "o", "s1", "s2"]
    await relay.deliver({"type": "match.changed", "match": 8, "events": [], "views": None})
    assert len(log) == 4  # another match's message reaches none of them


async def test_a_socket_opens_while_the_database_thread_is_busy(ttt_match, creator):
    """A socket's opening (existence, presence, first state) runs on threads of its own:
    an arrival does not wait for a slow job on the process's shared database thread."""
    import asyncio
    import time

    slow_job = asyncio.create_task(sync_to_async(time.sleep)(3))  # the shared thread
    await asyncio.sleep(0.1)
    comm = await open_socket(f"/ws/match/{ttt_match.pk}/", creator, timeout=1.5)
    state = await comm.receive_json_from(timeout=1.5)
    assert state["type"] == "state" and state["you"] == [0] and not slow_job.done()
    await slow_job
    await comm.disconnect()
