"""Checking what a client sends: each message type, its fields and their types.

Returns the consumer handler's name and its keyword arguments, or raises ``MatchError``
naming what is wrong. Nothing a client sends reaches a service unchecked.
"""

from __future__ import annotations

from variants.ids import MAX_ID

from .errors import MatchError

MAX_NOTATION = 64
MAX_PLY = 10**9
# matchmaking:join's AFK settings (seed 003: 60 s timeout, 20 s warning by default).
AFK_TIMEOUT = (10, 3600, 60)  # lowest, highest, default
AFK_WARNING = (1, 3599, 20)


def _need(message, field: str, kind, *, optional=False):
    if field not in message or message[field] is None:
        if optional:
            return None
        raise MatchError("malformed", f"{message.get('type')}: {field} is missing.")
    value = message[field]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise MatchError("malformed", f"{message['type']}: {field} must be a whole number.")
    if not isinstance(value, kind):
        raise MatchError("malformed", f"{message['type']}: {field} must be a {kind.__name__}.")
    return value


def _number(message, field: str, lo: int, hi: int, *, default=None):
    """A whole number within lo..hi; absent (or null) gives ``default`` when there is one.
    Out of range is an error naming the field and the range, never a silent default."""
    value = _need(message, field, int, optional=default is not None or field == "ply")
    if value is None:
        return default
    if not lo <= value <= hi:
        raise MatchError("malformed", f"{message['type']}: {field} must be from {lo} to {hi}.")
    return value


def afk_flag(message) -> bool | None:
    """``afk`` (true/false) says whether the match has an AFK timer; without it, giving
    ``afkTimeout`` or ``afkWarning`` asks for one; neither: the game's default."""
    flag = _need(message, "afk", bool, optional=True)
    if flag is None and any(message.get(k) is not None for k in ("afkTimeout", "afkWarning")):
        return True
    return flag


def _seat(message):
    seat = _need(message, "seat", int, optional=True)
    if seat is not None and not 0 <= seat < 8:
        raise MatchError("malformed", f"{message['type']}: seat {seat} does not exist.")
    return seat


def _type(message) -> str:
    if not isinstance(message, dict):
        raise MatchError("malformed", "Messages are JSON objects with a type.")
    kind = message.get("type")
    if not isinstance(kind, str):
        raise MatchError("malformed", "A message needs a type.")
    return kind


def parse_match_message(message) -> tuple[str, dict]:
    kind = _type(message)
    if kind == "move":
        move = _need(message, "move", str).strip()
        if not move or len(move) > MAX_NOTATION:
            raise MatchError("malformed", f"move: 1 to {MAX_NOTATION} characters.")
        ply = _number(message, "ply", 0, MAX_PLY)
        return "move", {"move": move, "seat": _seat(message), "ply": ply}
    if kind == "game:resign":
        return "resign", {"seat": _seat(message)}
    if kind == "draw:offer":
        return "draw_offer", {"seat": _seat(message)}
    if kind == "draw:answer":
        return "draw_answer", {"accept": _need(message, "accept", bool), "seat": _seat(message)}
    if kind == "game:reconnect":
        return "reconnect", {}
    if kind == "afk:ping":
        return "afk_ping", {}
    if kind == "series:ready":
        return "ready", {}
    raise MatchError("unknown-type", f"Unknown message type {kind[:40]!r}.")


def parse_lobby_message(message) -> tuple[str, dict]:
    kind = _type(message)
    if kind == "matchmaking:join":
        return "join", {
            "rule_set": _number(message, "ruleSet", 1, MAX_ID),
            "afk_timeout": _number(message, "afkTimeout", *AFK_TIMEOUT[:2], default=AFK_TIMEOUT[2]),
            "afk_warning": _number(message, "afkWarning", *AFK_WARNING[:2], default=AFK_WARNING[2]),
            "afk": afk_flag(message),
        }
    if kind == "matchmaking:leave":
        return "leave", {}
    raise MatchError("unknown-type", f"Unknown message type {kind[:40]!r}.")
