"""The Celery application: ``celery -A config worker``.

Configuration comes from Django settings (the ``CELERY_*`` names); tasks are found in
``config.tasks`` and in every installed app's ``tasks.py``.
"""

import os

from celery import Celery
from kombu.transport import TRANSPORT_ALIASES

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# filesystem:// writes its messages atomically (config/fs_broker.py says why).
TRANSPORT_ALIASES["filesystem"] = "config.fs_broker:Transport"

app = Celery("config", include=["config.tasks"])
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
