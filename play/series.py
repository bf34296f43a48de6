"""Series: the intermission between a finished game and the next one (seed 001).

After a finished match of people of a nested-board game, up to
``intermission.INTERMISSION_SECONDS`` run for everyone to say Ready; then the next game
starts with the same players, one seat on. ``play.moves`` asks
``intermission.series_allowed`` when a match ends; the timekeeper calls ``end_series``
when the intermission runs out.
"""

from __future__ import annotations

from django.db import transaction

from . import crews, notify, seating
from .create import SeatChoice, create_match
from .errors import MatchError
from .models import Match, Seat
from .replay import game_of


def series_ready(match_id: int, user) -> Match:
    """``user`` is ready for the series' next game (for every player of theirs in the
    match). When everyone is, the next game starts at once."""
    with transaction.atomic():
        match = seating.lock(match_id)
        if match.intermission_deadline is None:
            raise MatchError("not-allowed", "There is no next game to get ready for.")
        seats = seating.load(match)
        mine = [p for s in seats for p in crews.members(s) if seating.controls(p, user)]
        if not mine:
            raise MatchError("not-seated", "You are watching this match, not playing in it.")
        ready = list(match.series_ready)
        ready += [p.pk for p in mine if p.pk not in ready]
        match.series_ready = ready
        if set(seating.series_people(seats)) <= set(ready):
            _next_game(match, seats)
        else:
            match.save(update_fields=["series_ready"])
            ids = [p.pk for p in mine]
            notify.match_changed(match, [{"type": "series:ready", "playerIds": ids}])
    return match


def _next_game(match: Match, seats: list[Seat]) -> Match:
    """The series' next game with the same players, each moved one seat on: for two
    players the colours swap, as a series usually does. Everyone's page follows it."""
    game = game_of(match)
    choices = [
        SeatChoice("player", s.player, tuple(m.player for m in crews.crew_rows(s)))
        for s in seats
        if s.index != game.chaos
    ]
    choices = choices[1:] + choices[:1]
    new = create_match(
        match.rule_set,
        choices,
        match.created_by,
        afk=match.afk_on,
        afk_timeout=match.afk_timeout,
        afk_warning=match.afk_warning,
        rated=match.rated,
        universe=match.universe,
        previous=match,
        turn_timer=match.turn_timer,
        series=True,
    )
    match.intermission_deadline, match.wake_at, match.series_end = None, None, "next"
    match.save(update_fields=["series_ready", "intermission_deadline", "wake_at", "series_end"])
    event = {
        "type": "series:next",
        "matchId": new.pk,
        "url": new.get_absolute_url(),
        "game": new.series_game,
    }
    notify.match_changed(match, [event])
    return new


def end_series(match: Match) -> None:
    """The intermission ran out before everyone was ready: no next game (see READINGS)."""
    match.intermission_deadline, match.wake_at, match.series_end = None, None, "expired"
    match.save(update_fields=["intermission_deadline", "wake_at", "series_end"])
    reason = "The intermission ended before everyone was ready: the series is over."
    notify.match_changed(match, [{"type": "series:over", "reason": reason}])
