"""A match's timers: which deadlines run after a change, and what is due at a time.

Pure planning over the model's columns (no locks, no saves: the caller, ``play.moves``,
``play.timers`` and the others, holds the lock and saves). ``wake_at`` is the earliest
deadline, or when a bot is due to move.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from django.conf import settings

from . import rounds
from .models import Match, Move, Seat
from .seating import server_moves

FORFEIT_REASON = {
    Move.Kind.RESIGN: "resignation",
    Move.Kind.TIMEOUT: "timeout",
    Move.Kind.DISCONNECT: "disconnect",
}
SPECIAL = ("draw", "accept", "decline", "pass")


def turn_ms(document: dict) -> int | None:
    """A turn's time in milliseconds: Ultimate's ``turn_ms`` (seed 001, 5,000-60,000) or
    the time control's ``seconds_per_turn`` (seed 000); None: no time control."""
    if document.get("turn_ms"):
        return int(document["turn_ms"])
    seconds = document.get("seconds_per_turn")
    return int(seconds) * 1000 if seconds else None


def turn_seconds(match: Match) -> float | None:
    if not match.turn_timer:  # the start form switched the game's timer off (issue 38)
        return None
    ms = turn_ms(match.rule_set.document)
    if ms is None:
        return None
    return ms // 1000 if ms % 1000 == 0 else ms / 1000


def afk_seconds(match: Match) -> float | None:
    """The AFK timeout in force, or None when the match has no AFK timer. Never shorter
    than the turn time: the rules' consequence (loss, random move, skip) comes first."""
    if not match.afk_on:
        return None
    turn = turn_seconds(match)
    return max(match.afk_timeout, turn) if turn else match.afk_timeout


# The columns ``plan`` may change: a save after it need write only these.
PLANNED = (
    "turn_started",
    "turn_deadline",
    "afk_seat",
    "afk_since",
    "afk_warned",
    "team_clocks",
    "wake_at",
)


def simultaneous(match: Match) -> bool:
    """Seed 000's simultaneous turn order: every team moves once a round, in any order."""
    doc = match.rule_set.document
    nested = doc.get("nested") or {}
    return (doc.get("board") or {}).get("type") == "nested" and nested.get(
        "turn_order"
    ) == "simultaneous"


def per_seat(match: Match, state) -> bool:
    """Does every seat to move run its own clock? In seed 000's simultaneous order and
    in a simultaneous round of plans (issue 19): one mechanism for both."""
    return simultaneous(match) or rounds.planning(state)


def plan(
    match: Match, seats: list[Seat], state, now, *, new_turn=False, paced=False, moved=None
) -> None:
    """Set the deadlines that run from ``now`` and ``wake_at``, the earliest of them.
    ``moved``: the seat whose move (or forfeit, or skip) started this turn."""
    due = []
    if match.status == Match.Status.INVITED:
        due.append(match.invite_deadline)
    elif match.status == Match.Status.ACTIVE and state is not None and per_seat(match, state):
        due.extend(_plan_teams(match, seats, state, now, new_turn=new_turn, moved=moved))
        if any(server_moves(s) for s in seats if s.index in state.to_move()):
            due.append(now + timedelta(seconds=settings.PLAY_BOT_PACE if paced else 0))
        due.extend(s.disconnect_deadline for s in seats)
    elif match.status == Match.Status.ACTIVE and state is not None:
        match.team_clocks = {}  # a round's clocks end with it (a later round starts afresh)
        by_index = {s.index: s for s in seats}
        to_move = state.to_move()
        if new_turn or match.turn_started is None:
            seconds = turn_seconds(match)
            match.turn_started = now
            match.turn_deadline = now + timedelta(seconds=seconds) if seconds else None
        due.append(match.turn_deadline)
        people = [i for i in to_move if not server_moves(by_index[i])]
        if not people or afk_seconds(match) is None:
            match.afk_seat, match.afk_since, match.afk_warned = None, None, False
        elif new_turn or match.afk_seat not in people or match.afk_since is None:
            match.afk_seat, match.afk_since, match.afk_warned = people[0], now, False
        if match.afk_seat is not None:
            warn_at, afk_deadline = afk_times(match)
            due.append(afk_deadline if match.afk_warned else warn_at)
        if any(server_moves(by_index[i]) for i in to_move):
            pace = settings.PLAY_BOT_PACE if paced else 0
            due.append(now + timedelta(seconds=pace))
        due.extend(s.disconnect_deadline for s in seats)
    due = [t for t in due if t is not None]
    match.wake_at = min(due) if due else None


# -- a clock per seat: seed 000's simultaneous order, and simultaneous rounds of plans -----------
# ``match.team_clocks`` = {"<seat>": {"started", "deadline", "afk", "warned"}} (epoch ms):
# one entry per seat (team) still to move in the round, started when it became due and
# kept until it moves (or plans), so another seat's move restarts nobody's clock. The
# match's own timer columns then show the seat whose time runs out first (the page, the
# protocol). Empty when one seat moves at a time: non-empty means "a clock per seat".


def _ms(moment) -> int:
    return int(moment.timestamp() * 1000)


def _at(ms: int | None):
    return None if ms is None else datetime.fromtimestamp(ms / 1000, tz=UTC)


