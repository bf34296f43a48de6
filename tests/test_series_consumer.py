"""Seed 001's intermissions through the websocket consumer: ``series:ready`` from both
players moves both pages to the next game; an intermission that runs out (a fake clock
through ``play.services.expire_timers``, as the timekeeper calls it) ends the series."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async

from play import intermission, services, timekeeper
from play.models import Match
from tests.play_helpers import later, rule_set, start
from tests.test_play_consumer import join, send, until

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def ultimate_match(creator, other_creator):
    match = start(rule_set("Ultimate-Tic-Tac-Toe"), creator, creator, other_creator)
    services.answer_invitation(match.pk, other_creator, accept=True)
    return match


async def resign_and_see_the_intermission(match, x, o) -> dict:
    await send(o, type="game:resign")
    for comm in (x, o):
        state = await until(comm, "state")  # each socket's state comes before the events
        assert state["status"] == "finished"
        assert (await until(comm, "game:over"))["reason"] == "resignation"
    return state


async def test_both_ready_moves_both_pages_to_the_next_game(ultimate_match, creator, other_creator):
    x, first = await join(ultimate_match, creator)
    o, _ = await join(ultimate_match, other_creator)
    assert first["series"] is None  # a first game in play: no series to tell yet
    state = await resign_and_see_the_intermission(ultimate_match, x, o)
    series = state["series"]
    assert series["game"] == 1 and series["deadline"] and series["ready"] == []
    await send(x, type="series:ready")
    state = await until(o, "state")  # the state first, then the event
    ready = await until(o, "series:ready")
    assert ready["playerIds"] == [first["seats"][0]["playerId"]] == state["series"]["ready"]
    await send(o, type="series:ready")
    moves = [await until(comm, "series:next") for comm in (x, o)]
    new = await sync_to_async(Match.objects.get)(previous=ultimate_match)
    assert {m["matchId"] for m in moves} == {new.pk} and moves[0]["url"] == f"/matches/{new.pk}/"
    assert moves[0]["game"] == 2
    await x.disconnect()
    await o.disconnect()
    # The next game: Otto now plays X (seat 0) and moves first.
    o2, state = await join(new, other_creator)
    assert state["status"] == "active" and state["you"] == [0] and state["view"]["to_move"] == [0]
    assert state["series"]["game"] == 2 and state["series"]["previous"] == ultimate_match.pk
    await o2.disconnect()


async def test_an_intermission_that_runs_out_ends_the_series(
    ultimate_match, creator, other_creator
):
    x, _ = await join(ultimate_match, creator)
    o, _ = await join(ultimate_match, other_creator)
    await resign_and_see_the_intermission(ultimate_match, x, o)
    await send(x, type="series:ready")
    await until(o, "series:ready")
    await sync_to_async(services.expire_timers)(ultimate_match.pk, later(31))
    for comm in (x, o):
        state = await until(comm, "state")
        while state["series"]["end"] is None:  # x still has the state of its own Ready
            state = await until(comm, "state")
        assert state["series"]["end"] == "expired" and state["series"]["deadline"] is None
        over = await until(comm, "series:over")
        assert "series is over" in over["reason"]
    await send(o, type="series:ready")  # too late
    assert (await until(o, "error"))["code"] == "not-allowed"
    assert not await sync_to_async(Match.objects.filter(previous=ultimate_match).exists)()
    await x.disconnect()
    await o.disconnect()


async def test_a_spectator_cannot_say_ready(ultimate_match, creator, other_creator):
    x, _ = await join(ultimate_match, creator)
    o, _ = await join(ultimate_match, other_creator)
    await resign_and_see_the_intermission(ultimate_match, x, o)
    watcher, _ = await join(ultimate_match, None)
    await send(watcher, type="series:ready")
    assert (await until(watcher, "error"))["code"] == "not-seated"
    for comm in (x, o, watcher):
        await comm.disconnect()


async def test_the_timekeeper_ends_an_intermission_that_runs_out(
    ultimate_match, creator, other_creator, settings, monkeypatch
):
    """The real timekeeper, polling the deadline column (a 1 s intermission here)."""
    settings.PLAY_TIMEKEEPER = True
    monkeypatch.setattr(intermission, "INTERMISSION_SECONDS", 1)
    x, _ = await join(ultimate_match, creator)
    o, _ = await join(ultimate_match, other_creator)
    timekeeper.ensure_started()
    try:
        await resign_and_see_the_intermission(ultimate_match, x, o)
        over = await until(x, "series:over", timeout=10)
        assert "series is over" in over["reason"]
    finally:
        timekeeper._task.cancel()
        await asyncio.sleep(0)
    for comm in (x, o):
        await comm.disconnect()
