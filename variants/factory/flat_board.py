"""The flat board as the factory draws it: rows, planes and side-by-side z-slices of
spaces, with each player's goal on its side."""

from __future__ import annotations

from dataclasses import dataclass

from gamecore import rules
from gamecore.rules.vocabulary import PLAYER_MODES

from . import deck_state
from .state import FactoryState

AXES = "xyz"


@dataclass
class Cell:
    spot: tuple[int, int, int, int]
    label: str  # aria-label: "space 3,1,1" (+ what is on it)
    locked: bool = False
    piece: tuple[str, str] | None = None  # (colour, shape name)
    nobody: bool = False  # the set-up piece belongs to nobody (scenery)
    sticky: bool = False
    exclusive: str = ""  # the seats it is exclusive to, "1,3"
    seat_locked: str = ""  # the seats it is locked to, "2"
    phase_locked: bool = False  # locked to everyone in the shown phase
    cloaked: bool = False  # cloaked in the shown phase
    dealt: str = ""  # a dealt space: "common" or the seat ("2")
    dealt_color: str = ""  # the colour a seat's dealt piece takes

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

    @property
    def flags(self) -> list[str]:
        """The kinds of marked space on this board, for the legend under it."""
        cells = [c for sl in self.slices for row in sl.rows for c in row]
        kinds = {
            "exclusive": any(c.exclusive for c in cells),
            "lock": any(c.seat_locked for c in cells),
            "phase-lock": any(c.phase_locked for c in cells),
            "cloak": any(c.cloaked for c in cells),
            "sticky": any(c.sticky for c in cells),
            "nobody": any(c.nobody for c in cells),
        }
        return [k for k, on in kinds.items() if on]


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
    if any(
        n < 1 or n > rules.side_limit(state.board_type, state.size, a)
        for a, n in enumerate(state.size)
    ):
        return []  # a rejected save's oversized board: its errors say why, nothing to draw
    views = []
    for b in range(1, state.boards + 1):
        height = z
        note = ""
        if state.board_type == "stacks":
            # Only two levels above the tallest stack are drawn; the full height is noted.
            filled = state.locked | set(state.pieces) | set(state.dealt)
            tallest = max((s[3] for s in filled if s[0] == b), default=0)
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


_LOCK_SUFFIX = {"ex": "", "e": "in", "x": "out"}
_LOCK_WORDS = {"ex": "locked to", "e": "entry locked to", "x": "exit locked to"}


def _cell(state: FactoryState, b: int, coords: dict[int, int]) -> Cell:
    spot = (b, coords.get(0, 1), coords.get(1, 1), coords.get(2, 1))
    where = ",".join(map(str, spot[1:]))
    label = (f"board {b} " if state.boards > 1 else "") + f"space {where}"
    cell = Cell(spot, label)
    m = state.moving
    if spot in m.sticky:
        cell.sticky = True
        cell.label += ", sticky"
    if spot in m.exclusive:
        cell.exclusive = ",".join(map(str, sorted(m.exclusive[spot])))
        cell.label += f", exclusive to seat {cell.exclusive}"
    # A seat's lock: "2" both ways, "2in" entry only, "2out" exit only (the legend says so).
    locked_to = sorted(
        (s, f) for (at, f), seats in m.seat_locks.items() if at == spot for s in seats
    )
    if locked_to:
        cell.seat_locked = ",".join(f"{s}{_LOCK_SUFFIX[f]}" for s, f in locked_to)
        for flags, words in _LOCK_WORDS.items():  # one phrase per kind (the page's size)
            seats = ",".join(str(s) for s, f in locked_to if f == flags)
            cell.label += f", {words} seat {seats}" if seats else ""
    phase = state.phases[state.phase_shown]
    if spot in phase.locked:
        cell.phase_locked = True
        cell.label += f", locked in phase {state.phase_shown + 1}"
    if spot in phase.cloaked:
        cell.cloaked = True
        cell.label += f", cloaked in phase {state.phase_shown + 1}"
    if spot in state.locked:
        cell.locked = True
        cell.label += ", locked"
    elif spot in state.dealt:
        seat = state.dealt[spot]
        cell.dealt = str(seat) if seat else "common"
        cell.dealt_color = deck_state.seat_color(state, seat)
        cell.label += f", dealt to seat {seat}" if seat else ", dealt (common)"
    elif spot in state.pieces:
        color, row = state.pieces[spot]
        shape = state.shapes[row - 1] if row <= len(state.shapes) else "circle"
        cell.piece = (color, shape)
        cell.nobody = spot in state.nobody
        cell.label += f", {color} {shape}" + (" (nobody's)" if cell.nobody else "")
    return cell
