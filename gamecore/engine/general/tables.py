"""Where a piece may go: per move type, per position, the single steps and the sliding
rays, computed once per game.

A *position* is a space on hash and squares boards, and a stack (board, x, y) on stacks
boards, where height is ignored ("moves are always to the tops of stacks"). Directions
are the grid's: orthogonal (one non-zero component), diagonal (two), triagonal (three, in
3-D). The hash board is the traditional 3x3 board of Tapatan and Achi, whose diagonals
are only its two long ones: a diagonal step or slide there must run along one of them
(see variants/catalogue/READINGS.md).
"""

from itertools import permutations, product
from typing import NamedTuple

ALL = tuple(d for d in product((-1, 0, 1), repeat=3) if any(d))
ORTHOGONAL = tuple(d for d in ALL if sum(map(abs, d)) == 1)
DIAGONAL = tuple(d for d in ALL if sum(map(abs, d)) == 2)
TRIAGONAL = tuple(d for d in ALL if sum(map(abs, d)) == 3)
LINEAR = ALL  # orthogonal, diagonal and (in 3-D) triagonal
KNIGHT = tuple(sorted({p for v in product((2, -2), (1, -1)) for p in permutations((*v, 0))}))
KNIGHT_3D = tuple(sorted({p for v in product((2, -2), (1, -1), (1, -1)) for p in permutations(v)}))

# move type -> (step directions, slide directions, leaps)
MOVES = {
    "stationary": ((), (), ()),
    "adjacent": (ALL, (), ()),
    "adjacent-orthogonal": (ORTHOGONAL, (), ()),
    "adjacent-diagonal": (DIAGONAL, (), ()),
    "orthogonal": ((), ORTHOGONAL, ()),
    "diagonal": ((), DIAGONAL, ()),
    "linear": ((), LINEAR, ()),
    "knight": ((), (), KNIGHT),
    "knight-3d": ((), (), KNIGHT_3D),
    "linear-or-knight": ((), LINEAR, KNIGHT),
    "adjacent-or-knight": (ALL, (), KNIGHT),  # 3P-9X-HideSeek's circles: a step or a leap
    "orthogonal-by-stack": ((), ORTHOGONAL, ()),  # carrying the pieces above (stacks)
    "orthogonal-by-full-stack": ((), ORTHOGONAL, ()),  # from the bottom: the whole stack
}


FORWARD = {
    "forward-orthogonal": lambda d, f: d == f,
    "forward-diagonal": lambda d, f: d in DIAGONAL and _dot(d, f) == 1,
    "adjacent-no-back-side": lambda d, f: _dot(d, f) == 1,
    "adjacent-no-back": lambda d, f: _dot(d, f) >= 0,
    "pawn-forward-center": lambda d, f: d == f,  # its double step: Board2.pawn_limit
}


def _dot(a, b) -> int:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def directions(move: str, forward: tuple[int, int, int]) -> tuple[tuple, tuple, tuple]:
    """(steps, slides, leaps) of a move type for a seat whose goal lies ``forward``."""
    if move == "orthogonal-no-back":
        return (), tuple(d for d in ORTHOGONAL if _dot(d, forward) >= 0), ()
    keep = FORWARD.get(move)
    if keep is not None:
        return tuple(d for d in ALL if keep(d, forward)), (), ()
    return MOVES[move]


def goals(size: tuple[int, int, int], seats: int) -> list[tuple[tuple[int, int, int], int, int]]:
    """Per seat: (forward direction, axis, coordinate of its goal line or plane), 0-based.

    The seed: Player 1's goal is at y = max (x = 1 when the board is one row high),
    Player 2's opposite; more players go round the board counter-clockwise (Player 2 at
    x = 1, then y = 1, then x = max)."""
    X, Y, _Z = size
    top, left, bottom, right = (
        ((0, 1, 0), 1, Y - 1),
        ((-1, 0, 0), 0, 0),
        ((0, -1, 0), 1, 0),
        (
            (1, 0, 0),
            0,
            X - 1,
        ),
    )
    if Y == 1:
        order = [left, right]
    elif seats == 2:
        order = [top, bottom]
    else:
        order = [top, left, bottom, right]
    return [order[s % len(order)] for s in range(seats)]


