"""The websocket consumers through Channels' ``WebsocketCommunicator``: every event, every
error, the timers and the reconnect window. Timers are fired with a fake clock through
``play.services.expire_timers`` (the timekeeper calls exactly that); one test runs the
real timekeeper."""

from __future__ import annotations

import asyncio
import json
import threading
import time

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from config.routing import websocket_urlpatterns
from play import notify, services, timekeeper
from play.models import Match
from tests.play_helpers import bot, later, rule_set, start

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def open_socket(path: str, user, timeout: float = 5) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), path)
    comm.scope["user"] = user or AnonymousUser()
    connected, _ = await comm.connect(timeout=timeout)
    assert connected
    return comm


async def join(match, user) -> tuple[WebsocketCommunicator, dict]:
    comm = await open_socket(f"/ws/match/{match.pk}/", user)
    state = await comm.receive_json_from(timeout=5)
    assert state["type"] == "state"
    return comm, state


async def until(comm, kind: str, timeout: float = 5) -> dict:
    """The next event of this type (skipping others)."""
    while True:
        event = await comm.receive_json_from(timeout=timeout)
        if event["type"] == kind:
            return event


async def send(comm, **message):
    await comm.send_json_to(message)


@pytest.fixture
def ttt_match(creator, other_creator):
    match = start(rule_set("Tic-Tac-Toe"), creator, creator, other_creator)
    services.answer_invitation(match.pk, other_creator, accept=True)
    return match


async def test_moves_reach_both_seats_and_the_end_is_announced(ttt_match, creator, other_creator):
    x, first = await join(ttt_match, creator)
    o, _ = await join(ttt_match, other_creator)
    assert first["you"] == [0] and first["view"]["legal_moves"]
    for comm, text in [(x, "1,1,1"), (o, "1,2,1"), (x, "2,2,1"), (o, "1,3,1"), (x, "3,3,1")]:
        await send(comm, type="move", move=text)
        for each in (x, o):
            state = await until(each, "state")
        assert state["view"]["last_move"] == text
    for each in (x, o):
        over = await until(each, "game:over")
        assert over["reason"] == "victory" and over["winner"] == 0 and over["winners"] == [0]
        assert sorted(over["winningLine"]) == [[1, 1, 1, 1], [1, 2, 2, 1], [1, 3, 3, 1]]
    await x.disconnect()
    await o.disconnect()


async def test_every_bad_message_gets_an_error_and_changes_nothing(
    ttt_match, creator, other_creator
):
    x, _ = await join(ttt_match, creator)
    o, _ = await join(ttt_match, other_creator)
    bad = [
        (o, {"type": "move", "move": "1,1,1"}, "not-your-turn"),
        (x, {"type": "move", "move": "4,4,4"}, "malformed"),
        (x, {"type": "move", "move": 5}, "malformed"),
        (x, {"type": "move"}, "malformed"),
        (x, {"type": "move", "move": "x" * 65}, "malformed"),
        (x, {"type": "move", "move": "1,1,1", "ply": 7}, "stale"),
        (x, {"type": "move", "move": "1,1,1", "seat": 1}, "not-seated"),
        (x, {"type": "move", "move": "1,1,1", "seat": True}, "malformed"),
        (x, {"type": "fly"}, "unknown-type"),
        (x, {"no": "type"}, "malformed"),
        (x, ["a", "list"], "malformed"),
        (x, {"type": "draw:offer"}, "illegal"),  # Tic-Tac-Toe has no draw offers
        (x, {"type": "draw:answer", "accept": "yes"}, "malformed"),
    ]
    for comm, message, code in bad:
        await comm.send_json_to(message)
        error = await until(comm, "error")
        assert error["code"] == code, message
        assert error["reason"]
    await x.send_to(text_data="{not json")
    assert (await until(x, "error"))["code"] == "malformed"
    await x.send_to(text_data=json.dumps({"type": "move", "move": "1,1,1", "pad": "x" * 5000}))
    assert (await until(x, "error"))["code"] == "too-large"
    await send(x, type="move", move="1,1,1")
    await until(x, "state")
    await send(o, type="move", move="1,1,1")
    assert (await until(o, "error"))["code"] == "illegal"
    assert await sync_to_async(lambda: Match.objects.get(pk=ttt_match.pk).ply)() == 1
    await x.disconnect()
    await o.disconnect()


