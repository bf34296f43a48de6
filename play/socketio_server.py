"""The tic-tac-toe server seed's protocol (003), for classic games, over Socket.IO.

A client written to the seed emits ``matchmaking:join`` and ``game:move`` and listens for
``game:start``, ``game:state`` and ``game:over`` with the seed's payloads: the board a
flat array of 9 (``row * 3 + col``, left to right, top to bottom), ``players[]`` with X at
index 0, ``currentTurn`` an index into it, ``winner`` a playerId and ``winningLine`` three
positions. It is one more door into the same matches: every move goes through
``play.moves`` and every change comes back through the channel layer's groups, so a move
made here reaches a websocket player of the same match, in any process, and back.

Each Socket.IO connection reads a Channels channel of its own (the match's and the user's
groups), which is also its presence: the reconnect window and AFK timers work as for the
match page. Only what the connection's seat may see is sent (classic games hide nothing).
"""

from __future__ import annotations

import asyncio
import logging
from http.cookies import SimpleCookie

import socketio
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings

from variants.bounded import bounded_int
from variants.ids import MAX_ID

from . import create, moves, notify, presence, reads, seating, timekeeper, withdrawn
from .errors import MatchError
from .messages import AFK_TIMEOUT, AFK_WARNING
from .socketio_edge import MAX_FRAME, FrameFilter, GuardedServer

log = logging.getLogger(__name__)

DIFFICULTIES = ("easy", "medium", "hard")  # the seed's three bots
MARKS = ("X", "O")
CLASSIC = "Tic-Tac-Toe"

sio = GuardedServer(
    async_mode="asgi",
    cors_allowed_origins=[],  # same origin only (clients that send no Origin are let in)
    max_http_buffer_size=MAX_FRAME,
    logger=False,
    engineio_logger=False,
)


def asgi_app(other_asgi_app=None):
    """``/socket.io/`` (every frame checked first, play/socketio_edge.py), the rest to
    ``other_asgi_app``."""
    return FrameFilter(socketio.ASGIApp(sio, other_asgi_app=other_asgi_app))


# --- who is connecting -------------------------------------------------------------------


def _user_from_cookies(header: str):
    """The logged-in user the session cookie names, as Django's own middleware would."""
    from django.contrib.auth import get_user
    from django.http import HttpRequest
    from django.utils.module_loading import import_string

    cookies = SimpleCookie()
    try:
        cookies.load(header[:8192])
    except Exception:  # a malformed cookie header: nobody
        cookies = SimpleCookie()
    key = cookies.get(settings.SESSION_COOKIE_NAME)
    request = HttpRequest()
    engine = import_string(settings.SESSION_ENGINE)
    request.session = engine.SessionStore(key.value if key else None)
    return get_user(request)


def _cookie_header(environ: dict) -> str:
    scope = environ.get("asgi.scope") or {}
    for name, value in scope.get("headers", []):
        if name == b"cookie":
            return value.decode("latin-1")
    return environ.get("HTTP_COOKIE", "")


@sio.event
async def connect(sid, environ, auth=None):
    user = await database_sync_to_async(_user_from_cookies)(_cookie_header(environ))
    if not user.is_authenticated:
        raise socketio.exceptions.ConnectionRefusedError("Log in first (the session cookie).")
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(notify.user_group(user.pk), channel)
    reader = asyncio.ensure_future(_read(sid, channel))
    await sio.save_session(
        sid, {"user": user, "channel": channel, "reader": reader, "match": None, "you": []}
    )


@sio.event
async def disconnect(sid, *args):
    session = await sio.get_session(sid)
    session["reader"].cancel()
    if session.get("watcher"):
        session["watcher"].cancel()
    layer = get_channel_layer()
    await layer.group_discard(notify.user_group(session["user"].pk), session["channel"])
    if session["match"] is not None:
        await layer.group_discard(notify.match_group(session["match"]), session["channel"])
        await database_sync_to_async(presence.disconnect)(session["channel"])


# --- client -> server ------------------------------------------------------------------------


def _error(code: str, reason: str) -> dict:
    return {"code": code, "reason": reason}