def capture_steps(condition: str, forward_only: bool, forward) -> tuple:
    """The one-step directions a piece captures along when its condition names them
    ("Move on diag": the diagonals, forward ones only for a piece that cannot move
    backwards; "Move on triagonal": the 3-D diagonals, likewise)."""
    dirs = {"diagonal-en-passant": DIAGONAL, "triagonal": TRIAGONAL}.get(condition, ())
    if forward_only:
        dirs = tuple(d for d in dirs if _dot(d, forward) > 0)
    return dirs


class Reach(NamedTuple):
    """Where a piece of one move type at one position may go, on an empty board.

    ``rays``: one tuple of positions per direction, nearest first (a step is a ray of
    length one; a slide stops at the first piece). ``leaps``: knight moves, which pass
    over anything."""

    rays: tuple[tuple[int, ...], ...]
    leaps: tuple[int, ...]


class Board2:
    """Positions and their coordinates for movement (stacks: x, y only)."""

    def __init__(self, size: tuple[int, int, int], stacks: bool, hash_board: bool):
        self.X, self.Y, self.Z = size
        if stacks:
            self.Z = 1
        self.hash_board = hash_board

    def inside(self, x, y, z) -> bool:
        return 0 <= x < self.X and 0 <= y < self.Y and 0 <= z < self.Z

    def pos(self, x, y, z) -> int:
        return x + self.X * (y + self.Y * z)

    def coord(self, p: int) -> tuple[int, int, int]:
        z, rest = divmod(p, self.X * self.Y)
        y, x = divmod(rest, self.X)
        return x, y, z

    def on_long_diagonal(self, a, b) -> bool:
        """Hash board: both points on the same long diagonal of the 3x3 board."""
        (ax, ay, _), (bx, by, _) = a, b
        return (ax == ay and bx == by) or (ax + ay == 2 and bx + by == 2)

    def ray(self, p: int, d, limit: int) -> tuple[int, ...]:
        x, y, z = self.coord(p)
        out = []
        while len(out) < limit:
            nx, ny, nz = x + d[0], y + d[1], z + d[2]
            if not self.inside(nx, ny, nz):
                break
            if (
                self.hash_board
                and d[0]
                and d[1]
                and not self.on_long_diagonal((x, y, z), (nx, ny, nz))
            ):
                break
            out.append(self.pos(nx, ny, nz))
            x, y, z = nx, ny, nz
        return tuple(out)

    def pawn_limit(self, p: int, forward) -> int:
        """How far a pawn steps straight forward from ``p``: two while it lands no further
        than the centre line across its way (the middle line, or on a board of an even
        length the last line of its own half: chess's second to fourth rank), else one."""
        axis = next(i for i, v in enumerate(forward) if v)
        length = (self.X, self.Y, self.Z)[axis]
        at = self.coord(p)[axis]
        rank = at if forward[axis] > 0 else length - 1 - at  # 0: the edge it starts from
        return 2 if rank + 2 <= (length - 1) // 2 else 1

    def reach(self, move: str, p: int, forward=(0, 1, 0)) -> Reach:
        if move == "pawn-forward-center":
            ray = self.ray(p, forward, self.pawn_limit(p, forward))
            return Reach((ray,) if ray else (), ())
        steps, slides, leaps = directions(move, forward)
        big = self.X * self.Y * self.Z
        rays = [r for d in steps if (r := self.ray(p, d, 1))]
        rays += [r for d in slides if (r := self.ray(p, d, big))]
        x, y, z = self.coord(p)
        jumps = tuple(
            self.pos(x + d[0], y + d[1], z + d[2])
            for d in leaps
            if self.inside(x + d[0], y + d[1], z + d[2])
        )
        return Reach(tuple(rays), jumps)

    def jump_lines(
        self, move: str, p: int, forward=(0, 1, 0), back: bool = False
    ) -> tuple[tuple[int, ...], ...]:
        """For jump captures: the rays of the move's directions, each as long as the board
        allows (a stepping piece jumps the neighbour to the space beyond; a sliding piece
        jumps the first piece on its ray to the space just beyond it)."""
        steps, slides, _ = directions(move, forward)
        if back:  # "Chain Jump (+ back)": also the directions that go away from the goal
            behind = directions(move, tuple(-v for v in forward))
            steps = tuple(dict.fromkeys(steps + behind[0]))
            slides = tuple(dict.fromkeys(slides + behind[1]))
        big = self.X * self.Y * self.Z
        out = [r for d in steps if len(r := self.ray(p, d, 2)) == 2]
        out += [r for d in slides if len(r := self.ray(p, d, big)) >= 2]
        return tuple(out)
