"""The Game Factory form as plain data: read from a POST, adjusted, written as a rule document.

Pure Python (no Django): a ``FactoryState`` is everything the factory page shows. The
view reads one from the posted form (``from_post``) or from a saved game (``from_doc``),
applies the button that was pressed (``apply_action``), lets ``adjust`` restore the
seed's rules between controls (hash is 3×3×1, stacks need a height, pieces fall, ...),
and either renders it again (``layout``) or saves ``to_document``.

Shapes are addressed by their *row* (1-based), not by name, in reserve fields, piece
markers and set-up pieces: renaming a shape row (circle -> pentagon) then carries its
reserves and pieces along instead of dropping them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from variants import rules
from variants.bounded import OutOfBounds, bounded_int, whole_number
from variants.rules.schema import ShapeRules
from variants.rules.vocabulary import (
    COLOR_LABELS,
    COLORS,
    MAX_DIMENSION,
    MAX_SPACES,
    PLAYER_LABELS,
    PLAYER_MODES,
    SHAPES,
    TIMEOUT_LABELS,
    seat_colors,
)

from . import moving_state, nested_state, phase_state
from .moving_state import MovingState
from .nested_state import NestedState
from .phase_state import PhaseState
from .spaces import Spot, column, marker_piece, set_column, toggle_space

# The board types of the flat family; the nested family is the other choice.
FLAT_BOARDS = ("hash", "squares", "stacks")
FAMILIES = {"flat": "Flat board", "nested": "Nested boards"}
MAX_CHECKS = 8
MAX_BOARDS = 3


@dataclass(frozen=True)
class Check:
    k: int = 3
    result: str = "wins"
    diagonal: bool = True
    ending: str = ""  # another ending of the typed vocabulary (its key), instead of k

    @property
    def value(self) -> str:
        """The turn-check dropdown's option value, e.g. "3-wins-d" / "4-loses-o", or an
        ending's key (JSON)."""
        if self.ending:
            return self.ending
        return f"{self.k}-{self.result}-{'d' if self.diagonal else 'o'}"

    @classmethod
    def from_value(cls, text: str) -> Check:
        if phase_state.is_ending(text):
            found = phase_state.read_ending(text, "turn") or phase_state.read_ending(
                text, "stalemate"
            )
            if found is None:
                raise ValueError(text)
            return cls(ending=found)
        k, result, diag = text.split("-")
        if result not in ("wins", "loses") or diag not in ("d", "o"):
            raise ValueError(text)
        # Wider than the rules allow (2..6), so validation names the limit; never unbounded.
        return cls(whole_number(k, 1, 99), result, diag == "d")


@dataclass
class FactoryState:
    name: str = ""
    family: str = "flat"  # "nested": the nested section holds the game, the rest is unused
    nested: NestedState = field(default_factory=NestedState)
    stalemate: str = "draw"
    checks: list[Check] = field(default_factory=lambda: [Check()])
    players: str = "2"
    colors: str = "assigned"
    shapes: list[str] = field(default_factory=lambda: ["circle"])
    pieces_per_turn: int = 1
    boards: int = 1
    board_type: str = "hash"
    size: tuple[int, int, int] = (3, 3, 1)
    # colour -> shape row (1-based) -> count
    reserves: dict[str, dict[int, int]] = field(default_factory=dict)
    # True while the creator has not touched the reserves: they follow the rules' own
    # default (the open spaces dealt round-robin over the colours) as the board changes.
    reserves_auto: bool = True
    locked: set[Spot] = field(default_factory=set)
    pieces: dict[Spot, tuple[str, int]] = field(default_factory=dict)  # -> (colour, shape row)
    allow_pass: bool = False
    agree_draw: bool = False
    seconds: int | None = None
    timeout: str = "loss"
    marker: str = ""  # "lock", "exclusive", "sticky" or "piece-<colour>-<row>": the palette marker
    moving: MovingState = field(default_factory=MovingState)  # pieces that move, marked spaces
    phases: list[PhaseState] = field(default_factory=lambda: [PhaseState()])
    phase_shown: int = 0  # the phase whose controls the page shows (0-based)
    cloaking: str = "none"
    overachievers: bool = False

    # --- derived ------------------------------------------------------------------

    @property
    def color_names(self) -> tuple[str, ...]:
        return COLORS[: seat_colors(self.players, self.colors)[1]]

    @property
    def seats(self) -> int:
        return PLAYER_MODES[self.players][0]

    @property
    def spaces(self) -> int:
        return math.prod(self.size) * self.boards

    def reserve_limit(self) -> int:
        """Most pieces one select may offer: asked of ``rules.reserve_limit`` itself (so
        the factory follows the rules' formula, which may depend on the shapes' powers),
        never more than the largest board the seed allows has spaces, whatever was posted."""
        boards = min(max(self.boards, 1), MAX_BOARDS)
        size = tuple(min(max(v or 1, 1), MAX_DIMENSION) for v in self.size)
        shapes = {
            self.shapes[row - 1]: ShapeRules.model_construct(
                move=r.move, power=r.power, condition=r.condition or "cover",
                result=r.result or "remove",
            )
            for row, r in self.moving.rules.items()
            if 1 <= row <= len(self.shapes)
        }  # fmt: skip
        doc = rules.RuleDoc.model_construct(
            name="limit",
            players=self.players if self.players in PLAYER_MODES else "2",
            colors=self.colors,
            boards=boards,
            board=rules.BoardSpec.model_construct(type=self.board_type, size=size),
            shape_rules=shapes,
        )
        return max(0, min(rules.reserve_limit(doc), MAX_SPACES * boards))

    def on_board(self, spot: Spot) -> bool:
        b, *at = spot
        return 1 <= b <= self.boards and all(
            1 <= v <= n for v, n in zip(at, self.size, strict=True)
        )


