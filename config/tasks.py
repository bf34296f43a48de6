"""Project-wide Celery tasks."""

from celery import shared_task


@shared_task(name="config.ping")
def ping() -> str:
    """Answer "pong": proves a worker takes tasks and stores results (an operator's check;
    /healthz pings the workers over the control channel instead, see config/views.py)."""
    return "pong"
