"""A match's timers: which deadlines run after a change, and what is due at a time.

Pure planning over the model's columns (no locks, no saves: ``play.services`` holds the
lock and saves). ``wake_at`` is the earliest deadline, or when a bot is due to move.
"""

from __future__ import annotations

import random
from datetime import timedelta

from django.conf import settings

from .models import Match, Move, Seat

FORFEIT_REASON = {
    Move.Kind.RESIGN: "resignation",
    Move.Kind.TIMEOUT: "timeout",
    Move.Kind.DISCONNECT: "disconnect",
}
SPECIAL = ("draw", "accept", "decline", "pass")


def _server_moves(seat: Seat) -> bool:
    from .services import server_moves

    return server_moves(seat)


def turn_seconds(match: Match) -> int | None:
    return match.rule_set.document.get("seconds_per_turn")


# The columns ``plan`` may change: a save after it need write only these.
PLANNED = ("turn_started", "turn_deadline", "afk_seat", "afk_since", "afk_warned", "wake_at")


def plan(match: Match, seats: list[Seat], state, now, *, new_turn=False, paced=False) -> None:
    """Set the deadlines that run from ``now`` and ``wake_at``, the earliest of them."""
    due = []
    if match.status == Match.Status.INVITED:
        due.append(match.invite_deadline)
    elif match.status == Match.Status.ACTIVE and state is not None:
        by_index = {s.index: s for s in seats}
        to_move = state.to_move()
        if new_turn or match.turn_started is None:
            seconds = turn_seconds(match)
            match.turn_started = now
            match.turn_deadline = now + timedelta(seconds=seconds) if seconds else None
        due.append(match.turn_deadline)
        people = [i for i in to_move if not _server_moves(by_index[i])]
        if not people:
            match.afk_seat, match.afk_since, match.afk_warned = None, None, False
        elif new_turn or match.afk_seat not in people or match.afk_since is None:
            match.afk_seat, match.afk_since, match.afk_warned = people[0], now, False
        if match.afk_seat is not None:
            warn_at, afk_deadline = afk_times(match)
            due.append(afk_deadline if match.afk_warned else warn_at)
        if any(_server_moves(by_index[i]) for i in to_move):
            pace = settings.PLAY_BOT_PACE if paced else 0
            due.append(now + timedelta(seconds=pace))
        due.extend(s.disconnect_deadline for s in seats)
    due = [t for t in due if t is not None]
    match.wake_at = min(due) if due else None


def afk_times(match: Match):
    start = match.afk_since
    warn_at = start + timedelta(seconds=match.afk_timeout - match.afk_warning)
    return warn_at, start + timedelta(seconds=match.afk_timeout)


def clear(match: Match, seats: list[Seat]) -> None:
    match.turn_deadline = match.invite_deadline = match.wake_at = None
    match.afk_seat, match.afk_since, match.afk_warned = None, None, False
    for seat in seats:
        if seat.disconnect_deadline is not None:
            seat.disconnect_deadline = None
            seat.save(update_fields=["disconnect_deadline"])


def due(match: Match, seats: list[Seat], state, now):
    """Yield (log kind or None for a warning only, seat, engine move or None, events), in
    the order they are handled: reconnect windows, the turn timer, AFK."""
    for seat in seats:
        if seat.disconnect_deadline is not None and seat.disconnect_deadline <= now:
            seat.disconnect_deadline = None
            seat.save(update_fields=["disconnect_deadline"])
            yield Move.Kind.DISCONNECT, seat.index, None, []
    by_index = {s.index: s for s in seats}
    people = [i for i in state.to_move() if not _server_moves(by_index[i])]
    if match.turn_deadline is not None and match.turn_deadline <= now and people:
        yield _timeout(match, state, people[0])
    if match.afk_seat is not None:
        warn_at, afk_deadline = afk_times(match)
        if now >= afk_deadline:
            yield Move.Kind.TIMEOUT, match.afk_seat, None, []
        elif now >= warn_at and not match.afk_warned:
            match.afk_warned = True
            left = max(0, round((afk_deadline - now).total_seconds()))
            deadline_ms = int(afk_deadline.timestamp() * 1000)
            event = {
                "type": "tictactoe:afk_warning",
                "seat": match.afk_seat,
                "deadline": deadline_ms,
                "secondsLeft": left,
            }
            yield None, match.afk_seat, None, [event]


def _timeout(match: Match, state, seat: int):
    """The rules' consequence of a turn timer running out: loss, a random move, or skip."""
    consequence = match.rule_set.document.get("timeout", "loss")
    if consequence == "skip":
        return Move.Kind.SKIP, seat, None, []
    if consequence == "random-move":
        moves = [m for m in state.legal_moves(seat) if str(m) not in SPECIAL]
        moves = moves or state.legal_moves(seat)
        if moves:
            rng = random.Random(match.seed * 1_000_003 + match.ply)
            return Move.Kind.MOVE, seat, rng.choice(moves), []
    return Move.Kind.TIMEOUT, seat, None, []