# --- from a saved document ---------------------------------------------------------------


def default_state() -> FactoryState:
    """A fresh factory page: the rules' defaults (Tic-Tac-Toe) and their derived reserves."""
    state = FactoryState()
    state.reserves = derived_reserves(state)
    return state


def from_doc(doc: rules.RuleDoc) -> FactoryState:
    """The factory page showing a saved (or catalogue) game."""
    if doc.board.type == "nested":
        return FactoryState(name=doc.name, family="nested", nested=nested_state.from_doc(doc))
    row = {shape: i + 1 for i, shape in enumerate(doc.shapes)}
    state = FactoryState(
        name=doc.name,
        stalemate=doc.stalemate,
        checks=[Check(c.k, c.result, c.diagonal) for c in doc.turn_checks],
        players=doc.players,
        colors=doc.colors,
        shapes=list(doc.shapes),
        pieces_per_turn=doc.pieces_per_turn,
        boards=doc.boards,
        board_type=doc.board.type,
        size=tuple(doc.board.size),
        reserves={
            c: {row[s]: (doc.reserves or {}).get(c, {}).get(s, 0) for s in doc.shapes}
            for c in rules.color_names(doc)
        },
        locked={(s.board, *s.at) for s in doc.locked},
        pieces={(p.board, *p.at): (p.color, row[p.shape]) for p in doc.initial_pieces},
        allow_pass=doc.allow_pass,
        agree_draw=doc.agree_draw,
        seconds=doc.seconds_per_turn,
        timeout=doc.timeout,
        moving=moving_state.from_doc(doc),
    )
    phase_state.from_doc(doc, state)
    # A game whose reserves are the derived default keeps following the board when copied.
    state.reserves_auto = state.board_type in FLAT_BOARDS and state.reserves == derived_reserves(
        state
    )
    return state


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
        number(f"size_{axis}", default, f"board.size[{i}]", 1, MAX_DIMENSION)
        for i, (axis, default) in enumerate(zip("xyz", base.size, strict=True))
    )
    state.seconds = number("seconds", None, "seconds_per_turn", 5, 86400, blank_ok=True)
    state.moving = moving_state.from_post(data, len(state.shapes), state.seats, _spot, problems)
    phase_state.from_post(data, state, _spot, problems)

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
    locked = {_spot(t) for t in posted[:most]}
    state.locked = {spot for spot in locked if spot and state.on_board(spot)}
    if len(posted) > most or len(state.locked) < len(locked):
        problems.append({"path": "locked", "message": "some locked spaces are not on the board"})
    posted = str(data.get("pieces", "")).split()
    for item in posted[:most]:
        parts = item.split(",")  # b,x,y,z,colour,shape-row
        spot = _spot(",".join(parts[:4])) if len(parts) == 6 else None
        row = bounded_int(parts[5], 1, len(SHAPES)) if spot else None
        if spot and state.on_board(spot) and parts[4] in COLORS and row:
            state.pieces[spot] = (parts[4], row)
        else:
            problems.append({"path": "initial_pieces", "message": f"{item[:40]!r} is no piece"})
            break
    if len(posted) > most:
        problems.append({"path": "initial_pieces", "message": "more pieces than spaces"})
    return state, problems


