"""What the timekeeper does to a match: play a bot's (Random's, Chaos's) move, fire the
timers that are due (invitations, reconnect windows, turn time, AFK, a series'
intermission), and the ``afk:ping`` that restarts a person's AFK timer.

Each action re-checks its condition under the match's row lock: a timer fires once and a
stale one (set for an earlier ply) does nothing.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from gamecore.bots.common import checked

from . import clock, notify, rounds, seating
from .agents import agent_for
from .create import abort
from .errors import MatchError
from .models import Match, Move
from .moves import append
from .replay import current_state
from .series import end_series


def server_move(match_id: int, now=None) -> bool:
    """If a bot, Random or Chaos is to move, think (outside any lock) and play; the move
    is written only if nobody moved meanwhile. True if a move was played. In a
    simultaneous round every server-moved seat still to plan plans, each on the position
    without the other seats' plans (``rounds.for_bot``), and the plans are written
    together."""
    now = now or timezone.now()
    match = Match.objects.select_related("rule_set").get(pk=match_id)
    if match.status != Match.Status.ACTIVE or match.wake_at is None or match.wake_at > now:
        return False
    seats = seating.load(match)
    state = current_state(match)
    by_index = {s.index: s for s in seats}
    due = [i for i in state.to_move() if seating.server_moves(by_index[i])]
    if not due:
        return False
    if not rounds.planning(state):
        due = due[:1]
    chosen = [
        # a search over a sampled position may find a move only the sample allows
        (seat, checked(state, seat, _choose(match, by_index[seat], state, seat)))
        for seat in due
    ]
    with transaction.atomic():
        locked = seating.lock(match_id)
        if locked.ply != match.ply or locked.status != Match.Status.ACTIVE:
            return False  # someone moved while the bot thought: this move is stale
        seats = seating.load(locked)
        state = current_state(locked)
        for n, (seat, move) in enumerate(chosen):
            # A later plan may no longer fit: the round resolved into the game's end, or a
            # draw offer the first bot answered is over. The next wake thinks afresh.
            if n and (locked.is_over or move not in state.legal_moves(seat)):
                break
            append(locked, seats, state, seat, Move.Kind.MOVE, move, [])
    return True


def _choose(match: Match, seat_row, state, seat: int):
    return agent_for(match, seat_row, state).choose(rounds.for_bot(state, seat), seat)


def expire_timers(match_id: int, now=None) -> None:
    """Everything due on this match at ``now``: invitations, reconnect windows, the turn
    timer, the AFK warning and timeout. Safe to run twice: each check re-reads the row."""
    now = now or timezone.now()
    with transaction.atomic():
        match = seating.lock(match_id)
        if match.wake_at is None or match.wake_at > now:
            return
        if match.intermission_deadline is not None:
            if match.intermission_deadline <= now:
                end_series(match)
            return
        if match.is_over:
            return
        seats = seating.load(match)
        if match.status == Match.Status.INVITED:
            if match.invite_deadline and match.invite_deadline <= now:
                abort(match, seats, "The invitation expired.")
            return
        state = current_state(match)
        for kind, seat, move, events in clock.due(match, seats, state, now):
            if kind is None:  # a warning only
                clock.plan(match, seats, state, now)
                match.save()
                notify.match_changed(match, events)
                continue
            try:
                append(match, seats, state, seat, kind, move, events, auto=True)
            except MatchError:
                continue  # e.g. the seat's team already left the game
            return  # the position changed: the next timer is planned afresh
        clock.plan(match, seats, state, now)
        match.save()


def afk_ping(match_id: int, user) -> None:
    with transaction.atomic():
        match = seating.lock(match_id)
        seats = seating.load(match)
        if match.status != Match.Status.ACTIVE:
            return
        now = timezone.now()
        events = clock.ping(match, seating.held_seats(match, user, seats), now)
        if events is None:
            return
        clock.plan(match, seats, current_state(match), now)
        match.save()
        notify.match_changed(match, events)


def due_matches(now=None, limit: int = 200) -> list[int]:
    now = now or timezone.now()
    intermission = Q(status=Match.Status.FINISHED, intermission_deadline__isnull=False)
    return list(
        Match.objects.filter(wake_at__lte=now)
        .filter(Q(status=Match.Status.ACTIVE) | Q(status=Match.Status.INVITED) | intermission)
        .order_by("wake_at")
        .values_list("pk", flat=True)[:limit]
    )
