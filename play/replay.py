"""A match's position: the replay of its move log from its seed.

The log is the only truth. A per-process cache keeps the latest replayed position of
each match so that a new move replays only the rows after it; a cache miss (another
process wrote, or this one restarted) just replays more rows.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from django.conf import settings
from django.db import connections, router

from gamecore.engine import compile_game
from gamecore.engine.lru import LRU

from . import rounds
from .models import Match, Move
from .move_log import unpack

_CACHE_SIZE = 2048
# id -> ((seed, rules), ply, state). The rules too: a test database hands the same
# match id and seed to another game after a rollback, and a position must not cross games.
_cache: OrderedDict[int, tuple[tuple, int, object]] = OrderedDict()
_lock = threading.Lock()


# (fingerprint, name) -> compiled game: the GAME_CACHE_SIZE most recently used (the
# engine's own cache of compiled games has the same bound: play/apps.py)
_games = LRU(settings.GAME_CACHE_SIZE)


def game_of(match: Match):
    return game_of_rule_set(match.rule_set)


def game_of_rule_set(rule_set):
    """The compiled game of a rule set. ``compile_game`` validates and canonicalises the
    document on every call; a saved rule set's fingerprint (its rules without the name,
    fixed once saved) and name identify the result, so a move skips that work."""
    if not rule_set.fingerprint:  # not saved through the services: nothing to key on
        return compile_game(rule_set.document)
    key = (rule_set.fingerprint, rule_set.document.get("name", ""))
    game = _games.get(key)
    if game is None:  # two threads may both compile once: harmless
        game = _games[key] = compile_game(rule_set.document)
    return game


def apply_record(game, state, kind: str, seat: int, notation: str) -> None:
    """Replay one log row on ``state`` (raises the engine's IllegalMove if it cannot)."""
    if kind == Move.Kind.MOVE:
        state.apply(seat, game.parse_move(notation))
    elif kind == Move.Kind.SKIP:
        state.skip(seat)
    else:  # resign, timeout, disconnect: the seat's team leaves the game
        state.forfeit(seat, _FORFEIT_REASON[kind])


_FORFEIT_REASON = {
    Move.Kind.RESIGN: "resignation",
    Move.Kind.TIMEOUT: "timeout",
    Move.Kind.DISCONNECT: "disconnect",
}


def current_state(match: Match):
    """The position after the match's ``ply`` log rows (a fresh object the caller owns)."""
    game = game_of(match)
    with _lock:
        cached = _cache.get(match.pk)
    if cached and cached[0] == (match.seed, match.rule_set.fingerprint) and cached[1] <= match.ply:
        state, done = cached[2].clone(), cached[1]
    else:
        state, done = game.new_initial_state(seed=match.seed), 0
    if done < match.ply:
        if match.move_log is not None:  # a recorded game's packed log (play.move_log)
            found = [(r.kind, r.seat, r.notation) for r in unpack(match.move_log)]
            found = found[done : match.ply]
        else:
            found = log_rows(match.pk, done, match.ply)
        for row in found:
            apply_record(game, state, *row)
            done += 1
    remember(match, done, state)
    return state


_log_sql: dict[str, str] = {}  # vendor -> the statement


def log_rows(match_id: int, after: int, upto: int) -> list[tuple[str, int, str]]:
    """(kind, seat, notation) of log rows ``after`` < ply <= ``upto``, in order. Every move
    reads the rows the other process wrote: the statement is written once, not compiled
    by the ORM each time (it cost more than PostgreSQL spent running it)."""
    connection = connections[router.db_for_read(Move)]
    sql = _log_sql.get(connection.vendor)
    if sql is None:
        quote, field = connection.ops.quote_name, Move._meta.get_field
        kind, seat, notation, ply, match = (
            quote(field(name).column) for name in ("kind", "seat", "notation", "ply", "match")
        )
        sql = _log_sql[connection.vendor] = (
            f"SELECT {kind}, {seat}, {notation} FROM {quote(Move._meta.db_table)}"
            f" WHERE {match} = %s AND {ply} > %s AND {ply} <= %s ORDER BY {ply}"
        )
    with connection.cursor() as cursor:
        cursor.execute(sql, [match_id, after, upto])
        return cursor.fetchall()


def remember(match: Match, ply: int, state) -> None:
    with _lock:
        _cache[match.pk] = ((match.seed, match.rule_set.fingerprint), ply, state.clone())
        _cache.move_to_end(match.pk)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)


def frames(match: Match, you=()) -> list[dict]:
    """Every frame of a match (``frame_window`` without a bound: for tests and tools; a
    page asks for a window)."""
    return frame_window(match, you)["frames"]


