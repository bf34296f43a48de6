"""Matches through ``play.services``: moves, errors, draws, resignation, invitations,
matchmaking, server-side players, timers and the reconnect window (with a fake clock)."""

from __future__ import annotations

import json

import pytest

from play import notify, services
from play.errors import MatchError
from play.models import Match, Move, Presence
from play.replay import current_state
from tests.play_helpers import bot, later, log, near, rule_set, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def ttt(db):
    return rule_set("Tic-Tac-Toe")


def play_all(match, moves):
    for user, text in moves:
        services.play(match.pk, user, text)


def fresh(match) -> Match:
    return Match.objects.get(pk=match.pk)


def test_two_humans_play_to_a_win(ttt, creator, other_creator):
    match = start(ttt, creator, creator, other_creator)
    assert match.status == "invited"  # the other human must accept first
    services.answer_invitation(match.pk, other_creator, accept=True)
    assert fresh(match).status == "active"
    x, o = creator, other_creator
    play_all(match, [(x, "1,1,1"), (o, "1,2,1"), (x, "2,1,1"), (o, "2,2,1"), (x, "3,1,1")])
    match = fresh(match)
    assert match.status == "finished"
    assert match.outcome["reason"] == "victory"
    assert match.outcome["winner"] == 0
    assert sorted(match.outcome["winningLine"]) == [[1, 1, 1, 1], [1, 2, 1, 1], [1, 3, 1, 1]]
    assert [s.result for s in match.seats.all()] == ["win", "loss"]
    assert match.ply == 5 and len(log(match)) == 5


def test_errors_change_nothing(ttt, creator, other_creator, make_user):
    match = start(ttt, creator, creator, other_creator)
    with pytest.raises(MatchError) as err:
        services.play(match.pk, creator, "1,1,1")
    assert err.value.code == "not-started"
    services.answer_invitation(match.pk, other_creator, accept=True)
    cases = [
        (other_creator, "1,1,1", {}, "not-your-turn"),
        (creator, "9,9,9", {}, "malformed"),
        (creator, "banana", {}, "malformed"),
        (make_user("stranger"), "1,1,1", {}, "not-seated"),
        (creator, "1,1,1", {"ply": 3}, "stale"),
        (creator, "1,1,1", {"seat": 1}, "not-seated"),
    ]
    for user, text, extra, code in cases:
        with pytest.raises(MatchError) as err:
            services.play(match.pk, user, text, **extra)
        assert err.value.code == code, (text, extra)
    services.play(match.pk, creator, "1,1,1")
    with pytest.raises(MatchError) as err:
        services.play(match.pk, other_creator, "1,1,1")
    assert err.value.code == "illegal"
    assert log(match) == [(0, "move", "1,1,1")]


def test_resignation_ends_the_match(ttt, creator, other_creator):
    match = start(ttt, creator, creator, other_creator)
    services.answer_invitation(match.pk, other_creator, accept=True)
    services.resign(match.pk, other_creator)
    match = fresh(match)
    assert match.outcome["reason"] == "resignation"
    assert match.outcome["winner"] == 0
    assert log(match) == [(1, "resign", "")]
    with pytest.raises(MatchError) as err:
        services.play(match.pk, creator, "1,1,1")
    assert err.value.code == "finished"


def test_agreed_draw(creator, other_creator):
    rules = rule_set("Drawable", agree_draw=True)
    match = start(rules, creator, creator, other_creator)
    services.answer_invitation(match.pk, other_creator, accept=True)
    services.play(match.pk, creator, "draw")
    services.play(match.pk, other_creator, "decline")
    services.play(match.pk, creator, "2,2,1")
    services.play(match.pk, other_creator, "draw")
    services.play(match.pk, creator, "accept")
    match = fresh(match)
    assert match.outcome["reason"] == "agreed-draw"
    assert match.outcome["winner"] is None
    assert [s.result for s in match.seats.all()] == ["draw", "draw"]


def test_declined_invitation_calls_the_match_off(ttt, creator, other_creator):
    match = start(ttt, creator, creator, other_creator)
    services.answer_invitation(match.pk, other_creator, accept=False)
    assert fresh(match).status == "aborted"
    with pytest.raises(MatchError):
        services.answer_invitation(match.pk, other_creator, accept=True)