@sio.on("matchmaking:join")
async def on_join(sid, data=None):
    data = data if isinstance(data, dict) else {}
    session = await sio.get_session(sid)
    try:
        afk = _afk(data)
        difficulty = data.get("difficulty")
        if difficulty is not None and difficulty not in DIFFICULTIES:
            raise MatchError("malformed", "difficulty: easy, medium or hard.")
        match_id, waiting = await database_sync_to_async(_join)(
            session["user"], data.get("ruleSet"), difficulty, afk
        )
    except MatchError as exc:
        return await sio.emit("error", _error(exc.code, exc.reason), to=sid)
    if waiting:
        await sio.emit("matchmaking:waiting", {"gameId": match_id}, to=sid)
    await _attach(sid, match_id)


def _afk(data: dict) -> dict:
    """The seed's AFK settings in seconds, within the same ranges as the lobby socket."""
    out = {}
    for field, key, (lo, hi, default) in (
        ("afkTimeout", "afk_timeout", AFK_TIMEOUT),
        ("afkWarning", "afk_warning", AFK_WARNING),
    ):
        value = data.get(field)
        if value is None:
            out[key] = default
            continue
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise MatchError("malformed", f"matchmaking:join: {field} must be from {lo} to {hi}.")
        out[key] = value
    # Seed 003: "AFK timeout is supported. Defaults: 60s timeout, 20s warning": on unless
    # the join says ``afk: false``.
    flag = data.get("afk", True)
    if not isinstance(flag, bool):
        raise MatchError("malformed", "matchmaking:join: afk must be true or false.")
    out["afk"] = flag
    return out


def _join(user, rule_set_id, difficulty, afk) -> tuple[int, bool]:
    """(match id, still waiting): a match against the seed's bot of that difficulty (the
    person is X), or the next available human (the first joiner is X)."""
    from variants.services import visible_rule_sets

    rule_sets = visible_rule_sets(user)
    if rule_set_id is None:
        rule_set = rule_sets.filter(name=CLASSIC).first()
    else:
        number = bounded_int(rule_set_id, 1, MAX_ID) if isinstance(rule_set_id, int) else None
        rule_set = rule_sets.filter(pk=number).first() if number else None
    if rule_set is None or not _classic(rule_set):
        raise MatchError("malformed", "ruleSet: a classic 3×3 game for two (Tic-Tac-Toe).")
    if difficulty is None:
        match = create.join_queue(rule_set, user, **afk)
        return match.pk, match.status == match.Status.INVITED
    from accounts.services import standard_bots

    bot = next((p for p in standard_bots() if p.bot_spec.get("kind") == difficulty), None)
    if bot is None:
        raise MatchError("not-allowed", f"There is no {difficulty} bot on this site.")
    choices = [create.SeatChoice("player", _human(user)), create.SeatChoice("player", bot)]
    match = create.create_match(rule_set, choices, user, **afk)
    return match.pk, False


def _human(user):
    from accounts.services import human_player

    return human_player(user)


def _classic(rule_set) -> bool:
    """A game the seed's protocol can say: 3x3, two players, one piece a turn, in turns.
    (It has no word for a plan: a game with simultaneous rounds is played on the match
    page, whose protocol hides a plan until its round resolves.)"""
    doc = rule_set.rule_doc()
    phases = getattr(doc, "phases", ()) or ()
    return (
        doc.board.type in ("hash", "squares")
        and tuple(doc.board.size) == (3, 3, 1)
        and doc.boards == 1
        and doc.players == "2"
        and doc.pieces_per_turn == 1
        and all(getattr(p, "order", "sequential") == "sequential" for p in phases)
    )


@sio.on("game:move")
async def on_move(sid, data=None):
    session = await sio.get_session(sid)
    position = data.get("position") if isinstance(data, dict) else data
    if isinstance(position, bool) or not isinstance(position, int) or not 0 <= position <= 8:
        return await sio.emit("error", _error("malformed", "game:move: position 0 to 8."), to=sid)
    if session["match"] is None:
        return await sio.emit("error", _error("not-seated", "Join a game first."), to=sid)
    row, col = divmod(position, 3)
    notation = f"{col + 1},{3 - row},1"  # y grows upwards in the engine
    await _call(sid, moves.play, session["match"], session["user"], notation)


@sio.on("game:resign")
async def on_resign(sid, data=None):
    session = await sio.get_session(sid)
    if session["match"] is None:
        return await sio.emit("error", _error("not-seated", "Join a game first."), to=sid)
    await _call(sid, moves.resign, session["match"], session["user"])


