"""Checking what a bot client sends (``/ws/bot/``): each message type and its fields.

Returns (handler name, keyword arguments) or raises ``MatchError`` naming what is wrong,
as ``play.messages`` does for the match socket. A token is never put in an error.
"""

from __future__ import annotations

import re

from play.errors import MatchError

MAX_MOVE = 64
MAX_VERSION = 64
MAX_BATCH = 200  # answers in one ``moves`` message
MAX_MESSAGE = 32768  # a bot's message (200 answers of the longest turn id and move fit)
# Every error code the bot socket sends: play/PROTOCOL.md's table ("Bring your own bot",
# "Errors") lists exactly these (tests/test_ownbot_protocol_table.py compares them).
ERROR_CODES = (
    "unauthorized",
    "replaced",
    "malformed",
    "too-large",
    "unknown-type",
    "unknown-turn",
    "illegal",
    "hidden",
    "late",
)
TURN = re.compile(r"^(m[0-9]{1,18}\.[0-9]{1,9}\.[0-9]|t[0-9]{1,18})$")
VERSION = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+:/@ -]{0,63}$")


def _text(message: dict, field: str, most: int, *, optional=False) -> str | None:
    kind = message.get("type")
    value = message.get(field)
    if value is None:
        if optional:
            return None
        raise MatchError("malformed", f"{kind}: {field} is missing.")
    if not isinstance(value, str):
        raise MatchError("malformed", f"{kind}: {field} must be a string.")
    value = value.strip()
    if not value or len(value) > most:
        raise MatchError("malformed", f"{kind}: {field} must be 1 to {most} characters.")
    return value


def parse_bot_message(message) -> tuple[str, dict]:
    if not isinstance(message, dict):
        raise MatchError("malformed", "Messages are JSON objects with a type.")
    kind = message.get("type")
    if not isinstance(kind, str):
        raise MatchError("malformed", "A message needs a type.")
    if kind == "hello":
        version = _text(message, "version", MAX_VERSION)
        if not VERSION.match(version):
            raise MatchError(
                "malformed",
                "hello: version is letters, digits and . _ + : / @ - or spaces, "
                "starting with a letter or digit.",
            )
        token = message.get("token")
        if token is not None and not isinstance(token, str):
            raise MatchError("malformed", "hello: token must be a string.")
        batch = message.get("batch", False)
        if not isinstance(batch, bool):
            raise MatchError("malformed", "hello: batch must be true or false.")
        return "hello", {"token": token, "version": version, "batch": batch}
    if kind == "move":
        turn = _text(message, "turn", 40)  # any text: an id that is no turn is unknown-turn
        return "move", {"turn": turn, "move": _text(message, "move", MAX_MOVE)}
    if kind == "moves":
        return "moves", {"moves": _moves(message.get("moves"))}
    if kind == "ping":
        return "ping", {}
    raise MatchError("unknown-type", f"Unknown message type {kind[:40]!r}.")


def _moves(items) -> list[tuple[str, str]]:
    """A ``moves`` message's answers: (turn, move) each, checked as ``move``'s fields."""
    if not isinstance(items, list) or not 1 <= len(items) <= MAX_BATCH:
        raise MatchError("malformed", f"moves: moves must be a list of 1 to {MAX_BATCH} answers.")
    out = []
    for item in items:
        if not isinstance(item, dict):
            raise MatchError("malformed", "moves: each answer is an object with turn and move.")
        item = {**item, "type": "moves"}  # (named in an error)
        out.append((_text(item, "turn", 40), _text(item, "move", MAX_MOVE)))
    return out


def unknown_turn(turn: str) -> MatchError:
    """The one answer to a turn that is not this bot's to answer: never sent, not yet,
    someone else's, or no turn at all. One code and one sentence for all, so a bot learns
    nothing about other bots' turns by trying ids."""
    return MatchError("unknown-turn", f"There is no turn {turn[:40]!r} for this bot.")


def late(turn: str) -> MatchError:
    return MatchError("late", f"Turn {turn[:40]!r} is over: answered already, or its time ran out.")


def live_turn_id(match_id: int, ply: int, seat: int) -> str:
    return f"m{match_id}.{ply}.{seat}"


def parse_turn_id(turn: str) -> tuple[str, tuple[int, ...]]:
    """("live", (match, ply, seat)) or ("tournament", (turn pk,)); ``unknown_turn`` for
    text that is no turn id."""
    if not TURN.match(turn):
        raise unknown_turn(turn)
    if turn.startswith("m"):
        match_id, ply, seat = turn[1:].split(".")
        return "live", (int(match_id), int(ply), int(seat))
    return "tournament", (int(turn[1:]),)
