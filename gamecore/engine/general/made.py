"""What a move made, for the endings that count it (rules/endings.py): lines of one shape
through a piece it brought, pairs of adjacent pieces of mixed shapes; and the lines an
ending counts (``posts``: up one stack only). Split from ``endings.py`` (issue 34)."""

from ..geometry import AXES
from ..scoring import team_pieces

AXES_BOTH = tuple(d for a in AXES for d in (a, tuple(-v for v in a)))  # both ways of each axis


def lines(geo, e) -> list[int]:
    """The lines of ``e.k`` an ending counts (``posts``: those up one stack only)."""
    lines = geo.lines(e.k, e.diagonal)
    if not e.posts:
        return lines
    column = {i: geo.coords[i][:3] for i in range(geo.n)}  # (board, x, y)
    return [m for m in lines if len({column[i] for i in range(m.bit_length()) if m >> i & 1}) == 1]


def by_shape(g, state, by_color: dict[int, set[int]]) -> dict[tuple, set[int]]:
    """colour -> spaces, split into (colour, shape) -> spaces."""
    out: dict[tuple, set[int]] = {}
    for color, spaces in by_color.items():
        for i in spaces:
            out.setdefault((color, g.piece[state.board[i]][2]), set()).add(i)
    return out


def move_made(state, e) -> dict[int, int]:
    """team -> what the latest move made: the lines of ``e.k`` spaces of one shape through
    a piece it brought (``same="shape"``), or the pairs of adjacent pieces of different
    shapes with one it brought (``mixed``), counted for that piece's team (rules/endings.py).
    Nothing at the start, before any move."""
    g = state.game
    out = dict.fromkeys(g.ends.teams, 0)
    if state.last is None and not getattr(state, "last_round", None):
        return out
    squares = state.board
    owner = {}  # space -> team, for the pieces a team counts
    for t, by_color in team_pieces(state, None).items():
        for spaces in by_color.values():
            owner.update(dict.fromkeys(spaces, t))
    key = (e.k, e.diagonal, e.posts)
    lines = g.ends.lines_through.get(key) if e.measure == "in-a-row" else None
    for i in _arrived_spaces(state):
        team = owner.get(i)
        if team is None:
            continue
        shape = g.piece[squares[i]][2]
        if lines is not None:
            for line in lines[i]:
                spaces = [j for j in range(line.bit_length()) if line >> j & 1]
                if all(squares[j] > 0 and g.piece[squares[j]][2] == shape for j in spaces):
                    out[team] += 1
        else:
            out[team] += sum(
                1 for j in _neighbours(g, i)
                if squares[j] > 0 and g.piece[squares[j]][2] != shape
            )  # fmt: skip
    return out


def _arrived_spaces(state) -> list[int]:
    """The spaces of the pieces the latest move (or round) brought: on stacks the top
    piece of each stack it reached."""
    g = state.game
    out = []
    for p in arrivals(state):
        if not g.stacks:
            out.append(p)
            continue
        column = [g.stack_base[p] + z * g.layer for z in range(g.geometry.Z)]
        held = [i for i in column if state.board[i] > 0]
        if held:
            out.append(held[-1])
    return out


def _neighbours(g, i: int) -> list[int]:
    """On stacks the spaces just under and over ``i`` in its stack (pieces on posts touch
    only there); elsewhere its orthogonal neighbours on its board."""
    geo = g.geometry
    b, x, y, z = geo.coords[i]
    steps = ((0, 0, -1), (0, 0, 1)) if g.stacks else AXES_BOTH
    return [
        geo.index(b, x + dx, y + dy, z + dz) for dx, dy, dz in steps
        if geo.inside(x + dx, y + dy, z + dz)
    ]  # fmt: skip


def arrivals(state) -> set[int]:
    """The positions the latest move (a simultaneous phase: the latest round's moves)
    brought a piece to."""
    if state.ph.simultaneous:
        moves = [m for _seat, m in state.last_round or ()]
    else:
        moves = [state.last]
    return {m.target for m in moves if getattr(m, "target", -1) >= 0}
