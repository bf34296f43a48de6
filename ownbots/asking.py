"""The worker's side of the tournament mailbox: asking own bots for moves and waiting.

A worker plays a batch's own-bot games together, on one thread: each game runs until an
own bot is to move, then waits. ``Asking`` opens every turn its games asked in a step at
once (with Redis one pipeline, and one message per bot, which its socket passes on in one
message to a client that takes several: ``your-moves``; without Redis one insert) and
takes the answers as they come (with Redis all from one list, without one query for all
its open turns), so a turn's cost does not grow with the games in flight and a bot that
answers several turns in one message lets several games carry on at once.
``ask`` is the same for one turn, waiting until it is answered or over.

A turn's times are ``Pending``'s: not connected, it waits up to ``OWNBOT_WAIT_SECONDS``
for a connection (then "disconnect"); connected, it has ``OWNBOT_MOVE_SECONDS`` (then
"timeout"); a bot that drops and comes back within the wait gets a fresh move time.
"""

from __future__ import annotations

import time
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from . import connections, fastlane
from .models import BotTurn
from .turns import (
    CHECK_SECONDS,
    GRACE_SECONDS,
    POLL_SECONDS,
    NoAnswer,
    Turn,
    connected,
    expire_turn,
    insert_turns,
    message_text,
    new_id,
    new_turn,
    record_turns,
    set_deadline,
    unflushed,
)

GATHER_SECONDS = 0.002  # after an answer, the others that come this soon are taken with it
# Closed turns' rows are written (with Redis on PostgreSQL) or brought up to date (rows
# inserted when asked) while the bot thinks, this many at a time, rather than all at the
# end: ~500 rows took 20-30 ms of a group's last step.
RECORD_AT = 100


class Pending:
    """An open turn's times: what its bot's coming and going does to its deadline."""

    def __init__(self, turn: Turn, up: bool, lane: bool):
        self.turn, self.lane = turn, lane
        self.away_since = None if up else turn.created

    def check(self, up: bool, now) -> None:
        """Raises ``NoAnswer`` if the turn is over (closed here unanswered)."""
        turn, lane = self.turn, self.lane
        wait_time = timedelta(seconds=settings.OWNBOT_WAIT_SECONDS)
        if up and self.away_since is not None:  # (re)connected: a fresh move time
            self.away_since = None
            set_deadline(turn, now + timedelta(seconds=settings.OWNBOT_MOVE_SECONDS), lane)
            if lane:
                fastlane.republish(turn, message_text(turn))
            else:
                connections.wake(turn.player_id)
        elif not up and self.away_since is None:  # it dropped: wait for it to return
            self.away_since = now
            set_deadline(turn, now + wait_time, lane)
        if self.away_since is not None and now - self.away_since > wait_time:
            if expire_turn(turn, lane):
                raise NoAnswer("disconnect")
        elif now > turn.deadline + timedelta(seconds=GRACE_SECONDS) and expire_turn(turn, lane):
            raise NoAnswer("timeout" if self.away_since is None else "disconnect")