def frame_window(match: Match, you=(), start: int = 0, count: int | None = None) -> dict:
    """The replay's frames ``start`` <= index < ``start + count``: ``{"start", "total",
    "frames"}``. The whole log is replayed (the positions need it) but a view, the costly
    part (83 MB for a game of 36,000 moves), is built only for a frame of the window.

    Frame 0 is the start; then the spectator's view after each row. A simultaneous round
    is one frame, after it resolved, with the moves of every seat (``kind`` "round",
    ``moves`` [{seat, move}] in seat order). The plans of a round not resolved (in
    progress, or cut short by the game's end) are one frame ``kind`` "plans" whose moves
    say only who planned (``move`` None), except for the seats in ``you`` (the viewer's
    own). A cloaked match names no piece move until it is over (secrecy.py)."""
    from . import secrecy

    game = game_of(match)
    reveal = secrecy.revealed(match)  # a cloaked match's log: see secrecy.py
    state = game.new_initial_state(seed=match.seed)
    stop = None if count is None else start + count
    kept: dict[int, dict] = {}

    def inside(index: int) -> bool:  # a frame of the window: its view is built now
        return start <= index and (stop is None or index < stop)

    if inside(0):
        kept[0] = {"ply": 0, "seat": None, "move": None, "kind": None,
                   "view": _frame_view(game, state, reveal)}  # fmt: skip
    n, last_kind = 1, None  # frames so far; the kind of the last one
    planned = []  # rows of the round in progress: (seat, notation)
    if match.move_log is not None:  # a recorded game's packed log (play.move_log)
        rows = unpack(match.move_log)
        count, every = (lambda: len(rows)), rows
    else:
        query = Move.objects.filter(match=match).order_by("ply")
        count = query.count
        every = query.only("ply", "seat", "kind", "notation", "auto").iterator(chunk_size=2000)
    # Without rounds every row is a frame: the replay stops after the window, and the
    # total is counted, not replayed (a first page costs its own rows only).
    # Not for a cloaked match still hidden: a move silent for spectators makes no frame,
    # so counting rows would tell how many hidden moves were made (secrecy.py).
    early = (
        stop is not None and (reveal or not secrecy.cloaked(game)) and _a_frame_a_row(game, state)
    )
    for row in every:
        if early and n >= stop:
            return {
                "start": start,
                "total": 1 + count(),
                "frames": [kept[i] for i in sorted(kept)],
            }
        before = rounds.round_number(state)
        unseen = secrecy.unseen(state, None)
        apply_record(game, state, row.kind, row.seat, row.notation)
        if not reveal and secrecy.unseen(state, None) > unseen:
            continue  # a move silent for spectators: no frame (secrecy.py)
        moves = rounds.resolved(state, before)
        if moves is not None:  # one frame for the round, in place of its plans so far
            planned = []
            if last_kind == "plans":
                n -= 1
            if not reveal and secrecy.cloaked(game):
                moves = [(seat, secrecy.HIDDEN_MOVE) for seat, _text in moves]
            if inside(n):
                kept[n] = _round_frame(game, row, "round", state, moves, reveal)
            n, last_kind = n + 1, "round"
        elif rounds.registered(state, row.seat):
            planned.append((row.seat, row.notation))
        else:
            if inside(n):
                kept[n] = _row_frame(game, row, state, reveal)
            n, last_kind = n + 1, row.kind
            continue
        if planned:  # the round so far: who planned, never what (but to its own seat)
            shown = [(s, text if s in you else None) for s, text in planned]
            if last_kind != "plans":
                n += 1
            if inside(n - 1):
                kept[n - 1] = _round_frame(game, row, "plans", state, shown, reveal)
            last_kind = "plans"
    return {"start": start, "total": n, "frames": [kept[i] for i in sorted(kept) if i < n]}


def _a_frame_a_row(game, state) -> bool:
    """No simultaneous round can happen (then each log row is one frame)."""
    if rounds.round_number(state) is None:
        return True  # a family without rounds
    phases = getattr(game, "phases", None)
    return phases is not None and not any(getattr(p, "simultaneous", True) for p in phases)


def _row_frame(game, row, state, reveal: bool) -> dict:
    from . import secrecy

    view = _frame_view(game, state, reveal)
    return {
        "ply": row.ply if reveal else secrecy.seen_ply(row.ply, state, None),
        "seat": row.seat,
        "move": secrecy.frame_move(game, row, reveal, view),
        "kind": row.kind,
        "auto": row.auto,
        "view": view,
    }


def _round_frame(game, row, kind: str, state, moves, reveal: bool) -> dict:
    from . import secrecy

    return {
        "ply": row.ply if reveal else secrecy.seen_ply(row.ply, state, None),
        "seat": None,
        "move": None,
        "kind": kind,
        "round": (rounds.round_number(state) or 0) + (kind == "plans"),
        "moves": [{"seat": seat, "move": text} for seat, text in moves],
        "auto": False,
        "view": _frame_view(game, state, reveal),
    }


def _frame_view(game, state, reveal: bool = False) -> dict:
    """A spectator's view for one frame, without the nested boards' paper-game fields
    (the move record and the route numbers: the live page's, and quadratic here)."""
    from .secrecy import frame_view

    view = frame_view(game, state, reveal)
    view.pop("record", None)
    view.pop("routes", None)
    return view
