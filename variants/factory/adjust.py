"""The factory's buttons (``apply_action``) and ``adjust``, which restores the seed's
rules between controls (hash is 3×3×1, stacks need a height, pieces fall, ...)."""

from __future__ import annotations

from gamecore import rules
from gamecore.rules.vocabulary import (
    MAX_DIMENSION,
    MAX_STACK_HEIGHT,
    PLAYER_LABELS,
    SHAPES,
)
from variants.bounded import bounded_int

from . import deck_state, moving_state, nested_state, phase_state
from .document import derived_reserves
from .form import MAX_BOARDS, MAX_CHECKS, Check, FactoryState
from .spaces import column, marker_piece, parse_spot, set_column, toggle_space

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
        spot = parse_spot(toggle)
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
    state.nobody = {s for s in state.nobody if s in state.pieces}
    deck_state.adjust(state)
    if state.board_type == "stacks":
        filled = state.locked | set(state.pieces) | set(state.dealt)
        for b, x, y in {(b, x, y) for b, x, y, _ in filled}:
            set_column(state, b, x, y, column(state, b, x, y))
    if marker_piece(state.marker) and state.marker not in piece_markers(state):
        state.marker = ""

    if state.reserves_auto:
        state.reserves = derived_reserves(state)
    else:
        state.reserves = _completed_reserves(state)
    moving_state.adjust(state, state.seats)
    phase_state.adjust(state)
    if state.seconds is None and state.turn_ms is None:
        state.timeout = "loss"  # no timer, nothing times out (keeps fingerprints equal)
    return state


def adjusted_size(board_type: str, size: tuple) -> tuple[int, int, int]:
    """Hash is frozen at 3×3×1; stacks need z ≥ 2; every side within its limit."""
    if board_type == "hash":
        return (3, 3, 1)
    x, y, z = (max(1, v or 1) for v in size)
    if board_type == "stacks":
        z = max(z, 2)
    size = [min(v, MAX_DIMENSION) for v in (x, y)] + [min(z, MAX_STACK_HEIGHT)]
    # Shrink the last sides first: x (across) is kept longest, and stacks keep their height.
    for axis in (1, 0, 2) if board_type == "stacks" else (2, 1, 0):
        size[axis] = max(1, min(size[axis], rules.side_limit(board_type, tuple(size), axis)))
    return tuple(size)


def _distinct_shapes(shapes: list[str]) -> list[str]:
    out: list[str] = []
    for shape in shapes[:6] or ["circle"]:
        out.append(shape if shape not in out else next(s for s in SHAPES if s not in out))
    return out


def _completed_reserves(state: FactoryState) -> dict[str, dict[int, int]]:
    """The creator's reserves, with the seed's default for added selects: an added colour
    copies the highest-numbered existing colour, an added shape row the highest existing
    row; every count within 0..what the rules accept."""
    limit = state.capture_limit()  # past the selects' maximum only where a shape captures
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


def piece_markers(state: FactoryState) -> list[str]:
    return [f"piece-{c}-{r}" for c in state.color_names for r in range(1, len(state.shapes) + 1)]
