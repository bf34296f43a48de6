"""Sending the tournament's Celery tasks by name. The layers below ``tasks`` ask for the
next step here instead of importing ``tasks`` (which imports them): imports run one way.

The names are the tasks' own (``tasks`` uses these constants): queued messages and the
workers know them, so they never change, though the tasks moved out of leaderboards.
The task objects are looked up in the Celery app's registry (``tasks`` is imported when
the app is ready), so sending is the tasks' own ``delay``/``apply_async``.
"""

from __future__ import annotations

from celery import current_app

RUN_BATCH = "leaderboards.run_batch"
FINALISE = "leaderboards.finalise"
RECONCILE = "leaderboards.reconcile"
WATCHDOG = "leaderboards.watchdog"


def _task(name: str):
    return current_app.tasks[name]


def run_batch(batch_id: int) -> None:
    _task(RUN_BATCH).delay(batch_id)


def finalise(tournament_id: int) -> None:
    _task(FINALISE).delay(tournament_id)


def reconcile(tournament_id: int) -> None:
    _task(RECONCILE).delay(tournament_id)


def watchdog(tournament_id: int, number: int, countdown: float) -> None:
    _task(WATCHDOG).apply_async((tournament_id, number), countdown=countdown)
