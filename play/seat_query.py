"""A match's seats with everything a move reads, in one statement written once.

Every move, resignation, socket connection and snapshot reads the same join: the seats
of one match, in order, with the match and its rule set, each seat's player and the
player's user, and whether a socket holds the seat (``connected``). Compiled by the ORM
on every call, this 60-column join cost more CPU than PostgreSQL spent running it (about
1.2 ms of a move's 3). So the SQL is written here once per connection, from the models'
metadata, and the rows become model instances through ``Model.from_db`` with the fields'
own converters: the same objects the ORM would have made, related caches filled.
"""

from __future__ import annotations

import threading
import weakref

from django.contrib.auth import get_user_model
from django.db import connections, router

from accounts.models import Player
from variants.models import RuleSet

from .models import Match, Presence, Seat
from .prepared import prepared_cursor

# ``player.user = user`` would also fill ``user.player`` (a one-to-one's descriptor caches
# both sides): a reference cycle per seated person per read, which only the garbage
# collector frees. A busy web process made ~100 such cycles a second, and its collections
# then stalled every socket 15-45 ms (the live-play benchmark's p99). Nothing on these
# paths goes back from the user to the player.
_USER = Player._meta.get_field("user")


class _Part:
    """One model's columns in the row: where they are and how to load them."""

    def __init__(self, model, alias: str, start: int, connection):
        self.model = model
        fields = model._meta.concrete_fields
        self.attnames = [f.attname for f in fields]
        self.start, self.stop = start, start + len(fields)
        quote = connection.ops.quote_name
        self.columns = [f"{alias}.{quote(f.column)}" for f in fields]
        self.converters = []  # (position in the part, [converter, ...], the column)
        for i, field in enumerate(fields):
            col = field.get_col(alias)
            found = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
            if found:
                self.converters.append((i, found, col))
        self.pk_at = self.attnames.index(model._meta.pk.attname)

    def build(self, row, connection):
        """The instance in ``row``, or None where an outer join found nothing."""
        values = list(row[self.start : self.stop])
        if values[self.pk_at] is None:
            return None
        for i, found, col in self.converters:
            for convert in found:
                values[i] = convert(values[i], col, connection)
        return self.model.from_db(connection.alias, self.attnames, values)


class _Statement:
    def __init__(self, connection, lock: bool):
        quote = connection.ops.quote_name
        user = get_user_model()
        layout = [(Seat, "s"), (Match, "m"), (RuleSet, "r"), (Player, "p"), (user, "u")]
        self.parts, at = {}, 0
        for model, alias in layout:
            part = self.parts[alias] = _Part(model, alias, at, connection)
            at = part.stop

        def table(model, alias):
            return f"{quote(model._meta.db_table)} {alias}"

        def col(alias, model, name):
            return f"{alias}.{quote(model._meta.get_field(name).column)}"

        columns = [c for part in self.parts.values() for c in part.columns]
        presence = (
            f"SELECT 1 FROM {table(Presence, 'pr')}"
            f" WHERE {col('pr', Presence, 'match')} = {col('s', Seat, 'match')}"
            f" AND {col('pr', Presence, 'seat')} = {col('s', Seat, 'index')}"
        )
        self.sql = (
            f"SELECT {', '.join(columns)}, EXISTS({presence})"
            f" FROM {table(Seat, 's')}"
            f" INNER JOIN {table(Match, 'm')}"
            f" ON {col('m', Match, 'id')} = {col('s', Seat, 'match')}"
            f" INNER JOIN {table(RuleSet, 'r')}"
            f" ON {col('r', RuleSet, 'id')} = {col('m', Match, 'rule_set')}"
            f" LEFT OUTER JOIN {table(Player, 'p')}"
            f" ON {col('p', Player, 'id')} = {col('s', Seat, 'player')}"
            f" LEFT OUTER JOIN {table(user, 'u')}"
            f" ON {col('u', user, user._meta.pk.name)} = {col('p', Player, 'user')}"
            f" WHERE {col('s', Seat, 'match')} = %s"
            f" ORDER BY {col('s', Seat, 'index')}"
        )
        # As the ORM's select_for_update(of=...): only the match row is locked, and a
        # database without row locks (SQLite: one writer at a time) gets no clause.
        if lock and connection.features.has_select_for_update:
            of = connection.features.has_select_for_update_of
            self.sql += " FOR UPDATE OF m" if of else " FOR UPDATE"

    def fetch(self, match_id: int, connection) -> tuple[Match | None, list[Seat]]:
        with _cursor(connection) as cursor:
            cursor.execute(self.sql, [match_id])
            rows = cursor.fetchall()
        if not rows:
            return None, []
        parts = self.parts
        match = parts["m"].build(rows[0], connection)  # the same in every row: made once
        match.rule_set = parts["r"].build(rows[0], connection)
        seats = []
        for row in rows:
            seat = parts["s"].build(row, connection)
            seat.match = match
            player = parts["p"].build(row, connection)
            if player is not None:  # the forward cache only: see _USER
                _USER.set_cached_value(player, parts["u"].build(row, connection))
            seat.player = player
            seat.connected = bool(row[-1])
            seats.append(seat)
        return match, seats


def _cursor(connection):
    """The seats read's cursor: bound on the server, so that PostgreSQL keeps its plan
    (``play.prepared``: planning this five-table join took 1-3 ms, running it ~0.5)."""
    return prepared_cursor(connection)


# One statement per connection object and lock flag: converters may be bound to their
# connection, and each thread has its own.
_statements: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_guard = threading.Lock()


def match_and_seats(match_id: int, *, lock: bool) -> tuple[Match | None, list[Seat]]:
    """(match, seats in order), or (None, []) when no seat of ``match_id`` exists."""
    connection = connections[router.db_for_write(Seat) if lock else router.db_for_read(Seat)]
    mine = _statements.get(connection)
    if mine is None:
        with _guard:
            mine = _statements.setdefault(connection, {})
    statement = mine.get(lock)
    if statement is None:
        statement = mine[lock] = _Statement(connection, lock)
    return statement.fetch(match_id, connection)


def seats_of(match: Match) -> list[Seat]:
    """The seats of a match already in hand, in order, each pointing at that very object
    (the caller may change and save it)."""
    _read, seats = match_and_seats(match.pk, lock=False)
    for seat in seats:
        seat.match = match
    return seats
