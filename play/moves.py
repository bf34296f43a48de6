"""Moves: a person's move or resignation, and the one path every row of the log takes
(``append``: a person's, a bot's, a timer's).

``append`` applies the row to the position, writes the log, re-plans the timers, ends
the match when the game is over, and tells the sockets on commit, with every seat's view
made once here (``made_state`` picks a socket's own).
"""

from __future__ import annotations

import json
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from gamecore.engine import IllegalMove
from gamecore.engine.errors import InvalidMoveText

from . import clock, crews, intermission, notify, rounds, seating, secrecy, withdrawn
from .errors import MatchError
from .events import game_over_event, state_event
from .models import Match, Move, Seat
from .move_rows import insert_move, save_columns
from .replay import current_state, game_of, remember
from .signals import match_finished


def _acting_seat(match: Match, seats: list[Seat], user, state, seat: int | None) -> int:
    withdrawn.check_open(match, user)
    held = seating.held_seats(match, user, seats)
    if match.status == Match.Status.INVITED:
        raise MatchError("not-started", "The match has not started: players are still invited.")
    if match.is_over:
        raise MatchError("finished", "The match is over.")
    if not held:
        raise MatchError("not-seated", "You are watching this match, not playing in it.")
    if seat is not None:
        if seat not in held:
            raise MatchError("not-seated", f"Seat {seat + 1} is not yours.")
        return seat
    waiting = [s for s in held if s in state.to_move()]
    return (waiting or held)[0]


def play(match_id: int, user, text: str, *, seat: int | None = None, ply: int | None = None):
    """A move by a person (``text`` in the game's notation, or pass/draw/accept/decline)."""
    with transaction.atomic():
        match, seats = seating.match_and_seats(match_id, lock=True)
        state = current_state(match)
        seat = _acting_seat(match, seats, user, state, seat)
        seen = secrecy.seen_ply(match.ply, state, seat)  # the ply this seat was shown
        if ply is not None and ply != seen and not rounds.same_round(state, ply, seen):
            raise MatchError("stale", "The position changed before your move arrived; look again.")
        if seat not in state.to_move():
            if rounds.registered(state, seat):
                why = "Your plan for this round is registered: wait for the others' plans."
                raise MatchError("not-your-turn", why)
            raise MatchError("not-your-turn", "It is not your turn.")
        _check_crew_turn(match, seats[seat], user)
        game = game_of(match)
        try:
            move = game.parse_move(text)
        except InvalidMoveText:
            raise MatchError("malformed", f"{text[:40]!r} is not a move of this game.") from None
        append(match, seats, state, seat, Move.Kind.MOVE, move, _draw_events(move, seat))


def _check_crew_turn(match: Match, seat: Seat, user) -> None:
    """In a crew taking turns, only the member whose turn it is moves for the team."""
    due = crews.due_member(match, seat)
    if due is None:
        return
    member = crews.members(seat)[due]
    if not seating.controls(member, user):
        raise MatchError("not-your-turn", f"It is {member.display_name}'s turn in your crew.")


def _draw_events(move, seat: int) -> list[dict]:
    text = str(move)
    if text == "draw":
        return [{"type": "draw:offer", "seat": seat}]
    if text in ("accept", "decline"):
        return [{"type": "draw:answer", "seat": seat, "accept": text == "accept"}]
    return []


def resign(match_id: int, user, *, seat: int | None = None) -> None:
    with transaction.atomic():
        match, seats = seating.match_and_seats(match_id, lock=True)
        state = current_state(match)
        seat = _acting_seat(match, seats, user, state, seat)
        append(match, seats, state, seat, Move.Kind.RESIGN, None, [])


def append(match, seats, state, seat: int, kind: str, move, events: list[dict], *, auto=False):
    """Apply one row to the position and the log (the caller holds the match's lock)."""
    now = timezone.now()
    round_before = rounds.round_number(state)
    unseen_before = secrecy.unseen_counts(state)
    try:
        if kind == Move.Kind.MOVE:
            state.apply(seat, move)
        elif kind == Move.Kind.SKIP:
            state.skip(seat)
        else:
            state.forfeit(seat, clock.FORFEIT_REASON[kind])
    except IllegalMove as exc:
        code = "illegal" if kind == Move.Kind.MOVE else "not-allowed"
        raise MatchError(code, _sentence(exc)) from None
    started = clock.turn_started(match, seat)
    think = 0 if started is None else (now - started).total_seconds()
    match.ply += 1
    notation = "" if move is None else str(move)
    insert_move(match.pk, match.ply, seat, kind, notation, auto, max(0, int(think * 1000)))
    # A move silent for some viewer (secrecy.py) goes on the seat's turn: its clocks run
    # on from the turn's start, so that no deadline tells the others it moved.
    silent = secrecy.silent_viewers(state, unseen_before)
    # Seed 003: "Making a move clears the timer and emits tictactoe:afk_warning_cleared"
    # (every move that clears a running AFK timer, warned or not).
    clears = kind in (Move.Kind.MOVE, Move.Kind.SKIP) and clock.afk_running(match, seat)
    if clears and not silent:
        events.append({"type": "tictactoe:afk_warning_cleared", "seat": seat})
    events.extend(round_events(state, seat, round_before))
    over = state.is_terminal()
    if over:
        _finish(match, seats, state, now, events)
    else:
        # a server player's hidden run is not paced either: its length would count it
        paced = seating.server_moves(next(s for s in seats if s.index == seat)) and not silent
        clock.plan(match, seats, state, now, new_turn=not silent, paced=paced, moved=seat)
        save_columns(match, ["ply", *clock.PLANNED])  # the rest is locked, unchanged
    remember(match, match.ply, state)
    notify.match_changed(match, events, views=_views(match, seats, state, silent))
    if over:  # after the players are told (commit hooks run in order): ratings take longer
        _rate_on_commit(match)


