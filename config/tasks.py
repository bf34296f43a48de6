"""Project-wide Celery tasks."""

from celery import shared_task


@shared_task(name="config.ping")
def ping() -> str:
    """Answer "pong": /healthz sends it to prove a worker takes tasks and stores results."""
    return "pong"
