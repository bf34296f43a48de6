"""The tournament mailbox: a Celery worker asks an own bot for a move by writing a
``BotTurn``; the bot's socket (in a web process) sends it, and writes the answer back.

The database carries the turn, so a worker and a web process need no shared channel
layer (the embedded in-memory one is per process); the channel layer only wakes the
socket early (``connections.wake``). A turn is answered at most once (a conditional
update), and only before its deadline.
"""

from __future__ import annotations

import time
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from play.errors import MatchError

from . import connections
from .models import BotTurn
from .protocol import late, unknown_turn

POLL_SECONDS = 0.05  # the worker looks for the answer this often
CHECK_EVERY = 10  # and whether the bot is connected every 10th look (0.5 s)
GRACE_SECONDS = 0.5  # an answer in flight at the deadline still counts


# --- the bot's side (its socket) --------------------------------------------------------------


def _ms(moment) -> int:
    return int(moment.timestamp() * 1000)


def payload(turn: BotTurn) -> dict:
    now = timezone.now()
    return {
        "type": "your-move",
        "turn": f"t{turn.pk}",
        "match": None,
        "tournament": turn.tournament_id,
        "game": turn.game_number,
        "seat": turn.seat,
        "ply": turn.ply,
        "view": turn.view,  # state.view(seat), as the worker made it
        "legal": turn.legal,
        "deadline": _ms(turn.deadline),
        "timeLeft": max(0.0, (turn.deadline - now).total_seconds()),
    }


def waiting(player_id: int, skip: set[int]) -> list[dict]:
    """The turns waiting for this bot that ``skip`` (those sent already) does not hold."""
    rows = BotTurn.objects.filter(
        player_id=player_id, status=BotTurn.Status.WAITING, deadline__gt=timezone.now()
    ).exclude(pk__in=list(skip))
    return [payload(t) for t in rows.order_by("pk")[:50]]


def answer(player_id: int, turn_id: int, move: str, version: str) -> None:
    """The bot's answer to a tournament turn; raises MatchError saying why it is refused
    (the turn then stays open until its deadline, except when it is over)."""
    turn = BotTurn.objects.filter(pk=turn_id, player_id=player_id).first()
    if turn is None:  # no such turn, or another bot's: the same answer
        raise unknown_turn(f"t{turn_id}")
    if turn.status != BotTurn.Status.WAITING:
        raise late(f"t{turn_id}")
    if move not in turn.legal:
        raise MatchError("illegal", f"{move[:40]!r} is not a legal move here; see legal.")
    grace = timezone.now() - timedelta(seconds=GRACE_SECONDS)
    done = BotTurn.objects.filter(
        pk=turn_id, status=BotTurn.Status.WAITING, deadline__gte=grace
    ).update(status=BotTurn.Status.ANSWERED, answer=move, version=version)
    if not done:
        raise late(f"t{turn_id}")


# --- the worker's side -----------------------------------------------------------------------


class NoAnswer(Exception):
    """The bot did not answer: ``why`` is "timeout" (connected, too slow) or
    "disconnect" (not connected for longer than the wait allows)."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why


def ask(player_id, tournament_id, number, seat, ply, view, legal, heartbeat=None):
    """Ask the bot for a move and wait; (move text, version) or raises ``NoAnswer``.

    Not connected: the turn waits up to ``OWNBOT_WAIT_SECONDS`` for a connection (then
    "disconnect"). Connected: it has ``OWNBOT_MOVE_SECONDS`` (then "timeout"); a bot that
    drops and comes back within the wait gets a fresh move time."""
    beat = heartbeat or (lambda: None)
    move_time = timedelta(seconds=settings.OWNBOT_MOVE_SECONDS)
    wait_time = timedelta(seconds=settings.OWNBOT_WAIT_SECONDS)
    # An earlier try of this game (a batch sent again) asked already: that is over.
    BotTurn.objects.filter(
        tournament_id=tournament_id, game_number=number, status=BotTurn.Status.WAITING
    ).update(status=BotTurn.Status.EXPIRED)
    now = timezone.now()
    up = connections.current(player_id) is not None
    turn = BotTurn.objects.create(
        player_id=player_id,
        tournament_id=tournament_id,
        game_number=number,
        seat=seat,
        ply=ply,
        view=view,
        legal=legal,
        created=now,
        deadline=now + (move_time if up else wait_time),
    )
    away_since = None if up else now
    if up:
        connections.wake(player_id)
    looks = 0
    connected = up
    while True:
        time.sleep(POLL_SECONDS)
        beat()
        turn.refresh_from_db(fields=["status", "answer", "version", "deadline"])
        if turn.status == BotTurn.Status.ANSWERED:
            return turn.answer, turn.version
        now = timezone.now()
        looks += 1
        if looks % CHECK_EVERY == 0:
            connected = connections.current(player_id) is not None
        if connected and away_since is not None:  # (re)connected: a fresh move time
            away_since = None
            turn.deadline = now + move_time
            BotTurn.objects.filter(pk=turn.pk, status=BotTurn.Status.WAITING).update(
                deadline=turn.deadline
            )
            connections.wake(player_id)
        elif not connected and away_since is None:  # it dropped: wait for it to return
            away_since = now
            turn.deadline = now + wait_time
            BotTurn.objects.filter(pk=turn.pk, status=BotTurn.Status.WAITING).update(
                deadline=turn.deadline
            )
        if away_since is not None and now - away_since > wait_time:
            if _expire(turn):
                raise NoAnswer("disconnect")
        elif now > turn.deadline + timedelta(seconds=GRACE_SECONDS) and _expire(turn):
            raise NoAnswer("timeout" if away_since is None else "disconnect")


def _expire(turn: BotTurn) -> bool:
    """Close the turn unanswered; False if an answer got in first."""
    return bool(
        BotTurn.objects.filter(pk=turn.pk, status=BotTurn.Status.WAITING).update(
            status=BotTurn.Status.EXPIRED
        )
    )
