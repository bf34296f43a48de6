"""A cursor whose statements PostgreSQL can keep planned: the hot paths' plain SQL.

Django's cursors bind parameters on the client, so each statement reaches PostgreSQL as
new text and is planned again every time. A cursor that binds them on the server sends
the same text every time, and psycopg prepares it once a connection has run it
``prepare_threshold`` times (config/settings.py). Planning cost more than running for
the statements below (a tournament chain's claim: ~0.6 ms planned, ~0.4 run, a dozen
times a tournament; a move's seats read: 1-3 ms planned, ~0.5 run, about three times a
move). Only for statements whose text does not depend on their values, and never for
utility statements (SET ...).
"""

from __future__ import annotations

from django.db import connection as default_connection


def prepared_cursor(connection=None):
    """A cursor as ``connection.cursor()`` gives (the query logged and counted, execute
    wrappers run) that, on PostgreSQL with ``prepare_threshold`` set, binds its
    parameters on the server; elsewhere (SQLite, or DB_PREPARE_THRESHOLD=0 behind a
    pooler) the usual cursor."""
    connection = connection or default_connection
    if connection.vendor != "postgresql" or not connection.settings_dict["OPTIONS"].get(
        "prepare_threshold"
    ):
        return connection.cursor()
    from django.db.backends.postgresql.base import ServerBindingCursor

    connection.ensure_connection()
    return connection._prepare_cursor(ServerBindingCursor(connection.connection))
