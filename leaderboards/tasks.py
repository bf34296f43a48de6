"""Celery tasks of the leaderboards (tournaments). Tasks take ids, never instances."""
