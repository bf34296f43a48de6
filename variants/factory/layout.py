"""What the factory page shows for a state: every control with its options, which ones are
enabled, which are "coming", where each error goes, and the board as drawn.

The one place these rules live: the templates only print what this module decides, the
htmx partial re-renders it, and the saved page reuses it read-only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gamecore import rules
from gamecore.rules.summary import check_label
from gamecore.rules.vocabulary import (
    BOARD_LABELS,
    COLOR_LABELS,
    PLAYER_LABELS,
    SHAPES,
    STALEMATE_LABELS,
    TIMEOUT_LABELS,
)

from . import deck_layout, nested_layout, phase_layout, turn_time
from .controls import Control, coming, select
from .errors import error_key, place_errors
from .flat_board import AXES, BoardView, draw_boards
from .moving_layout import lock_flags_control, seat_control, seat_names
from .moving_state import encode as encode_moving
from .nested_layout import NestedLayout
from .pieces import (
    Marker,
    ReserveCell,
    ShapeRow,
    piece_owner_control,
    reserve_cells,
    reserve_note,
    shape_rows,
    space_markers,
)
from .preview import starting_view
from .state import (
    FAMILIES,
    FLAT_BOARDS,
    MAX_BOARDS,
    MAX_CHECKS,
    Check,
    FactoryState,
    encode_locked,
    encode_pieces,
    encode_reserves,
)

SECONDS = (5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 300, 600, 900, 1800, 3600, 86400)
CHECK_CHOICES = [
    Check(k, r, d) for k in range(2, 7) for r in ("wins", "loses") for d in (True, False)
]
AXIS_LABELS = ("Width (x)", "Depth (y)", "Height (z)")


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
    marker_seat: Control | None = None  # whom the exclusive and lock markers mark for
    lock_flags: Control | None = None  # entry and exit / entry only / exit only, for a seat
    piece_owner: Control | None = None  # a piece marker's set-up piece: its seat's or nobody's
    cloak_reach: Control | None = None  # stacks: the cloak marker's whole stack or one space
    reserve_note: str = ""  # where captures need more than the selects' maximum
    turn_ms: turn_time.MsField | None = None  # seed 001's turn time, under the seconds
    fold: Control | None = None  # the shown phase's fold
    overachievers: Control | None = None
    phase_lock_states: list = field(default_factory=list)  # phase_layout.PhaseLock per seat
    phase_lock_errors: list[str] = field(default_factory=list)
    phase_space_errors: list[str] = field(default_factory=list)
    phase_note: str = ""
    family: Control | None = None  # flat board / nested boards
    nested: NestedLayout | None = None  # the nested section, when the family is nested
    deck: deck_layout.DeckView | None = None  # the deck control (flat boards)

    @property
    def phase_locked_any(self) -> bool:
        return any(lock.locked for lock in self.phase_lock_states)

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

    dims = []
    for axis in range(3):
        low = 2 if (axis == 2 and state.board_type == "stacks") else 1
        high = rules.side_limit(state.board_type, state.size, axis)
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
                # A line longer than the board is warned as it is chosen (the htmx refresh).
                refresh=True,
                errors=err(f"check-{i}"),
            )
        )

    markers = space_markers()
    reserves = reserve_cells(state, err)
    rows = shape_rows(state, err)

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
    colors.help = "Who owns which pieces: each player their own colour, or everyone shares."
    if state.players != "partners":
        colors.note = "Choose Partners players to let partners share a colour."

    layout = Layout(
        state=state,
        readonly=readonly,
        name_errors=err("name"),
        stalemate=select(
            "stalemate",
            "Stalemate rule",
            list(STALEMATE_LABELS.items()),
            state.stalemate,
            help="What happens when nobody can move (the board is full).",
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
            help="How many pieces a player places before the next player's turn.",
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
        space_markers=markers,
        reserves=reserves,
        shape_rows=rows,
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
            [("", "No time limit")]
            + [(s, f"{s} seconds/turn") for s in SECONDS]
            + [(turn_time.MS, turn_time.OPTION)],
            turn_time.chosen(state.seconds, state.turn_ms),
            refresh=True,
            errors=err("seconds"),
        ),
        timeout=select(
            "timeout",
            "When the time runs out",
            list(TIMEOUT_LABELS.items()),
            state.timeout,
            # Without a timer nothing times out: the consequence is cleared and disabled.
            disabled=state.seconds is None and state.turn_ms is None,
            hide_when_saved=state.seconds is None and state.turn_ms is None,
            reason="Set Seconds per turn to a time limit to choose this."
            if state.seconds is None and state.turn_ms is None
            else "",
            errors=err("timeout"),
        ),
        top_errors=[],
        hidden={
            "reserves_auto": encode_reserves(state.reserves) if state.reserves_auto else "",
            "locked": encode_locked(state),
            "pieces": encode_pieces(state),
            **encode_moving(state.moving),
        },
        note=note,
        phase_locks=seat_names(state),
    )
    layout.marker_seat = seat_control(state)
    layout.lock_flags = lock_flags_control(state)
    layout.piece_owner = piece_owner_control(state)
    layout.reserve_note = reserve_note(state)
    layout.turn_ms = turn_time.ms_field("turn_ms", state.seconds, state.turn_ms, err("turn_ms"))
    if state.family != "nested":
        check_choices = [(c.value, check_label(_turn_check(c))) for c in CHECK_CHOICES]
        phase_layout.apply(layout, state, err, check_choices)
        deck_layout.apply(layout, state, err)
    layout.family = select(
        "family",
        "Board family",
        list(FAMILIES.items()),
        state.family,
        refresh=True,
        errors=err("family"),
    )
    if state.family == "nested":
        layout.nested = nested_layout.build(state.nested, err)
        layout.nested.preview = starting_view(state.nested)
        layout.nested.random_start = bool(state.nested.random_obstacles or state.nested.scouts)
    if readonly:
        for control in _all_controls(layout):
            control.disabled = True
    layout.top_errors = [m for messages in placed.values() for m in messages]
    return layout


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
    if layout.family:
        controls.append(layout.family)
    if layout.marker_seat:
        controls.append(layout.marker_seat)
    if layout.lock_flags:
        controls.append(layout.lock_flags)
    if layout.piece_owner:
        controls.append(layout.piece_owner)
    if layout.cloak_reach:
        controls.append(layout.cloak_reach)
    controls += phase_layout.controls(layout)
    if layout.nested:
        controls += layout.nested.controls()
    for _color, cells in layout.reserves:
        controls += [cell.control for cell in cells]
    for row in layout.shape_rows:
        controls += [row.name, row.power, row.condition, row.result, row.move]
    return controls


def _turn_check(c: Check):
    return rules.TurnCheck(k=c.k, result=c.result, diagonal=c.diagonal)


__all__ = ["build", "draw_boards", "error_key", "Layout"]
