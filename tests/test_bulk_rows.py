"""``play.bulk.insert_rows``: rows written as given, whichever way they go (PostgreSQL's
COPY text built by hand, psycopg's rows for other values, SQLite's executemany)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from django.db import connection

from play.bulk import copy_text, insert_rows

pytestmark = pytest.mark.django_db

TRICKY = ["", "a\tb", "line\nnext", "back\\slash", "\\N", "cr\r", "é ✓", "'quote'", "%s"]


def test_copy_text_escapes_what_copy_reads_specially():
    when = datetime(2026, 11, 24, 19, 5, 1, 123456, tzinfo=UTC)
    text = copy_text([("a\tb", 7, None, True), ("x\\y\nz\r", -1, 0.1, False)], (when,))
    assert text == (
        "a\\tb\t7\t\\N\tt\t2026-11-24T19:05:01.123456+00:00\n"
        "x\\\\y\\nz\\r\t-1\t0.1\tf\t2026-11-24T19:05:01.123456+00:00\n"
    )


@pytest.mark.parametrize("text", TRICKY)
def test_copy_text_escapes_each_special_character_alone_and_leaves_the_rest(text):
    escaped = {"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"}
    assert copy_text([(text,)]) == "".join(escaped.get(c, c) for c in text) + "\n"


@pytest.mark.parametrize(
    "value", [{"a": 1}, datetime(2026, 1, 1), float("inf"), float("nan"), b"bytes"]
)
def test_copy_text_leaves_other_values_to_psycopg(value):
    assert copy_text([(1, value)]) is None
    assert copy_text([(1, "x")], (value,)) is None


def table() -> str:
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TEMPORARY TABLE bulk_rows (n integer, s text, b boolean, f double precision,"
            " t timestamp with time zone, j text, k text)"
        )
    return "bulk_rows"


def read() -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT n, s, b, f, t, j, k FROM bulk_rows ORDER BY n")
        return cursor.fetchall()


def rows(extra: str) -> list[tuple]:
    when = datetime(2026, 11, 24, 19, 5, 1, 123456, tzinfo=timezone(timedelta(hours=2)))
    return [
        (i, s, i % 2 == 0, i / 3 if i % 3 else None, when + timedelta(seconds=i), extra)
        for i, s in enumerate(TRICKY)
    ]


def test_rows_read_back_as_written():
    extra = "plain"
    name, given = table(), rows(extra)
    insert_rows(name, ["n", "s", "b", "f", "t", "j"], given, {"k": "same 'for' all"})
    got = read()
    assert [r[:4] for r in got] == [r[:4] for r in given]
    assert [r[4] for r in got] == [r[4] for r in given]  # the same instants
    assert {r[6] for r in got} == {"same 'for' all"}
    assert [r[5] for r in got] == [extra] * len(given)


def test_a_value_copy_text_does_not_write_goes_through_psycopg():
    if connection.vendor != "postgresql":
        pytest.skip("SQLite: one executemany")
    from psycopg.types.json import Jsonb

    name = table()
    assert copy_text([(1, Jsonb({"a": 1}))]) is None
    insert_rows(name, ["n", "j"], [(1, Jsonb({"a": 1}))])
    assert read()[0][5] == '{"a": 1}'
