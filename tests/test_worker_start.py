"""What a process does as it starts so that its first task or request does not wait:
a worker child connects to the database, a web process sets the Celery app up for
sending (config/celery.py)."""

import logging

import pytest
from django.db import OperationalError, connection
from django.db.backends.base.base import BaseDatabaseWrapper

from config import celery
from tournaments import sending


@pytest.mark.django_db(transaction=True)  # a connection it can close
def test_a_worker_child_connects_as_it_starts_and_hands_the_connection_back():
    connection.close()
    celery.connect_at_start()
    # Handed back: Celery's own start-up handler (after this one) closes the socket of
    # any connection it finds open, thinking it the parent's (tests/test_db_pool.py).
    assert connection.connection is None
    if connection.vendor == "postgresql" and connection.pool:
        assert connection.pool.get_stats()["pool_available"] >= 1  # open, in the pool
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone()[0] == 1


def test_a_worker_child_starts_without_a_database(monkeypatch, caplog):
    def down():
        raise OperationalError("connection refused")

    # On the class, as pytest-django's own block of database access: put back as it was.
    monkeypatch.setattr(BaseDatabaseWrapper, "ensure_connection", lambda self: down())
    with caplog.at_level(logging.WARNING, logger="config.celery"):
        celery.connect_at_start()  # does not raise: the task that needs it will say so
    assert "no database connection at start" in caplog.text


def test_a_web_process_sets_the_celery_app_up_for_sending_before_its_first_request():
    celery.prepare_to_send()
    assert celery.app.finalized
    assert sending.RUN_BATCH in celery.app.tasks  # registered, not looked up on first send
    assert hasattr(celery.app._local, "backend")  # built, not on the first send's result
