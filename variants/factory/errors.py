"""Where an error goes: a rule-document path (``board.size[0]``) -> the control it is about."""

from __future__ import annotations

import re

from .flat_board import AXES
from .nested_state import field_of
from .state import FactoryState

_SIMPLE = {
    "name": "name",
    "stalemate": "stalemate",
    "players": "players",
    "colors": "colors",
    "shapes": "shapes",
    "pieces_per_turn": "pieces_per_turn",
    "boards": "boards",
    "board.type": "board_type",
    "board.size": "board",
    "board": "board",
    "allow_pass": "allow_pass",
    "agree_draw": "agree_draw",
    "seconds_per_turn": "seconds",
    "turn_ms": "turn_ms",
    "timeout": "timeout",
    "turn_checks": "check-0",
    "locked": "board",
    "initial_pieces": "board",
    "sticky": "board",
    "exclusive": "board",
    "space_locks": "board",
    "shape_rules": "top",
    "cloaking": "cloaking",
    "overachievers": "overachievers",
    "phases": "phases",
    "endings": "stalemate",
}


def error_key(state: FactoryState, path: str) -> tuple[str, str]:
    """(control key, message prefix) for a rule-document error path.

    ``board.size[0]`` -> the x select; ``reserves.black.circle`` -> that reserve select;
    ``turn_checks[1].k`` -> the second check; set-up pieces and locks -> the board, with
    the space named. Anything else -> "top".
    """
    if state.family == "nested":
        if path == "board.type":
            return "family", ""
        if name := field_of(path):
            return f"n_{name}", ""
    if path in _SIMPLE:
        return _SIMPLE[path], ""
    if m := re.fullmatch(r"board\.size\[(\d)\]", path):
        return f"size_{AXES[int(m[1])]}", ""
    if m := re.fullmatch(r"turn_checks\[(\d+)\](\..*)?", path):
        return f"check-{m[1]}", ""
    if m := re.fullmatch(r"shapes\[(\d+)\]", path):
        return f"shape-{m[1]}", ""
    if m := re.fullmatch(r"reserves\.(\w+)\.(\w+)", path):
        color, shape = m[1], m[2]
        if color in state.color_names and shape in state.shapes:
            return f"reserve-{color}-{state.shapes.index(shape) + 1}", ""
    if m := re.fullmatch(r"phases\[(\d+)\](?:\.(\w+))?(?:\[\d+\])?(\..*)?", path):
        index, name = int(m[1]), m[2] or ""
        prefix = f"Phase {index + 1}: " if len(state.phases) > 1 else ""
        if index != state.phase_shown:
            return "top", prefix + (f"{name}: " if name else "")
        if name in ("locked", "cloaked"):
            return f"phases-{index}-spaces", prefix + f"{name} space: "
        if name in ("order", "allow_pass", "placement_only", "fold", "locked_seats"):
            return f"phases-{index}-{name}", ""
        return "top", prefix
    if m := re.fullmatch(r"endings\[(\d+)\](\..*)?", path):
        return _ending_control(state, int(m[1])), ""
    if m := re.fullmatch(r"(move|power|power_condition|power_result)-\d+", path):
        return path, ""
    if m := re.fullmatch(r"shape_rules\.(\w+)(?:\.(move|power|condition|result))?", path):
        if m[1] in state.shapes:
            field = {"condition": "power_condition", "result": "power_result"}.get(m[2], m[2])
            return f"{field or 'move'}-{state.shapes.index(m[1]) + 1}", ""
    if m := re.fullmatch(r"(sticky|exclusive|space_locks)\[(\d+)\](\..*)?", path):
        return "board", _marked_space(state, m[1], int(m[2]))
    if m := re.fullmatch(r"(locked|initial_pieces)\[(\d+)\](\..*)?", path):
        items = sorted(state.locked) if m[1] == "locked" else sorted(state.pieces)
        index = int(m[2])
        if index < len(items):
            b, x, y, z = items[index]
            what = "Locked space" if m[1] == "locked" else "Piece"
            where = f"({x},{y},{z})" + (f" of board {b}" if state.boards > 1 else "")
            return "board", f"{what} at {where}: "
        return "board", ""
    return "top", f"{path}: " if path else ""


def _ending_control(state: FactoryState, index: int) -> str:
    """The dropdown holding the index-th ending of the document (phase_state.to_document:
    an ending in the stalemate dropdown first, then those of the turn checks)."""
    holders = ["stalemate"] if state.stalemate.startswith("{") else []
    holders += [f"check-{i}" for i, c in enumerate(state.checks) if c.ending]
    return holders[index] if index < len(holders) else "top"


def _marked_space(state: FactoryState, name: str, index: int) -> str:
    """ "Sticky space at (2,1,1): " for the index-th item of a marked-space list."""
    m = state.moving
    items = {
        "sticky": sorted(m.sticky),
        "exclusive": sorted(m.exclusive),
        "space_locks": [spot for spot, _flags in sorted(m.seat_locks)],
    }[name]
    what = {"sticky": "Sticky", "exclusive": "Exclusive", "space_locks": "Locked"}[name]
    if index >= len(items):
        return f"{what} space: "
    b, x, y, z = items[index]
    return f"{what} space at ({x},{y},{z})" + (f" of board {b}" if state.boards > 1 else "") + ": "


def place_errors(state: FactoryState, errors: list[dict[str, str]]) -> dict[str, list[str]]:
    placed: dict[str, list[str]] = {}
    for error in errors:
        key, prefix = error_key(state, error.get("path", ""))
        placed.setdefault(key, []).append(prefix + _sentence(error["message"]))
    return placed


def _sentence(message: str) -> str:
    return message[:1].upper() + message[1:]
