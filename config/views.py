"""Site-wide views that belong to no app."""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from config.tasks import ping

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
    """Send a real task and wait for a worker's answer through the result backend."""
    try:
        result = ping.apply_async(retry=False)
    except Exception:
        log.exception("healthz: could not send the ping task")
        return False
    try:
        return result.get(timeout=timeout, interval=0.1) == "pong"
    except Exception:
        log.warning("healthz: no answer to the ping task within %.1f s", timeout)
        return False
    finally:
        try:
            result.forget()
        except Exception:
            log.debug("healthz: could not forget the ping result", exc_info=True)


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """``{"db": bool, "broker": bool}``; status 200 when both hold, else 503."""
    db = database_ok()
    broker = broker_ok(settings.HEALTHZ_TIMEOUT)
    return JsonResponse({"db": db, "broker": broker}, status=200 if db and broker else 503)
