"""A move's two writes, in plain SQL that PostgreSQL keeps planned (``play.prepared``):
the move's row and the match's changed columns. Every move, resignation and timer move
writes both; the ORM's ``create`` and ``save(update_fields=...)`` built them anew each
time, about half of a move's CPU in the web process outside the database (a profile of
300 moves), and PostgreSQL planned each again."""

from __future__ import annotations

from functools import cache

from django.db import DatabaseError, connection
from django.utils import timezone

from .models import Match, Move
from .prepared import prepared_cursor

_MOVE_FIELDS = ("match", "ply", "seat", "kind", "notation", "auto", "think_ms", "created")


def insert_move(match_id: int, ply: int, seat: int, kind: str, notation: str, auto: bool,
                think_ms: int) -> None:  # fmt: skip
    """The move's row, as ``Move.objects.create`` wrote it (``created``: now)."""
    values = (match_id, ply, seat, str(kind), notation, auto, think_ms, timezone.now())
    fields, sql = _insert(connection.vendor)
    params = [f.get_db_prep_save(v, connection) for f, v in zip(fields, values, strict=True)]
    with prepared_cursor() as cursor:
        cursor.execute(sql, params)


@cache
def _insert(vendor: str) -> tuple[list, str]:
    """The move row's fields and its INSERT, made once a process (not once a move)."""
    fields = [Move._meta.get_field(name) for name in _MOVE_FIELDS]
    q = connection.ops.quote_name
    sql = (
        f"INSERT INTO {q(Move._meta.db_table)} ({', '.join(q(f.column) for f in fields)}) "
        f"VALUES ({', '.join(['%s'] * len(fields))})"
    )
    return fields, sql


def save_columns(match: Match, names) -> None:
    """``match.save(update_fields=names)``, for a row this transaction holds locked."""
    fields = [Match._meta.get_field(name) for name in names]
    q = connection.ops.quote_name
    sets = ", ".join(f"{q(f.column)} = %s" for f in fields)
    params = [f.get_db_prep_save(getattr(match, f.attname), connection) for f in fields]
    with prepared_cursor() as cursor:
        cursor.execute(
            f"UPDATE {q(Match._meta.db_table)} SET {sets} WHERE {q('id')} = %s", [*params, match.pk]
        )
        if cursor.rowcount != 1:
            raise DatabaseError(f"match {match.pk}: its row was not updated")
