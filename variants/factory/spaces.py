"""Clicking a board space with a marker selected: the seed's toggle rule, and on stacks
the rule that things fall (what stands in a stack is kept bottom up, without gaps)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamecore.rules.vocabulary import COLORS, SHAPES
from variants.bounded import bounded_int

if TYPE_CHECKING:
    from .state import FactoryState

Spot = tuple[int, int, int, int]  # board, x, y, z


def marker_piece(marker: str) -> tuple[str, int] | None:
    """ "piece-black-2" -> ("black", 2)."""
    parts = marker.split("-")
    if len(parts) == 3 and parts[0] == "piece" and parts[1] in COLORS:
        row = bounded_int(parts[2], 1, len(SHAPES))
        return (parts[1], row) if row else None
    return None


def toggle_space(state: FactoryState, spot: Spot, marker: str) -> None:
    """The seed's marker rule: a space with the selected property loses it, a space without
    gains it (replacing whatever else was there: a space is locked or holds one piece)."""
    piece = marker_piece(marker)
    if marker != "lock" and piece is None:
        return
    if state.board_type == "stacks":
        _toggle_stack(state, spot, marker, piece)
        return
    has = spot in state.locked if marker == "lock" else state.pieces.get(spot) == piece
    state.locked.discard(spot)
    state.pieces.pop(spot, None)
    if not has:
        if marker == "lock":
            state.locked.add(spot)
        else:
            state.pieces[spot] = piece


def _toggle_stack(state: FactoryState, spot: Spot, marker: str, piece) -> None:
    """On stacks things fall: a click anywhere above a stack adds to its top, and taking
    something out of a stack lets the rest of the stack drop down by one."""
    b, x, y, z = spot
    items = column(state, b, x, y)
    item = "lock" if marker == "lock" else piece
    if z <= len(items):
        if items[z - 1] == item:
            del items[z - 1]
        else:
            items[z - 1] = item
    elif len(items) < state.size[2]:
        items.append(item)
    set_column(state, b, x, y, items)


def column(state: FactoryState, b: int, x: int, y: int) -> list:
    """What stands in stack (b, x, y), bottom up, gaps closed."""
    items = []
    for z in range(1, state.size[2] + 1):
        spot = (b, x, y, z)
        if spot in state.locked:
            items.append("lock")
        elif spot in state.pieces:
            items.append(state.pieces[spot])
    return items


def set_column(state: FactoryState, b: int, x: int, y: int, items: list) -> None:
    for z in range(1, state.size[2] + 1):
        state.locked.discard((b, x, y, z))
        state.pieces.pop((b, x, y, z), None)
    for z, item in enumerate(items[: state.size[2]], start=1):
        if item == "lock":
            state.locked.add((b, x, y, z))
        else:
            state.pieces[(b, x, y, z)] = item
