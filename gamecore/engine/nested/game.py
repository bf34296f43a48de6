"""NestedGame: a nested-board rule document compiled (routing tables, lines, moves)."""

from gamecore.rules import RuleDoc
from gamecore.rules.nested import level_numbers
from gamecore.rules.vocabulary import TEAM_COLORS, TEAM_SYMBOLS

from ..errors import InvalidMoveText
from ..moves import PLACE, SPECIAL, Move, is_number
from .geometry import NestedGeometry
from .state import NestedState
from .two_level import TwoLevelState


class NestedGame:
    family = "nested"

    def __init__(self, doc: RuleDoc):
        n = doc.nested
        self.doc = doc
        self.name = doc.name
        self.opts = n
        self.nseats = int(doc.players)
        self.chaos = None
        self.teams = tuple(range(self.nseats))
        self.symbols = TEAM_SYMBOLS[: self.nseats]
        self.color_names = TEAM_COLORS[: self.nseats]
        g = self.geometry = NestedGeometry(n.side, n.depth, n.dimensions, n.win_length)
        self.ntargets = g.ncells  # a move's target is a cell
        self.levels = level_numbers(n)  # (kind, numbers) per routed level
        self.moves = [Move(PLACE, i, 0, self._notation(i)) for i in range(g.ncells)]
        self.dest = [self._destination(i) for i in range(g.ncells)]
        self.symmetric = self._symmetric_obstacles() if n.symmetric_obstacles else []
        # Options that filter moves make legality depend on more than the allowed area.
        self.filtered = n.kyu or n.no_send_back or n.checked
        self.sequential = n.turn_order == "sequential"
        self.inner_moves: dict[int, list[Move]] = {}  # (block, free mask) -> moves
        self.seat_tuples = tuple((s,) for s in range(self.nseats))
        # Set-up draws from a random generator only with random obstacles or scouts.
        self.random_setup = bool(n.random_obstacles or n.scouts)
        self.free_when_decided = n.free_when_decided
        self.kyu = n.kyu
        self.checked = n.checked
        # Checked on two levels with the plain rules (Ultimate-Checked): most candidates
        # are proved safe by reading the opponent's threats, not by playing them out
        # (blocks of at most 12 units: its table has an entry per mask of a block).
        self.quick_checked = (
            n.checked
            and g.N == 2
            and g.P <= 12
            and self.nseats == 2
            and self.sequential
            and not (n.inverted or n.quick or n.kyu or n.no_send_back)
            and not n.draws_count_for_all
            and n.win_condition != "majority"
        )
        # Per cell, what a mark there touches: (innermost block, position in it, its
        # ancestors, the lines through that position).
        self.cell_info = [
            (g.inner[i], g.pos[i], g.anc[i], g.lines_through[g.pos[i]]) for i in range(g.ncells)
        ]
        self.inner_level = g.N - 1
        self._start = None  # the starting position where the set-up draws nothing
        self.first_inner = g.offset[g.N - 1]  # innermost blocks have the highest ids
        # Two levels (Ultimate's): a cell's ancestors are the peak and its block, and a
        # move sends the next team to one block (apply's simple path unrolls its loops).
        self.two_levels = g.N == 2 and all(len(d) == 1 for d in self.dest)
        self.dest_block = [d[0] if d else 0 for d in self.dest]
        self.P = g.P
        self.next_seat = tuple((s + 1) % self.nseats for s in range(self.nseats))
        # Per cell, for the simple path of apply: (innermost block, its bit there, the
        # ancestors, the ancestors as bits of block ids, the lines through it).
        self.simple_info = [
            (g.inner[i], 1 << g.pos[i], g.anc[i], sum(1 << b for b in g.anc[i]),
             g.lines_through[g.pos[i]])
            for i in range(g.ncells)
        ]  # fmt: skip
        # Blocks of at most 12 units: per mask of a team's units, 1 if it holds a line
        # (one look-up instead of a loop over the lines on every move).
        self.block_wins = _line_table(g.P, g.lines) if g.P <= 12 else None
        # Quick Checked: per mask of a team's units, the units that would complete a line.
        self.win_cells = _win_cells(g.P, g.lines) if self.quick_checked else None
        # No move filter and one team at a time: apply and legal_moves take a short path.
        self.simple = self.sequential and not self.filtered and not n.kyu and not n.checked
        # Ultimate's shape (two levels, two teams, locked captures): TwoLevelState.
        self.two_level = (
            self.simple and self.two_levels and self.nseats == 2 and n.lock_captured
            and self.block_wins is not None
        )  # fmt: skip
        if self.two_level:
            self._two_level_tables()

    def _two_level_tables(self) -> None:
        """TwoLevelState's tables: per cell (its block, its bit there, the block it sends
        to); per block, a row indexed by its set of playable cells: the moves (every set:
        512 a block on Ultimate; never mutate one)."""
        g = self.geometry
        self.two_level_info = [
            (g.inner[i], 1 << g.pos[i], self.dest_block[i]) for i in range(g.ncells)
        ]
        rows: list = [[[]] * (1 << g.P) for _ in range(g.nblocks)]  # the peak's: empty
        for ib in g.inner_ids:
            cells = g.cells_of[ib]
            rows[ib] = [[self.moves[cells[p]] for p in range(g.P) if mask >> p & 1]
                        for mask in range(1 << g.P)]  # fmt: skip
        self.area_rows = rows
        self.mask_bits = [[p for p in range(g.P) if m >> p & 1] for m in range(1 << g.P)]
        self.peak_bit = [1 << g.bpos[b] if b else 0 for b in range(g.nblocks)]
        # The peak is won by a line of blocks, a drawn block counts for nobody: a block
        # decided is settled inline (TwoLevelState._won_block).
        n = self.opts
        self.plain_peak = not (n.quick or n.draws_count_for_all or n.win_condition == "majority")
        self.nine_blocks = g.P == 9 and g.inner_ids == list(range(1, 10))

    # -- routing ------------------------------------------------------------------------
    def _destination(self, i: int) -> tuple[int, ...]:
        """The blocks (levels 1..N-1) a move on cell i sends the next player to.

        Level by level (``rules.nested.level_routes``): tactical takes the cell's position
        one level further down; map the number left of the cell's row in its level-k
        block; hypermap the number in the cell."""
        g = self.geometry
        levels = self.levels
        if not levels:
            return ()
        path = list(g.path[i][1:])  # tactical at every level
        x, y = g.coords[i][:2]
        for k, (kind, numbers) in enumerate(levels):  # k: level k+1's position
            if kind == "map":
                rows = g.S ** (g.N - 1 - k)
                b = g.block_id(g.path[i][: k + 1]) - g.offset[k + 1]
                path[k] = numbers[b * rows + y % rows] - 1
            elif kind == "hypermap":
                path[k] = numbers[x + g.edge * y] - 1
        return tuple(g.block_id(tuple(path[:lv])) for lv in range(1, g.N))

    def _symmetric_obstacles(self) -> list[int]:
        """Cells whose place in their innermost block equals that block's place in its
        parent (one per innermost block; depth ≥ 2 only)."""
        g = self.geometry
        if g.N < 2:
            return []
        return [i for i in range(g.ncells) if g.path[i][-1] == g.path[i][-2]]

    # -- notation -----------------------------------------------------------------------
    def _notation(self, i: int) -> str:
        return "/".join(str(p + 1) for p in self.geometry.path[i])

    def parse_move(self, text: str) -> Move:
        """``5/1`` (positions level by level, 1-based, x fastest and row 1 at the top) or
        ground coordinates ``x,y[,z[,t]]`` (1-based)."""
        g = self.geometry
        if not isinstance(text, str) or len(text) > 80:
            raise InvalidMoveText(f"{str(text)[:80]!r} is not a move")
        t = text.strip().lower()
        if t in SPECIAL:  # written like every game's; nested boards do not allow them
            return SPECIAL[t]
        if "," in t:
            parts = t.split(",")
            if len(parts) != g.D or not all(is_number(p.strip()) for p in parts):
                raise InvalidMoveText(f"{text!r}: coordinates are {g.D} numbers x,y,...")
            coords = [int(p) - 1 for p in parts]
            if not all(0 <= c < g.edge for c in coords):
                raise InvalidMoveText(f"{text!r} is off the board (1..{g.edge})")
            return self.moves[g.index(coords)]
        parts = t.split("/")
        if len(parts) != g.N or not all(is_number(p.strip()) for p in parts):
            raise InvalidMoveText(f"{text!r}: a move is {g.N} position(s) like 5/1 (S/T/O)")
        path = [int(p) - 1 for p in parts]
        if not all(0 <= p < g.P for p in path):
            raise InvalidMoveText(f"{text!r}: positions run from 1 to {g.P}")
        return self.moves[self._cell_of_path(path)]

    def _cell_of_path(self, path) -> int:
        g = self.geometry
        coords = [0] * g.D
        for lv, p in enumerate(path, start=1):
            for k in range(g.D):
                coords[k] += ((p // g.S**k) % g.S) * g.S ** (g.N - lv)
        return g.index(coords)

    def new_initial_state(self, seed: int | None = None):
        cls = TwoLevelState if self.two_level else NestedState
        if self.random_setup:  # the set-up draws from the seed
            return cls(self, seed)
        start = self._start
        if start is None:  # the same start every time: made once, then cloned (3x faster)
            start = self._start = cls(self, None)
        state = start.clone()
        state.seed = seed
        return state

    def __repr__(self) -> str:
        return f"<NestedGame {self.name}>"


def _line_table(units: int, lines) -> bytes:
    """Per mask of ``units`` bits, 1 if it holds one of ``lines``."""
    table = bytearray(1 << units)
    for line in lines:
        table[line] = 1
    for bit in range(units):  # every superset of a line holds it
        b = 1 << bit
        for m in range(1 << units):
            if m & b and table[m ^ b]:
                table[m] = 1
    return bytes(table)


def _win_cells(units: int, lines) -> list[int]:
    """Per mask of ``units`` bits, the bits (not in it) that would complete one of
    ``lines``."""
    table = [0] * (1 << units)
    for m in range(1 << units):
        for line in lines:
            gap = line & ~m
            if gap and not gap & (gap - 1):
                table[m] |= gap
    return table