@sio.on("game:reconnect")
async def on_reconnect(sid, data=None):
    session = await sio.get_session(sid)
    player_id = data.get("playerId") if isinstance(data, dict) else None
    number = bounded_int(player_id, 1, MAX_ID) if isinstance(player_id, int) else None
    match_id = await database_sync_to_async(_live_match_of)(session["user"], number)
    if match_id is None:
        return await sio.emit(
            "error", _error("not-seated", "game:reconnect: no game of yours to return to."), to=sid
        )
    await _attach(sid, match_id)


def _live_match_of(user, player_id: int | None) -> int | None:
    """The user's unfinished classic match in which ``player_id`` (theirs) holds a seat."""
    from .models import Match, Seat

    if player_id is None:
        return None
    seats = Seat.objects.filter(
        player_id=player_id,
        match__status__in=(Match.Status.INVITED, Match.Status.ACTIVE),
    ).select_related("player", "match__rule_set")
    for seat in seats.order_by("-match_id"):
        if seating.controls(seat.player, user) and _classic(seat.match.rule_set):
            return seat.match_id
    return None


async def _call(sid, service, *args) -> None:
    try:
        await database_sync_to_async(service, thread_sensitive=False)(*args)
    except MatchError as exc:
        await sio.emit("error", _error(exc.code, exc.reason), to=sid)


# --- server -> client ----------------------------------------------------------------------


async def _attach(sid, match_id: int) -> None:
    """Follow a match: its group, a presence for the seats held, and the current state."""
    session = await sio.get_session(sid)
    layer = get_channel_layer()
    if session["match"] not in (None, match_id):
        await layer.group_discard(notify.match_group(session["match"]), session["channel"])
        await database_sync_to_async(presence.disconnect)(session["channel"])
    # The seats first, then the group: a change this very connect causes (a reconnection)
    # is for the others, and the state sent below is read after joining the group.
    you = await database_sync_to_async(presence.connect)(
        match_id, session["user"], session["channel"], timekeeper.PROCESS
    )
    session.update(match=match_id, you=you, started=None)
    await sio.save_session(sid, session)
    await layer.group_add(notify.match_group(match_id), session["channel"])
    await _send_state(sid, first=True)


async def _read(sid, channel: str) -> None:
    """Forward what the channel layer says about this connection's match and user."""
    layer = get_channel_layer()
    while True:
        message = await layer.receive(channel)
        try:
            if message.get("type") == "match.changed":
                await _match_changed(sid, message)
            elif message.get("type") == "user.event":
                await _user_event(sid, message)
            elif message.get("type") == "match.withdrawn":
                await _match_withdrawn(sid, message)
        except asyncio.CancelledError:
            raise
        except Exception:  # one bad message must not stop the connection's reader
            log.exception("socket.io: could not forward a message to %s", sid)


async def _match_withdrawn(sid, message: dict) -> None:
    """Its game was hidden or removed: unless this user may still see it, say why and
    stop following the match (no more states; moves there are refused anyway)."""
    session = await sio.get_session(sid)
    match_id = session["match"]
    if match_id != message.get("match"):
        return
    if await database_sync_to_async(reads.match_exists)(match_id, session["user"]):
        return
    layer = get_channel_layer()
    await layer.group_discard(notify.match_group(match_id), session["channel"])
    await database_sync_to_async(presence.disconnect)(session["channel"])
    session.update(match=None, you=[])
    await sio.save_session(sid, session)
    event = withdrawn.error_event()
    await sio.emit("error", _error(event["code"], event["reason"]), to=sid)


async def _user_event(sid, message: dict) -> None:
    session = await sio.get_session(sid)
    for event in message.get("events", []):
        if event.get("type") != "matchmaking:matched":
            continue
        if event["matchId"] == session["match"]:
            await _send_state(sid)  # the match this connection waits in has started
        else:
            await _attach(sid, event["matchId"])


async def _match_changed(sid, message: dict) -> None:
    await _send_state(sid)
    for event in message.get("events", []):
        kind = event.get("type")
        if kind == "game:over":
            await _send_over(sid, event)
        elif kind in ("player:disconnected", "player:reconnected"):
            await sio.emit(kind, {"playerId": event.get("playerId")}, to=sid)
        elif kind in ("tictactoe:afk_warning", "tictactoe:afk_warning_cleared"):
            payload = {k: v for k, v in event.items() if k != "type"}
            await sio.emit(kind, payload, to=sid)


