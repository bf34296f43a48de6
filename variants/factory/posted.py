"""The posted factory form read leniently (``from_post``), and the hidden fields the page
writes for it to read back (``encode_*``)."""

from __future__ import annotations

from collections.abc import Mapping

from gamecore.rules.vocabulary import (
    COLOR_LABELS,
    COLORS,
    MAX_DIMENSION,
    MAX_SPACES,
    MAX_STACK_HEIGHT,
    PLAYER_LABELS,
    SHAPES,
    TIMEOUT_LABELS,
)
from variants.bounded import OutOfBounds, bounded_int, whole_number

from . import deck_state, moving_state, nested_state, phase_state, turn_time
from .document import default_state
from .form import FLAT_BOARDS, MAX_BOARDS, MAX_CHECKS, Check, FactoryState
from .spaces import parse_spot

PIECE_OWNERS = ("seat", "nobody")  # the piece_owner select's values

# --- from the posted form ----------------------------------------------------------------


def from_post(data: Mapping, getlist=None) -> tuple[FactoryState, list[dict[str, str]]]:
    """Read the posted form leniently: a value that is not even of the right kind falls back
    to its default and is reported (by rule-document path) instead of raising."""
    getlist = getlist or (lambda key: [data[key]] if key in data else [])
    problems: list[dict[str, str]] = []
    family = str(data.get("family", "flat"))
    if family == "nested":
        nested, problems = nested_state.from_post(data)
        return FactoryState(
            name=str(data.get("name", "")).strip(), family=family, nested=nested
        ), problems
    if family != "flat":
        problems.append({"path": "board.type", "message": f"{family[:40]!r} is not an option"})
    base = default_state()

    def choice(key: str, allowed, default: str, path: str | None = None) -> str:
        value = data.get(key, default)
        if value in allowed:
            return value
        problems.append({"path": path or key, "message": f"{value!r} is not an option"})
        return default

    def number(key: str, default: int | None, path: str, lo: int, hi: int, blank_ok=False):
        """The posted number within lo..hi (the seed's limits); junk or a number out of
        range is reported and replaced by the default or the nearest limit, so nothing
        built from the state (the page, the board) can grow past the seed's limits."""
        raw = str(data.get(key, "" if default is None else default)).strip()
        if raw == "" and blank_ok:
            return None
        try:
            return whole_number(raw, lo, hi)
        except OutOfBounds as exc:
            problems.append({"path": path, "message": str(exc)})
            return default if exc.nearest is None else exc.nearest

    state = FactoryState(
        name=str(data.get("name", "")).strip(),
        stalemate=phase_state.read_stalemate(data, problems),
        players=choice("players", PLAYER_LABELS, "2"),
        colors=choice("colors", COLOR_LABELS, "assigned"),
        board_type=choice("board_type", FLAT_BOARDS, "hash", "board.type"),
        allow_pass=data.get("allow_pass") == "1",
        agree_draw=data.get("agree_draw") == "1",
        timeout=choice("timeout", TIMEOUT_LABELS, "loss"),
        marker=str(data.get("marker", "")),
    )
    state.checks = []
    posted_checks = getlist("check")
    if len(posted_checks) > MAX_CHECKS:
        problems.append({"path": "turn_checks", "message": f"at most {MAX_CHECKS} turn checks"})
    for i, value in enumerate(posted_checks[:MAX_CHECKS]):
        try:
            state.checks.append(Check.from_value(value))
        except ValueError:
            problems.append({"path": f"turn_checks[{i}]", "message": "is not an option"})
    shapes = [s for s in getlist("shape")[: len(SHAPES)] if s] or base.shapes
    # The shapes dropdown says how many rows; added rows take the next unused shape.
    count = bounded_int(data.get("shape_count", len(shapes)), 1, 99)
    count = min(max(count or len(shapes), 1), len(SHAPES))
    while len(shapes) < count:
        shapes.append(next((s for s in SHAPES if s not in shapes), "circle"))
    state.shapes = shapes[:count]
    for i, shape in enumerate(state.shapes):
        if shape not in SHAPES:
            problems.append({"path": f"shapes[{i}]", "message": "is not a shape"})
            state.shapes[i] = next(s for s in SHAPES if s not in state.shapes)
    state.pieces_per_turn = number("pieces_per_turn", 1, "pieces_per_turn", 1, 2)
    state.boards = number("boards", 1, "boards", 1, MAX_BOARDS)
    state.size = tuple(
        # a stack's height may reach the document's limit (26), every other side 19
        number(
            f"size_{axis}",
            default,
            f"board.size[{i}]",
            1,
            MAX_STACK_HEIGHT if i == 2 else MAX_DIMENSION,
        )
        for i, (axis, default) in enumerate(zip("xyz", base.size, strict=True))
    )
    if str(data.get("seconds", "")).strip() == turn_time.MS:  # seed 001: any ms value
        state.turn_ms = turn_time.read(data, "turn_ms", problems)
    else:
        state.seconds = number("seconds", None, "seconds_per_turn", 5, 86400, blank_ok=True)
    state.moving = moving_state.from_post(
        data, len(state.shapes), state.seats, parse_spot, problems
    )
    phase_state.from_post(data, state, parse_spot, problems)

    # Reserves: one select per colour and shape row; a missing select is a new one.
    for color in COLORS:
        for row in range(1, len(state.shapes) + 1):
            key = f"reserve-{color}-{row}"
            if key in data:
                path = f"reserves.{color}.{state.shapes[row - 1]}"
                count = number(key, 0, path, 0, MAX_SPACES * MAX_BOARDS)
                state.reserves.setdefault(color, {})[row] = count
    snapshot = str(data.get("reserves_auto", ""))
    state.reserves_auto = bool(snapshot) and snapshot == encode_reserves(state.reserves)

    # Locks and set-up pieces: only spaces of the posted board, so none can be more than
    # the board has; anything else is reported, and a longer list is cut, not built.
    most = state.spaces
    posted = str(data.get("locked", "")).split()
    locked = {parse_spot(t) for t in posted[:most]}
    state.locked = {spot for spot in locked if spot and state.on_board(spot)}
    if len(posted) > most or len(state.locked) < len(locked):
        problems.append({"path": "locked", "message": "some locked spaces are not on the board"})
    owner = str(data.get("piece_owner", "seat"))
    state.piece_owner = owner if owner in PIECE_OWNERS else "seat"
    posted = str(data.get("pieces", "")).split()
    for item in posted[:most]:
        parts = item.split(",")  # b,x,y,z,colour,shape-row[,n]: n for nobody's
        nobody = len(parts) == 7 and parts[6] == "n"
        spot = parse_spot(",".join(parts[:4])) if len(parts) == 6 or nobody else None
        row = bounded_int(parts[5], 1, len(SHAPES)) if spot else None
        if spot and state.on_board(spot) and parts[4] in COLORS and row:
            state.pieces[spot] = (parts[4], row)
            if nobody:
                state.nobody.add(spot)
        else:
            problems.append({"path": "initial_pieces", "message": f"{item[:40]!r} is no piece"})
            break
    if len(posted) > most:
        problems.append({"path": "initial_pieces", "message": "more pieces than spaces"})
    deck_state.from_post(data, state, parse_spot, problems)
    return state, problems


def encode_reserves(reserves: dict[str, dict[int, int]]) -> str:
    """The reserves as one string, for the hidden field that tells untouched from edited."""
    return " ".join(
        f"{color}.{row}={count}"
        for color in COLORS
        for row, count in sorted(reserves.get(color, {}).items())
    )


def encode_locked(state: FactoryState) -> str:
    return " ".join(",".join(map(str, spot)) for spot in sorted(state.locked))


def encode_pieces(state: FactoryState) -> str:
    return " ".join(
        ",".join(map(str, (*spot, color, row))) + (",n" if spot in state.nobody else "")
        for spot, (color, row) in sorted(state.pieces.items())
    )
