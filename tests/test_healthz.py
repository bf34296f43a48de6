"""/healthz: the database, the broker and a worker's answer to a control ping — never a
task that waits behind the queue (workers busy with analyses are not a broker outage)."""

from __future__ import annotations

import time

import pytest
from kombu.exceptions import OperationalError

from tests.conftest import running_worker


def test_healthz_reports_an_unreachable_broker(client, db, monkeypatch):
    from config.celery import app

    def refuse(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(app, "connection_for_write", refuse)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"db": True, "broker": False, "workers": False}


def test_healthz_without_workers(client, db, settings, monkeypatch):
    from config.celery import app

    settings.HEALTHZ_TIMEOUT = 0.3
    monkeypatch.setattr(app.control, "ping", lambda **kwargs: [])
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"db": True, "broker": True, "workers": False}


def test_healthz_sends_no_task(client, db, settings, monkeypatch):
    """A task would queue behind every analysis and tournament batch waiting."""
    from celery import Celery

    settings.HEALTHZ_TIMEOUT = 0.3
    sent = []
    monkeypatch.setattr(Celery, "send_task", lambda *a, **k: sent.append(a))
    client.get("/healthz")
    assert sent == []


@pytest.mark.django_db(transaction=True)
def test_healthz_stays_up_while_the_worker_analyses(client, catalogue, settings, tmp_path):
    """The only worker process is deep in a game's analysis: the worker still answers."""
    from variants.analysis_jobs import request_analysis
    from variants.models import GameAnalysis, RuleSet

    settings.HEALTHZ_TIMEOUT = 3.0
    flags = ("--pool=prefork", "-c", "1")
    with running_worker(
        tmp_path, "celery,analysis", pool_flags=flags, cold_stop=True, ANALYSIS_SECONDS="3"
    ):
        request_analysis(RuleSet.objects.get(name="Connect4"))
        deadline = time.monotonic() + 15
        while not GameAnalysis.objects.filter(status=GameAnalysis.Status.RUNNING).exists():
            assert time.monotonic() < deadline, "the analysis never started"
            time.sleep(0.1)
        started = time.monotonic()
        response = client.get("/healthz")
        took = time.monotonic() - started
        assert GameAnalysis.objects.get().status == GameAnalysis.Status.RUNNING  # still busy
    assert response.json() == {"db": True, "broker": True, "workers": True}
    assert response.status_code == 200
    assert took < 2.5