async def _send_state(sid, first: bool = False) -> None:
    session = await sio.get_session(sid)
    if session["match"] is None:
        return
    state = await database_sync_to_async(reads.snapshot)(
        session["match"], session["user"], session["you"]
    )
    if state["status"] == "invited":
        # Still waiting for an opponent. The start is announced through the channel layer;
        # a message lost on the way (Redis pub/sub does not keep them) must not leave this
        # player waiting for ever, so the database is looked at too, now and then.
        if first and not session.get("watcher"):
            session["watcher"] = asyncio.ensure_future(_watch_start(sid, session["match"]))
            await sio.save_session(sid, session)
        return
    # game:start once per match and connection (also on a reconnect), then game:state.
    kind = "game:state" if session.get("started") == session["match"] else "game:start"
    session["started"] = session["match"]
    await sio.save_session(sid, session)
    await sio.emit(kind, seed_state(session["match"], state), to=sid)
    outcome = state["view"].get("outcome")
    if first and outcome:  # came back to a finished game: say how it ended
        await _send_over(sid, {**outcome, "winningLines": outcome.get("lines")})


async def _watch_start(sid, match_id: int, every: float = 1.0, most: int = 900) -> None:
    """Until the waited-for match starts (or this connection follows another one)."""
    from .models import Match

    status = database_sync_to_async(lambda: Match.objects.values_list("status", flat=True)
                                    .filter(pk=match_id).first())  # fmt: skip
    try:
        for _ in range(most):
            await asyncio.sleep(every)
            session = await sio.get_session(sid)
            if session["match"] != match_id or session.get("started") == match_id:
                return
            if await status() != Match.Status.INVITED:
                await _send_state(sid)
                return
    finally:
        try:
            session = await sio.get_session(sid)
            session["watcher"] = None
            await sio.save_session(sid, session)
        except KeyError:  # the connection is gone
            pass


async def _send_over(sid, event: dict) -> None:
    session = await sio.get_session(sid)
    state = await database_sync_to_async(reads.snapshot)(
        session["match"], session["user"], session["you"]
    )
    players = [s["playerId"] for s in state["seats"]]
    winners = event.get("winners") or []
    winner = players[winners[0]] if len(winners) == 1 else None
    reason = seed_reason(event.get("reason"), winner)
    lines = event.get("winningLines") if reason == "victory" else None
    await sio.emit(
        "game:over",
        {"gameId": session["match"], "winner": winner, "reason": reason,
         "winningLine": seed_line(lines or [])},
        to=sid,
    )  # fmt: skip


def seed_reason(reason: str | None, winner) -> str | None:
    """The seed's four ``game:over`` reasons. A game nobody won is a ``draw``; an AFK
    expiry (the site's ``timeout``: a classic game has no turn timer) is ``disconnect``,
    the seed's one reason for a player who left the game without resigning."""
    if winner is None and reason in ("stalemate", "agreed-draw"):
        return "draw"
    if reason == "timeout":
        return "disconnect"
    return reason


def seed_position(at: list[int]) -> int:
    """An engine space (1-based x, y with y upwards) as the seed's row * 3 + col."""
    x, y = at[-3], at[-2]
    return (3 - y) * 3 + (x - 1)


def seed_line(lines: list) -> list[int] | None:
    """The first winning line as exactly three positions (the seed's ``winningLine``)."""
    if not lines or not lines[0]:
        return None
    return sorted(seed_position(at) for at in lines[0])[:3]


def seed_state(match_id: int, state: dict) -> dict:
    """A ``state`` event (``play/events.py``) in the seed's shape."""
    view = state["view"]
    board: list[str | None] = [None] * 9
    for piece in view["boards"][0]["pieces"]:
        owner = piece.get("owner")
        board[seed_position(piece["at"])] = MARKS[owner] if owner in (0, 1) else None
    players = [
        {"playerId": s["playerId"], "name": s["name"], "mark": MARKS[s["index"]],
         "kind": s["kind"], "connected": s["connected"]}
        for s in state["seats"]
    ]  # fmt: skip
    to_move = view.get("to_move") or []
    return {
        "gameId": match_id,
        "board": board,
        "players": players,
        "currentTurn": to_move[0] if to_move and state["status"] == "active" else None,
        "you": state["you"][0] if state["you"] else None,
        "status": state["status"],
    }
