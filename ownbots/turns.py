"""The tournament mailbox: a Celery worker asks an own bot for a move by opening a
``BotTurn`` (``asking``); the bot's socket (in a web process) sends it, and writes the
answer back (``answer``). This module holds the turn and the bot's side.

The database carries the turn, so a worker and a web process need no shared channel
layer (the embedded in-memory one is per process); both poll. With Redis an open turn
is answered through Redis (``fastlane``: pushed to the socket, the answer pushed back,
the row written at the game's end). A turn is answered at most once (a conditional
update, or one Redis script), and only before its deadline.
"""

from __future__ import annotations

import os
import threading
import time
from contextlib import contextmanager
from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from play import json_text
from play.errors import MatchError

from . import connections, fastlane
from .models import BotTurn
from .protocol import late, unknown_turn

POLL_SECONDS = 0.05  # the worker looks for the answer at least this often
CHECK_SECONDS = 0.5  # and whether the bot is connected this often
GRACE_SECONDS = 0.5  # an answer in flight at the deadline still counts


# --- the bot's side (its socket) --------------------------------------------------------------


def _ms(moment) -> int:
    return int(moment.timestamp() * 1000)


def message_text(turn: BotTurn, times: str = "") -> str:
    """The turn's ``your-move`` without its times (``fastlane.timed_text`` adds them; or
    with ``times``, their text, made by ``times_text``), as JSON, built around the view's
    and legal moves' JSON made once when the turn was (``new_turn``; its row is written
    with the same text): a worker makes hundreds of these a second."""
    return (
        f'{{{times}"type": "your-move", "turn": "t{turn.pk}", "match": null, '
        f'"tournament": {turn.tournament_id}, "game": {turn.game_number}, '
        f'"seat": {turn.seat}, "ply": {turn.ply}, '
        f'"view": {_json(turn, "view")}, "legal": {_json(turn, "legal")}}}'
    )


def _json(turn: BotTurn, field: str) -> str:
    made = getattr(turn, f"{field}_json", None)
    return made if made is not None else json_text.dumps(getattr(turn, field))


def waiting(player_id: int, skip: set[int]) -> list[tuple[int, int, str]]:
    """The turns waiting for this bot that ``skip`` (those sent already) does not hold:
    (id, deadline, message text) each, as ``fastlane``'s."""
    rows = BotTurn.objects.filter(
        player_id=player_id, status=BotTurn.Status.WAITING, deadline__gt=timezone.now()
    ).exclude(pk__in=list(skip))
    return [(t.pk, _ms(t.deadline), message_text(t)) for t in rows.order_by("pk")[:50]]


def is_mine(player_id: int, turn_id: int) -> bool:
    return BotTurn.objects.filter(pk=turn_id, player_id=player_id).exists()


def refused(code: str, turn_id: int, move: str) -> MatchError:
    if code == "unknown-turn":  # no such turn, or another bot's: the same answer
        return unknown_turn(f"t{turn_id}")
    if code == "illegal":
        return MatchError("illegal", f"{move[:40]!r} is not a legal move here; see legal.")
    return late(f"t{turn_id}")


def answer(player_id: int, turn_id: int, move: str, version: str) -> None:
    """The bot's answer to a tournament turn; raises MatchError saying why it is refused
    (the turn then stays open until its deadline, except when it is over). With Redis
    the open turn is there (``fastlane.answer``); a turn no longer there is over."""
    if fastlane.enabled():
        [code] = fastlane.answer(player_id, [(turn_id, move)], version, GRACE_SECONDS)
        if code == "ok":
            return
        if code != "missing":
            raise refused(code, turn_id, move)
        raise refused("late" if is_mine(player_id, turn_id) else "unknown-turn", turn_id, move)
    turn = BotTurn.objects.filter(pk=turn_id, player_id=player_id).first()
    if turn is None:
        raise refused("unknown-turn", turn_id, move)
    if turn.status != BotTurn.Status.WAITING:
        raise refused("late", turn_id, move)
    if move not in turn.legal:
        raise refused("illegal", turn_id, move)
    grace = timezone.now() - timedelta(seconds=GRACE_SECONDS)
    done = BotTurn.objects.filter(
        pk=turn_id, status=BotTurn.Status.WAITING, deadline__gte=grace
    ).update(status=BotTurn.Status.ANSWERED, answer=move, version=version)
    if not done:
        raise refused("late", turn_id, move)


