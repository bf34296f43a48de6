"""Issue 38: a newcomer's second ten minutes (tests that leave no work behind, ratings a
person reads, a menu and messages that say what happened)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings

# --- Tests leave no work behind -----------------------------------------------------------


def queued(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()} if folder.is_dir() else set()


@pytest.mark.skipif(bool(settings.REDIS_URL), reason="the embedded (file-system) broker only")
def test_a_task_queued_by_a_test_never_reaches_the_real_broker_folder():
    """``make test`` used to leave its tasks in var/celery/queue, where the next
    ``make run`` worker picked them up; the tests queue into a folder of their own."""
    from config.celery import app

    real = Path(settings.CELERY_FS_ROOT) / "queue"
    before = queued(real)
    app.send_task("config.ping")
    added = queued(real) - before
    for name in added:  # on the code as it was: tidy up what this test wrote
        (real / name).unlink(missing_ok=True)
    assert not added, f"a test queued {len(added)} message(s) in {real}"
    ours = Path(app.conf.broker_transport_options["data_folder_out"])
    assert ours != real and not ours.is_relative_to(Path(settings.VAR_DIR))
    assert any(ours.iterdir())  # it went to the tests' own folder


@pytest.mark.skipif(not settings.REDIS_URL, reason="the Redis broker only")
def test_tasks_queued_by_the_tests_are_purged_from_redis():
    from config.celery import app
    from tests.conftest import purge_test_queues

    app.send_task("config.ping")
    assert purge_test_queues(app) >= 1
    assert purge_test_queues(app) == 0