async def test_spectators_watch_but_cannot_move(ttt_match, creator, make_user):
    watcher = await sync_to_async(make_user)("wendy")
    for user in (None, watcher):
        spectator, state = await join(ttt_match, user)
        assert state["you"] == [] and state["view"]["seat"] is None
        assert state["view"]["legal_moves"] == []
        await send(spectator, type="move", move="1,1,1")
        assert (await until(spectator, "error"))["code"] == "not-seated"
        await spectator.disconnect()
    x, _ = await join(ttt_match, creator)
    spectator, _ = await join(ttt_match, None)
    await send(x, type="move", move="2,2,1")
    assert (await until(spectator, "state"))["view"]["last_move"] == "2,2,1"
    await x.disconnect()
    await spectator.disconnect()


async def overhear(match) -> str:
    """A channel of the test's own in the match's group: it gets what the sockets get."""
    listener = await get_channel_layer().new_channel()
    await get_channel_layer().group_add(notify.match_group(match.pk), listener)
    return listener


async def test_a_move_carries_each_seats_view_and_each_socket_sends_its_own(
    ttt_match, creator, other_creator
):
    """The process that plays a move makes every seat's view once; each socket forwards
    only the one for the seat it holds (and a spectator the spectators')."""
    x, _ = await join(ttt_match, creator)
    o, _ = await join(ttt_match, other_creator)
    spectator, _ = await join(ttt_match, None)
    listener = await overhear(ttt_match)
    await send(x, type="move", move="2,2,1")
    message = await get_channel_layer().receive(listener)
    views = message["views"]  # JSON texts, as the sockets send them
    seats, spectators = [json.loads(v) for v in views["seats"]], json.loads(views["spectators"])
    assert views["ply"] == 1 and [v["you"] for v in seats] == [[0], [1]]
    assert spectators["you"] == []
    for comm, you, legal in ((x, [0], False), (o, [1], True), (spectator, [], False)):
        state = await until(comm, "state")
        assert state["ply"] == 1 and state["you"] == you, state
        assert bool(state["view"]["legal_moves"]) == legal, state  # only O may move now
        made = seats[you[0]] if you else spectators
        assert {**state, "serverTime": 0} == {**made, "serverTime": 0}
    for comm in (x, o, spectator):
        await comm.disconnect()


async def test_a_late_message_with_older_views_sends_the_fresh_state(
    ttt_match, creator, other_creator
):
    """Two processes' messages can arrive out of order: a socket that has sent ply 2 and
    then gets the views of ply 1 sends the database's state (ply 2), never ply 1 again."""
    x, _ = await join(ttt_match, creator)
    o, _ = await join(ttt_match, other_creator)
    listener = await overhear(ttt_match)
    await send(x, type="move", move="2,2,1")
    first = await get_channel_layer().receive(listener)
    await send(o, type="move", move="1,1,1")
    for comm in (x, o):
        assert (await until(comm, "state"))["ply"] == 1
        assert (await until(comm, "state"))["ply"] == 2
    await get_channel_layer().group_send(notify.match_group(ttt_match.pk), first)
    for comm in (x, o):
        late = await until(comm, "state")
        assert late["ply"] == 2 and late["view"]["last_move"] == "1,1,1", late
    for comm in (x, o):
        await comm.disconnect()


async def test_commit_hooks_hand_messages_to_the_loop_and_they_leave_in_order(db, monkeypatch):
    """In a server process the database thread does not wait for the channel layer: a
    commit hook queues its message and returns, and the loop sends the queue in order
    (here the layer is held shut until all five are queued)."""
    layer = get_channel_layer()
    notify.serve(asyncio.get_running_loop())
    listener = await layer.new_channel()
    await layer.group_add("match-424242", listener)
    gate = asyncio.Event()
    send_now = layer.group_send

    async def held(group, message):
        await gate.wait()
        await send_now(group, message)

    monkeypatch.setattr(layer, "group_send", held)

    def commit_hooks():
        for n in range(5):
            notify._send("match-424242", {"type": "match.changed", "n": n}, False)

    await asyncio.wait_for(sync_to_async(commit_hooks)(), 5)  # returns with the gate shut
    gate.set()
    assert [(await layer.receive(listener))["n"] for _ in range(5)] == [0, 1, 2, 3, 4]


