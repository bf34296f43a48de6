"""Board geometry, computed once per game: spaces, coordinates, lines as bit masks.

Spaces of all boards are numbered 0..n-1: ``index = board * cells + x + X * (y + Y * z)``
(0-based inside, 1-based in notation). A line is an int with one bit per space.
"""

from itertools import product

# The 13 directions of 3-D space, one of each +/- pair (first non-zero component > 0).
DIRECTIONS = tuple(
    d for d in product((-1, 0, 1), repeat=3) if any(d) and next(v for v in d if v) > 0
)
AXES = tuple(d for d in DIRECTIONS if sum(map(abs, d)) == 1)


class Geometry:
    def __init__(self, size: tuple[int, int, int], boards: int):
        self.X, self.Y, self.Z = size
        self.size = size
        self.boards = boards
        self.cells = self.X * self.Y * self.Z  # per board
        self.n = self.cells * boards
        self.coords = [self.coord(i) for i in range(self.n)]  # (board, x, y, z), 0-based

    def index(self, board: int, x: int, y: int, z: int) -> int:
        return board * self.cells + x + self.X * (y + self.Y * z)

    def coord(self, i: int) -> tuple[int, int, int, int]:
        board, rest = divmod(i, self.cells)
        z, rest = divmod(rest, self.X * self.Y)
        y, x = divmod(rest, self.X)
        return board, x, y, z

    def inside(self, x: int, y: int, z: int) -> bool:
        return 0 <= x < self.X and 0 <= y < self.Y and 0 <= z < self.Z

    def board_mask(self, board: int) -> int:
        return ((1 << self.cells) - 1) << (board * self.cells)

    def lines(self, k: int, diagonal: bool) -> list[int]:
        """Every run of k spaces in a straight line (axes, and diagonals if asked)."""
        out = []
        for board in range(self.boards):
            for d in DIRECTIONS if diagonal else AXES:
                for x, y, z in product(range(self.X), range(self.Y), range(self.Z)):
                    end = (x + d[0] * (k - 1), y + d[1] * (k - 1), z + d[2] * (k - 1))
                    if not self.inside(*end):
                        continue
                    mask = 0
                    for step in range(k):
                        mask |= 1 << self.index(
                            board, x + d[0] * step, y + d[1] * step, z + d[2] * step
                        )
                    out.append(mask)
        return out

    def lines_through(self, lines: list[int]) -> list[tuple[int, ...]]:
        """For each space, the lines that contain it."""
        through: list[list[int]] = [[] for _ in range(self.n)]
        for mask in lines:
            m = mask
            while m:
                low = m & -m
                through[low.bit_length() - 1].append(mask)
                m ^= low
        return [tuple(t) for t in through]

    def longest_run(self, owned: set[int]) -> int:
        """Length of the longest straight run of spaces in ``owned`` (any direction)."""
        best = 1 if owned else 0
        for i in owned:
            b, x, y, z = self.coords[i]
            for d in DIRECTIONS:
                px, py, pz = x - d[0], y - d[1], z - d[2]
                if self.inside(px, py, pz) and self.index(b, px, py, pz) in owned:
                    continue  # not the start of this run
                length, cx, cy, cz = 1, x + d[0], y + d[1], z + d[2]
                while self.inside(cx, cy, cz) and self.index(b, cx, cy, cz) in owned:
                    length += 1
                    cx, cy, cz = cx + d[0], cy + d[1], cz + d[2]
                best = max(best, length)
        return best

    def spaces_of(self, mask: int) -> list[int]:
        out = []
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out
