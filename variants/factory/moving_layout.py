"""The per-shape dropdowns for pieces that move (move, power, condition, result) and the
seat select of the exclusive and lock markers: which options each offers, which are
disabled and why (the seed's rules between them, and what validation would refuse).
"""

from __future__ import annotations

from collections.abc import Callable

from gamecore.rules.vocabulary import (
    BY_STACK,
    CONDITION_LABELS,
    COVERS,
    MOVEMENT_LABELS,
    PLAYER_MODES,
    RESULT_LABELS,
)

from .controls import Control, Option, select
from .moving_state import COVER_RESULTS, THIS_PHASE, full_rows
from .state import FactoryState

Errors = Callable[[str], list[str]]

# The seed's move dropdown: the base list, then the extend list (its order); "Stationary"
# (the default: a piece that is only placed) first.
BASE_MOVES = ("adjacent", "orthogonal-by-stack", "linear-or-knight")
EXTEND_MOVES = (
    "forward-orthogonal",
    "forward-diagonal",
    "adjacent-no-back-side",
    "pawn-forward-center",
    "orthogonal-no-back",
    "adjacent-no-back",
    "knight",
    "adjacent-diagonal",
    "adjacent-orthogonal",
    "knight-3d",
    "diagonal",
    "orthogonal",
    "linear",
    "orthogonal-by-full-stack",
    "adjacent-or-knight",  # 3P-9X-HideSeek's circles (the seed names it in the game)
)
MOVE_ORDER = ("stationary", *BASE_MOVES, *EXTEND_MOVES)
# The seed's power dropdown order.
POWER_ORDER = (
    ("none", "No power"),
    ("must-capture", "Must capture"),
    ("can-capture", "Can capture"),
)
# What stacks boards capture by so far (gamecore/rules/moving.py).
STACK_CONDITIONS = ("cover", "cover-by-rank")

assert set(MOVE_ORDER) == set(MOVEMENT_LABELS), "every Movement the vocabulary has"


def move_control(state: FactoryState, row: int, shape: str, err: Errors) -> Control:
    r = state.moving.row(row)
    stacks = state.board_type == "stacks"
    control = select(
        f"move-{row}",
        "Move",
        [(m, MOVEMENT_LABELS[m]) for m in MOVE_ORDER],
        r.move,
        errors=err(f"move-{row}"),
    )
    for option in control.options:
        if option.value in BY_STACK and not stacks:
            option.disabled = True
            option.label += " (stacks only)"
    if row in full_rows(state):
        # The seed: a shape whose every reserve is at its maximum is cleared and disabled.
        control.options = [Option("", "", True)] + [
            Option(o.value, o.label) for o in control.options
        ]
        control.disabled = True
        control.hide_when_saved = True
        control.reason = (
            "Every reserve of this shape is at its maximum, so it cannot move. "
            "Lower a reserve below its maximum to let this shape move."
        )
    return control


def power_controls(
    state: FactoryState, row: int, shape: str, err: Errors
) -> tuple[Control, Control, Control]:
    r = state.moving.row(row)
    stacks = state.board_type == "stacks"
    power = select(
        f"power-{row}",
        "Power",
        POWER_ORDER,
        r.power,
        errors=err(f"power-{row}"),
        refresh=True,
    )
    off = r.power == "none"
    condition = select(
        f"power_condition-{row}",
        "Power condition",
        ([("", "")] if off else []) + list(CONDITION_LABELS.items()),
        "" if off else r.condition,
        errors=err(f"power_condition-{row}"),
        refresh=True,
        disabled=off,
        hide_when_saved=off,
    )
    result = select(
        f"power_result-{row}",
        "Power result",
        ([("", "")] if off else []) + list(RESULT_LABELS.items()),
        "" if off else r.result,
        errors=err(f"power_result-{row}"),
        disabled=off,
        hide_when_saved=off,
    )
    if off:
        condition.reason = result.reason = (
            "No power: nothing to capture with. Choose a Power to set this."
        )
        return power, condition, result
    if stacks:
        for option in condition.options:
            option.disabled = option.value not in STACK_CONDITIONS
        for option in condition.options:
            if option.disabled:
                option.label += " (not on stacks)"
    if r.condition in COVERS and not stacks:
        for option in result.options:
            option.disabled = option.value not in COVER_RESULTS
        result.note = "A cover on this board removes or reincarnates its captive."
    return power, condition, result


def seat_control(state: FactoryState) -> Control:
    """Whom the exclusive and lock markers mark a space for."""
    names = seat_names(state)
    return select(
        "marker_seat",
        "Seat of the exclusive and lock markers",
        [(0, "Everyone"), (THIS_PHASE, "Everyone, this phase only")]
        + [(i + 1, name) for i, name in enumerate(names)],
        state.moving.marker_seat,
        id="id_marker_seat",
        help="Everyone: a locked space, empty all game. This phase only: no piece enters "
        "or leaves it in this phase (pieces on it stay). A seat: locked to that seat, or "
        "exclusive to it.",
    )


def seat_names(state: FactoryState) -> list[str]:
    seats, chaos, _teams = PLAYER_MODES[state.players]
    return ["Chaos" if i == chaos else f"Player {i + 1}" for i in range(seats)]


LOCK_FLAG_LABELS = {"ex": "Entry and exit", "e": "Entry only", "x": "Exit only"}


def lock_flags_control(state: FactoryState) -> Control:
    """What the lock marker locks for the chosen seat: the seed's spaces "locked for
    entry and/or exit to specific players" (the rule document's SpaceLock flags)."""
    return select(
        "lock_flags",
        "The lock marker locks, for a seat",
        list(LOCK_FLAG_LABELS.items()),
        state.moving.lock_flags,
        id="id_lock_flags",
        help="Entry only: that seat may not move or place a piece there. Exit only: it may "
        "not move a piece away. A locked space for Everyone is locked both ways.",
    )
