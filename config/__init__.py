"""Project configuration; importing it makes the Celery app the default one."""

from config.celery import app as celery_app

__all__ = ("celery_app",)