def finish_at_start(match, seats, state, now) -> None:
    """A match whose game is over before its first move (a set-up that decides it, a
    game saved before Save refused such games) ends as it starts, never left active."""
    events: list[dict] = []
    _finish(match, seats, state, now, events)
    notify.match_changed(match, events)
    _rate_on_commit(match)


def _rate_on_commit(match) -> None:
    match_id = match.pk
    finished = lambda: match_finished.send(sender=Match, match_id=match_id)  # noqa: E731
    transaction.on_commit(lambda: notify.after_commit_work(finished))


def round_events(state, seat: int, round_before: int | None) -> list[dict]:
    """What everyone is told of a row in a simultaneous round: that ``seat``'s plan is
    registered (who, never what), or the round resolved, with every seat's move."""
    moves = rounds.resolved(state, round_before)
    if moves is not None:
        return [
            {
                "type": "round:resolved",
                "round": rounds.round_number(state),
                "moves": [{"seat": s, "move": text} for s, text in moves],
            }
        ]
    if rounds.registered(state, seat):
        return [
            {
                "type": "plan:registered",
                "seat": seat,
                "round": (rounds.round_number(state) or 0) + 1,
                "waiting": list(state.to_move()),
            }
        ]
    return []


def _views(match, seats, state, silent=()) -> dict | None:
    """The ``state`` event of each seat and of spectators after a move, made here, where
    the position is in hand, and already in JSON: the match's sockets, in whichever
    process, forward theirs without a database round trip or encoding it again (see
    ``made_state``). Crews' events depend on who is looking, so their sockets look it
    up as before. A viewer for whom the move was ``silent`` gets "" (nothing is sent)."""
    if crews.has_crews(match):
        return None
    connected = seating.connected(seats)
    return {
        "ply": match.ply,
        "silent": [s for s in silent if s is not None],
        "seats": [
            ""
            if s.index in silent
            else json.dumps(state_event(match, seats, state, [s.index], connected))
            for s in seats
        ],
        "spectators": ""
        if None in silent
        else json.dumps(state_event(match, seats, state, [], connected)),
    }


SILENT = ""  # made_state: this socket is sent nothing for the move (secrecy.py)


def made_state(views: dict | None, you: list[int], sent_ply: int) -> str | None:
    """The event (JSON text) made in ``views`` for a socket holding the seats ``you``
    (none: a spectator), ``SILENT`` when the move was silent for all of them (nothing is
    sent: not the state, not the move's events), or None when it must be looked up: no
    views, a socket holding several seats, or one that has already sent this ply or a
    later one (two processes' messages can arrive out of order; the database is then the
    freshest word)."""
    if not views or views["ply"] <= sent_ply:
        return None
    if not you:
        return views["spectators"]
    if all(s in views.get("silent", ()) for s in you):
        return SILENT
    if len(you) == 1 and you[0] < len(views["seats"]):
        return views["seats"][you[0]]
    return None


def _sentence(exc: Exception) -> str:
    text = str(exc).strip() or "That move is not allowed now."
    return text[0].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _finish(match, seats, state, now, events: list[dict]) -> None:
    outcome = state.outcome
    match.status = Match.Status.FINISHED
    match.finished = now
    match.outcome = game_over_event(outcome)
    clock.clear(match, seats)
    if intermission.series_allowed(match, seats):
        match.intermission_deadline = now + timedelta(seconds=intermission.INTERMISSION_SECONDS)
        match.wake_at = match.intermission_deadline
    match.save()
    for seat in seats:
        seat.result = outcome.results[seat.index]
        seat.rank = outcome.ranks[seat.index]
        seat.save(update_fields=["result", "rank"])
    events.append(match.outcome)
