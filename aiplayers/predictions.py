"""Predictions are data (DESIGN §9): each move an AI makes stores the outcome it
predicted beside the move (match, ply); the actual outcome is filled when the match ends.
Accuracy, F1 and Long Game are then queries over the last 100 of them."""

from __future__ import annotations

import logging

from django.db import IntegrityError, transaction

from play.models import Match

from . import learning
from .models import Prediction

log = logging.getLogger(__name__)

RECENT = 100
RESULT = {"win": "win", "loss": "lose", "lose": "lose", "draw": "draw"}


def taken(agent) -> dict | None:
    """What a learning agent predicted for the move it just chose (None for other bots)."""
    if getattr(agent, "ai_player_id", None) is None:
        return None
    prediction = getattr(agent, "last_prediction", None)
    if not isinstance(prediction, dict) or not prediction.get("label"):
        return None
    return {"player": agent.ai_player_id, "moves_studied": agent.ai_moves_studied,
            "label": str(prediction["label"])[:32],
            "probabilities": {str(k)[:32]: float(v) for k, v in
                              (prediction.get("probabilities") or {}).items()}}  # fmt: skip


def record(match_id: int, ply: int, seat: int, made: dict, actual: str = "") -> None:
    """Store one prediction (once per (match, ply): a move replayed never adds another)."""
    try:
        with transaction.atomic():
            Prediction.objects.create(
                player_id=made["player"], match_id=match_id, ply=ply, seat=seat,
                label=made["label"], probabilities=made["probabilities"],
                moves_studied=made["moves_studied"], actual=actual,
            )  # fmt: skip
    except IntegrityError:
        pass


def actual_label(result: str) -> str:
    """The mover's actual outcome as a label (the strategic forms need matches that have
    not been played yet when the match ends: the README says why they are left plain)."""
    return learning.label_for(RESULT[result], None)


def record_tournament(played, written: dict[int, int]) -> None:
    """A tournament batch's predictions, in the transaction that writes its games
    (``played``: (seated, PlayedGame, number); ``written``: number -> match id)."""
    for _seated, game, number in played:
        match_id = written.get(number)
        if match_id is None or not getattr(game, "predictions", None):
            continue
        results = getattr(game.outcome, "results", None) or ()
        for seat, ply, made in game.predictions:
            actual = actual_label(results[seat]) if seat < len(results) else ""
            record(match_id, ply, seat, made, actual)


def settle(match_id: int) -> int:
    """Fill in the actual outcome of a finished match's predictions."""
    match = Match.objects.filter(pk=match_id, status=Match.Status.FINISHED).first()
    if match is None:
        return 0
    results = (match.outcome or {}).get("results") or []
    done = 0
    for row in Prediction.objects.filter(match_id=match_id, actual=""):
        if row.seat < len(results) and results[row.seat] in RESULT:
            row.actual = actual_label(results[row.seat])
            row.save(update_fields=["actual"])
            done += 1
    return done


def on_match_finished(sender, match_id: int, **kwargs) -> None:
    """``play.signals.match_finished``: a live match's predictions get their outcome."""
    try:
        if Prediction.objects.filter(match_id=match_id).exists():
            settle(match_id)
    except Exception:
        log.exception("settling the predictions of match %s failed", match_id)


def recent_metrics(player_id: int, count: int = RECENT) -> dict:
    """Accuracy, F1 and Long Game over the player's last ``count`` settled predictions."""
    pairs = list(
        Prediction.objects.filter(player_id=player_id)
        .exclude(actual="")
        .order_by("-id")
        .values_list("label", "actual")[:count]
    )[::-1]  # oldest first, as the metrics read them
    return {**learning.metrics(pairs), "count": len(pairs)}


def curve(player_id: int, x: str = "moves", window: int = RECENT, points: int = 50,
          rule_set_id: int | None = None) -> dict:  # fmt: skip
    """The learning curve: Accuracy, F1 and Long Game over each window of ``window``
    settled predictions (of one game, if given), against the moves studied (or the games
    played) at its end."""
    found = Prediction.objects.filter(player_id=player_id).exclude(actual="")
    if rule_set_id is not None:
        found = found.filter(match__rule_set_id=rule_set_id)
    rows = list(found.order_by("id").values_list("label", "actual", "moves_studied", "match_id"))
    if not rows:
        return {"x": [], "accuracy": [], "f1": [], "long_game": []}
    ends = sorted({min(len(rows), max(1, round(len(rows) * (i + 1) / points)))
                   for i in range(points)})  # fmt: skip
    out = {"x": [], "accuracy": [], "f1": [], "long_game": []}
    for end in ends:
        window_rows = rows[max(0, end - window) : end]
        scores = learning.metrics([(a, b) for a, b, _, _ in window_rows])
        out["x"].append(window_rows[-1][2] if x == "moves" else len({r[3] for r in rows[:end]}))
        for key in ("accuracy", "f1", "long_game"):
            out[key].append(scores[key])
    return out
