"""Geometry of nested boards, computed once per game.

The ground grid has side E = S**N in each of D dimensions; cell i has coordinates
(x0, x1, ..., x(D-1)) with x0 fastest (``i = x0 + E*x1 + E*E*x2 ...``). Row y = x1 = 0 is
the top row, as in the seeds' drawings.

Blocks: level 0 is the peak (the whole board); a level-l block holds P = S**D units of
level l+1 (blocks, or cells when l = N-1). A unit's *position* in its parent is
``sum(digit_k * S**k)`` over the dimensions, where digit_k = (x_k // S**(N-l)) % S.
Blocks get global ids: level by level, each level in path order.
"""

from itertools import product


def directions(d: int) -> list[tuple[int, ...]]:
    """One of each +/- pair of the 3**d - 1 directions in d dimensions."""
    return [v for v in product((-1, 0, 1), repeat=d) if any(v) and next(c for c in v if c) > 0]


def block_lines(side: int, d: int, length: int) -> list[int]:
    """Every straight run of ``length`` positions in a side**d block, as bit masks."""
    lines = []
    for v in directions(d):
        for start in product(range(side), repeat=d):
            end = [s + c * (length - 1) for s, c in zip(start, v, strict=True)]
            if not all(0 <= e < side for e in end):
                continue
            mask = 0
            for step in range(length):
                point = [s + c * step for s, c in zip(start, v, strict=True)]
                mask |= 1 << sum(p * side**k for k, p in enumerate(point))
            lines.append(mask)
    return lines


class NestedGeometry:
    def __init__(self, side: int, depth: int, dims: int, win_length: int):
        self.S, self.N, self.D = side, depth, dims
        self.P = side**dims  # units per block
        self.edge = side**depth
        self.ncells = self.edge**dims
        self.lines = block_lines(side, dims, win_length)
        self.lines_through = [tuple(m for m in self.lines if m >> p & 1) for p in range(self.P)]
        # Block ids: level l has P**l blocks; offset[l] is the id of its first block.
        self.offset = [sum(self.P**k for k in range(level)) for level in range(depth + 1)]
        self.nblocks = self.offset[depth]
        self.level = [lv for lv in range(depth) for _ in range(self.P**lv)]
        self.parent = [-1] + [self.offset[lv - 1] + j // self.P for lv in range(1, depth)
                              for j in range(self.P**lv)]  # fmt: skip
        self.bpos = [0] + [j % self.P for lv in range(1, depth) for j in range(self.P**lv)]
        self.coords = [self._coords(i) for i in range(self.ncells)]
        self.path = [self._path(c) for c in self.coords]  # positions, level 1..N
        # Per cell: ancestors (peak .. innermost block) and its position in the innermost.
        self.anc = [self._ancestors(p) for p in self.path]
        self.inner = [a[-1] for a in self.anc]
        self.pos = [p[-1] for p in self.path]
        self.cells_of = {}  # innermost block id -> cell index per position
        for i in range(self.ncells):
            self.cells_of.setdefault(self.inner[i], [0] * self.P)[self.pos[i]] = i
        # Per block: every block below it (itself included), and its ancestors.
        self.blocks_under = {b: [b] for b in range(self.nblocks)}
        self.block_anc = {b: [] for b in range(self.nblocks)}
        for b in range(1, self.nblocks):
            a = self.parent[b]
            while a != -1:
                self.blocks_under[a].append(b)
                self.block_anc[b].append(a)
                a = self.parent[a]
        first_inner = self.offset[depth - 1]
        self.inner_ids = list(range(first_inner, self.nblocks))
        self.inner_under = {b: [] for b in range(self.nblocks)}
        for ib in self.inner_ids:
            b = ib
            while b != -1:
                self.inner_under[b].append(ib)
                b = self.parent[b]

    def _coords(self, i: int) -> tuple[int, ...]:
        out = []
        for _ in range(self.D):
            i, x = divmod(i, self.edge)
            out.append(x)
        return tuple(out)

    def index(self, coords) -> int:
        return sum(x * self.edge**k for k, x in enumerate(coords))

    def _path(self, coords) -> tuple[int, ...]:
        S, N = self.S, self.N
        return tuple(
            sum(((x // S ** (N - lv)) % S) * S**k for k, x in enumerate(coords))
            for lv in range(1, N + 1)
        )

    def block_id(self, path: tuple[int, ...]) -> int:
        """The block reached from the peak by ``path`` (positions of levels 1..len)."""
        j = 0
        for p in path:
            j = j * self.P + p
        return self.offset[len(path)] + j

    def _ancestors(self, path) -> tuple[int, ...]:
        return tuple(self.block_id(path[:lv]) for lv in range(self.N))

    def block_path(self, b: int) -> tuple[int, ...]:
        lv = self.level[b]
        j = b - self.offset[lv]
        out = []
        for _ in range(lv):
            j, p = divmod(j, self.P)
            out.append(p)
        return tuple(reversed(out))

    def block_box(self, b: int) -> list[tuple[int, int]]:
        """(first, last) ground coordinate per dimension, 0-based, of a block's cells."""
        path, S, N = self.block_path(b), self.S, self.N
        lo = [0] * self.D
        for lv, p in enumerate(path, start=1):
            for k in range(self.D):
                lo[k] += ((p // S**k) % S) * S ** (N - lv)
        size = S ** (N - len(path))
        return [(x, x + size - 1) for x in lo]
