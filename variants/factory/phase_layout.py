"""The factory's phase controls (phases, the phase selector, order, movement, pass, fold,
the phase_lock icons), the cloaking dropdown, "Overachiever(s) disqualified", and the
endings offered by the stalemate and turn-check dropdowns, in words a person reads.

After phase 1 only the cloak and lock markers change the board and the reserve selects
are read-only (the seed): their values still travel with the form (``Control.keep``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gamecore.rules.vocabulary import CLOAKING_LABELS, FOLD_LABELS, MAX_PHASES, ORDER_LABELS

from .controls import Control, select
from .moving_layout import seat_names
from .phase_state import CLOAK_REACH_LABELS, check_extras, encode, stalemate_choices
from .state import FactoryState

Errors = Callable[[str], list[str]]


@dataclass
class PhaseLock:
    seat: int  # 1-based
    name: str
    locked: bool


def apply(layout, state: FactoryState, err: Errors, check_choices: list) -> None:
    """Fill ``layout``'s phase, cloaking and ending controls for ``state``
    (``check_choices``: the "First k-same-color-in-a-row" options of a turn check)."""
    n = len(state.phases)
    shown = state.phase_shown
    p = state.phases[shown]
    where = f"phases-{shown}"
    layout.cloaking = select(
        "cloaking",
        "Cloaking",
        list(CLOAKING_LABELS.items()),
        state.cloaking,
        errors=err("cloaking"),
    )
    if state.board_type == "stacks":
        layout.cloak_reach = select(
            "cloak_reach",
            "On a stack the cloak marker cloaks",
            list(CLOAK_REACH_LABELS.items()),
            state.cloak_reach,
            id="id_cloak_reach",
            help="Only the space clicked: cloak some of a stack's spaces in this phase (cards "
            "shown one round at a time); the others stay in view.",
        )
    layout.phases = select(
        "phase_count",
        "Phases",
        [(i, f"{i} phase" + ("s" if i > 1 else "")) for i in range(1, MAX_PHASES + 1)],
        n,
        id="id_phases",
        refresh=True,
        errors=err("phases"),
    )
    layout.phase = select(
        "phase",
        "Phase",
        [(i, f"Phase {i + 1}") for i in range(n)],
        shown,
        refresh=True,
        # One phase: nothing to choose (and nothing to show on a saved page).
        disabled=n == 1,
    )
    layout.order = select(
        "order", "Turn order", list(ORDER_LABELS.items()), p.order, errors=err(f"{where}-order")
    )
    layout.movement = select(
        "movement",
        "Movement",
        [("0", "Movement allowed"), ("1", "Placement only")],
        "1" if p.placement_only else "0",
        errors=err(f"{where}-placement_only"),
    )
    layout.allow_pass = select(
        "allow_pass",
        "Pass",
        [("0", "No option to pass"), ("1", "Option to pass")],
        "1" if p.allow_pass else "0",
        errors=layout.allow_pass.errors + err(f"{where}-allow_pass"),
    )
    last = shown == n - 1
    layout.fold = select(
        "fold",
        "Fold",
        list(FOLD_LABELS.items()),
        p.fold,
        disabled=last,
        hide_when_saved=last,
        errors=err(f"{where}-fold"),
    )
    if last and n > 1:
        layout.fold.reason = (
            "A fold applies at the end of a phase: not after the last one. "
            "Choose an earlier phase to set its fold."
        )
    layout.phase_lock_states = [
        PhaseLock(i + 1, name, i + 1 in p.locked_seats) for i, name in enumerate(seat_names(state))
    ]
    layout.phase_lock_errors = err(f"{where}-locked_seats")
    layout.phase_space_errors = err(f"{where}-spaces")
    layout.overachievers = select(
        "overachievers",
        "Overachievers",
        [("0", "No overachiever rule"), ("1", "Overachiever(s) disqualified")],
        "1" if state.overachievers else "0",
        disabled=state.players != "4",
        hide_when_saved=not state.overachievers,
        errors=err("overachievers"),
    )
    layout.overachievers.help = "The first winners are disqualified and play goes on without them."
    if state.players != "4":
        layout.overachievers.reason = "Only with 4 players: choose 4 Players to set this."
    layout.hidden["phases"] = encode(state)
    layout.hidden["phase_shown"] = str(shown)
    _endings(layout, state, check_choices)
    if shown > 0:
        _after_phase_one(layout)


def _endings(layout, state: FactoryState, check_choices: list) -> None:
    """The stalemate dropdown offers the new stalemate endings; each turn-check dropdown
    the new turn endings and further stalemate endings."""
    choices = stalemate_choices(state.board_type, keep=state.stalemate)
    layout.stalemate.options = select("stalemate", "", choices, state.stalemate).options
    extras = check_extras(state.board_type, keep={check.value for check in state.checks})
    for control, check in zip(layout.checks, state.checks, strict=True):
        control.options = select("check", "", check_choices + extras, check.value).options


def _after_phase_one(layout) -> None:
    """Reserve selects are editable only in phase 1; so are the markers but cloak and lock."""
    for _color, cells in layout.reserves:
        for cell in cells:
            cell.control.disabled = True
            cell.control.keep = True
            cell.marker.coming = "Only in phase 1: choose Phase 1 to change it."
    for marker in layout.space_markers:
        if marker.value in ("exclusive", "sticky"):
            marker.coming = "Only in phase 1: choose Phase 1 to place it."
    layout.phase_note = (
        "This phase's rules, locks and cloaks (the lock marker locks a space to everyone "
        "for this phase); the rest is set in phase 1."
    )


def controls(layout) -> list[Control]:
    return [c for c in (layout.fold, layout.overachievers) if c is not None]
