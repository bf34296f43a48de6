"""Simultaneous rounds of the real general engine in live play (issue 19): Stand-off, a
small simultaneous document (a 1x3 column of squares, two circles each; the top square is
black's alone, the bottom white's, the middle shared), played over websockets between
two people, on timers, by a bot, in the replay, and refused by the Socket.IO door.
The match layer's rules of rounds are tested in detail on PlanToy
(``tests/test_round_services.py``, ``tests/test_round_sockets.py``)."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async

from play import replay, rounds, services, socketio_server, timers
from play.models import Match
from tests.play_helpers import later, log, rule_set, start
from tests.test_play_consumer import join, send
from tests.test_round_sockets import drain, normal, unresolved

STAND_OFF = {
    "board": {"type": "squares", "size": [1, 3, 1]},
    "reserves": {"black": {"circle": 2}, "white": {"circle": 2}},
    "turn_checks": [],
    "stalemate": "most-pieces-wins",
    "phases": [{"order": "simultaneous"}],
    "exclusive": [{"at": [1, 1, 1], "seats": [1]}, {"at": [1, 3, 1], "seats": [2]}],
}


def stand_off(**doc):
    return rule_set("Stand-off", **{**STAND_OFF, **doc})


def people(rules, a, b, **options):
    match = start(rules, a, a, b, **options)
    services.answer_invitation(match.pk, b, accept=True)
    return Match.objects.get(pk=match.pk)


def pieces(state_event) -> list:
    return sorted(p["at"] for p in state_event["view"]["boards"][0]["pieces"])


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_round_between_two_people_over_websockets(creator, other_creator, make_user):
    rules = await sync_to_async(stand_off)()
    match = await sync_to_async(people)(rules, creator, other_creator)
    a, first = await join(match, creator)
    b, _ = await join(match, other_creator)
    watcher, _ = await join(match, await sync_to_async(make_user)("wendy"))
    assert first["view"]["phase"]["order"] == "simultaneous"
    assert first["view"]["to_move"] == [0, 1]
    assert [t["seat"] for t in first["timers"]["teams"]] == [0, 1]  # a clock each
    await drain(a), await drain(watcher)
    await send(a, type="move", move="1,1,1")  # black's own square: a text white never sees
    before = {n: await drain(c, "plan:registered") for n, c in
              (("a", a), ("b", b), ("watcher", watcher))}  # fmt: skip
    await send(b, type="move", move="1,3,1")
    after = {n: await drain(c, "round:resolved") for n, c in
             (("a", a), ("b", b), ("watcher", watcher))}  # fmt: skip
    for name in ("b", "watcher"):
        for message in before[name] + unresolved(after[name]):
            assert "1,1,1" not in json.dumps(message), (name, message)
    for message in before["a"] + unresolved(after["a"]):
        assert "1,3,1" not in json.dumps(message), message
    b_state = [m for m in before["b"] if m["type"] == "state"][-1]
    assert (
        b_state["view"]["plans"]["registered"] == [1] and b_state["view"]["plans"]["mine"] is None
    )
    assert pieces(b_state) == []  # nothing moves before the round resolves
    resolved = [m[-1] for m in after.values()]
    assert all(r == resolved[0] for r in resolved)
    assert resolved[0] == {
        "type": "round:resolved",
        "round": 1,
        "moves": [{"seat": 0, "move": "1,1,1"}, {"seat": 1, "move": "1,3,1"}],
    }
    for messages in after.values():
        assert pieces([m for m in messages if m["type"] == "state"][-1]) == [[1, 1, 1], [1, 3, 1]]
    # Round 2: both take the middle square: they collide and both pieces are destroyed.
    await send(b, type="move", move="1,2,1")
    await drain(a, "plan:registered")
    await send(a, type="move", move="1,2,1")
    got = await drain(watcher, "round:resolved")
    assert got[-1]["moves"] == [{"seat": 0, "move": "1,2,1"}, {"seat": 1, "move": "1,2,1"}]
    assert pieces([m for m in got if m["type"] == "state"][-1]) == [[1, 1, 1], [1, 3, 1]]
    over = (await drain(watcher, "game:over"))[-1]  # no move left: most pieces, a tie
    assert over["reason"] == "stalemate"
    for comm in (a, b, watcher):
        await comm.disconnect()


async def _what_b_sees(rules, a_user, b_user, plan: str) -> list[dict]:
    match = await sync_to_async(people)(rules, a_user, b_user)
    a, _ = await join(match, a_user)
    b, _ = await join(match, b_user)
    await drain(a)
    await send(a, type="move", move=plan)
    seen = await drain(b, "plan:registered") + await drain(b)
    for comm in (a, b):
        await comm.disconnect()
    return normal(seen)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_what_white_receives_does_not_depend_on_blacks_plan(creator, other_creator):
    rules = await sync_to_async(stand_off)()
    own = await _what_b_sees(rules, creator, other_creator, "1,1,1")
    shared = await _what_b_sees(rules, creator, other_creator, "1,2,1")
    assert own == shared and [m["type"] for m in own] == ["state", "plan:registered"]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_reconnection_mid_round(creator, other_creator):
    rules = await sync_to_async(stand_off)()
    match = await sync_to_async(people)(rules, creator, other_creator)
    a, _ = await join(match, creator)
    b, _ = await join(match, other_creator)
    await send(a, type="move", move="1,1,1")
    await drain(b, "plan:registered")
    for comm in (a, b):
        await comm.disconnect()
    a, state = await join(match, creator)
    assert state["view"]["plans"]["mine"] == "1,1,1" and state["view"]["legal_moves"] == []
    b, state = await join(match, other_creator)
    assert "1,1,1" not in json.dumps(state) and state["view"]["to_move"] == [1]
    await send(b, type="game:reconnect")
    assert "1,1,1" not in json.dumps(await drain(b, "state"))
    for comm in (a, b):
        await comm.disconnect()


@pytest.mark.django_db
def test_each_seat_to_plan_has_its_own_clock_and_a_late_one_plans_nothing(creator, other_creator):
    match = people(stand_off(seconds_per_turn=10, timeout="skip"), creator, other_creator)
    assert set(match.team_clocks) == {"0", "1"}
    deadline = match.team_clocks["0"]["deadline"]
    services.play(match.pk, other_creator, "1,3,1")
    match.refresh_from_db()
    assert set(match.team_clocks) == {"0"} and match.team_clocks["0"]["deadline"] == deadline
    services.expire_timers(match.pk, later(11))
    match.refresh_from_db()
    assert log(match) == [(1, "move", "1,3,1"), (0, "skip", "")]
    state = replay.current_state(match)
    assert state.round == 1 and state.to_move() == (0, 1)  # round 2, both clocks anew
    assert set(match.team_clocks) == {"0", "1"} and match.team_clocks["0"]["deadline"] > deadline


@pytest.mark.django_db
def test_the_replay_and_its_data_hide_an_unresolved_plan(client, creator, other_creator):
    match = people(stand_off(), creator, other_creator)
    services.play(match.pk, creator, "1,1,1")
    services.play(match.pk, other_creator, "1,3,1")
    services.play(match.pk, creator, "1,2,1")
    shown = replay.frames(match)
    assert [(f["kind"], f.get("round")) for f in shown] == [
        (None, None),
        ("round", 1),
        ("plans", 2),
    ]
    assert shown[-1]["moves"] == [{"seat": 0, "move": None}]
    assert "1,2,1" not in json.dumps(shown[-1]) and shown[-1]["view"]["boards"][0]["pieces"]
    client.force_login(other_creator)
    page = client.get(f"/matches/{match.pk}/replay/").content.decode()
    data = json.loads(
        page.split('id="replay-data" type="application/json">')[1].split("</script>")[0]
    )
    assert data["frames"][-1]["moves"] == [{"seat": 0, "move": None}]
    client.force_login(creator)
    page = client.get(f"/matches/{match.pk}/replay/").content.decode()
    data = json.loads(
        page.split('id="replay-data" type="application/json">')[1].split("</script>")[0]
    )
    assert data["frames"][-1]["moves"] == [{"seat": 0, "move": "1,2,1"}]


@pytest.mark.django_db
def test_a_bot_plans_on_the_round_without_the_persons_plan(creator, monkeypatch, settings):
    from accounts.services import random_player

    settings.PLAY_BOT_PACE = 0
    seen = []
    real = timers.agent_for

    class Watch:
        def __init__(self, agent):
            self.agent = agent

        def choose(self, state, seat):
            seen.append((seat, rounds.pending(state), list(state.to_move())))
            return self.agent.choose(state, seat)

    monkeypatch.setattr(timers, "agent_for", lambda *a: Watch(real(*a)))
    match = start(stand_off(), creator, creator, random_player())
    services.play(match.pk, creator, "1,1,1")
    assert services.server_move(match.pk, later(1))
    assert seen == [(1, {}, [0, 1])]  # black's plan forgotten: black is again to plan
    state = replay.current_state(Match.objects.get(pk=match.pk))
    assert state.round == 1 and state.last_round[0][1] == state.game.parse_move("1,1,1")


@pytest.mark.django_db
def test_the_socketio_door_plays_only_classic_games_in_turns(make_user):
    line = {"board": {"type": "squares", "size": [3, 3, 1]}}
    assert socketio_server._classic(rule_set("Tic-Tac-Toe"))
    together = rule_set("Together-TTT", phases=[{"order": "simultaneous"}], **line)
    assert not socketio_server._classic(together)
    from accounts.services import human_player

    me, you = make_user("sid"), make_user("sal")
    classic = people(rule_set("Tic-Tac-Toe"), me, you)
    match = people(together, me, you)  # newer, live, theirs: but not for this door
    assert match.status == Match.Status.ACTIVE
    assert socketio_server._live_match_of(me, human_player(me).pk) == classic.pk


@pytest.mark.django_db
def test_bots_answering_a_draw_offer_in_a_round_answer_one_at_a_time(creator, settings):
    """Two bots asked at once: when the first declines, the offer is over and the second
    bot's answer no longer fits; it is not played (the next wake plans afresh)."""
    from accounts.services import random_player

    settings.PLAY_BOT_PACE = 0
    doc = {
        "players": "3",
        "board": {"type": "squares", "size": [1, 3, 1]},
        "reserves": {"black": {"circle": 1}, "white": {"circle": 1}, "pink": {"circle": 1}},
        "turn_checks": [],
        "agree_draw": True,
        "phases": [{"order": "simultaneous"}],
    }
    rand = random_player()
    match = start(rule_set("Three-way", **doc), creator, creator, rand, rand)
    services.play(match.pk, creator, "draw")
    for step in range(1, 6):
        services.server_move(match.pk, later(step))
    rows = log(Match.objects.get(pk=match.pk))
    answers = [r for r in rows if r[2] in ("accept", "decline")]
    assert rows[0] == (0, "move", "draw") and answers[0][0] == 1
    if answers[0][2] == "decline":  # the offer ended: seat 3 never answered it
        assert [r[0] for r in answers] == [1]
    else:
        assert [r[0] for r in answers] == [1, 2]
