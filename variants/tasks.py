"""Celery tasks of the variants app: a game's analysis (on the ``analysis`` queue)."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from variants.analysis_jobs import ANALYSE_TASK


@shared_task(
    name=ANALYSE_TASK,
    autoretry_for=(OperationalError,),
    max_retries=3,
    retry_backoff=True,
)
def analyse_game(rule_set_id: int) -> bool:
    from variants.analysis_jobs import run_analysis

    return run_analysis(rule_set_id)
