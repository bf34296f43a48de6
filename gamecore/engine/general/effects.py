"""Captures that follow from where a piece comes to rest (placed, or moved), rather than
from covering or jumping a piece (catalogue/READINGS.md, "Captures"):

- **surround-line** (reversi): each run of opponent pieces between the piece and another
  piece of its team, along a line of the board;
- **surround-orthogonal**: each opponent piece orthogonally next to the piece whose every
  orthogonal neighbour on the board holds a piece of the mover's team;
- **approach** (Fanorona), steps only: the run of opponent pieces straight ahead of the
  piece, just beyond where it stopped, in the direction it moved;
- **adjacent**: every opponent piece next to the piece (its own move type's neighbours
  for a moving piece, every neighbour for a stationary one).

``effect_captures`` reads the board as it would be after the move (``origin`` empty,
``target`` holding the mover), so move generation can tell captures from plain steps
without playing them.
"""

from .codes import LOCKED, enemy

ORTHOGONAL_SIDES = ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1))


def effect_captures(state, seat: int, shape: int, target: int, origin: int = -1) -> list[int]:
    g = state.game
    condition = g.rules[shape].condition
    board = state.board

    def at(space: int) -> int:
        if space == origin:
            return 0
        return board[space]

    def ours(code: int) -> bool:
        return code > 0 and not enemy(g, code, seat)

    def theirs(code: int) -> bool:
        return code > 0 and enemy(g, code, seat)

    out: list[int] = []
    if condition == "surround-line":
        for ray in g.lines_from[target]:
            run = []
            for space in ray:
                code = at(space)
                if theirs(code):
                    run.append(space)
                    continue
                if ours(code) and run:
                    out += run
                break
    elif condition == "surround-orthogonal":
        for side in g.sides[target]:
            if theirs(at(side)) and all(s == target or ours(at(s)) for s in g.sides[side]):
                out.append(side)
    elif condition == "approach" and origin >= 0:
        ray = g.approach_ray(origin, target)
        if ray:
            for space in ray:
                if not theirs(at(space)):
                    break
                out.append(space)
    elif condition == "adjacent":
        out = [n for n in g.neighbours[target] if theirs(at(n))]
    if out and g.paralyses[shape]:
        out = [s for s in out if not state.frozen >> s & 1]  # paralysed already
    return out


__all__ = ["LOCKED", "effect_captures"]