async def test_a_finished_matchs_ratings_run_off_the_database_thread(db):
    """Ratings (``notify.after_commit_work``) take ~25 ms: in a server process they run on
    a worker thread, not on the one database thread the process's moves queue for."""
    loop = asyncio.get_running_loop()
    notify.serve(loop)
    ran, done = [], asyncio.Event()

    def ratings():
        ran.append(threading.get_ident())
        loop.call_soon_threadsafe(done.set)

    def commit_hook():
        notify.after_commit_work(ratings)
        return threading.get_ident()

    database_thread = await sync_to_async(commit_hook)()
    await asyncio.wait_for(done.wait(), 5)
    assert ran and ran[0] != database_thread


async def test_a_move_does_not_queue_behind_the_database_thread(ttt_match, creator, other_creator):
    """A move runs on a worker thread: a slow job on the process's shared database thread
    (a page view, a socket's snapshot) does not hold it up."""
    notify.serve(asyncio.get_running_loop())  # as a server process does once it runs
    x, _ = await join(ttt_match, creator)
    o, _ = await join(ttt_match, other_creator)
    slow_job = asyncio.create_task(sync_to_async(time.sleep)(3))  # the shared thread
    await asyncio.sleep(0.1)
    await send(x, type="move", move="2,2,1")
    state = await until(o, "state", timeout=1.5)
    assert state["ply"] == 1 and not slow_job.done()
    await slow_job
    for comm in (x, o):
        await comm.disconnect()


async def test_a_send_to_a_socket_that_just_closed_is_dropped_quietly():
    """A state on its way when the client closes its socket (the server's websocket layer
    raises ``Disconnected``) is dropped, not an error inside the application."""
    from autobahn.exception import Disconnected

    from play.consumers import MatchConsumer

    async def closed(message):
        raise Disconnected("Attempt to send on a closed protocol")

    consumer = MatchConsumer()
    consumer.base_send = closed
    await consumer.send_json({"type": "state"})  # does not raise


async def test_unknown_match_is_refused(db):
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/match/999999/")
    comm.scope["user"] = AnonymousUser()
    connected, code = await comm.connect(timeout=5)
    assert not connected and code == 4404


async def test_resignation(ttt_match, creator, other_creator):
    x, _ = await join(ttt_match, creator)
    o, _ = await join(ttt_match, other_creator)
    await send(o, type="game:resign")
    over = await until(x, "game:over")
    assert over["reason"] == "resignation" and over["winner"] == 0
    await send(o, type="game:resign")
    assert (await until(o, "error"))["code"] == "finished"
    await x.disconnect()
    await o.disconnect()


async def test_draw_offer_and_answers(creator, other_creator):
    match = await sync_to_async(
        lambda: start(rule_set("Drawable", agree_draw=True), creator, creator, other_creator)
    )()
    await sync_to_async(services.answer_invitation)(match.pk, other_creator, True)
    x, _ = await join(match, creator)
    o, _ = await join(match, other_creator)
    await send(x, type="draw:offer")
    state = await until(o, "state")  # the state comes first, then the change's events
    assert "accept" in state["view"]["legal_moves"]
    offer = await until(o, "draw:offer")
    assert offer["seat"] == 0
    await send(o, type="draw:answer", accept=False)
    answer = await until(x, "draw:answer")
    assert answer == {"type": "draw:answer", "seat": 1, "accept": False}
    await send(x, type="move", move="2,2,1")
    while 1 not in (await until(o, "state"))["view"]["to_move"]:
        pass  # as a client does: O offers on its own turn, once it sees it
    await send(o, type="draw:offer")
    await until(x, "draw:offer")
    await send(x, type="draw:answer", accept=True)
    over = await until(o, "game:over")
    assert over["reason"] == "agreed-draw" and over["winner"] is None
    await x.disconnect()
    await o.disconnect()


@pytest.fixture
def afk_match(creator, other_creator):
    """Tic-Tac-Toe with a 30 s AFK timeout, warned 10 s before."""
    rules = rule_set("Tic-Tac-Toe")
    match = start(rules, creator, creator, other_creator, afk=True, afk_timeout=30, afk_warning=10)
    services.answer_invitation(match.pk, other_creator, accept=True)
    return match


async def test_afk_warning_cleared_and_timeout(afk_match, creator):
    match = afk_match
    x, state = await join(match, creator)
    assert state["timers"]["afk"]["seat"] == 0
    await sync_to_async(services.expire_timers)(match.pk, later(21))
    warning = await until(x, "tictactoe:afk_warning")
    assert warning["seat"] == 0 and 0 < warning["secondsLeft"] <= 10
    await send(x, type="move", move="1,1,1")  # a move clears it
    cleared = await until(x, "tictactoe:afk_warning_cleared")
    assert cleared["seat"] == 0
    await sync_to_async(services.expire_timers)(match.pk, later(21))
    await until(x, "tictactoe:afk_warning")  # now seat 2 dawdles
    await sync_to_async(services.expire_timers)(match.pk, later(31))
    over = await until(x, "game:over")
    assert over["reason"] == "timeout" and over["winner"] == 0
    await x.disconnect()


