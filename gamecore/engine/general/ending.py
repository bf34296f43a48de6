"""Stalemate rules of the general family: the flat family's (draw, all win, all lose,
most/least in a row, most pieces: ``engine/scoring.py``, read from the same piece codes)
and "Most area wins" (from Go).

Area, as the seed defines it: the spaces (locked blanks included) a team occupies, or
could move one of its pieces through by any number of orthogonal moves, so spaces
occupied or walled in by opponents do not count. Here a team's pieces flood orthogonally
through empty and locked spaces, never through another team's pieces; height is a
dimension like the others.
"""

from ..geometry import AXES
from ..outcome import LOSS, WIN
from ..scoring import stalemate_results as flat_results
from ..scoring import team_pieces


def stalemate_results(state, board: int | None = None) -> list[str]:
    """Per-seat results of the stalemate rule, on one board or (None) on all."""
    g = state.game
    if g.stalemate != "most-area-wins":
        return flat_results(state, board)
    values = team_areas(state, board)
    best = max(values.values())
    return [WIN if values[g.teams[s]] == best else LOSS for s in range(g.nseats)]


def team_areas(state, board: int | None = None) -> dict[int, int]:
    g = state.game
    geo = g.geometry
    pieces = team_pieces(state, board)
    occupied = {i for i, code in enumerate(state.board) if code > 0}
    areas = {}
    for team, by_color in pieces.items():
        own = set().union(*by_color.values()) if by_color else set()
        reached = set(own)
        todo = list(own)
        while todo:
            i = todo.pop()
            b, x, y, z = geo.coords[i]
            for d in AXES:
                for sign in (1, -1):
                    nx, ny, nz = x + sign * d[0], y + sign * d[1], z + sign * d[2]
                    if not geo.inside(nx, ny, nz):
                        continue
                    j = geo.index(b, nx, ny, nz)
                    if j not in reached and j not in occupied:
                        reached.add(j)
                        todo.append(j)
        areas[team] = len(reached)
    return areas
