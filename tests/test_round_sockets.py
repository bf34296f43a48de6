"""A simultaneous round between two people over websockets (issue 19): neither socket
receives the other's plan before the round resolves (every message each socket receives
is checked, and a seat's messages do not depend on the other's plan at all), the round
resolves as one event that both seats and a spectator receive with both moves, and a
reconnection mid-round shows a seat its own plan only. On PlanToy
(``tests/round_helpers.py``), whose plans ``a1``..``a3`` / ``b1``..``b3`` are distinct
texts."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async

from play import services
from tests.play_helpers import start
from tests.round_helpers import forget_plan_toys, plan_toy
from tests.test_play_consumer import join, send

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def toy_rules(db):
    yield plan_toy()
    forget_plan_toys()


def people(rules, a, b):
    match = start(rules, a, a, b)
    services.answer_invitation(match.pk, b, accept=True)
    return match


async def drain(comm, until_type: str | None = None, quiet: float = 0.3) -> list[dict]:
    """Every message the socket receives: up to one of ``until_type``, or until it is
    quiet for ``quiet`` seconds (``receive_nothing`` waits without closing the socket)."""
    got = []
    while True:
        if until_type is None and await comm.receive_nothing(timeout=quiet):
            return got
        message = await comm.receive_json_from(timeout=5)
        got.append(message)
        if message["type"] == until_type:
            return got


def unresolved(messages: list[dict], ply: int = 2) -> list[dict]:
    """The messages before the round resolved: what came before the state of ``ply``
    (the position after the last plan, which shows the round's moves)."""
    out = []
    for m in messages:
        if m["type"] == "state" and m["ply"] >= ply or m["type"] == "round:resolved":
            break
        out.append(m)
    return out


def normal(messages: list[dict]) -> list[dict]:
    """Messages without what differs between two matches of the same moves (ids, times)."""
    out = []
    for m in messages:
        m = {k: v for k, v in m.items() if k not in ("matchId", "serverTime", "timers")}
        out.append(m)
    return out


async def test_neither_seat_receives_the_others_plan_before_the_round_resolves(
    toy_rules, creator, other_creator, make_user
):
    match = await sync_to_async(people)(toy_rules, creator, other_creator)
    a, first = await join(match, creator)
    b, _ = await join(match, other_creator)
    watcher, _ = await join(match, await sync_to_async(make_user)("wendy"))
    assert first["view"]["to_move"] == [0, 1] and first["view"]["legal_moves"] == ["a1", "a2", "a3"]
    await drain(a), await drain(watcher)  # b's arrival
    await send(a, type="move", move="a2")
    before = {name: await drain(c, "plan:registered") for name, c in
              (("a", a), ("b", b), ("watcher", watcher))}  # fmt: skip
    await send(b, type="move", move="b3")
    after = {name: await drain(c, "round:resolved") for name, c in
             (("a", a), ("b", b), ("watcher", watcher))}  # fmt: skip
    # Before the resolution: b and the spectator never see "a2"; a never sees "b3".
    for name in ("b", "watcher"):
        for message in before[name] + unresolved(after[name]):
            assert "a2" not in json.dumps(message), (name, message)
    for message in before["a"] + unresolved(after["a"]):
        assert "b3" not in json.dumps(message), message
    registered = [m for m in before["b"] if m["type"] == "plan:registered"]
    assert registered == [{"type": "plan:registered", "seat": 0, "round": 1, "waiting": [1]}]
    b_state = [m for m in before["b"] if m["type"] == "state"][-1]
    assert b_state["view"]["plans"] == {"registered": [1], "mine": None}
    a_state = [m for m in before["a"] if m["type"] == "state"][-1]
    assert a_state["view"]["plans"] == {"registered": [1], "mine": "a2"}
    # The resolution: one event, the same for everyone, with both moves.
    resolved = [m[-1] for m in after.values()]
    assert all(r == resolved[0] for r in resolved)
    assert resolved[0]["moves"] == [{"seat": 0, "move": "a2"}, {"seat": 1, "move": "b3"}]
    for messages in after.values():
        assert [m for m in messages if m["type"] == "state"][-1]["view"]["totals"] == [2, 3]
    for comm in (a, b, watcher):
        await comm.disconnect()


async def _what_b_sees(rules, a_user, b_user, plan: str) -> list[dict]:
    match = await sync_to_async(people)(rules, a_user, b_user)
    a, _ = await join(match, a_user)
    b, _ = await join(match, b_user)
    await drain(a)
    await send(a, type="move", move=plan)
    seen = await drain(b, "plan:registered")
    seen += await drain(b)  # anything else that would come before b plans
    for comm in (a, b):
        await comm.disconnect()
    return normal(seen)


async def test_what_a_seat_receives_does_not_depend_on_the_others_plan(
    toy_rules, creator, other_creator
):
    """Non-interference: b's messages after a's plan are the same whichever plan a made."""
    one = await _what_b_sees(toy_rules, creator, other_creator, "a1")
    three = await _what_b_sees(toy_rules, creator, other_creator, "a3")
    assert one == three and [m["type"] for m in one] == ["state", "plan:registered"]


async def test_a_reconnection_mid_round_shows_a_seat_its_own_plan_only(
    toy_rules, creator, other_creator
):
    match = await sync_to_async(people)(toy_rules, creator, other_creator)
    a, _ = await join(match, creator)
    b, _ = await join(match, other_creator)
    await send(a, type="move", move="a3")
    await drain(b, "plan:registered")
    await a.disconnect()
    await b.disconnect()
    a, state = await join(match, creator)
    assert state["view"]["plans"] == {"registered": [1], "mine": "a3"}
    assert state["view"]["legal_moves"] == [] and state["view"]["to_move"] == [1]
    b, state = await join(match, other_creator)
    assert "a3" not in json.dumps(state) and state["view"]["plans"]["mine"] is None
    await send(b, type="game:reconnect")
    for message in await drain(b, "state"):
        assert "a3" not in json.dumps(message)
    await send(a, type="move", move="a1")  # planned already: refused in words
    error = (await drain(a, "error"))[-1]
    assert error["code"] == "not-your-turn" and "registered" in error["reason"]
    await send(b, type="move", move="b1")
    resolved = (await drain(a, "round:resolved"))[-1]
    assert resolved["moves"] == [{"seat": 0, "move": "a3"}, {"seat": 1, "move": "b1"}]
    for comm in (a, b):
        await comm.disconnect()
