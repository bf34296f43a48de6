"""An own bot in live matches: which of its seats are to move, the "your move" for each
(the seat's ``state.view(seat)``, its legal moves, its time), and its answers, played
through ``play.services`` like any person's move (the same checks, timers and events).

The bot acts through a ``BotActor``: ``play.services.controls`` lets it move exactly the
seats whose player is this bot. Sync functions: the consumer calls them on a thread.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from accounts.models import Player
from play import clock, services
from play.errors import MatchError
from play.models import Match, Seat
from play.replay import current_state
from play.secrecy import seen_ply

from .models import GameVersion
from .protocol import late, live_turn_id, unknown_turn

MAX_MATCHES = 200  # the live matches one connection follows at once


@dataclass(frozen=True)
class BotActor:
    """Who moves for an own bot in ``play.services``: no user, just the bot's player."""

    player: Player
    is_authenticated: bool = True
    pk: int = 0  # no user has id 0: the bot is nobody's human player or persona

    @property
    def bot_player_id(self) -> int:
        return self.player.pk

    @property
    def username(self) -> str:
        return self.player.name


def active_matches(player_id: int) -> list[int]:
    return list(
        Match.objects.filter(status=Match.Status.ACTIVE, seats__player_id=player_id)
        .filter(rule_set__hidden=False, rule_set__removed_at__isnull=True)  # withdrawn games
        .order_by("id")
        .values_list("pk", flat=True)
        .distinct()[:MAX_MATCHES]
    )


def _ms(moment) -> int | None:
    return None if moment is None else int(moment.timestamp() * 1000)


def seat_deadline(match: Match, seat: int) -> int | None:
    """When the seat's time runs out (epoch ms): its turn timer or its AFK timeout,
    whichever comes first; None if no timer runs for it."""
    found = []
    team = clock.team_clock(match, seat)
    if team is not None:
        found.append(team["deadline"])
        if team["afk"] is not None:
            found.append(_ms(clock.team_afk_times(match, team)[1]))
    else:
        found.append(_ms(match.turn_deadline))
        if match.afk_seat == seat and match.afk_since is not None:
            found.append(_ms(clock.afk_times(match)[1]))
    found = [t for t in found if t is not None]
    return min(found) if found else None


def turns(match_id: int, player: Player, version: str) -> tuple[list[dict], dict | None]:
    """The "your move" messages due for the bot in this match, and the match's outcome
    if it is over (None while it runs). Records the bot's version for the game."""
    match = Match.objects.select_related("rule_set").filter(pk=match_id).first()
    if match is None:
        return [], {"match": match_id, "status": "gone"}
    if match.is_over:
        return [], {"match": match_id, "status": match.status, "outcome": match.outcome}
    if match.status != Match.Status.ACTIVE:
        return [], None
    seats = list(match.seats.filter(player_id=player.pk).values_list("index", flat=True))
    GameVersion.objects.bulk_create(
        [GameVersion(match=match, seat=i, player=player, version=version) for i in seats],
        ignore_conflicts=True,  # the first version that played the game stays
    )
    state = current_state(match)
    now_ms = int(datetime.now(tz=UTC).timestamp() * 1000)
    out = []
    for seat in seats:
        if seat not in state.to_move():
            continue
        deadline = seat_deadline(match, seat)
        ply = seen_ply(match.ply, state, seat)  # cloaked: the moves this seat observed
        out.append(
            {
                "type": "your-move",
                "turn": live_turn_id(match.pk, ply, seat),
                "match": match.pk,
                "tournament": None,
                "game": None,
                "seat": seat,
                "ply": ply,
                # Exactly what a person in this seat is shown: nothing else of the state.
                "view": state.view(seat),
                "legal": [str(m) for m in state.legal_moves(seat)],
                "deadline": deadline,
                "timeLeft": None if deadline is None else max(0.0, (deadline - now_ms) / 1000),
            }
        )
    return out, None


def play(player: Player, match_id: int, ply: int, seat: int, move: str) -> None:
    """Play the bot's answer to live turn ``m<match>.<ply>.<seat>``; raises MatchError
    with the bot protocol's code (``ownbots.protocol.ERROR_CODES``).

    A turn is one the server sent: the bot's seat, to move at that ply. Any other id (a
    seat not the bot's, a ply still to come, a seat not to move) is ``unknown-turn``, the
    same as a made-up id; one that was sent and is over (answered, or the position moved
    on) is ``late``."""
    turn = live_turn_id(match_id, ply, seat)
    now = (
        Match.objects.filter(pk=match_id, seats__index=seat, seats__player_id=player.pk)
        .values_list("ply", "status")
        .first()
    )
    if now is None or ply > now[0] or now[1] == Match.Status.INVITED:
        raise unknown_turn(turn)
    try:
        services.play(match_id, BotActor(player), move, seat=seat, ply=ply)
    except MatchError as exc:
        if exc.code in ("illegal", "hidden"):  # hidden: its game was withdrawn (the
            raise  # bot's own seat: nothing another bot's id could learn)
        if exc.code == "malformed":  # text that is no move of this game
            raise MatchError("illegal", exc.reason) from None
        if exc.code in ("stale", "finished") or (
            exc.code == "not-your-turn" and _answered(match_id, seat)
        ):
            raise late(turn) from None
        raise unknown_turn(turn) from None


def _answered(match_id: int, seat: int) -> bool:
    """Has ``seat`` a plan registered in this round (its turn answered already)?"""
    from play import rounds

    match = Match.objects.filter(pk=match_id).first()
    return match is not None and rounds.registered(current_state(match), seat)


def connect(match_id: int, player: Player, channel_name: str, process: str) -> list[int]:
    """Presence for the bot's seats: its disconnection opens the reconnect window."""
    return services.connect(match_id, BotActor(player), channel_name, process)


def last_match_id() -> int:
    return Match.objects.order_by("-pk").values_list("pk", flat=True).first() or 0


# A socket's sweep (every 2 s) sends the results written since its last one, a page at a
# time: one page of 100 a sweep fell behind any tournament past 50 games a second (a
# 100-game tournament of a fast bot takes a quarter of a second), ten keep up with 500.
RESULT_PAGE = 100
RESULT_PAGES = 10


def tournament_results(
    player_id: int, after: int, pages: int = RESULT_PAGES
) -> tuple[list[dict], int]:
    """``game:over`` for the bot's tournament games written after match id ``after``
    (a worker writes them in batches), at most ``pages`` pages of ``RESULT_PAGE``; and
    the new ``after``."""
    events = []
    for _page in range(pages):
        found, after = _results_page(player_id, after)
        events += found
        if len(found) < RESULT_PAGE:
            break
    return events, after


def _results_page(player_id: int, after: int) -> tuple[list[dict], int]:
    rows = list(
        Match.objects.filter(pk__gt=after, tournament__isnull=False, seats__player_id=player_id)
        .order_by("pk")
        .values_list("pk", "tournament_id", "game_number", "outcome")
        .distinct()[:RESULT_PAGE]
    )
    seats = {}
    for match_id, index in Seat.objects.filter(
        match_id__in=[r[0] for r in rows], player_id=player_id
    ).values_list("match_id", "index"):
        seats.setdefault(match_id, []).append(index)
    events = [
        {
            "type": "game:over",
            "match": pk,
            "tournament": tournament,
            "game": number,
            "seats": seats.get(pk, []),
            "outcome": outcome,
        }
        for pk, tournament, number, outcome in rows
    ]
    return events, (rows[-1][0] if rows else after)
