"""Whether a finished match goes on to another game of a series, and how long the
intermission lasts (seed 001). Apart from ``series`` (which starts the next game through
``create``), so that ``moves`` reads them without a circle: create -> moves -> here."""

from __future__ import annotations

from . import crews, seating
from .models import Match, Seat

INTERMISSION_SECONDS = 30  # "Intermissions last up to 30 seconds, ending early if all
# players are ready." (seed 001)


def series_allowed(match: Match, seats: list[Seat]) -> bool:
    """Does a finished match go on to another game? A live match of people of a
    nested-board game (Ultimate's seed, 001, has the intermissions; the classic games keep
    the tic-tac-toe server's protocol, 003, which has none). A tournament's games are the
    tournament's to schedule; bots alone would never stop."""
    return (
        match.series_on  # one game when the start form said so (issue 38)
        and crews.has_crews(match)  # the nested-board games
        and match.tournament_id is None
        and all(s.kind != Seat.Kind.OPEN for s in seats)
        and bool(seating.series_people(seats))
    )