async def test_afk_ping_clears_the_warning(afk_match, creator):
    match = afk_match
    x, _ = await join(match, creator)
    await sync_to_async(services.expire_timers)(match.pk, later(21))
    await until(x, "tictactoe:afk_warning")
    await send(x, type="afk:ping")
    assert (await until(x, "tictactoe:afk_warning_cleared"))["seat"] == 0
    await x.disconnect()


async def test_turn_timer_random_move(creator, other_creator):
    rules = await sync_to_async(
        lambda: rule_set("Quick-TTT", seconds_per_turn=5, timeout="random-move")
    )()
    match = await sync_to_async(lambda: start(rules, creator, creator, other_creator))()
    await sync_to_async(services.answer_invitation)(match.pk, other_creator, True)
    x, state = await join(match, creator)
    assert state["timers"]["turnSeconds"] == 5 and state["timers"]["turnDeadline"]
    await sync_to_async(services.expire_timers)(match.pk, later(6))
    state = await until(x, "state")
    assert state["ply"] == 1 and state["view"]["to_move"] == [1]
    await x.disconnect()


async def test_reconnect_window(ttt_match, creator, other_creator):
    x, _ = await join(ttt_match, creator)
    o, _ = await join(ttt_match, other_creator)
    await o.disconnect()
    gone = await until(x, "player:disconnected")
    assert gone["seat"] == 1 and gone["deadline"]
    o, state = await join(ttt_match, other_creator)
    back = await until(x, "player:reconnected")
    assert back["seat"] == 1
    await send(o, type="game:reconnect", playerId=state["seats"][1]["playerId"])
    assert (await until(o, "state"))["you"] == [1]
    await o.disconnect()
    await until(x, "player:disconnected")
    await sync_to_async(services.expire_timers)(ttt_match.pk, later(61))
    over = await until(x, "game:over")
    assert over["reason"] == "disconnect" and over["winner"] == 0
    await x.disconnect()


async def test_invitation_and_matchmaking_in_the_lobby(creator, other_creator):
    ttt = await sync_to_async(rule_set)("Tic-Tac-Toe")
    lobby_a = await open_socket("/ws/lobby/", creator)
    lobby_b = await open_socket("/ws/lobby/", other_creator)
    await send(lobby_a, type="matchmaking:join", ruleSet=ttt.pk, afkTimeout=40, afkWarning=10)
    waiting = await until(lobby_a, "matchmaking:waiting")
    await send(lobby_b, type="matchmaking:join", ruleSet=ttt.pk)
    matched_b = await until(lobby_b, "matchmaking:matched")
    matched_a = await until(lobby_a, "matchmaking:matched")
    assert matched_a["matchId"] == matched_b["matchId"] == waiting["matchId"]
    match = await sync_to_async(Match.objects.get)(pk=waiting["matchId"])
    assert match.status == "active" and match.afk_timeout == 40
    await send(lobby_a, type="matchmaking:join", ruleSet=424242)
    assert (await until(lobby_a, "error"))["code"] == "malformed"
    invited = await sync_to_async(lambda: start(ttt, creator, creator, other_creator))()
    invitation = await until(lobby_b, "invitation")
    assert invitation["matchId"] == invited.pk and invitation["from"] == creator.username
    await lobby_a.disconnect()
    await lobby_b.disconnect()


async def test_the_lobby_refuses_anonymous_visitors(db):
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/lobby/")
    comm.scope["user"] = AnonymousUser()
    connected, code = await comm.connect(timeout=5)
    assert not connected and code == 4401


async def test_the_timekeeper_plays_the_bot(creator, settings):
    settings.PLAY_TIMEKEEPER = True
    match = await sync_to_async(lambda: start(rule_set("Tic-Tac-Toe"), creator, creator, bot()))()
    x, _ = await join(match, creator)
    timekeeper.ensure_started()
    try:
        await send(x, type="move", move="2,2,1")
        while True:
            state = await until(x, "state")
            if state["ply"] == 2:
                break
        assert state["view"]["to_move"] == [0]
    finally:
        timekeeper._task.cancel()
        await asyncio.sleep(0)
    await x.disconnect()
