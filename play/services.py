"""The match services' public names in one place, for callers outside ``play`` (tests,
tools, other apps). Inside ``play`` each module imports the one that holds a name.

The match layer, imports going one way (each module imports only those below it):

    models, errors, crews, seat_query, rounds, replay (the log -> the position)
      <- seating (who holds which seat; reading a match with its seats)
      <- clock (which timers run) <- agents (the server's players)
      <- events (the JSON events) ; notify (telling the sockets, after commit)
      <- reads (state events, visible matches, invitations)
      <- create (create, invite, cancel, matchmaking) <- series (intermissions)
      <- moves (play, resign, and ``append``: every row of the log)
      <- timers (bot moves, expiring timers, AFK) ; presence (sockets, reconnect window)
      <- timekeeper <- consumers, socketio_server, views
"""

from .create import (
    INVITE_SECONDS,
    SeatChoice,
    answer_invitation,
    cancel,
    create_match,
    join_queue,
    join_queue_by_id,
    leave_queue,
    matched_event,
)
from .errors import MatchError
from .intermission import INTERMISSION_SECONDS, series_allowed
from .moves import made_state, play, resign
from .presence import connect, disconnect, sweep_presences, touch_presences
from .reads import invitations_for, match_exists, pending_invitation, snapshot, visible_matches
from .replay import game_of_rule_set
from .seating import controls, held_seats, server_moves
from .series import series_ready
from .timers import afk_ping, due_matches, expire_timers, server_move

__all__ = [
    "INTERMISSION_SECONDS",
    "INVITE_SECONDS",
    "MatchError",
    "SeatChoice",
    "afk_ping",
    "answer_invitation",
    "cancel",
    "connect",
    "controls",
    "create_match",
    "disconnect",
    "due_matches",
    "expire_timers",
    "game_of_rule_set",
    "held_seats",
    "invitations_for",
    "join_queue",
    "join_queue_by_id",
    "leave_queue",
    "made_state",
    "match_exists",
    "matched_event",
    "pending_invitation",
    "play",
    "resign",
    "series_allowed",
    "series_ready",
    "server_move",
    "server_moves",
    "snapshot",
    "sweep_presences",
    "touch_presences",
    "visible_matches",
]