class Asking:
    """The open turns of one worker's games in flight. ``ask`` queues a turn (under the
    caller's ``key``: its game); ``send`` opens the queued turns; ``wait`` does too, then
    returns what came within ``POLL_SECONDS``: (key, (move, version)) or (key,
    ``NoAnswer``) each; ``finish`` writes the rows not written yet. With Redis a turn's
    row is written once it is closed (``RECORD_AT`` at a time, while the bot thinks);
    ``asked`` keeps every turn asked."""

    def __init__(self, heartbeat=None):
        self.lane = fastlane.enabled()
        self.reply = fastlane.new_reply_key() if self.lane else None
        self.beat = heartbeat or (lambda: None)
        self.queued: list[tuple[object, Turn, bool]] = []
        self.pending: dict[int, tuple[object, Pending]] = {}
        self.asked: list[Turn] = []
        self.closed: list[Turn] = []  # with Redis: answered or expired, no row written yet
        self.up: dict[int, tuple[float, bool]] = {}  # player: (when looked, connected)
        self.looks = 0
        self.checked = time.monotonic()  # when the open turns' times were last looked at

    def ask(self, key, player_id, tournament_id, number, seat, ply, view, legal) -> None:
        up = connected(player_id)
        self.up[player_id] = (time.monotonic(), up)
        turn = new_turn(player_id, tournament_id, number, seat, ply, view, legal, up)
        self.queued.append((key, turn, up))

    def send(self) -> None:
        """Open the turns asked since the last ``send``."""
        queued, self.queued = self.queued, []
        if not queued:
            return
        if self.lane:
            for _key, turn, _up in queued:
                turn.pk = new_id()
            unsaved = [turn for _key, turn, _up in queued if turn.pk is None]
            if unsaved:  # no sequence to take ids from (not PostgreSQL): inserted now
                with unflushed():
                    insert_turns(unsaved)
            fastlane.open_turns([(t, message_text(t), up) for _k, t, up in queued], self.reply)
            self.asked += [turn for _key, turn, _up in queued]
        else:  # the rows are the mailbox; a socket in this process is woken
            with unflushed():
                insert_turns([turn for _key, turn, _up in queued])
            for player_id in {turn.player_id for _key, turn, up in queued if up}:
                connections.wake(player_id)
        for key, turn, up in queued:
            self.pending[turn.pk] = (key, Pending(turn, up, self.lane))
        self.looks = 0

    def wait(self) -> list[tuple[object, object]]:
        self.send()
        if not self.pending:
            return []
        if len(self.closed) >= RECORD_AT:  # the bot has the turns just sent meanwhile
            self.closed, closed = [], self.closed
            record_turns(closed)
        out = []
        for turn_id, move, version in self._answers():
            key, pending = self.pending.pop(turn_id, (None, None))
            if pending is not None:
                turn = pending.turn
                turn.status, turn.answer, turn.version = BotTurn.Status.ANSWERED, move, version
                self.closed.append(turn)
                out.append((key, (move, version)))
        self.beat()
        if time.monotonic() - self.checked < POLL_SECONDS:
            return out  # (the times are looked at this often: a deadline has 0.5 s of grace)
        self.checked, now = time.monotonic(), timezone.now()
        for turn_id, (key, pending) in list(self.pending.items()):
            try:
                pending.check(self._is_up(pending.turn.player_id), now)
            except NoAnswer as missed:
                del self.pending[turn_id]
                self.closed.append(pending.turn)
                out.append((key, missed))
        return out

    def finish(self) -> None:
        """Write what the turns' rows lack: the new ones (with Redis on PostgreSQL) and the
        last status of those written when asked."""
        left = self.closed + [pending.turn for _key, pending in self.pending.values()]
        self.closed = []
        record_turns(left)

    def _answers(self) -> list[tuple[int, str, str]]:
        """With Redis blocked on the list (woken by an answer), else a look at the rows
        after a sleep (2 ms, doubling up to ``POLL_SECONDS``)."""
        if self.lane:
            return fastlane.answers(self.reply, POLL_SECONDS, GATHER_SECONDS, len(self.pending))
        time.sleep(min(POLL_SECONDS, 0.002 * 2 ** min(self.looks, 10)))
        self.looks += 1
        rows = BotTurn.objects.filter(pk__in=list(self.pending), status=BotTurn.Status.ANSWERED)
        return list(rows.values_list("pk", "answer", "version"))

    def _is_up(self, player_id: int) -> bool:
        """Is the bot connected? Looked up every ``CHECK_SECONDS`` at most."""
        looked, up = self.up.get(player_id, (-1e9, False))
        if time.monotonic() - looked >= CHECK_SECONDS:
            up = connections.current(player_id) is not None
            self.up[player_id] = (time.monotonic(), up)
        return up


def ask(player_id, tournament_id, number, seat, ply, view, legal, heartbeat=None, asked=None):
    """Ask the bot for one move and wait; (move text, version) or raises ``NoAnswer``.
    (A game's first ask is preceded by ``start_games``.) With Redis, given a list
    ``asked``, the turn is kept there for ``record_turns`` at the game's end; without
    the list it is written here."""
    asking = Asking(heartbeat)
    asking.ask(None, player_id, tournament_id, number, seat, ply, view, legal)
    try:
        while True:
            for _key, reply in asking.wait():
                if isinstance(reply, NoAnswer):
                    raise reply
                return reply
    finally:
        if asked is not None:
            asked += asking.asked
        else:
            record_turns(asking.asked)