# --- the worker's side -----------------------------------------------------------------------


class NoAnswer(Exception):
    """The bot did not answer: ``why`` is "timeout" (connected, too slow) or
    "disconnect" (not connected for longer than the wait allows)."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why


def start_games(tournament_id: int, numbers: list[int]) -> None:
    """An earlier try of these games (a batch sent again) asked already: that is over
    (with Redis its turns still open there; its rows, where a turn's row is written when
    it is asked: without Redis, or without PostgreSQL's sequence to take ids from)."""
    if fastlane.enabled():
        fastlane.expire_games(tournament_id, numbers)
        if connection.vendor == "postgresql":
            return  # rows are written when their game ends, never open
    BotTurn.objects.filter(
        tournament_id=tournament_id, game_number__in=numbers, status=BotTurn.Status.WAITING
    ).update(status=BotTurn.Status.EXPIRED)


def record_turns(asked: list[Turn]) -> None:
    """Write the turns ``asked`` kept (with Redis, once closed: ``Asking``): the new rows in one
    go (PostgreSQL's COPY: ``bulk_create`` there sends each column as an array, and
    quoting the views' JSON into arrays cost more than the games), one update for any
    written already."""
    if not asked:
        return
    new = [t for t in asked if not t.written]
    written = [t for t in asked if t.written and t.status != BotTurn.Status.WAITING]
    with unflushed():
        if connection.vendor == "postgresql" and len(new) > 1:
            _copy(new)
        else:
            insert_turns(new)
        if written:  # no sequence to take ids from: inserted when asked
            fields = ["status", "answer", "version", "deadline"]
            rows = [BotTurn(id=t.pk, **{f: getattr(t, f) for f in fields}) for t in written]
            BotTurn.objects.bulk_update(rows, fields)


def insert_turns(new: list[Turn]) -> None:
    """Insert the turns' rows (ORM: in the caller's transaction); each turn gets its
    row's id where it had none."""
    rows = [turn.row() for turn in new]
    BotTurn.objects.bulk_create(rows)
    for turn, row in zip(new, rows, strict=True):
        turn.pk, turn.written = row.pk, True


COPIED = ("id", "player_id", "tournament_id", "game_number", "seat", "ply", "view", "legal")
COPIED += ("status", "answer", "version", "created", "deadline")


def _copy(rows: list[Turn]) -> None:
    if not rows:
        return
    table, columns = BotTurn._meta.db_table, ", ".join(COPIED)
    with connection.cursor() as cursor:
        with cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
            for t in rows:
                copy.write_row(
                    (t.pk, t.player_id, t.tournament_id, t.game_number, t.seat, t.ply)
                    + (_json(t, "view"), _json(t, "legal"), t.status, t.answer, t.version)
                    + (t.created, t.deadline)
                )
    for turn in rows:
        turn.written = True


@contextmanager
def unflushed():
    """A transaction whose commit does not wait for the disk (PostgreSQL's
    ``synchronous_commit`` off, for it alone): turns' rows are the record of a game that
    a crash would replay from its start anyway, and a commit's wait for the log's flush
    was most of a turn's time."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL synchronous_commit TO OFF")
        yield


_seen_up: dict[int, float] = {}  # player id -> when a look found the bot connected


def connected(player_id: int) -> bool:
    """Is the bot connected? A look that found it is trusted for ``CHECK_SECONDS`` (the
    games of a batch in flight at once ask many times a second; a stale answer is what
    the wait loop's own looks, every ``CHECK_SECONDS``, would have had anyway)."""
    if time.monotonic() - _seen_up.get(player_id, -1e9) < CHECK_SECONDS:
        return True
    up = connections.current(player_id) is not None
    if up:
        _seen_up[player_id] = time.monotonic()
    else:
        _seen_up.pop(player_id, None)
    return up


_ids: dict[int, list[int]] = {}  # by process: turn ids taken from the sequence, not used
_ids_lock = threading.Lock()
ID_BLOCK = 256


def new_id() -> int | None:
    """A turn id for a row written later (PostgreSQL: taken from the table's sequence
    ``ID_BLOCK`` at a time, one read and no commit); None elsewhere (insert it now)."""
    if connection.vendor != "postgresql":
        return None
    with _ids_lock:
        mine = _ids.setdefault(os.getpid(), [])  # a forked child never uses its parent's
        if not mine:
            table = BotTurn._meta.db_table
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)",
                    [table, ID_BLOCK],
                )
                mine.extend(sorted(row[0] for row in cursor.fetchall()))
        return mine.pop(0)


