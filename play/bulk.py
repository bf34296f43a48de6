"""Many rows into one table at once, for the tournament paths that write hundreds of rows
(moves, seats, matches, rating history).

On PostgreSQL a ``COPY ... FROM STDIN`` (psycopg's copy): psycopg's ``executemany``
binds and sends each row on its own, about 9 µs of the worker's CPU a row against 1.7
for a copy (6,000 move rows: 55 ms against 10; wall time 255 ms against 50). Elsewhere
(SQLite) one ``executemany``, whose loop runs in C. Rows hold values as the database
takes them (``get_db_prep_save``'s output); a duplicate key raises ``IntegrityError``
either way.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import connection


def insert_rows(
    table: str, columns: Sequence[str], rows: Sequence[Sequence], same: dict | None = None
) -> None:
    """Insert ``rows`` (each a value per column of ``columns``) into ``table``; ``same``:
    more columns with one value for every row (None, ints, booleans or strings: on SQLite
    they are written into the statement, not bound for each row, a third of a move row's
    cost)."""
    if not rows:
        return
    same = same or {}
    q = connection.ops.quote_name
    names = ", ".join(q(c) for c in [*columns, *same])
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            tail = tuple(same.values())
            with (
                connection.wrap_database_errors,
                cursor.cursor.copy(f"COPY {q(table)} ({names}) FROM STDIN") as copy,
            ):
                for row in rows:
                    copy.write_row((*row, *tail) if tail else row)
        else:
            marks = ", ".join(["%s"] * len(columns) + [_literal(v) for v in same.values()])
            cursor.executemany(f"INSERT INTO {q(table)} ({names}) VALUES ({marks})", rows)


def _literal(value) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, bool | int):
        return str(int(value))
    if isinstance(value, str):
        return "'" + value.replace("'", "''").replace("%", "%%") + "'"
    raise TypeError(f"not a literal: {value!r}")
