"""The Celery application: ``celery -A config worker``.

Configuration comes from Django settings (the ``CELERY_*`` names); tasks are found in
``config.tasks`` and in every installed app's ``tasks.py``.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config", include=["config.tasks"])
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