class ViewText(str):
    """A view already as JSON text (``State.view_text``): a turn keeps it as it is."""

    __slots__ = ()


class Turn:
    """A turn in a worker's hands: a ``BotTurn`` row's fields without a model's weight (a
    worker makes hundreds a second; a model's ``__init__`` was most of the making), and
    the view's and legal moves' JSON made once. ``row()`` is its row when written;
    ``written`` says whether it is."""

    __slots__ = COPIED[1:] + ("pk", "view_json", "legal_json", "written")

    def __init__(self, player_id, tournament_id, number, seat, ply, view, legal, created, deadline):
        self.pk, self.written = None, False
        self.player_id, self.tournament_id, self.game_number = player_id, tournament_id, number
        self.seat, self.ply, self.legal = seat, ply, legal
        self.status, self.answer, self.version = BotTurn.Status.WAITING, "", ""
        self.created, self.deadline = created, deadline
        if isinstance(view, ViewText):  # the row and the message take the text as it is
            self.view, self.view_json = None, str(view)
        else:
            self.view, self.view_json = view, json_text.dumps(view)
        self.legal_json = json_text.dumps(legal)

    def row(self) -> BotTurn:
        fields = {name: getattr(self, name) for name in COPIED[1:]}
        if self.view is None:
            fields["view"] = json_text.loads(self.view_json)
        return BotTurn(id=self.pk, **fields)


def new_turn(player_id, tournament_id, number, seat, ply, view, legal, up) -> Turn:
    """A waiting turn, not stored yet: ``OWNBOT_MOVE_SECONDS`` to answer if its bot is
    ``up`` (connected), else ``OWNBOT_WAIT_SECONDS`` for it to come."""
    now = timezone.now()
    seconds = settings.OWNBOT_MOVE_SECONDS if up else settings.OWNBOT_WAIT_SECONDS
    deadline = now + timedelta(seconds=seconds)
    return Turn(player_id, tournament_id, number, seat, ply, view, legal, now, deadline)


def open_turn(player_id, tournament_id, number, seat, ply, view, legal, up=True) -> Turn:
    """A new waiting turn, offered to the bot's socket if it is ``up``. Without Redis its
    row is the mailbox (written now); with Redis the turn is open there, and its row
    waits for ``record_turns`` on PostgreSQL. (``asking`` opens many at once.)"""
    turn = new_turn(player_id, tournament_id, number, seat, ply, view, legal, up)
    lane = fastlane.enabled()
    turn.pk = new_id() if lane else None
    if turn.pk is None:
        with unflushed():
            insert_turns([turn])
    if lane:
        fastlane.open_turns([(turn, message_text(turn), up)], fastlane.new_reply_key())
    elif up:
        connections.wake(player_id)
    return turn


def status(turn_id: int) -> str | None:
    """The turn's status: an open turn's in Redis (its row is written when the game
    ends), else its row's; None if there is no such turn."""
    if fastlane.enabled():
        found = fastlane.status(turn_id)
        if found is not None:
            return found
    return BotTurn.objects.filter(pk=turn_id).values_list("status", flat=True).first()


def open_ids(player_id: int) -> list[int]:
    """The ids of the bot's open turns (with Redis, there; else its waiting rows)."""
    if fastlane.enabled():
        return fastlane.open_ids(player_id)
    rows = BotTurn.objects.filter(player_id=player_id, status=BotTurn.Status.WAITING)
    return list(rows.order_by("pk").values_list("pk", flat=True))


def set_deadline(turn: BotTurn, deadline, lane: bool) -> None:
    turn.deadline = deadline
    if lane:
        fastlane.set_deadline(turn)  # the row, if any, gets it with the game's turns
    else:
        BotTurn.objects.filter(pk=turn.pk, status=BotTurn.Status.WAITING).update(deadline=deadline)


def expire_turn(turn: BotTurn, lane: bool) -> bool:
    """Close the turn unanswered; False if an answer got in first."""
    if lane:
        if not fastlane.expire(turn):
            return False  # answered meanwhile: the next wait takes the answer
        turn.status = BotTurn.Status.EXPIRED
        return True
    return bool(
        BotTurn.objects.filter(pk=turn.pk, status=BotTurn.Status.WAITING).update(
            status=BotTurn.Status.EXPIRED
        )
    )
