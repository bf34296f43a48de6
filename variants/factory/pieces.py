"""The pieces part of the factory: the marker palette, the reserve selects beside their
shape markers, and one row of dropdowns per shape."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gamecore.rules.vocabulary import SHAPES

from .controls import Control, select
from .moving_layout import move_control, power_controls
from .state import FactoryState

Errors = Callable[[str], list[str]]  # control key -> its error messages (taken once)


@dataclass
class Marker:
    value: str  # the radio's value
    label: str
    icon: str = ""  # Font Awesome name, for the space markers
    piece: tuple[str, str] | None = None  # (colour, shape) for the shape markers
    coming: str = ""
    color: str = ""  # a seat's dealt marker: the colour its dealt pieces take


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


def space_markers() -> list[Marker]:
    return [
        Marker("lock", "Lock marker", icon="fa-lock"),
        Marker("exclusive", "Exclusive marker", icon="fa-user-secret"),
        Marker("sticky", "Sticky marker", icon="fa-magnet"),
        Marker("cloak", "Cloak marker", icon="fa-eye-slash"),
        # The dealt markers (release 1.7) follow: deck_layout.py adds them.
    ]


def piece_owner_control(state: FactoryState) -> Control:
    """Whom a piece marker's set-up piece belongs to: its colour's player, or nobody
    (scenery that moves for no one and counts for no team, but can be taken: HideSeek's
    ring, issue 35)."""
    return select(
        "piece_owner",
        "Set-up pieces placed belong to",
        [("seat", "Their colour's player"), ("nobody", "Nobody (scenery)")],
        state.piece_owner,
        id="id_piece_owner",
        help="Nobody: the piece is scenery. It never moves and counts for no one, but a "
        "capturing piece can take it. Its colour is only how it looks.",
    )


def reserve_cells(state: FactoryState, err: Errors) -> list[tuple[str, list[ReserveCell]]]:
    limit, most = state.reserve_limit(), state.capture_limit()
    # Past the maximum (the board's share of a colour) only where a shape captures: marked.
    choices = [(n, str(n)) for n in range(0, limit + 1)]
    choices += [(n, f"{n} ⚔") for n in range(limit + 1, most + 1)]
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
                        choices,
                        count,
                        integer=True,
                        max=str(limit),
                        short="in reserve",  # visible; the full label is read aloud
                        # (At the maximum the shape's move is cleared: factory.js at once,
                        # the server on the next render; no round trip that could swap out
                        # a second select changed meanwhile.)
                        errors=err(f"reserve-{color}-{row}"),
                    ),
                    Marker(f"piece-{color}-{row}", f"{color} {shape} marker", piece=(color, shape)),
                )
            )
        reserves.append((color, cells))
    return reserves


def reserve_note(state: FactoryState) -> str:
    """Where captures need more than the selects' maximum, the page says so."""
    limit, most = state.reserve_limit(), state.capture_limit()
    if most <= limit:
        return ""
    spaces, colours = state.spaces, len(state.color_names)
    return (
        f"The most a colour starts with is {limit} ({spaces} spaces ÷ {colours} colours). "
        f"A shape captures, so pieces leave the board: the rules accept up to {most}, "
        "marked ⚔ (captures)."
    )


def shape_rows(state: FactoryState, err: Errors) -> list[ShapeRow]:
    rows = []
    for row, shape in enumerate(state.shapes, start=1):
        others = set(state.shapes) - {shape}
        power, condition, result = power_controls(state, row, shape, err)
        rows.append(
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
                power=power,
                condition=condition,
                result=result,
                move=move_control(state, row, shape, err),
            )
        )
    return rows
