"""Many rows into one table at once, for the tournament paths that write hundreds of rows
(moves, seats, matches, rating history).

On PostgreSQL a ``COPY ... FROM STDIN`` (psycopg's copy): psycopg's ``executemany``
binds and sends each row on its own, about 9 µs of the worker's CPU a row against 1.7
for a copy (6,000 move rows: 55 ms against 10; wall time 255 ms against 50). The copy's
text is built here when every value is a string, number, boolean, None or aware datetime
(moves, seats, rating history): psycopg's ``write_row`` cost 2.5-2.8 µs a row, the text
0.5 (18,000 move rows, a 900-game tournament's: 45-50 ms of the worker's CPU against 8).
Other values (a match's JSON) go through ``write_row``. Elsewhere (SQLite) one
``executemany``, whose loop runs in C. Rows hold values as the database takes them
(``get_db_prep_save``'s output); a duplicate key raises ``IntegrityError`` either way.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime

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
            text = copy_text(rows, tail)
            with (
                connection.wrap_database_errors,
                cursor.cursor.copy(f"COPY {q(table)} ({names}) FROM STDIN") as copy,
            ):
                if text is not None:
                    copy.write(text)
                else:
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


# COPY's text format: a backslash, tab, newline or carriage return in a value is escaped.
_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})


class _NotText(TypeError):
    """A value ``_field`` does not write (the caller falls back to psycopg's rows)."""


def _field(value) -> str:
    """One value in COPY's text format."""
    kind = type(value)
    if kind is str:  # (translate walks the text in Python's slow path: most need nothing)
        if "\\" in value or "\t" in value or "\n" in value or "\r" in value:
            return value.translate(_ESCAPES)
        return value
    if kind is int:
        return str(value)
    if value is None:
        return "\\N"
    if kind is bool:
        return "t" if value else "f"
    if kind is float and math.isfinite(value):
        return repr(value)  # the shortest text that reads back as the same double
    if kind is datetime and value.utcoffset() is not None:
        return value.isoformat()
    raise _NotText(kind.__name__)


def copy_text(rows: Sequence[Sequence], tail: tuple = ()) -> str | None:
    """``rows`` (each followed by ``tail``'s values) as the text of a COPY in its text
    format, or None if a value is of another kind."""
    try:
        end = "".join("\t" + _field(v) for v in tail) + "\n"
        return "".join(["\t".join(map(_field, row)) + end for row in rows])
    except _NotText:
        return None
