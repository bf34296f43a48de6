"""``play.seat_query``: the hand-written statement of every move reads exactly what the ORM
would, fills the related caches, and locks the match row (only) when asked."""

from __future__ import annotations

import gc
import threading
import weakref

import pytest
from django.db import DatabaseError, connection, transaction

from play import seat_query, services
from play.models import Match, Seat
from tests.play_helpers import bot, rule_set, start


def values(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


def orm_seats(match_id: int) -> list[Seat]:
    return list(
        Seat.objects.select_related("match__rule_set", "player__user")
        .filter(match_id=match_id)
        .order_by("index")
    )


def assert_same(match, seats, expected: list[Seat]) -> None:
    assert [values(s) for s in seats] == [values(s) for s in expected]
    assert values(match) == values(expected[0].match)
    assert values(match.rule_set) == values(expected[0].match.rule_set)
    for seat, want in zip(seats, expected, strict=True):
        assert seat.match is match
        if want.player is None:
            assert seat.player is None
            continue
        assert values(seat.player) == values(want.player)
        user = want.player.user
        assert (seat.player.user and values(seat.player.user)) == (user and values(user))


@pytest.mark.django_db
def test_rows_are_the_orms_objects_with_their_relations_loaded(
    creator, other_creator, django_assert_num_queries
):
    """A human, a bot (a player with no user) and Chaos (no player), a finished match
    (JSON outcome, datetimes), and which seats a socket holds."""
    rules = rule_set(
        "Seat-query-vs-Chaos", players="2-vs-chaos", board={"type": "squares", "size": [4, 4, 1]}
    )
    match = start(rules, creator, creator, bot("Medium", "medium"))
    services.connect(match.pk, creator, "chan-x", "p1")
    services.resign(match.pk, creator)
    assert Match.objects.get(pk=match.pk).outcome  # a JSON column with a value

    got_match, seats = seat_query.match_and_seats(match.pk, lock=False)
    assert [s.kind for s in seats] == ["player", "player", "chaos"]
    assert_same(got_match, seats, orm_seats(match.pk))
    assert [s.connected for s in seats] == [True, False, False]
    assert got_match.rule_set.document["name"] == "Seat-query-vs-Chaos"
    with django_assert_num_queries(0):  # everything a move reads is already loaded
        names = [s.player.user.username for s in seats if s.player and s.player.user]
        kinds = [s.player.kind for s in seats if s.player]
        games = {s.match.rule_set.name for s in seats}
    assert (names, kinds, games) == ([creator.username], ["human", "bot"], {rules.name})


@pytest.mark.django_db
def test_two_humans_one_still_invited(creator, other_creator):
    match = start(rule_set("Tic-Tac-Toe"), creator, creator, other_creator)
    got_match, seats = seat_query.match_and_seats(match.pk, lock=False)
    assert_same(got_match, seats, orm_seats(match.pk))
    assert [s.invitation for s in seats] == ["accepted", "pending"]
    assert [s.player.user for s in seats] == [creator, other_creator]
    assert got_match.status == "invited" and got_match.turn_started is None
    in_hand = Match.objects.get(pk=match.pk)
    seats_of = seat_query.seats_of(in_hand)  # a match the caller holds: its seats point at it
    assert [values(s) for s in seats_of] == [values(s) for s in seats]
    assert all(s.match is in_hand for s in seats_of)


@pytest.mark.django_db
def test_a_read_leaves_no_reference_cycle_for_the_collector(creator, other_creator):
    """What a move reads is freed as soon as it is dropped: no player-user cycle that
    only the garbage collector frees (its collections stalled busy web processes)."""
    match = start(rule_set("Tic-Tac-Toe"), creator, creator, other_creator)
    seat_query.match_and_seats(match.pk, lock=False)  # the statement made: not measured
    gc.collect()
    gc.disable()
    try:
        got_match, seats = seat_query.match_and_seats(match.pk, lock=False)
        users = [weakref.ref(s.player.user) for s in seats]
        players = [weakref.ref(s.player) for s in seats]
        assert all(ref() is not None for ref in users + players)
        del got_match, seats
        assert [ref() for ref in users + players] == [None] * 4
    finally:
        gc.enable()


@pytest.mark.django_db
def test_an_unknown_match_reads_nothing():
    assert seat_query.match_and_seats(10**9, lock=False) == (None, [])
    with pytest.raises(services.MatchError):  # and the service says so by name
        services.snapshot(10**9, None)


@pytest.mark.django_db(transaction=True)
def test_the_lock_holds_the_match_row_and_not_the_seats(creator, other_creator):
    if not connection.features.has_select_for_update_of:
        pytest.skip("row locks are PostgreSQL's (SQLite has one writer at a time)")
    match = start(rule_set("Tic-Tac-Toe"), creator, creator, other_creator)
    seen = {}

    def other_transaction():
        try:
            for name, rows in (
                ("seat", Seat.objects.filter(match_id=match.pk)),
                ("match", Match.objects.filter(pk=match.pk)),
            ):
                try:
                    with transaction.atomic():
                        list(rows.select_for_update(nowait=True, of=("self",)))
                    seen[name] = "free"
                except DatabaseError:
                    seen[name] = "locked"
        finally:
            from django.db import connections

            connections.close_all()

    with transaction.atomic():
        seat_query.match_and_seats(match.pk, lock=True)
        thread = threading.Thread(target=other_transaction)
        thread.start()
        thread.join()
    assert seen == {"seat": "free", "match": "locked"}

    thread = threading.Thread(target=other_transaction)  # and the lock ends with the commit
    thread.start()
    thread.join()
    assert seen == {"seat": "free", "match": "free"}


@pytest.mark.django_db
def test_on_postgresql_the_read_is_prepared_once_and_still_counted(
    creator, other_creator, django_assert_num_queries
):
    """The seats read binds the match id on the server, so psycopg prepares it after a
    few runs on a connection (its plan cost more than running it); every run is still a
    query Django counts, and a prepared run reads what the ORM reads."""
    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    match = start(rule_set("Tic-Tac-Toe"), creator, creator, other_creator)
    other = start(rule_set("Tic-Tac-Toe"), other_creator, other_creator, creator)
    with django_assert_num_queries(8):
        for match_id in [match.pk, other.pk] * 4:
            got_match, seats = seat_query.match_and_seats(match_id, lock=False)
    assert_same(got_match, seats, orm_seats(other.pk))
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s",
            ['%FROM "play_seat" s INNER JOIN%'],
        )
        assert cursor.fetchone()[0] == 1  # one statement for every match id
    with transaction.atomic():  # the locking read too
        for _ in range(6):
            got_match, seats = seat_query.match_and_seats(match.pk, lock=True)
    assert_same(got_match, seats, orm_seats(match.pk))


@pytest.mark.django_db
def test_without_a_prepare_threshold_the_read_binds_on_the_client(monkeypatch):
    """DB_PREPARE_THRESHOLD=0 (behind a pooler): the seats read is Django's own cursor."""
    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    from psycopg import ClientCursor

    assert not isinstance(seat_query._cursor(connection).cursor, ClientCursor)
    options = {k: v for k, v in connection.settings_dict["OPTIONS"].items()}
    options.pop("prepare_threshold")
    monkeypatch.setitem(connection.settings_dict, "OPTIONS", options)
    assert isinstance(seat_query._cursor(connection).cursor, ClientCursor)
