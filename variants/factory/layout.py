"""What the factory page shows for a state: every control with its options, which ones are
enabled, which are "coming", where each error goes, and the board as drawn.

The one place these rules live: the templates only print what this module decides, the
htmx partial re-renders it, and the saved page reuses it read-only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from variants import rules
from variants.rules.summary import check_label
from variants.rules.vocabulary import (
    BOARD_LABELS,
    COLOR_LABELS,
    PLAYER_LABELS,
    PLAYER_MODES,
    SHAPES,
    STALEMATE_LABELS,
    TIMEOUT_LABELS,
)

from .state import (
    FLAT_BOARDS,
    MAX_BOARDS,
    MAX_CHECKS,
    Check,
    FactoryState,
    encode_locked,
    encode_pieces,
    encode_reserves,
)

COMING = "Coming: the game engine does not play this yet."
SECONDS = (5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 300, 600, 900, 1800, 3600, 86400)
CHECK_CHOICES = [
    Check(k, r, d) for k in range(2, 7) for r in ("wins", "loses") for d in (True, False)
]
AXES = "xyz"
AXIS_LABELS = ("Width (x)", "Depth (y)", "Height (z)")


@dataclass
class Option:
    value: str
    label: str
    selected: bool = False
    disabled: bool = False


@dataclass
class Control:
    """One dropdown (or integer select) of the page."""

    name: str
    label: str  # for screen readers (and the saved page's alt text)
    options: list[Option]
    disabled: bool = False
    coming: str = ""  # why it is disabled, when the engine cannot play it yet
    refresh: bool = False  # changing it re-renders the dependent parts (htmx)
    short: str = ""  # a visible label in front of the select ("x", "y", "z")
    integer: bool = False  # an integer select (zero counts as blank on a saved page)
    hide_when_saved: bool = False  # cleared and disabled: nothing to show on a saved page
    errors: list[str] = field(default_factory=list)
    id: str = ""

    def __post_init__(self):
        self.id = self.id or "id_" + self.name

    @property
    def value(self) -> str:
        return next((o.value for o in self.options if o.selected), "")

    @property
    def selected_label(self) -> str:
        return next((o.label for o in self.options if o.selected), "")

    @property
    def blank(self) -> bool:
        """Blank dropdowns and integer selects of zero are hidden on a saved page."""
        return self.hide_when_saved or self.value == "" or (self.integer and self.value == "0")


def select(name, label, choices, value, **kwargs) -> Control:
    """A control from (value, label) pairs; a current value that is not among them (a stale
    or hand-made post) is kept as an extra option, so the page shows what was submitted."""
    value = "" if value is None else str(value)
    options = [Option(str(v), lab, str(v) == value) for v, lab in choices]
    if not any(o.selected for o in options):
        options.append(Option(value, value or "—", True))
    return Control(name, label, options, **kwargs)


def coming(name, label, labels, selected=0, blank=False) -> Control:
    """A disabled dropdown for an option the engine cannot play yet (shown, never saved)."""
    options = [Option("", "", selected == -1)] if blank else []
    options += [Option(str(i), text, i == selected) for i, text in enumerate(labels)]
    return Control(name, label, options, disabled=True, coming=COMING)


# --- the board --------------------------------------------------------------------------


@dataclass
class Cell:
    spot: tuple[int, int, int, int]
    label: str  # aria-label: "space 3,1,1" (+ what is on it)
    locked: bool = False
    piece: tuple[str, str] | None = None  # (colour, shape name)

    @property
    def id(self) -> str:
        return "sp-" + "-".join(map(str, self.spot))

    @property
    def value(self) -> str:
        return ",".join(map(str, self.spot))


@dataclass
class Slice:
    label: str  # "z=2" for the slices of a 3-D board, else ""
    rows: list[list[Cell]]


@dataclass
class BoardView:
    number: int
    label: str
    shape: str  # "row" | "plane" | "cube" (side-by-side z-slices)
    slices: list[Slice]
    goals: dict[str, list[str]]  # side (top/left/bottom/right/other) -> goal labels
    height_note: str = ""  # stacks: the maximum height, shown in the upper left corner
    axis_note: str = ""  # which axes run across and up


def goals(state: FactoryState) -> list[tuple[int, str, str]]:
    """(player number, axis, end) of each player's goal, Chaos excluded.

    The seed: Player 1's goal is y=max (x=1 if the largest y is 1); with two players
    Player 2 is opposite; with more, the goals go round the board counter-clockwise.
    """
    seats, chaos, _teams = PLAYER_MODES[state.players]
    players = [i for i in range(seats) if i != chaos]
    around = [("y", "max"), ("x", "1"), ("y", "1"), ("x", "max")]  # counter-clockwise
    start = 0 if state.size[1] > 1 else 1
    steps = [0, 2] if len(players) == 2 else list(range(len(players)))
    return [(p + 1, *around[(start + step) % 4]) for p, step in zip(players, steps, strict=False)]


def _goal_sides(state: FactoryState, across: int, up: int | None) -> dict[str, list[str]]:
    sides: dict[str, list[str]] = {"top": [], "left": [], "bottom": [], "right": [], "other": []}
    for player, axis, end in goals(state):
        index = AXES.index(axis)
        if index == across:
            side = "left" if end == "1" else "right"
        elif index == up or (up is None and axis == "y"):
            side = "top" if end == "max" else "bottom"
        else:
            side = "other"
        text = (
            f"(Player {player} Goal)" if side != "other" else f"Player {player} Goal: {axis}={end}"
        )
        sides[side].append(text)
    return sides


def draw_boards(state: FactoryState) -> list[BoardView]:
    """Each board as the dimensions say: a row if two dimensions are 1, a plane if one is,
    side-by-side z-slices if none is. Planes put their first axis across and the second
    up (largest at the top), so y=max (Player 1's goal) is the top edge."""
    x, y, z = state.size
    if any(n < 1 or n > rules.dimension_limit(state.size, a) for a, n in enumerate(state.size)):
        return []  # a rejected save's oversized board: its errors say why, nothing to draw
    views = []
    for b in range(1, state.boards + 1):
        height = z
        note = ""
        if state.board_type == "stacks":
            # Only two levels above the tallest stack are drawn; the full height is noted.
            tallest = max((s[3] for s in state.locked | set(state.pieces) if s[0] == b), default=0)
            height = min(z, tallest + 2)
            note = f"max height {z}"
        long_axes = [a for a, n in enumerate(state.size) if n > 1]
        if len(long_axes) <= 1:
            across = long_axes[0] if long_axes else 0
            shape, up = "row", None
            slices = [
                Slice("", [[_cell(state, b, {across: i}) for i in _range(state, across, height)]])
            ]
        elif len(long_axes) == 2:
            across, up = long_axes
            shape = "plane"
            top = height if up == 2 else state.size[up]
            slices = [
                Slice(
                    "",
                    [
                        [_cell(state, b, {across: i, up: j}) for i in _range(state, across, height)]
                        for j in range(top, 0, -1)
                    ],
                )
            ]
        else:
            across, up, shape = 0, 1, "cube"
            slices = [
                Slice(
                    f"z={k}",
                    [
                        [_cell(state, b, {0: i, 1: j, 2: k}) for i in range(1, x + 1)]
                        for j in range(y, 0, -1)
                    ],
                )
                for k in range(1, height + 1)
            ]
        axis_note = f"{AXES[across]} across" + (f", {AXES[up]} up" if up is not None else "")
        views.append(
            BoardView(
                number=b,
                label=f"Board {b}" if state.boards > 1 else "Board",
                shape=shape,
                slices=slices,
                goals=_goal_sides(state, across, up),
                height_note=note,
                axis_note=axis_note,
            )
        )
    return views


def _range(state: FactoryState, axis: int, height: int) -> range:
    return range(1, (height if axis == 2 else state.size[axis]) + 1)


def _cell(state: FactoryState, b: int, coords: dict[int, int]) -> Cell:
    spot = (b, coords.get(0, 1), coords.get(1, 1), coords.get(2, 1))
    where = ",".join(map(str, spot[1:]))
    label = (f"board {b} " if state.boards > 1 else "") + f"space {where}"
    cell = Cell(spot, label)
    if spot in state.locked:
        cell.locked = True
        cell.label += ", locked"
    elif spot in state.pieces:
        color, row = state.pieces[spot]
        shape = state.shapes[row - 1] if row <= len(state.shapes) else "circle"
        cell.piece = (color, shape)
        cell.label += f", {color} {shape}"
    return cell


# --- the whole page --------------------------------------------------------------------------


@dataclass
class Marker:
    value: str  # the radio's value
    label: str
    icon: str = ""  # Font Awesome name, for the space markers
    piece: tuple[str, str] | None = None  # (colour, shape) for the shape markers
    coming: str = ""


@dataclass
class ReserveCell:
    control: Control
    marker: Marker


@dataclass
class ShapeRow:
    number: int
    shape: str
    name: Control
    power: Control
    condition: Control
    result: Control
    move: Control


@dataclass
class Layout:
    state: FactoryState
    readonly: bool
    name_errors: list[str]
    stalemate: Control
    checks: list[Control]
    can_add_check: bool
    players: Control
    shape_count: Control
    colors: Control
    cloaking: Control
    pieces_per_turn: Control
    boards: Control
    phases: Control
    board_type: Control
    dims: list[Control]
    board_errors: list[str]
    board_views: list[BoardView]
    space_markers: list[Marker]
    reserves: list[tuple[str, list[ReserveCell]]]
    shape_rows: list[ShapeRow]
    phase: Control
    order: Control
    movement: Control
    allow_pass: Control
    agree_draw: Control
    seconds: Control
    timeout: Control
    top_errors: list[str]
    hidden: dict[str, str]
    note: str = ""
    phase_locks: list[str] = field(default_factory=list)  # who a phase_lock icon would lock

    @property
    def marker_selected(self) -> bool:
        return bool(self.state.marker)


def build(
    state: FactoryState,
    errors: list[dict[str, str]] | None = None,
    readonly: bool = False,
    note: str = "",
) -> Layout:
    """Every control of the page for ``state``; ``errors`` (rule-document paths) are put
    next to the control they are about, the rest at the top."""
    placed = place_errors(state, errors or [])

    def err(key: str) -> list[str]:
        return placed.pop(key, [])

    limit = state.reserve_limit()
    x, y, z = state.size
    dims = []
    for axis in range(3):
        low = 2 if (axis == 2 and state.board_type == "stacks") else 1
        high = rules.dimension_limit(state.size, axis)
        dims.append(
            select(
                f"size_{AXES[axis]}",
                AXIS_LABELS[axis],
                [(n, str(n)) for n in range(low, high + 1)],
                state.size[axis],
                disabled=state.board_type == "hash",
                refresh=True,
                short=AXES[axis],
                errors=err(f"size_{AXES[axis]}"),
            )
        )
    if state.board_type == "hash":
        dims[0].coming = ""  # frozen, not coming: hash is always 3×3×1

    checks = []
    for i, check in enumerate(state.checks):
        checks.append(
            select(
                "check",
                f"Turn check {i + 1}",
                [(c.value, check_label(_turn_check(c))) for c in CHECK_CHOICES],
                check.value,
                id=f"id_check_{i}",
                errors=err(f"check-{i}"),
            )
        )

    space_markers = [Marker("lock", "Lock marker", icon="fa-lock")] + [
        Marker("", label, icon=icon, coming=COMING)
        for label, icon in (
            ("Exclusive marker", "fa-user-secret"),
            ("Cloak marker", "fa-eye-slash"),
            ("Sticky marker", "fa-magnet"),
            ("Dealt common marker", "fa-clone"),
        )
    ]

    reserves = []
    for color in state.color_names:
        cells = []
        for row, shape in enumerate(state.shapes, start=1):
            count = state.reserves.get(color, {}).get(row, 0)
            cells.append(
                ReserveCell(
                    select(
                        f"reserve-{color}-{row}",
                        f"{color} {shape}s in reserve",
                        [(n, str(n)) for n in range(0, limit + 1)],
                        count,
                        integer=True,
                        errors=err(f"reserve-{color}-{row}"),
                    ),
                    Marker(f"piece-{color}-{row}", f"{color} {shape} marker", piece=(color, shape)),
                )
            )
        reserves.append((color, cells))

    shape_rows = []
    for row, shape in enumerate(state.shapes, start=1):
        others = set(state.shapes) - {shape}
        full = all(state.reserves.get(c, {}).get(row, 0) >= limit for c in state.color_names)
        move = coming(
            f"move-{row}",
            f"{shape} moves",
            ["Moves adjacent", "Moves orth by stack", "Moves linear or knight"],
            selected=-1,
            blank=True,
        )
        if full:
            # The seed: a shape whose every reserve is at the maximum cannot move.
            move.coming = "Every reserve of this shape is at its maximum, so it cannot move."
        shape_rows.append(
            ShapeRow(
                number=row,
                shape=shape,
                name=select(
                    "shape",
                    f"Shape {row}",
                    [(s, s.capitalize()) for s in SHAPES if s not in others],
                    shape,
                    id=f"id_shape_{row}",
                    refresh=True,
                    errors=err(f"shape-{row - 1}"),
                ),
                power=coming(
                    f"power-{row}", f"{shape} power", ["No power", "Must capture", "Can capture"]
                ),
                # "No power" clears and disables the condition and result dropdowns.
                condition=coming(
                    f"power_condition-{row}",
                    f"{shape} power condition",
                    ["Cover", "Cover by rank"],
                    selected=-1,
                    blank=True,
                ),
                result=coming(
                    f"power_result-{row}",
                    f"{shape} power result",
                    ["Removes captive(s)", "Converts captive(s)", "Reincarnate Captive(s)"],
                    selected=-1,
                    blank=True,
                ),
                move=move,
            )
        )

    colors = select(
        "colors",
        "Colors",
        list(COLOR_LABELS.items()),
        state.colors,
        refresh=True,
        errors=err("colors"),
    )
    for option in colors.options:
        # "Partners share color" only makes sense for Partners.
        option.disabled = option.value == "partners-share" and state.players != "partners"

    layout = Layout(
        state=state,
        readonly=readonly,
        name_errors=err("name"),
        stalemate=select(
            "stalemate",
            "Stalemate rule",
            list(STALEMATE_LABELS.items()),
            state.stalemate,
            errors=err("stalemate"),
        ),
        checks=checks,
        can_add_check=len(state.checks) < MAX_CHECKS,
        players=select(
            "players",
            "Players",
            list(PLAYER_LABELS.items()),
            state.players,
            refresh=True,
            errors=err("players"),
        ),
        shape_count=select(
            "shape_count",
            "Number of shapes",
            [(n, f"{n} shape" + ("s" if n > 1 else "")) for n in range(1, len(SHAPES) + 1)],
            len(state.shapes),
            refresh=True,
            errors=err("shapes"),
        ),
        colors=colors,
        cloaking=coming(
            "cloaking", "Cloaking", ["No cloaking", "Cloaking hides", "Cloaking obscures"]
        ),
        pieces_per_turn=select(
            "pieces_per_turn",
            "Pieces per turn",
            [(1, "1 piece/turn"), (2, "2 pieces/turn")],
            state.pieces_per_turn,
            errors=err("pieces_per_turn"),
        ),
        boards=select(
            "boards",
            "Boards",
            [(n, f"{n} board" + ("s" if n > 1 else "")) for n in range(1, MAX_BOARDS + 1)],
            state.boards,
            refresh=True,
            errors=err("boards"),
        ),
        phases=coming(
            "phases", "Phases", [f"{n} phase" + ("s" if n > 1 else "") for n in range(1, 7)]
        ),
        board_type=select(
            "board_type",
            "Board",
            [(k, BOARD_LABELS[k]) for k in FLAT_BOARDS],
            state.board_type,
            refresh=True,
            errors=err("board_type"),
        ),
        dims=dims,
        board_errors=err("board"),
        board_views=draw_boards(state),
        space_markers=space_markers,
        reserves=reserves,
        shape_rows=shape_rows,
        phase=coming("phase", "Phase", ["Phase 1"]),
        order=coming("order", "Turn order", ["Sequential", "Simultaneous", "Single"]),
        movement=coming("movement", "Movement", ["Movement allowed", "Placement only"], selected=1),
        allow_pass=select(
            "allow_pass",
            "Pass",
            [("0", "No option to pass"), ("1", "Option to pass")],
            "1" if state.allow_pass else "0",
            errors=err("allow_pass"),
        ),
        agree_draw=select(
            "agree_draw",
            "Agree draw",
            [("0", "No option to agree draw"), ("1", "Option to agree draw")],
            "1" if state.agree_draw else "0",
            errors=err("agree_draw"),
        ),
        seconds=select(
            "seconds",
            "Seconds per turn",
            [("", "No time limit")] + [(s, f"{s} seconds/turn") for s in SECONDS],
            state.seconds,
            refresh=True,
            errors=err("seconds"),
        ),
        timeout=select(
            "timeout",
            "When the time runs out",
            list(TIMEOUT_LABELS.items()),
            state.timeout,
            # Without a timer nothing times out: the consequence is cleared and disabled.
            disabled=state.seconds is None,
            hide_when_saved=state.seconds is None,
            errors=err("timeout"),
        ),
        top_errors=[],
        hidden={
            "reserves_auto": encode_reserves(state.reserves) if state.reserves_auto else "",
            "locked": encode_locked(state),
            "pieces": encode_pieces(state),
        },
        note=note,
        phase_locks=_seat_names(state),
    )
    if readonly:
        for control in _all_controls(layout):
            control.disabled = True
    layout.top_errors = [m for messages in placed.values() for m in messages]
    return layout


def _seat_names(state: FactoryState) -> list[str]:
    seats, chaos, _teams = PLAYER_MODES[state.players]
    return ["Chaos" if i == chaos else f"Player {i + 1}" for i in range(seats)]


def _all_controls(layout: Layout) -> list[Control]:
    controls = [
        layout.stalemate,
        *layout.checks,
        layout.players,
        layout.shape_count,
        layout.colors,
        layout.cloaking,
        layout.pieces_per_turn,
        layout.boards,
        layout.phases,
        layout.board_type,
        *layout.dims,
        layout.phase,
        layout.order,
        layout.movement,
        layout.allow_pass,
        layout.agree_draw,
        layout.seconds,
        layout.timeout,
    ]
    for _color, cells in layout.reserves:
        controls += [cell.control for cell in cells]
    for row in layout.shape_rows:
        controls += [row.name, row.power, row.condition, row.result, row.move]
    return controls


def _turn_check(c: Check):
    return rules.TurnCheck(k=c.k, result=c.result, diagonal=c.diagonal)


# --- errors ----------------------------------------------------------------------------------

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
    "timeout": "timeout",
    "turn_checks": "check-0",
}


def error_key(state: FactoryState, path: str) -> tuple[str, str]:
    """(control key, message prefix) for a rule-document error path.

    ``board.size[0]`` -> the x select; ``reserves.black.circle`` -> that reserve select;
    ``turn_checks[1].k`` -> the second check; set-up pieces and locks -> the board, with
    the space named. Anything else -> "top".
    """
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


def place_errors(state: FactoryState, errors: list[dict[str, str]]) -> dict[str, list[str]]:
    placed: dict[str, list[str]] = {}
    for error in errors:
        key, prefix = error_key(state, error.get("path", ""))
        placed.setdefault(key, []).append(prefix + _sentence(error["message"]))
    return placed


def _sentence(message: str) -> str:
    return message[:1].upper() + message[1:]