def test_invitation_expires(ttt, creator, other_creator):
    match = start(ttt, creator, creator, other_creator)
    services.expire_timers(match.pk, now=later(services.INVITE_SECONDS + 1))
    assert fresh(match).status == "aborted"


def test_matchmaking_pairs_two_people(ttt, creator, other_creator):
    first = services.join_queue(ttt, creator)
    assert first.status == "invited"
    again = services.join_queue(ttt, creator)  # the same person does not meet themselves
    assert again.pk != first.pk
    second = services.join_queue(ttt, other_creator)
    assert second.pk == first.pk
    assert fresh(first).status == "active"
    assert [s.player.user for s in fresh(first).seats.all()] == [creator, other_creator]


@pytest.mark.django_db(transaction=True)
def test_matchmaking_waits_for_a_match_locked_for_a_moment(creator, other_creator):
    """The waiting player's own socket connecting locks its match row for a moment; a second
    joiner then must take that seat, not open a match of its own (both would wait for ever:
    the Socket.IO tests' lost game:start in CI). Row locks exist on PostgreSQL only."""
    import threading
    import time

    from django.db import connection, transaction

    if connection.vendor != "postgresql":
        pytest.skip("row locks: PostgreSQL only")
    ttt = rule_set("Tic-Tac-Toe")
    first = services.join_queue(ttt, creator)
    locked, release = threading.Event(), threading.Event()

    def hold():  # what presence.connect does: lock the match row in a transaction
        try:
            with transaction.atomic():
                Match.objects.select_for_update().get(pk=first.pk)
                locked.set()
                release.wait(5)
                time.sleep(0.2)
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    assert locked.wait(5)
    release.set()
    second = services.join_queue(ttt, other_creator)
    holder.join()
    assert second.pk == first.pk
    assert fresh(first).status == "active"


def test_a_bot_answers_a_human(ttt, creator):
    match = start(ttt, creator, creator, bot())
    assert match.status == "active"
    services.play(match.pk, creator, "2,2,1")
    assert services.server_move(match.pk, now=later(1)) is True
    match = fresh(match)
    assert match.ply == 2 and log(match)[1][0] == 1
    assert services.server_move(match.pk, now=later(1)) is False  # the human's turn


def test_chaos_moves_on_the_server(creator):
    rules = rule_set(
        "TTT-vs-Chaos", players="2-vs-chaos", board={"type": "squares", "size": [4, 4, 1]}
    )
    match = start(rules, creator, creator, bot("Medium", "medium"))
    seats = list(match.seats.order_by("index").values_list("kind", flat=True))
    assert seats == ["player", "player", "chaos"]
    while fresh(match).status == "active":
        state = current_state(fresh(match))
        if 0 in state.to_move():
            services.play(match.pk, creator, str(state.legal_moves(0)[0]))
        else:
            assert services.server_move(match.pk, now=later(5))
    assert {k for _s, k, _n in log(match)} == {"move"}
    assert 2 in {s for s, _k, _n in log(match)}  # Chaos moved


def test_turn_timer_consequences(creator, other_creator):
    for consequence, kind in [("loss", "timeout"), ("random-move", "move"), ("skip", "skip")]:
        rules = rule_set(
            f"Timed-{consequence}",
            seconds_per_turn=10,
            timeout=consequence,
            board={"type": "squares", "size": [3, 4, 1]},
        )
        match = start(rules, creator, creator, other_creator)
        services.answer_invitation(match.pk, other_creator, accept=True)
        deadline = fresh(match).turn_deadline
        services.expire_timers(match.pk, now=near(deadline, -5))
        assert fresh(match).ply == 0  # not yet
        services.expire_timers(match.pk, now=near(deadline, 1))
        assert log(match)[0][:2] == (0, kind), consequence
        if kind == "move":
            assert fresh(match).moves.get().auto
    assert fresh(match).status == "active"


