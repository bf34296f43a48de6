"""Site-wide views that belong to no app."""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

log = logging.getLogger(__name__)


def database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except Exception:
        log.exception("healthz: database check failed")
        return False


def broker_ok(timeout: float) -> bool:
    """The broker accepts a connection (no task is sent: a queue full of work, or workers
    busy with it, says nothing about the broker's health)."""
    from config.celery import app

    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=timeout)
        return True
    except Exception:
        log.exception("healthz: could not connect to the broker")
        return False


def workers_answering(timeout: float) -> int:
    """How many workers answer a control ping (0 or 1: the first answer ends the wait).
    A worker's consumer answers on its own control channel whatever its pool is busy
    with, so workers running long tasks (a game's analysis) still count as up."""
    from config.celery import app

    try:
        return len(app.control.ping(timeout=timeout, limit=1))
    except Exception:
        log.exception("healthz: could not send the control ping")
        return 0


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """``{"db": bool, "broker": bool, "workers": bool}``; status 200 when all hold, else
    503. ``workers``: some worker answered a control ping within HEALTHZ_TIMEOUT."""
    db = database_ok()
    broker = broker_ok(settings.HEALTHZ_TIMEOUT)
    workers = broker and workers_answering(settings.HEALTHZ_TIMEOUT) > 0
    healthy = db and broker and workers
    return JsonResponse(
        {"db": db, "broker": broker, "workers": workers}, status=200 if healthy else 503
    )