def _plan_teams(match, seats, state, now, *, new_turn, moved) -> list:
    by_index = {s.index: s for s in seats}
    seconds = turn_seconds(match)
    old = match.team_clocks or {}
    clocks = {}
    for i in state.to_move():
        clock = old.get(str(i))
        if clock is None or (new_turn and i == moved):  # the team became due now
            person = not server_moves(by_index[i]) and afk_seconds(match) is not None
            clock = {
                "started": _ms(now),
                "deadline": _ms(now + timedelta(seconds=seconds)) if seconds else None,
                "afk": _ms(now) if person else None,
                "warned": False,
            }
        clocks[str(i)] = clock
    match.team_clocks = clocks
    deadlines = [c["deadline"] for c in clocks.values() if c["deadline"] is not None]
    first = min(clocks, key=lambda k: clocks[k]["started"]) if clocks else None
    match.turn_started = _at(clocks[first]["started"]) if first else None
    match.turn_deadline = _at(min(deadlines)) if deadlines else None
    afk = [(c["afk"], int(k)) for k, c in clocks.items() if c["afk"] is not None]
    if afk:
        since, seat = min(afk)
        match.afk_seat, match.afk_since = seat, _at(since)
        match.afk_warned = clocks[str(seat)]["warned"]
    else:
        match.afk_seat, match.afk_since, match.afk_warned = None, None, False
    due = [match.turn_deadline]
    for clock in clocks.values():
        if clock["afk"] is not None:
            warn_at, deadline = team_afk_times(match, clock)
            due.append(deadline if clock["warned"] else warn_at)
    return due


def team_afk_times(match: Match, clock: dict):
    return _afk_window(match, _at(clock["afk"]))


def _afk_window(match: Match, start):
    """(warn at, deadline) of an AFK timer started at ``start``."""
    deadline = start + timedelta(seconds=afk_seconds(match) or match.afk_timeout)
    return deadline - timedelta(seconds=match.afk_warning), deadline


def team_clock(match: Match, seat: int) -> dict | None:
    return (match.team_clocks or {}).get(str(seat))


def turn_started(match: Match, seat: int):
    """When ``seat``'s turn began (its team's own clock in simultaneous order)."""
    clock = team_clock(match, seat)
    return _at(clock["started"]) if clock else match.turn_started


def afk_running(match: Match, seat: int) -> bool:
    """Does an AFK timer run for ``seat`` (a move by it clears it)?"""
    clock = team_clock(match, seat)
    if clock is not None:
        return clock["afk"] is not None
    return match.afk_seat == seat and match.afk_since is not None


def warned(match: Match, seat: int) -> bool:
    """Is ``seat`` being warned that it is away?"""
    clock = team_clock(match, seat)
    if clock is not None:
        return bool(clock["warned"])
    return match.afk_warned and match.afk_seat == seat


def ping(match: Match, seats: list[int], now) -> list[dict] | None:
    """ "I am here" from the holder of ``seats``: their AFK timers start again; the
    ``tictactoe:afk_warning_cleared`` events to send (None: no timer of theirs runs)."""
    if match.team_clocks:
        events = None
        for seat in seats:
            clock = team_clock(match, seat)
            if clock is None or clock["afk"] is None:
                continue
            events = events or []
            if clock["warned"]:
                events.append({"type": "tictactoe:afk_warning_cleared", "seat": seat})
            clock["afk"], clock["warned"] = _ms(now), False
        return events
    if match.afk_seat not in seats:
        return None
    events = []
    if match.afk_warned:
        events.append({"type": "tictactoe:afk_warning_cleared", "seat": match.afk_seat})
    match.afk_since, match.afk_warned = now, False
    return events


def teams_data(match: Match) -> list[dict] | None:
    """Each seat's own clocks for the ``timers`` event (while every seat to move has its
    own), else None."""
    if not match.team_clocks:
        return None
    out = []
    for key, clock in sorted(match.team_clocks.items(), key=lambda kv: int(kv[0])):
        afk = None
        if clock["afk"] is not None:
            warn_at, deadline = team_afk_times(match, clock)
            afk = {"warnAt": _ms(warn_at), "deadline": _ms(deadline)}
        out.append({"seat": int(key), "turnDeadline": clock["deadline"], "afk": afk})
    return out


def afk_times(match: Match):
    return _afk_window(match, match.afk_since)


def clear(match: Match, seats: list[Seat]) -> None:
    match.turn_deadline = match.invite_deadline = match.wake_at = None
    match.team_clocks = {}
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
    people = [i for i in state.to_move() if not server_moves(by_index[i])]
    if match.team_clocks:
        yield from _due_teams(match, state, people, now)
        return
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


def _due_teams(match: Match, state, people: list[int], now):
    """A clock per seat: each seat's own turn timer, then each seat's AFK timer."""
    clocks = match.team_clocks or {}
    stamp = _ms(now)
    order = sorted((int(k) for k in clocks), key=lambda i: (clocks[str(i)]["deadline"] or 0, i))
    for seat in order:
        deadline = clocks[str(seat)]["deadline"]
        if seat in people and deadline is not None and deadline <= stamp:
            yield _timeout(match, state, seat)
    for seat in sorted(people):
        clock = clocks.get(str(seat))
        if clock is None or clock["afk"] is None:
            continue
        warn_at, afk_deadline = team_afk_times(match, clock)
        if now >= afk_deadline:
            yield Move.Kind.TIMEOUT, seat, None, []
        elif now >= warn_at and not clock["warned"]:
            clock["warned"] = True
            event = {
                "type": "tictactoe:afk_warning",
                "seat": seat,
                "deadline": _ms(afk_deadline),
                "secondsLeft": max(0, round((afk_deadline - now).total_seconds())),
            }
            yield None, seat, None, [event]


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