def test_afk_warning_then_timeout(ttt, creator, other_creator):
    match = start(ttt, creator, creator, other_creator, afk=True, afk_timeout=30, afk_warning=10)
    services.answer_invitation(match.pk, other_creator, accept=True)
    services.expire_timers(match.pk, now=later(21))
    assert fresh(match).afk_warned
    services.afk_ping(match.pk, creator)  # clears the warning and restarts the clock
    match = fresh(match)
    assert not match.afk_warned and match.status == "active"
    services.expire_timers(match.pk, now=later(31))
    match = fresh(match)
    assert match.status == "finished"
    assert match.outcome["reason"] == "timeout" and match.outcome["winner"] == 1


def test_reconnect_window(ttt, creator, other_creator):
    match = start(ttt, creator, creator, other_creator)
    services.answer_invitation(match.pk, other_creator, accept=True)
    assert services.connect(match.pk, creator, "chan-a", "p1") == [0]
    services.disconnect("chan-a")
    seat = fresh(match).seats.get(index=0)
    assert seat.disconnect_deadline is not None
    services.connect(match.pk, creator, "chan-b", "p1")  # back in time
    assert fresh(match).seats.get(index=0).disconnect_deadline is None
    services.disconnect("chan-b")
    services.expire_timers(match.pk, now=later(61))
    match = fresh(match)
    assert match.outcome["reason"] == "disconnect" and match.outcome["winner"] == 1
    assert not Presence.objects.exists()


def test_stale_presences_of_a_dead_process_count_as_disconnects(ttt, creator, other_creator):
    match = start(ttt, creator, creator, other_creator)
    services.answer_invitation(match.pk, other_creator, accept=True)
    services.connect(match.pk, creator, "chan-a", "dead-process")
    assert services.sweep_presences(now=later(60)) == 1
    assert fresh(match).seats.get(index=0).disconnect_deadline is not None


def test_the_log_replays_to_the_same_position(ttt, creator):
    match = start(ttt, creator, creator, bot())
    services.play(match.pk, creator, "1,1,1")
    services.server_move(match.pk, now=later(1))
    from play import replay

    replay._cache.clear()  # as after a restart
    state = current_state(fresh(match))
    assert state.ply == 2
    assert Move.objects.filter(match=match).count() == 2


def test_the_log_rows_of_a_ply_range(ttt, creator, other_creator):
    match = start(ttt, creator, creator, other_creator)
    services.answer_invitation(match.pk, other_creator, accept=True)
    play_all(match, [(creator, "1,1,1"), (other_creator, "2,2,1"), (creator, "3,3,1")])
    services.resign(match.pk, other_creator)
    from play.replay import log_rows

    assert log_rows(match.pk, 1, 4) == [
        ("move", 1, "2,2,1"),
        ("move", 0, "3,3,1"),
        ("resign", 1, ""),
    ]
    assert log_rows(match.pk, 0, 1) == [("move", 0, "1,1,1")]
    assert log_rows(match.pk, 4, 9) == []


def test_partners_win_as_a_team(make_user):
    people = [make_user(n) for n in ("p1", "p2", "p3", "p4")]
    rules = rule_set(
        "Partners-4x4",
        players="partners",
        colors="partners-share",
        board={"type": "squares", "size": [4, 4, 1]},
    )
    match = start(rules, people[0], *people)
    for person in people[1:]:
        services.answer_invitation(match.pk, person, accept=True)
    # Seats 1 and 3 (indices 0, 2) are one team: seat 1 completes a row on y=1.
    moves = ["1,1,1", "1,2,1", "2,1,1", "2,2,1", "4,4,1", "1,4,1"]
    for ply, text in enumerate(moves):
        services.play(match.pk, people[ply % 4], text)
    state = current_state(fresh(match))
    assert state.to_move() == (2,)
    services.play(match.pk, people[2], "3,1,1")  # seat 3 completes its team's line
    match = fresh(match)
    assert match.outcome["reason"] == "victory"
    assert match.outcome["winners"] == [0, 2]
    assert [s.result for s in match.seats.order_by("index")] == ["win", "loss", "win", "loss"]


def test_ultimate_turn_timer_plays_a_random_move_written_level_by_level(creator, other_creator):
    match = start(rule_set("Ultimate-Tic-Tac-Toe"), creator, creator, other_creator)
    services.answer_invitation(match.pk, other_creator, accept=True)
    assert fresh(match).turn_deadline is not None
    services.expire_timers(match.pk, now=later(16))
    row = fresh(match).moves.get()
    assert row.auto and row.kind == "move" and row.seat == 0
    assert len(row.notation.split("/")) == 2  # block/cell, as the Strategic seed writes it
    state = current_state(fresh(match))
    assert state.to_move() == (1,)


