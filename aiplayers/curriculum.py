"""What an AI studies: adding tournaments and player histories to its curriculum, asking
the learning task to study them (or to stop), and the Curriculum tab's numbers."""

from __future__ import annotations

import logging

from celery import current_app
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from accounts.models import Player

from .models import AIPlayer, CurriculumItem
from .services import FactoryError, may_edit

log = logging.getLogger(__name__)

QUEUE = "learning"
STUDY_TASK = "aiplayers.study"  # tasks.study's name
MAX_GAMES = 1_000_000
TYPES = ("Anomalies", "Masters", "Mediocrity", "Benchmarks", "Social history", "Other")


def _check(ai: AIPlayer, by, games) -> int | None:
    if not may_edit(by, ai):
        raise FactoryError("Only the AI's trainer or an Admin can change its curriculum.")
    if not ai.is_learning:
        raise FactoryError("A search AI does not study: only a learning AI has a curriculum.")
    if games in (None, ""):
        return None
    try:
        games = int(games)
    except (TypeError, ValueError):
        raise FactoryError("Games: a whole number (or empty for all of them).") from None
    if not 1 <= games <= MAX_GAMES:
        raise FactoryError(f"Games: from 1 to {MAX_GAMES} (or empty for all of them).")
    return games


def add_tournament(ai: AIPlayer, by, tournament, games=None) -> CurriculumItem:
    games = _check(ai, by, games)
    item = CurriculumItem.objects.create(ai=ai, tournament=tournament, games=games)
    request_study(ai)
    return item


def add_history(ai: AIPlayer, by, player: Player, games=None) -> CurriculumItem:
    games = _check(ai, by, games)
    if player.pk == ai.player_id:
        raise FactoryError("An AI studies other players' histories, not its own.")
    item = CurriculumItem.objects.create(ai=ai, history_of=player, games=games)
    request_study(ai)
    return item


def remove_item(ai: AIPlayer, by, item_id: int) -> None:
    """A pending item that has not begun may be taken off again."""
    _check(ai, by, None)
    deleted, _ = CurriculumItem.objects.filter(
        ai=ai, pk=item_id, cursor=0, studied_at__isnull=True, moves_studied=0
    ).delete()
    if not deleted:
        raise FactoryError("Only a curriculum item not yet begun can be removed.")


def pending(ai: AIPlayer):
    return ai.curriculum.filter(studied_at__isnull=True).order_by("pk")


def is_studying(player: Player) -> bool:
    """A learning AI with pending curriculum: it completes it before it plays."""
    if player.kind != Player.Kind.AI:
        return False
    return CurriculumItem.objects.filter(ai__player=player, studied_at__isnull=True).exists()


def request_study(ai: AIPlayer) -> None:
    """Ask a worker on the ``learning`` queue to study the pending curriculum."""
    AIPlayer.objects.filter(pk=ai.pk).exclude(study=AIPlayer.Study.STUDYING).update(
        study=AIPlayer.Study.QUEUED, study_note="", study_touched=timezone.now()
    )
    transaction.on_commit(lambda: send(ai.pk))


def send(ai_id: int, countdown: float | None = None) -> None:
    # By the task's name: ``tasks`` imports this module's callers, not the reverse.
    try:
        current_app.signature(STUDY_TASK, args=(ai_id,)).apply_async(
            queue=QUEUE, countdown=countdown
        )
    except Exception:  # the broker is down: the page's Study button asks again
        log.exception("could not queue the study of AI %s", ai_id)


def cancel(ai: AIPlayer, by) -> None:
    """Stop studying after the current chunk; what is pending stays pending (and the
    AI does not play until it is studied or removed)."""
    if not may_edit(by, ai):
        raise FactoryError("Only the AI's trainer or an Admin can cancel its study.")
    AIPlayer.objects.filter(pk=ai.pk).update(
        study=AIPlayer.Study.CANCELLED, study_note="Cancelled.", study_touched=timezone.now()
    )


def type_of(item: CurriculumItem) -> str:
    """The chart's kind of a curriculum item (see the README for the reading)."""
    if item.history_of_id:
        return "Social history"
    if item.tournament.kind == item.tournament.Kind.BENCHMARK:
        return "Benchmarks"
    return "Other"


def chart(ai: AIPlayer, by: str = "type") -> dict:
    """Moves studied per type (every type listed) or per game: {labels, values}."""
    totals: dict[str, int] = dict.fromkeys(TYPES, 0) if by == "type" else {}
    for item in ai.curriculum.select_related("tournament").exclude(moves_studied=0):
        if by == "type":
            totals[type_of(item)] += item.moves_studied
        else:
            for game, moves in (item.by_game or {}).items():
                totals[game] = totals.get(game, 0) + int(moves)
    return {"labels": list(totals), "values": list(totals.values())}


def progress(ai: AIPlayer) -> dict:
    """The page's progress: matches studied of those fixed so far, and the state."""
    items = list(ai.curriculum.all())
    total = sum(len(i.match_ids) for i in items if i.match_ids is not None)
    done = sum(i.cursor for i in items)
    unknown = any(i.match_ids is None for i in items)
    moves = ai.curriculum.aggregate(n=Sum("moves_studied"))["n"] or 0
    return {"state": ai.study, "label": ai.get_study_display(), "note": ai.study_note,
            "matches_done": done, "matches_total": None if unknown else total,
            "percent": round(100 * done / total) if total and not unknown else None,
            "pending": sum(1 for i in items if not i.done), "moves": moves,
            "moves_studied": ai.moves_studied}  # fmt: skip


STALE_SECONDS = 60  # a study not heard of for this long lost its worker


def resume_all() -> int:
    """Send again every study that was under way or asked for."""
    open_states = (AIPlayer.Study.QUEUED, AIPlayer.Study.STUDYING, AIPlayer.Study.WAITING)
    ids = list(AIPlayer.objects.filter(study__in=open_states).values_list("pk", flat=True))
    for ai_id in ids:
        send(ai_id)
    return len(ids)


def nudge(ai: AIPlayer) -> bool:
    """The AI's page asks again for a study whose worker went quiet."""
    stale = timezone.now() - timezone.timedelta(seconds=STALE_SECONDS)
    open_states = (AIPlayer.Study.QUEUED, AIPlayer.Study.STUDYING)
    if ai.study in open_states and (ai.study_touched is None or ai.study_touched < stale):
        AIPlayer.objects.filter(pk=ai.pk).update(study_touched=timezone.now())
        send(ai.pk)
        return True
    return False


def studying_ids() -> set[int]:
    """Players of the learning AIs that have curriculum pending."""
    return set(
        CurriculumItem.objects.filter(studied_at__isnull=True).values_list(
            "ai__player_id", flat=True
        )
    )
