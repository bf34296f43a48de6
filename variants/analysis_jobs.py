"""Running and showing a game's analysis (``variants.analysis``): the Celery task's work,
the request that queues it, and the data of the card on a game's page.

The task runs on its own queue (``analysis``): a game's analysis takes up to half a
minute, and must never hold up a tournament's games on the default queue.
"""

from __future__ import annotations

import logging

from celery import current_app
from django.db import transaction
from django.utils import timezone

from variants.analysis import ANALYSIS_VERSION, analyse
from variants.analysis import related as related_games
from variants.models import GameAnalysis, RuleSet

log = logging.getLogger(__name__)

QUEUE = "analysis"
ANALYSE_TASK = "variants.analyse_game"  # tasks.analyse_game's name
STALE_MINUTES = 10  # a "running" row not updated for this long was lost with its worker


def request_analysis(rule_set: RuleSet) -> GameAnalysis:
    """Queue the game's analysis unless a current one exists or is under way."""
    row, _created = GameAnalysis.objects.get_or_create(rule_set=rule_set)
    current = row.version == ANALYSIS_VERSION and row.status == GameAnalysis.Status.DONE
    fresh = timezone.now() - row.updated < timezone.timedelta(minutes=STALE_MINUTES)
    underway = row.status in (GameAnalysis.Status.QUEUED, GameAnalysis.Status.RUNNING) and fresh
    if current or (underway and not _created):
        return row
    GameAnalysis.objects.filter(pk=row.pk).update(
        status=GameAnalysis.Status.QUEUED, progress=0.0, step="", updated=timezone.now()
    )
    transaction.on_commit(lambda: _send(rule_set.pk))
    row.refresh_from_db()
    return row


def _send(rule_set_id: int) -> None:
    # By the task's name: ``tasks`` imports this module, not the reverse.
    try:
        current_app.signature(ANALYSE_TASK, args=(rule_set_id,)).apply_async(
            queue=QUEUE, expires=3600
        )
    except Exception:  # the broker is down: the row stays queued and is asked for again
        log.exception("could not queue the analysis of game %s", rule_set_id)


def run_analysis(rule_set_id: int, seconds: float | None = None) -> bool:
    """The task's work: analyse the game, writing progress as it goes. Safe to run twice.
    The time budget is ``settings.ANALYSIS_SECONDS`` unless given."""
    from django.conf import settings

    from play.replay import game_of_rule_set

    seconds = settings.ANALYSIS_SECONDS if seconds is None else seconds
    rule_set = RuleSet.objects.filter(pk=rule_set_id).first()
    if rule_set is None:
        return False
    row, _ = GameAnalysis.objects.get_or_create(rule_set=rule_set)
    mine = GameAnalysis.objects.filter(pk=row.pk)
    mine.update(status=GameAnalysis.Status.RUNNING, progress=0.0, step="starting")

    def progress(fraction: float, what: str) -> None:
        mine.update(progress=fraction, step=what[:40], updated=timezone.now())

    try:
        result = analyse(game_of_rule_set(rule_set), seconds=seconds, progress=progress)
    except Exception:
        log.exception("the analysis of game %s failed", rule_set_id)
        mine.update(status=GameAnalysis.Status.FAILED)
        return False
    mine.update(
        status=GameAnalysis.Status.DONE,
        version=ANALYSIS_VERSION,
        result=result,
        progress=1.0,
        step="",
        **result["headline"],
    )
    return True


def card(rule_set: RuleSet, visible) -> dict:
    """What the card shows: the stored analysis (or its progress) and the related games
    among ``visible`` (the rule sets the visitor may see)."""
    row = GameAnalysis.objects.filter(rule_set=rule_set).first()
    if row is None or (row.status == GameAnalysis.Status.DONE and row.version != ANALYSIS_VERSION):
        row = request_analysis(rule_set)
    data = {
        "status": row.status,
        "progress": round(row.progress * 100),
        "step": row.step,
        "result": row.result if row.status == GameAnalysis.Status.DONE else None,
    }
    data["related"] = related(rule_set, visible)
    return data


def related(rule_set: RuleSet, visible, count: int = 3) -> list[dict]:
    others = [
        (other.pk, other.name, _canonical(other), other.summary)
        for other in visible.exclude(pk=rule_set.pk).order_by("pk")[:500]
    ]
    return related_games.nearest(_canonical(rule_set), rule_set.summary, others, count)


def _canonical(rule_set: RuleSet) -> dict:
    """The stored document is the canonical form plus the name (``rules.document``)."""
    return {k: v for k, v in rule_set.document.items() if k != "name"}
