"""The pieces part of the factory: the marker palette, the reserve selects beside their
shape markers, and one row of dropdowns per shape."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from variants.rules.vocabulary import SHAPES

from .controls import COMING, Control, coming, select
from .state import FactoryState

Errors = Callable[[str], list[str]]  # control key -> its error messages (taken once)


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


def space_markers() -> list[Marker]:
    space_markers = [Marker("lock", "Lock marker", icon="fa-lock")] + [
        Marker("", label, icon=icon, coming=COMING)
        for label, icon in (
            ("Exclusive marker", "fa-user-secret"),
            ("Cloak marker", "fa-eye-slash"),
            ("Sticky marker", "fa-magnet"),
            ("Dealt common marker", "fa-clone"),
        )
    ]
    return space_markers


def reserve_cells(state: FactoryState, err: Errors) -> list[tuple[str, list[ReserveCell]]]:
    limit = state.reserve_limit()
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
    return reserves


def shape_rows(state: FactoryState, err: Errors) -> list[ShapeRow]:
    limit = state.reserve_limit()
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
    return shape_rows
