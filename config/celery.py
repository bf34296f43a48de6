"""The Celery application: ``celery -A config worker``.

Configuration comes from Django settings (the ``CELERY_*`` names); tasks are found in
``config.tasks`` and in every installed app's ``tasks.py``.
"""

import os

from celery import Celery
from celery.signals import worker_process_init
from kombu.transport import TRANSPORT_ALIASES

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# filesystem:// writes its messages atomically (config/fs_broker.py says why).
TRANSPORT_ALIASES["filesystem"] = "config.fs_broker:Transport"

app = Celery("config", include=["config.tasks"])
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def prepare_to_send() -> None:
    """Set the app up for sending tasks now rather than in the first request that sends
    one (a web process's first tournament waited ~50 ms for it): its tasks registered
    and its result backend built. No network I/O: the broker connects on first use."""
    app.finalize(auto=True)
    app.backend  # noqa: B018 (built on first access)
    app.amqp  # noqa: B018


# Connections and pools inherited across a fork, kept referenced so that they are never
# finalised in the child: closing one would end the parent's session on the same socket.
_inherited: list = []


@worker_process_init.connect(dispatch_uid="config.forget_inherited_database_pool")
def forget_inherited_database_pool(**kwargs) -> None:
    """A prefork child starts with no database pool of its own.

    The parent (which queries the database when a worker is ready: tournaments.tasks)
    may have opened psycopg's pool before forking this child; the child inherits its
    sockets but not its threads, so it would hand the parent's connections out again, or
    wait for connections no thread opens. Drop it without any network I/O; the child's
    first query opens a pool of its own. Runs before Celery's own handler, which would
    hand the connection back to that pool."""
    import sys

    postgresql = sys.modules.get("django.db.backends.postgresql.base")
    if postgresql is None:  # never loaded: no pool to inherit
        return
    from django.db import connections

    for connection in connections.all(initialized_only=True):
        if connection.vendor == "postgresql" and connection.pool and connection.connection:
            _inherited.append(connection.connection)
            connection.connection = None
    pools = postgresql.DatabaseWrapper._connection_pools
    _inherited.extend(pools.values())
    pools.clear()


# Garbage collection in a worker process: what the process loaded to start (Django, the
# apps, the compiled games) is frozen out of the collector's scans, and a collection
# waits for more new objects than Python's default (700). A tournament's games make
# objects by the hundred thousand, few of them in cycles: with the defaults, collections
# that scanned everything alive took a fifth of an own-bot game's CPU on the worker
# (benchmarks/own_bot_speed.py; docs/performance.md).
GC_THRESHOLDS = (50_000, 20, 20)


@worker_process_init.connect(dispatch_uid="config.tune_garbage_collection")
def tune_garbage_collection(**kwargs) -> None:
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


@worker_process_init.connect(dispatch_uid="config.connect_at_start")
def connect_at_start(**kwargs) -> None:
    """A prefork child opens its database connection (its pool, on PostgreSQL) as it
    starts, not in its first task: a worker's first tournament after a start waited for
    it. The connection goes back to the pool at once: Celery's own handler, which runs
    after this one, closes the socket of any connection it finds open (it means the
    parent's), and a pooled connection with its socket closed under it hung the child."""
    import logging

    from django.db import connection

    try:
        connection.ensure_connection()
        connection.close()  # on PostgreSQL: back to this process's pool, still open
    except Exception:  # the task that needs it will say so; a worker must start
        logging.getLogger(__name__).warning("no database connection at start", exc_info=True)
