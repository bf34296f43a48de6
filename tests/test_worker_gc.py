"""A worker process's garbage collection (config/celery.py): what it loaded to start is
frozen out of the collector's scans, and collections wait for more new objects."""

import gc

from config import celery


def test_a_worker_process_freezes_its_start_and_collects_less_often():
    before = gc.get_threshold()
    try:
        celery.tune_garbage_collection()
        assert gc.get_freeze_count() > 0  # the modules, settings and caches loaded so far
        assert gc.get_threshold() == celery.GC_THRESHOLDS
        assert celery.GC_THRESHOLDS[0] > before[0]
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
