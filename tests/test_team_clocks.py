"""Seed 000's simultaneous turn order in live play: every team still to move in a round
has its own turn timer and AFK timer, started when the team became due and never
restarted by another team's move. Through the websocket consumer, timers fired with a fake
clock through ``play.services.expire_timers`` (as the timekeeper calls it)."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async

from play import services
from play.models import Match
from tests.play_helpers import later, log, near, rule_set, start
from tests.test_play_consumer import join, send, until

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def together(players: str, **doc):
    nested = {"side": 3, "depth": 2, "dimensions": 2, "turn_order": "simultaneous"}
    return rule_set(
        f"Together-{players}", players=players, board={"type": "nested"}, nested=nested, **doc
    )


def invite(rules, by, *users, **options):
    match = start(rules, by, *users, **options)
    for user in users[1:]:
        services.answer_invitation(match.pk, user, accept=True)
    return match


def clocks(state) -> dict[int, dict]:
    return {t["seat"]: t for t in state["timers"]["teams"]}


async def latest_state(comm, ply: int) -> dict:
    while True:
        state = await until(comm, "state")
        if state["ply"] >= ply:
            return state


@pytest.fixture
def tess(make_user):
    return make_user("tess")


async def test_each_team_keeps_its_own_turn_timer(creator, other_creator, tess):
    rules = await sync_to_async(lambda: together("3", seconds_per_turn=10, timeout="skip"))()
    match = await sync_to_async(invite)(rules, creator, creator, other_creator, tess)
    x, state = await join(match, creator)
    o, _ = await join(match, other_creator)
    t, _ = await join(match, tess)
    assert state["view"]["to_move"] == [0, 1, 2]
    first = clocks(state)
    deadline = first[0]["turnDeadline"]
    assert set(first) == {0, 1, 2} and {c["turnDeadline"] for c in first.values()} == {deadline}

    await asyncio.sleep(0.3)  # a restarted clock would now end later than the first
    await send(x, type="move", move=state["view"]["legal_moves"][0])
    seen = await latest_state(o, 1)
    after = clocks(seen)
    assert set(after) == {1, 2}  # X has moved this round: its clock stopped
    assert after[1]["turnDeadline"] == after[2]["turnDeadline"] == deadline  # not restarted

    await asyncio.sleep(0.3)
    await send(o, type="move", move=seen["view"]["legal_moves"][0])
    after = clocks(await latest_state(t, 2))
    assert set(after) == {2} and after[2]["turnDeadline"] == deadline

    # Tess's own 10 s run out: her turn is skipped (the rules' consequence) and only hers.
    # The fake clock is set from her deadline, not from now: on a slow machine a second
    # may already have passed since the round began.
    await sync_to_async(services.expire_timers)(match.pk, near(deadline, -1))
    assert await sync_to_async(lambda: Match.objects.get(pk=match.pk).ply)() == 2
    await sync_to_async(services.expire_timers)(match.pk, near(deadline, 1))
    state = await latest_state(x, 3)
    rows = await sync_to_async(lambda: log(Match.objects.get(pk=match.pk)))()
    assert [(seat, kind) for seat, kind, _ in rows] == [(0, "move"), (1, "move"), (2, "skip")]
    # A new round: every team is due again, each with a fresh clock of its own.
    assert state["view"]["to_move"] == [0, 1, 2]
    fresh = clocks(state)
    assert set(fresh) == {0, 1, 2} and min(c["turnDeadline"] for c in fresh.values()) > deadline
    for comm in (x, o, t):
        await comm.disconnect()


async def test_each_team_is_warned_and_times_out_on_its_own(creator, other_creator):
    rules = await sync_to_async(lambda: together("2"))()
    match = await sync_to_async(invite)(
        rules, creator, creator, other_creator, afk=True, afk_timeout=30, afk_warning=10
    )
    x, state = await join(match, creator)
    o, _ = await join(match, other_creator)
    first = clocks(state)
    assert first[0]["afk"] == first[1]["afk"] and first[0]["afk"]["warnAt"]

    # Both teams dawdle: both are warned, not only the first one waited for.
    await sync_to_async(services.expire_timers)(match.pk, near(first[0]["afk"]["warnAt"], 1))
    warned = {(await until(o, "tictactoe:afk_warning"))["seat"] for _ in range(2)}
    assert warned == {0, 1}

    # X moves: X's warning is cleared; O's AFK timer runs on from the start of the round.
    await send(x, type="move", move=state["view"]["legal_moves"][0])
    after = clocks(await latest_state(o, 1))  # the state comes first, then the events
    assert (await until(o, "tictactoe:afk_warning_cleared"))["seat"] == 0
    assert set(after) == {1} and after[1]["afk"] == first[1]["afk"]

    await sync_to_async(services.expire_timers)(match.pk, later(31))
    over = await until(x, "game:over")
    assert over["reason"] == "timeout" and over["winner"] == 0
    for comm in (x, o):
        await comm.disconnect()


async def test_a_ping_restarts_only_the_pingers_afk_timer(creator, other_creator):
    rules = await sync_to_async(lambda: together("2"))()
    match = await sync_to_async(invite)(
        rules, creator, creator, other_creator, afk=True, afk_timeout=30, afk_warning=10
    )
    x, state = await join(match, creator)
    o, _ = await join(match, other_creator)
    warn_at = clocks(state)[0]["afk"]["warnAt"]
    await sync_to_async(services.expire_timers)(match.pk, near(warn_at, 1))
    for _ in range(2):
        await until(x, "tictactoe:afk_warning")
    await send(o, type="afk:ping")
    after = clocks(await until(x, "state"))
    assert (await until(x, "tictactoe:afk_warning_cleared"))["seat"] == 1
    assert after[1]["afk"]["deadline"] > after[0]["afk"]["deadline"]
    await sync_to_async(services.expire_timers)(match.pk, later(31))
    over = await until(o, "game:over")
    assert over["reason"] == "timeout" and over["winner"] == 1  # X stayed away
    for comm in (x, o):
        await comm.disconnect()
