"""Celery tasks of the AI players: studying a curriculum, on the ``learning`` queue (its
own: learning never holds up tournaments or analysis)."""

from __future__ import annotations

import logging

from celery import shared_task
from celery.signals import worker_ready
from django.db import OperationalError

from aiplayers.curriculum import STUDY_TASK, resume_all
from aiplayers.study import run_study

log = logging.getLogger(__name__)


@shared_task(
    name=STUDY_TASK,
    ignore_result=True,
    autoretry_for=(OperationalError,),
    max_retries=3,
    retry_backoff=True,
)
def study(ai_id: int) -> str:
    return run_study(ai_id)


@worker_ready.connect(dispatch_uid="aiplayers.resume_studies")
def resume_studies(sender=None, **kwargs) -> None:
    """A worker that serves the learning queue sends again the studies a killed worker
    held (the file-system broker loses the message a killed worker took)."""
    queues = {q.name for q in getattr(getattr(sender, "task_consumer", None), "queues", [])}
    if queues and "learning" not in queues:
        return
    try:
        resume_all()
    except Exception:  # a worker must start even if the database is not ready yet
        log.exception("could not resume the AI players' studies")