def test_bots_play_each_other_to_the_end(creator):
    match = start(rule_set("Tic-Tac-Toe"), creator, bot("A", "medium"), bot("B", "easy"))
    assert match.status == "active"
    for _ in range(9):
        services.server_move(match.pk, now=later(5))
    match = fresh(match)
    assert match.status == "finished"
    assert match.outcome["reason"] in ("victory", "draw")
    assert match.wake_at is None


def test_made_state_picks_the_sockets_own_view_or_none():
    from play.services import made_state

    views = {"ply": 3, "seats": ['{"you": [0]}', '{"you": [1]}'], "spectators": '{"you": []}'}
    assert made_state(views, [0], 2) == '{"you": [0]}'
    assert made_state(views, [1], 2) == '{"you": [1]}'
    assert made_state(views, [], 2) == '{"you": []}'
    assert made_state(views, [0, 1], 2) is None  # two seats on one socket: looked up
    assert made_state(views, [5], 2) is None
    assert made_state(views, [0], 3) is None  # this ply (or a later one) already sent
    assert made_state(None, [0], 2) is None  # a change that is not a move


def test_the_players_are_told_of_the_end_before_the_ratings_are_worked_out(
    ttt, creator, other_creator, django_capture_on_commit_callbacks, monkeypatch
):
    """Ratings take longer than telling the sockets: the end is handed to the match's
    group first, and the ratings are worked out after it."""
    from play import notify
    from play.signals import match_finished

    match = start(ttt, creator, creator, other_creator)
    services.answer_invitation(match.pk, other_creator, accept=True)
    x, o = creator, other_creator
    play_all(match, [(x, "1,1,1"), (o, "1,2,1"), (x, "2,1,1"), (o, "2,2,1")])  # never sent:
    done = []  # the test's transaction does not commit
    told = lambda group, message, due: done.append(message["events"][-1]["type"])  # noqa: E731
    monkeypatch.setattr(notify, "_send", told)

    def rating(sender, match_id, **kwargs):
        done.append("ratings")

    match_finished.connect(rating, dispatch_uid="test-order")
    try:
        with django_capture_on_commit_callbacks(execute=True):
            services.play(match.pk, x, "3,1,1")
    finally:
        match_finished.disconnect(dispatch_uid="test-order")
    assert done == ["game:over", "ratings"]


def test_the_compiled_game_follows_a_rename(ttt, make_user):
    """Compiled games are kept by fingerprint and name: the rules are the same object
    move after move, and a game an Admin renames is compiled again under its new name."""
    from play.replay import game_of_rule_set
    from variants.models import RuleSet
    from variants.services import rename_rule_set

    first = game_of_rule_set(ttt)
    assert game_of_rule_set(RuleSet.objects.get(pk=ttt.pk)) is first
    rename_rule_set(ttt, "Noughts-and-Crosses", make_user("ada", "admin"))
    renamed = game_of_rule_set(RuleSet.objects.get(pk=ttt.pk))
    assert renamed.name == "Noughts-and-Crosses" and first.name == "Tic-Tac-Toe"


def test_a_moves_views_say_which_seats_have_a_socket(ttt, creator, other_creator, monkeypatch):
    """The views made after a move read each seat's presence under the match's lock, in
    the same query as the seats."""
    match = start(ttt, creator, creator, other_creator)
    services.answer_invitation(match.pk, other_creator, accept=True)
    services.connect(match.pk, other_creator, "chan-o", "p1")
    sent = []
    keep = lambda _match, _events, views=None: sent.append(views)  # noqa: E731
    monkeypatch.setattr(notify, "match_changed", keep)
    services.play(match.pk, creator, "2,2,1")
    views = sent[-1]
    for event in map(json.loads, [*views["seats"], views["spectators"]]):
        assert [s["connected"] for s in event["seats"]] == [False, True]
    snapshot = services.snapshot(match.pk, creator)
    assert [s["connected"] for s in snapshot["seats"]] == [False, True]
