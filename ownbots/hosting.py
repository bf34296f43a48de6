"""Games hosted by the bot's socket: a worker hands a batch of own-bot games to the web
process that holds the bot's connection, which plays them there and hands back what they
produced (issue 36). A move then crosses no process: the socket's process makes the view,
sends it, takes the answer and plays it on, where the mailbox (``asking``) took each turn
from the worker through Redis to the socket and back.

The hand-over, over Redis:
- the worker publishes the batch on the bot's channel, which its socket listens to
  (``fastlane.publish_host``), naming the socket's channel name (only that connection
  takes it) and a ``reply`` list; no socket listening: the mailbox at once;
- the host keeps a lease (a key that expires unless renewed) while it plays, and looks
  whether the worker has called the games back (``cancel``);
- it pushes the result on ``reply``: ``{"ok": true, ...}``, or ``{"ok": false}`` when it
  could not play them (the bot went away mid-batch, an error): the worker then plays them
  through the mailbox as before, from their start (as after a worker's crash).
A lease that never appears (the message lost: the socket closed meanwhile) or that lapses
(the web process died) sends the worker to the mailbox too.

``Host`` is one batch's open turns in the socket's process: the batch's task (an asyncio
task of the socket's event loop) opens them, the socket hands it the bot's answers.
"""

from __future__ import annotations

import asyncio
import itertools
import time

from play import json_text

from . import fastlane
from .models import BotTurn
from .turns import GRACE_SECONDS, message_text

START_SECONDS = 5.0  # a host that has not taken its lease by then never got the message
LEASE_SECONDS = 5.0  # a lease not renewed for this long: its host died
RENEW_SECONDS = 1.0  # the host renews its lease (and looks for a cancel) this often
KEEP_SECONDS = 120  # a reply list, a lease and a cancel outlive their batch this long


# A hosted turn's id: from a range of its own, far above the turn table's sequence (a
# mailbox turn's id): hosted turns have no row, and an id is one read fewer than a block of
# the sequence (1.5-4 ms a batch). The socket routes a hosted turn's answer by its id
# among its own batches' turns, so ids need only differ within a process.
_hosted_ids = itertools.count(10**17)


def new_turn_id() -> int:
    return next(_hosted_ids)


class HostGone(Exception):
    """The hosted batch cannot go on (the bot's socket closed, the worker called it back)."""


# --- the hand-over's keys ------------------------------------------------------------------


def _keys(reply: str) -> tuple[str, str]:
    return f"{reply}:lease", f"{reply}:cancel"


def new_reply() -> str:
    return fastlane.new_reply_key()


def _renewing(redis, reply: str):
    lease, cancel = _keys(reply)
    pipe = redis.pipeline(transaction=False)
    pipe.set(lease, 1, px=int(LEASE_SECONDS * 1000))
    pipe.exists(cancel)
    return pipe


def renew(reply: str) -> bool:
    """The host's lease taken or renewed; False if the worker called the batch back."""
    return not _renewing(fastlane.client(), reply).execute()[1]


async def renewed(redis, reply: str) -> bool:
    """``renew`` on the socket's own (async) Redis client: no thread."""
    return not (await _renewing(redis, reply).execute())[1]


def _delivering(redis, reply: str, result: dict):
    lease, _cancel = _keys(reply)
    pipe = redis.pipeline(transaction=False)
    pipe.rpush(reply, json_text.dumps(result))
    pipe.expire(reply, KEEP_SECONDS)
    pipe.delete(lease)
    return pipe


def deliver(reply: str, result: dict) -> None:
    """The host's result on the worker's list; its lease ends."""
    _delivering(fastlane.client(), reply, result).execute()


async def delivered(redis, reply: str, result: dict) -> None:
    """``deliver`` on the socket's own (async) Redis client."""
    await _delivering(redis, reply, result).execute()


def wait_result(reply: str, heartbeat=None) -> dict | None:
    """The worker's wait for the host's result: None if it never took the batch, died,
    or could not play it (then the batch is called back: a host starting late stops)."""
    redis, (lease, cancel) = fastlane.client(), _keys(reply)
    asked, started = time.monotonic(), False
    while True:
        got = redis.blpop([reply], timeout=RENEW_SECONDS)
        if heartbeat is not None:
            heartbeat()
        if got is not None:
            found = json_text.loads(got[1])
            return found if found.get("ok") else None
        if redis.exists(lease):
            started = True
            continue
        if started or time.monotonic() - asked > START_SECONDS:
            redis.set(cancel, 1, ex=KEEP_SECONDS)
            late = redis.lpop(reply)  # (delivered between the wait and the look)
            found = json_text.loads(late) if late else None
            return found if found and found.get("ok") else None


# --- the socket's process ------------------------------------------------------------------


class Host:
    """One hosted batch's open turns, in the socket's event loop: the batch's task opens
    them (``open``) and takes what came (``next``); the socket hands it the bot's answers
    (``answer`` each, checked as the mailbox checks them, then ``flush``). One event loop:
    no lock, no thread, nothing crosses a process."""

    def __init__(self):
        self.turns: dict[int, object] = {}  # every turn of the batch, by id
        self.open_ids: set[int] = set()  # those not closed
        self.late_after: dict[int, float] = {}  # epoch s: its deadline and grace (one clock)
        self.taken: list[tuple] = []  # (turn id, move, version) not taken by the task yet
        self.woken = asyncio.Event()
        self.gone = False

    def open(self, turns: list) -> list[tuple[int, str]]:
        """The new turns (a step's: one deadline), as the socket sends them: (id, message
        text with its times) each."""
        out, times = [], {}
        for turn in turns:
            self.turns[turn.pk] = turn
            self.open_ids.add(turn.pk)
            deadline = turn.deadline.timestamp()
            self.late_after[turn.pk] = deadline + GRACE_SECONDS
            at = int(deadline * 1000)
            made = times.get(at)
            if made is None:
                made = times[at] = fastlane.times_text(at)
            out.append((turn.pk, message_text(turn, made)))
        return out

    def answer(self, turn_id: int, move: str, version: str) -> str | None:
        """The bot's answer: "ok" or the protocol's code; None if not this batch's turn."""
        turn = self.turns.get(turn_id)
        if turn is None:
            return None
        if turn.status != BotTurn.Status.WAITING:
            return "late"
        if move not in turn.legal:
            return "illegal"
        if time.time() > self.late_after[turn_id]:
            return "late"
        turn.status, turn.answer, turn.version = BotTurn.Status.ANSWERED, move, version
        self.open_ids.discard(turn_id)
        self.taken.append((turn_id, move, version))
        return "ok"

    def flush(self) -> None:
        """A message's answers are in: the task takes them together."""
        if self.taken:
            self.woken.set()

    def close(self) -> None:
        self.gone = True
        self.woken.set()

    async def next(self, seconds: float) -> list[tuple]:
        """The answers taken since the last call, waiting up to ``seconds`` for some."""
        if not self.taken and not self.gone:
            try:
                await asyncio.wait_for(self.woken.wait(), seconds)
            except TimeoutError:
                pass
        self.woken.clear()
        taken, self.taken = self.taken, []
        return taken

    def expired(self) -> list:
        """The open turns past their deadline (and its grace), closed unanswered."""
        now = time.time()
        out = [self.turns[i] for i in self.open_ids if self.late_after[i] < now]
        for turn in out:
            turn.status = BotTurn.Status.EXPIRED
            self.open_ids.discard(turn.pk)
        return out
