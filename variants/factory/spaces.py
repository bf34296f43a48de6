"""Clicking a board space with a marker selected: the seed's toggle rule, and on stacks
the rule that things fall (what stands in a stack is kept bottom up, without gaps)."""

from __future__ import annotations

from gamecore.rules.vocabulary import COLORS, MAX_DIMENSION, MAX_STACK_HEIGHT, SHAPES
from variants.bounded import bounded_int

from .checks import MAX_BOARDS, FactoryState, Spot
from .deck_state import DEALT, marker_seat

NOBODY = "nobody"  # a piece item's third part: the set-up piece belongs to nobody


def marker_piece(marker: str) -> tuple[str, int] | None:
    """ "piece-black-2" -> ("black", 2)."""
    parts = marker.split("-")
    if len(parts) == 3 and parts[0] == "piece" and parts[1] in COLORS:
        row = bounded_int(parts[2], 1, len(SHAPES))
        return (parts[1], row) if row else None
    return None


def toggle_space(state: FactoryState, spot: Spot, marker: str) -> None:
    """The seed's marker rule: a space with the selected property loses it, a space without
    gains it (replacing whatever else was there: a space is locked, holds one piece or is
    dealt)."""
    item = _item(state, marker)
    if item is None:
        return
    if state.board_type == "stacks":
        _toggle_stack(state, spot, item)
        return
    has = _at(state, spot) == item
    state.locked.discard(spot)
    state.pieces.pop(spot, None)
    state.nobody.discard(spot)
    state.dealt.pop(spot, None)
    if not has:
        _put(state, spot, item)


def _item(state: FactoryState, marker: str):
    """What a marker puts on a space: "lock", (colour, row), (colour, row, NOBODY) while
    the owner control says nobody, or ("dealt", seat)."""
    if marker == "lock":
        return "lock"
    is_dealt, seat = marker_seat(marker)
    if is_dealt:
        return (DEALT, seat)
    piece = marker_piece(marker)
    if piece and state.piece_owner == NOBODY:
        return (*piece, NOBODY)
    return piece


def _at(state: FactoryState, spot: Spot):
    if spot in state.locked:
        return "lock"
    if spot in state.dealt:
        return (DEALT, state.dealt[spot])
    piece = state.pieces.get(spot)
    return (*piece, NOBODY) if piece and spot in state.nobody else piece


def _put(state: FactoryState, spot: Spot, item) -> None:
    if item == "lock":
        state.locked.add(spot)
    elif item[0] == DEALT:
        state.dealt[spot] = item[1]
    else:
        state.pieces[spot] = item[:2]
        if item[2:] == (NOBODY,):
            state.nobody.add(spot)


def _toggle_stack(state: FactoryState, spot: Spot, item) -> None:
    """On stacks things fall: a click anywhere above a stack adds to its top, and taking
    something out of a stack lets the rest of the stack drop down by one."""
    b, x, y, z = spot
    items = column(state, b, x, y)
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
        item = _at(state, (b, x, y, z))
        if item is not None:
            items.append(item)
    return items


def set_column(state: FactoryState, b: int, x: int, y: int, items: list) -> None:
    for z in range(1, state.size[2] + 1):
        state.locked.discard((b, x, y, z))
        state.pieces.pop((b, x, y, z), None)
        state.nobody.discard((b, x, y, z))
        state.dealt.pop((b, x, y, z), None)
    for z, item in enumerate(items[: state.size[2]], start=1):
        _put(state, (b, x, y, z), item)


def parse_spot(text: str) -> Spot | None:
    """'b,x,y,z' -> (b, x, y, z) within the largest board the seed allows, or None."""
    parts = text.split(",")
    if len(parts) != 4:
        return None
    b, x, y = (bounded_int(v, 1, MAX_DIMENSION) for v in parts[:3])
    z = bounded_int(parts[3], 1, MAX_STACK_HEIGHT)  # a stack's layer may reach 26
    if None in (b, x, y, z) or b > MAX_BOARDS:
        return None
    return (b, x, y, z)