def _spot(text: str) -> Spot | None:
    """'b,x,y,z' -> (b, x, y, z) within the largest board the seed allows, or None."""
    parts = text.split(",")
    if len(parts) != 4:
        return None
    b, x, y, z = (bounded_int(v, 1, MAX_DIMENSION) for v in parts)
    if None in (b, x, y, z) or b > MAX_BOARDS:
        return None
    return (b, x, y, z)


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
        ",".join(map(str, (*spot, color, row)))
        for spot, (color, row) in sorted(state.pieces.items())
    )


# --- buttons -------------------------------------------------------------------------------


def apply_action(state: FactoryState, action: str, toggle: str = "") -> str:
    """Apply a pressed button to the state; returns a note for the page ("" if none).

    ``action`` is ``add_check``, ``delete_check-<i>`` (0-based) or ``toggle`` with
    ``toggle`` naming the clicked space ("b,x,y,z"); anything else changes nothing.
    """
    if action == "add_check" and len(state.checks) < MAX_CHECKS:
        # A new check repeats the last one, as added reserve selects copy the last ones.
        state.checks.append(state.checks[-1] if state.checks else Check())
    elif action.startswith("delete_check-"):
        index = bounded_int(action.removeprefix("delete_check-"), 0, MAX_CHECKS - 1)
        if index is not None and index < len(state.checks):
            del state.checks[index]
    elif action.startswith("phase_lock-"):
        seat = bounded_int(action.removeprefix("phase_lock-"), 1, 4)
        if seat:
            phase_state.toggle_seat(state, seat)
    elif action == "toggle":
        spot = _spot(toggle)
        if spot is None or not state.on_board(spot):
            return "That space is not on the board."
        if not state.marker:
            return "Select a marker first (the lock or a piece beside a reserve), then a space."
        this_phase = state.moving.marker_seat == moving_state.THIS_PHASE
        if state.marker == "cloak" or (
            state.marker == "lock" and (state.phase_shown > 0 or this_phase)
        ):
            return phase_state.toggle(state, spot, state.marker)
        if state.phase_shown > 0:
            return "After phase 1 only the cloak and lock markers change spaces."
        if state.marker in ("exclusive", "sticky") or (
            state.marker == "lock" and state.moving.marker_seat
        ):
            return moving_state.toggle(state, spot, state.marker)
        toggle_space(state, spot, state.marker)
    return ""


# --- keeping the controls consistent -----------------------------------------------------


def adjust(state: FactoryState) -> FactoryState:
    """Make the state one the page can show: the seed's rules between controls.

    Run after every change (never before validating a Save, so that what the creator
    submitted is what gets validated and reported).
    """
    if state.family == "nested":
        nested_state.adjust(state.nested)
        return state
    state.players = state.players if state.players in PLAYER_LABELS else "2"
    if state.colors == "partners-share" and state.players != "partners":
        state.colors = "assigned"  # the option exists only for Partners
    state.pieces_per_turn = min(max(state.pieces_per_turn or 1, 1), 2)
    state.boards = min(max(state.boards or 1, 1), MAX_BOARDS)
    state.size = adjusted_size(state.board_type, state.size)
    state.shapes = _distinct_shapes(state.shapes)
    rows = len(state.shapes)

    # Set-up pieces and locks: only on the board, of this game's colours and shape rows.
    state.locked = {s for s in state.locked if state.on_board(s)}
    state.pieces = {
        s: (c, r)
        for s, (c, r) in state.pieces.items()
        if state.on_board(s) and c in state.color_names and 1 <= r <= rows and s not in state.locked
    }
    if state.board_type == "stacks":
        for b, x, y in {(b, x, y) for b, x, y, _ in state.locked | set(state.pieces)}:
            set_column(state, b, x, y, column(state, b, x, y))
    if marker_piece(state.marker) and state.marker not in piece_markers(state):
        state.marker = ""

    if state.reserves_auto:
        state.reserves = derived_reserves(state)
    else:
        state.reserves = _completed_reserves(state)
    moving_state.adjust(state, state.seats)
    phase_state.adjust(state)
    if state.seconds is None:
        state.timeout = "loss"  # no timer, nothing times out (keeps fingerprints equal)
    return state


