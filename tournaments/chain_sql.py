"""A tournament chain's statements on its batches, in plain SQL: the chain runs them for
every group of games, and the ORM's query building (~0.2-0.5 ms a query) cost more than
the statements themselves."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection
from django.utils import timezone

from leaderboards.models import Tournament, TournamentBatch
from play.prepared import prepared_cursor


@dataclass(frozen=True)
class Claimed:
    """A batch this worker took: what running it needs (no model instance)."""

    id: int
    first_game: int
    last_game: int
    sends: int


def claim_next(tournament_id: int, size: int, share: int = 1) -> list[Claimed]:
    """Take up to ``size`` of a running tournament's queued batches, and at most one
    ``share``-th of them (rounded up), lowest numbers first, in one statement (an UPDATE
    ... RETURNING: SQLite 3.35+, PostgreSQL). Each row is taken only while still queued,
    so two workers never take the same batch; one that lost every row of its pick to
    another worker looks again."""
    q = connection.ops.quote_name
    batches, tournaments = (q(m._meta.db_table) for m in (TournamentBatch, Tournament))
    queued, running = TournamentBatch.State.QUEUED.value, TournamentBatch.State.RUNNING.value
    limit, limits = "%s", [size]
    if share > 1:  # ceil(queued / share), at most ``size`` (rounding up, in integers)
        limit = (
            f"(SELECT CASE WHEN COUNT(*) + %s - 1 < %s * %s THEN (COUNT(*) + %s - 1) / %s "
            f"ELSE %s END FROM {batches} WHERE {q('tournament_id')} = %s AND {q('state')} = %s)"
        )
        limits = [share, share, size, share, share, size, tournament_id, queued]
    sql = (
        f"UPDATE {batches} SET {q('state')} = %s, {q('touched')} = %s "
        f"WHERE {q('state')} = %s AND {q('id')} IN ("
        f"SELECT b.{q('id')} FROM {batches} b JOIN {tournaments} t "
        f"ON t.{q('id')} = b.{q('tournament_id')} "
        f"WHERE b.{q('tournament_id')} = %s AND b.{q('state')} = %s AND t.{q('status')} = %s "
        f"ORDER BY b.{q('number')} LIMIT {limit}) "
        f"RETURNING {q('id')}, {q('first_game')}, {q('last_game')}, {q('sends')}"
    )
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    status = Tournament.Status.RUNNING.value
    params = [running, now, queued, tournament_id, queued, status, *limits]
    more = (
        f"SELECT 1 FROM {batches} b JOIN {tournaments} t ON t.{q('id')} = b.{q('tournament_id')} "
        f"WHERE b.{q('tournament_id')} = %s AND b.{q('state')} = %s AND t.{q('status')} = %s "
        "LIMIT 1"
    )
    for _ in range(3):
        with prepared_cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
            if rows:
                return sorted((Claimed(*row) for row in rows), key=lambda c: c.first_game)
            cursor.execute(more, [tournament_id, queued, status])
            if cursor.fetchone() is None:
                break
    return []


def touch(ids: list[int], state: str) -> None:
    """Set the batches ``ids`` to ``state``, touched now."""
    q = connection.ops.quote_name
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    with prepared_cursor() as cursor:
        cursor.execute(
            f"UPDATE {q(TournamentBatch._meta.db_table)} SET {q('state')} = %s, "
            f"{q('touched')} = %s WHERE {q('id')} IN ({', '.join(['%s'] * len(ids))})",
            [str(state), now, *ids],
        )


def commit_unflushed() -> None:
    """In a chain's transaction on PostgreSQL: its commit does not wait for the WAL to
    reach the disk (SET LOCAL: this transaction only). A PostgreSQL crash can lose the
    last such commits (up to ~3 x wal_writer_delay), each whole: its games, their
    batches' "done" and the ratings they moved go together, and the WAL replays in
    order, so a lost group leaves no rating that a kept one built on. Its batches stay
    "running" and the reconciler sends them again, as for a worker that died. The
    finaliser's commit waits for the disk, and with it every commit before it: a tournament
    marked done keeps all its games."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit TO OFF")
