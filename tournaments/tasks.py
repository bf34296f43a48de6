"""Celery tasks of the tournaments. They take ids, never instances; each is safe to run
twice (the database decides what is left to do); retries are bounded.

The top layer: the tasks import the layers below; those send the tasks by name
(``sending``), never importing this module. The names are still ``leaderboards.*``.

A worker that starts restarts the watchdog of every unfinished tournament: the chain
that a killed worker held dies with it.
"""

from __future__ import annotations

import logging

from celery import shared_task
from celery.signals import worker_ready
from django.db import OperationalError

from leaderboards.models import Tournament
from tournaments import sending
from tournaments import services as tournaments

log = logging.getLogger(__name__)

RETRIES = 3


# Their return values are for the worker's log only: not stored in the result backend
# (on the embedded shape, SQLite: a write per task, more than a batch of games costs).
@shared_task(
    name=sending.RUN_BATCH,
    ignore_result=True,
    autoretry_for=(OperationalError,),
    max_retries=RETRIES,
    retry_backoff=True,
)
def run_batch(batch_id: int) -> int:
    return tournaments.run_batches(batch_id)


@shared_task(
    name=sending.FINALISE,
    ignore_result=True,
    autoretry_for=(OperationalError,),
    max_retries=RETRIES,
    retry_backoff=True,
)
def finalise(tournament_id: int) -> bool:
    return tournaments.finalise(tournament_id)


@shared_task(name=sending.RECONCILE, ignore_result=True)
def reconcile(tournament_id: int) -> list[int]:
    return tournaments.reconcile(tournament_id)


@shared_task(name=sending.WATCHDOG, ignore_result=True)
def watchdog(tournament_id: int, number: int) -> None:
    """Reconcile every half stale-period while the tournament runs; a chain whose number
    is no longer the tournament's (a newer one was started) stops."""
    live = Tournament.objects.filter(
        pk=tournament_id,
        watchdog=number,
        status__in=[Tournament.Status.RUNNING, Tournament.Status.FINALISING],
    ).exists()
    if not live:
        return
    try:
        tournaments.reconcile(tournament_id)
    finally:
        watchdog.apply_async((tournament_id, number), countdown=tournaments.watch_seconds())


@worker_ready.connect(dispatch_uid="leaderboards.resume_tournaments")
def resume_tournaments(**kwargs) -> None:
    try:
        unfinished = Tournament.objects.filter(
            status__in=[Tournament.Status.RUNNING, Tournament.Status.FINALISING]
        ).values_list("pk", flat=True)
        for tournament_id in unfinished:
            tournaments.start_watchdog(tournament_id)
            reconcile.delay(tournament_id)
    except Exception:  # a worker must start even if the database is not ready yet
        log.exception("could not resume the unfinished tournaments")