def adjusted_size(board_type: str, size: tuple) -> tuple[int, int, int]:
    """Hash is frozen at 3×3×1; stacks need z ≥ 2; every side within its limit."""
    if board_type == "hash":
        return (3, 3, 1)
    x, y, z = (max(1, v or 1) for v in size)
    if board_type == "stacks":
        z = max(z, 2)
    size = [min(v, MAX_DIMENSION) for v in (x, y, z)]
    # Shrink the last sides first: x (across) is kept longest, and stacks keep their height.
    for axis in (1, 0, 2) if board_type == "stacks" else (2, 1, 0):
        size[axis] = max(1, min(size[axis], rules.dimension_limit(tuple(size), axis)))
    return tuple(size)


def _distinct_shapes(shapes: list[str]) -> list[str]:
    out: list[str] = []
    for shape in shapes[:6] or ["circle"]:
        out.append(shape if shape not in out else next(s for s in SHAPES if s not in out))
    return out


def _completed_reserves(state: FactoryState) -> dict[str, dict[int, int]]:
    """The creator's reserves, with the seed's default for added selects: an added colour
    copies the highest-numbered existing colour, an added shape row the highest existing
    row; every count within 0..the reserve limit."""
    limit = state.reserve_limit()
    rows = range(1, len(state.shapes) + 1)
    out: dict[str, dict[int, int]] = {}
    last_color: dict[int, int] = {}
    for color in state.color_names:
        posted = state.reserves.get(color)
        by_row = dict(posted) if posted else dict(last_color)
        last_row = 0
        for row in rows:
            if row in by_row:
                last_row = by_row[row]
            else:
                by_row[row] = last_row
        out[color] = {row: min(max(by_row[row] or 0, 0), limit) for row in rows}
        last_color = out[color]
    return out


def derived_reserves(state: FactoryState) -> dict[str, dict[int, int]]:
    """What ``rules.parse`` fills in when a document leaves the reserves out (the open
    spaces dealt round-robin over the colours, first shape) — asked of the rules
    themselves, so the factory's default can never drift from the schema's."""
    rows = range(1, len(state.shapes) + 1)
    plain = replace(state, name="derived", reserves_auto=False, moving=MovingState())
    doc = to_document(plain, reserves=False)
    try:
        parsed = rules.parse(doc)
    except rules.RulesError:
        return {
            c: {r: state.reserves.get(c, {}).get(r, 0) for r in rows} for c in state.color_names
        }
    derived = parsed.reserves or {}
    return {
        c: {r: derived.get(c, {}).get(state.shapes[r - 1], 0) for r in rows}
        for c in state.color_names
    }


def piece_markers(state: FactoryState) -> list[str]:
    return [f"piece-{c}-{r}" for c in state.color_names for r in range(1, len(state.shapes) + 1)]


# --- to a rule document ----------------------------------------------------------------------


def to_document(state: FactoryState, reserves: bool = True) -> dict:
    """The rule document (variants/rules/README.md) the form describes, not yet validated."""
    if state.family == "nested":
        return nested_state.to_document(state.name, state.nested)

    def shape_of(row: int) -> str:
        return state.shapes[row - 1] if 1 <= row <= len(state.shapes) else f"row-{row}"

    doc = {
        "name": state.name,
        "players": state.players,
        "colors": state.colors,
        "shapes": list(state.shapes),
        "pieces_per_turn": state.pieces_per_turn,
        "boards": state.boards,
        "board": {"type": state.board_type, "size": list(state.size)},
        "initial_pieces": [
            {"board": b, "at": [x, y, z], "color": color, "shape": shape_of(row)}
            for (b, x, y, z), (color, row) in sorted(state.pieces.items())
        ],
        "locked": [{"board": b, "at": [x, y, z]} for b, x, y, z in sorted(state.locked)],
        "turn_checks": [
            {"k": c.k, "result": c.result, "diagonal": c.diagonal}
            for c in state.checks
            if not c.ending
        ],
        "stalemate": phase_state.document_stalemate(state),
        "agree_draw": state.agree_draw,
        "seconds_per_turn": state.seconds,
        "timeout": state.timeout if state.seconds is not None else "loss",
        **moving_state.to_document(state, shape_of),
        **phase_state.to_document(state),
    }
    if reserves:
        doc["reserves"] = {
            color: {shape_of(row): count for row, count in sorted(by_row.items())}
            for color, by_row in state.reserves.items()
            if color in state.color_names
        }
    return doc
