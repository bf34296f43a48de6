"""GeneralGame: a rule document compiled for the general family (pieces that move and
capture, per-seat space locks, area), with everything that depends only on the rules
computed once: lines as bit masks, each shape's reach from each position, the locks as
bit masks per seat, the Move objects, Zobrist numbers for positions."""

import random

from gamecore.rules import PLAYER_MODES, RuleDoc, color_names
from gamecore.rules.moving import can_move_backwards
from gamecore.rules.schema import ShapeRules
from gamecore.rules.vocabulary import (
    BY_STACK,
    COVERS,
    EFFECT_CONDITIONS,
    FORWARD_ONLY,
    JUMPS,
    SHAPES,
    seat_colors,
)

from ..geometry import Geometry
from .moves import PLACE, STACK, STEP, Move
from .notation import Notation
from .phases import compile_phases
from .ranks import may_cover
from .state import QUIET
from .tables import LINEAR, ORTHOGONAL, Board2, Reach, capture_steps, goals

LOCKED = -1
PLY_LIMIT_PER_SPACE = 100  # moves a game may last, per space and seat
CACHE_SPACES = 24  # legal-move lists are memoised on boards of at most this many spaces
_ZOBRIST_SEED = 0x6E4E_7A1


class GeneralGame(Notation):
    family = "general"

    def __init__(self, doc: RuleDoc):
        self.doc = doc
        self.name = doc.name
        self.nseats, self.chaos, self.teams = PLAYER_MODES[doc.players]
        self.seat_color, self.ncolors = seat_colors(doc.players, doc.colors)
        self.color_names = color_names(doc)
        self.shape_names = tuple(doc.shapes)
        self.nshapes = len(doc.shapes)
        self.choose = doc.colors == "choose"
        self.ncombos = self.ncolors * self.nshapes if self.choose else self.nshapes
        self.pieces_per_turn = doc.pieces_per_turn
        self.allow_pass = doc.allow_pass
        self.agree_draw = doc.agree_draw
        self.stalemate = doc.stalemate
        g = self.geometry = Geometry(tuple(doc.board.size), doc.boards)
        self.stacks = doc.board.type == "stacks"
        self.layer = g.X * g.Y
        self.height = g.Z
        self._positions(doc.boards)
        self._checks(doc)
        self._codes()
        self._shapes(doc)
        self._locks(doc)
        self._start(doc)
        self._zobrist()
        self._place_moves: list[list[Move] | None] = [None] * self.ncombos
        self._step_moves: dict[tuple, Move] = {}
        self._line_coords: dict[int, tuple] = {}
        self.cache: dict | None = {} if g.n <= CACHE_SPACES or not self.movers else None
        if not self.movers and self.npos > CACHE_SPACES:
            self.cache = None
        # per phase: order, pass, locks, fold, its own memo (phases.py)
        self.phases = compile_phases(self, doc)

    # -- compile steps -------------------------------------------------------------
    def _positions(self, boards: int) -> None:
        """Positions (targets of placements, ends of moves): the spaces, or on stacks
        boards the stacks, of every board, board after board."""
        g = self.geometry
        per = self.per_board = self.layer if self.stacks else g.cells
        self.npos = self.ntargets = per * boards
        self.multi = boards > 1
        self.board_targets = [((1 << per) - 1) << (b * per) for b in range(boards)]
        self.target_board = [p // per for p in range(self.npos)]
        self.board_spaces = [g.board_mask(b) for b in range(boards)]
        # stacks: the space at the foot of each stack; each space's stack and height
        self.stack_base = [(p // per) * g.cells + p % per for p in range(self.npos)]
        self.space_pos = [b * self.layer + x + g.X * y for b, x, y, _z in g.coords]
        self.space_z = [z for _b, _x, _y, z in g.coords]

    def _checks(self, doc: RuleDoc) -> None:
        """The endings (gamecore/rules/endings.py): the turn checks ("First k-in-a-row")
        compiled to lines through each space, the state's fast path; the rest in
        ``self.ends`` (general/endings.py)."""
        from gamecore.rules.endings import as_check, label, words

        from .endings import Compiled

        self.checks = []
        for e in words(doc, "turn"):
            c = as_check(e)
            if c is not None:
                through = self.geometry.lines_through(self.geometry.lines(c.k, c.diagonal))
                self.checks.append((through, c.result == "wins", label(e)))
        self.ends = Compiled(self, doc)
        # Typed stalemate endings measure every board at once (area over all boards):
        # with several boards, no board is decided alone by the stalemate rule.
        self.typed_stalemate = any(e.when == "stalemate" for e in doc.endings)
        self.typed_endings = not self.ends.legacy_only  # the state calls endings.after_move

    def _codes(self) -> None:
        """Piece codes as in the flat family: 1 + ((owner * colours) + colour) * shapes +
        shape, owner ``nseats`` for pieces nobody placed."""
        ns, nc = self.nshapes, self.ncolors
        self.code = [[1 + (s * nc) * ns + ri for ri in range(nc * ns)] for s in range(self.nseats)]
        self.unowned = [1 + (self.nseats * nc) * ns + ri for ri in range(nc * ns)]
        self.ncodes = 1 + (self.nseats + 1) * nc * ns
        self.seat_stock = []
        for s in range(self.nseats):
            if self.choose:
                self.seat_stock.append((1 << (nc * ns)) - 1)
            else:
                self.seat_stock.append(((1 << ns) - 1) << (self.seat_color[s] * ns))
        self.combo_shift = [0 if self.choose else c * ns for c in self.seat_color]
        # per code: (owner seat or None, colour, shape, reserve index)
        self.piece = [None] + [self._decode(c) for c in range(1, self.ncodes)]

    def _decode(self, code: int) -> tuple:
        v, shape = divmod(code - 1, self.nshapes)
        owner, color = divmod(v, self.ncolors)
        return (None if owner == self.nseats else owner), color, shape, color * self.nshapes + shape

    def decode(self, code: int) -> tuple[int | None, int, int]:
        return self.piece[code][:3]

    def _shapes(self, doc: RuleDoc) -> None:
        """Per shape and seat: its reach from every position (None if it never moves) and
        its jump lines; seats differ only for pieces that cannot move backwards."""
        g = self.geometry
        board = Board2(g.size, self.stacks, doc.board.type == "hash")
        self.rules = [doc.shape_rules.get(s, ShapeRules()) for s in self.shape_names]
        self.goals = goals(g.size, self.nseats)
        self.forward_only = [r.move in FORWARD_ONLY for r in self.rules]
        self.hitting = [self._hitting(board, r) for r in self.rules]
        self.en_passant = [
            r.power != "none" and r.condition == "diagonal-en-passant" for r in self.rules
        ]
        self.passing = any(self.en_passant)
        self.by_stack = [r.move in BY_STACK for r in self.rules]
        self.full_stack = [r.move == "orthogonal-by-full-stack" for r in self.rules]
        # Captures on stacks: a piece that does not move by stack covers the top piece of
        # a stack; one that does settles a showdown of poker hands (showdown.py).
        covers = [r.power != "none" and r.condition in COVERS[:2] for r in self.rules]
        pairs = list(zip(covers, self.by_stack, strict=True))
        self.stack_cover = [self.stacks and c and not b for c, b in pairs]
        self.showdown = [self.stacks and c and b for c, b in pairs]
        self.stack_captures = any(self.stack_cover) or any(self.showdown)
        self.chip = [r.power == "none" for r in self.rules]  # the lowest rank: no hand
        # a chip landing on a stack that another team's stationary capturing piece
        # guards is taken (pots.py)
        self.guard = [r.power != "none" and r.move == "stationary" for r in self.rules]
        self.guards = self.stacks and any(self.chip) and any(self.guard)
        self.shape_rank = [SHAPES.index(s) for s in self.shape_names]
        self.reach, self.jumps = [], []
        for r, forward_only in zip(self.rules, self.forward_only, strict=True):
            per_seat = {}  # forward direction -> tables (shared by seats that agree)
            reach, jumps = [], []
            for f, _axis, _at in self.goals:
                key = f if forward_only else None
                if key not in per_seat:
                    per_seat[key] = self._tables(board, r, f)
                reach.append(per_seat[key][0])
                jumps.append(per_seat[key][1])
            self.reach.append(None if r.move == "stationary" else reach)
            self.jumps.append(jumps if jumps[0] is not None else None)
        self.ranked_rule = [
            r.power != "none" and r.condition == "cover-by-rank" for r in self.rules
        ]
        self.ranked = any(self.ranked_rule)
        # may_cover[a][d]: a piece of shape a may move onto an opponent's piece of shape d
        self.may_cover = [
            [may_cover(self, a, d) for d in range(self.nshapes)] for a in range(self.nshapes)
        ]
        self.must = any(r.power == "must-capture" for r in self.rules)
        self.movers = any(x is not None for x in self.reach)
        self.gain = [
            {"reincarnate": 1, "reincarnate-x2": 2}.get(r.result, 0) if r.power != "none" else 0
            for r in self.rules
        ]
        self.reincarnates = any(self.gain)
        self.paralyses = [r.power != "none" and r.result == "paralyse" for r in self.rules]
        # Fifty moves by each seat without progress, wherever pieces move: repetition
        # alone can take a random game thousands of moves on a board of a few dozen
        # spaces (see READINGS.md, "Fifty moves without progress").
        self.quiet_limit = QUIET * self.nseats if self.movers else 1 << 62
        # And a last bound: captives that reincarnate (tripled, into the captor's reserve)
        # breed pieces, so neither a repetition nor the fifty moves need ever come.
        self.ply_limit = PLY_LIMIT_PER_SPACE * self.npos * self.nseats
        self.converts = [r.power != "none" and r.result == "convert" for r in self.rules]
        # Placements and captures can never be undone unless captives come back (into a
        # reserve, or converted): then positions are counted over the whole game.
        self.irreversible = not (self.reincarnates or any(self.converts))
        self.effect = [r.power != "none" and r.condition in EFFECT_CONDITIONS for r in self.rules]
        if any(self.effect):
            self._neighbourhoods(board)
        # Reaching its goal, a piece that cannot move backwards becomes one of these.
        self.promote_to = tuple(i for i, r in enumerate(self.rules) if can_move_backwards(r))
        self.goal_mask = [self._goal_mask(axis, at) for _f, axis, at in self.goals]

    def _neighbourhoods(self, board: Board2) -> None:
        """For captures by surround, approach and adjacent: per position, the rays along
        the lines of the board, the orthogonal sides and the neighbours."""
        big = self.npos
        self._board2 = board
        per = self.per_board
        self.lines_from = self._every_board(
            [tuple(r for d in LINEAR if (r := board.ray(p, d, big))) for p in range(per)]
        )
        self.sides = self._every_board(
            [tuple(r[0] for d in ORTHOGONAL if (r := board.ray(p, d, 1))) for p in range(per)]
        )
        self.neighbours = [tuple(r[0] for r in rays) for rays in self.lines_from]
        self._approach: dict[tuple[int, int], tuple[int, ...]] = {}

    def approach_ray(self, origin: int, target: int) -> tuple[int, ...]:
        """The spaces beyond ``target`` in the direction from ``origin`` (() if the two
        are not on one line of the board)."""
        key = (origin, target)
        ray = self._approach.get(key)
        if ray is None:
            ray = ()
            off = origin - origin % self.per_board
            for d in LINEAR:
                line = self._board2.ray(origin - off, d, self.npos)
                if target - off in line:
                    ray = _shift(self._board2.ray(target - off, d, self.npos), off)
                    break
            self._approach[key] = ray
        return ray

    def _hitting(self, board: Board2, r: ShapeRules):
        """Per seat and position, the spaces a piece captures onto by a diagonal or
        triagonal step (None unless its condition is one of those)."""
        if r.power == "none" or r.condition not in ("diagonal-en-passant", "triagonal"):
            return None
        out = []
        for f, _axis, _at in self.goals:
            dirs = capture_steps(r.condition, r.move in FORWARD_ONLY, f)
            local = [
                tuple(ray[0] for d in dirs if (ray := board.ray(p, d, 1)))
                for p in range(self.per_board)
            ]
            out.append(self._every_board(local))
        return out

    def _tables(self, board: Board2, r: ShapeRules, forward) -> tuple:
        reach = self._every_board([board.reach(r.move, p, forward) for p in range(self.per_board)])
        jumps = None
        if r.power != "none" and r.condition in JUMPS:
            back = r.condition == "chain-jump-back"
            local = [board.jump_lines(r.move, p, forward, back) for p in range(self.per_board)]
            jumps = self._every_board(local)
        return reach, jumps

    def _every_board(self, local: list) -> list:
        """Tables of one board's positions, repeated for every board (positions shifted)."""
        if not self.multi:
            return local
        out = []
        for b in range(len(self.board_targets)):
            off = b * self.per_board
            out += [_shift(item, off) for item in local]
        return out

    def _goal_mask(self, axis: int, at: int) -> int:
        """The positions on a goal line (plane), as a bit mask."""
        g = self.geometry
        mask = 0
        for p in range(self.npos):
            local = p % self.per_board
            x, rest = local % g.X, local // g.X
            y = rest % g.Y
            if (x, y)[axis] == at:
                mask |= 1 << p
        return mask

    def _locks(self, doc: RuleDoc) -> None:
        """Per seat, bit masks of the spaces it may not enter / not leave."""
        g = self.geometry
        n = self.nseats
        self.no_entry = [0] * n
        self.no_exit = [0] * n
        everyone = range(n)
        for s in doc.sticky:
            bit = 1 << g.index(s.board - 1, *(v - 1 for v in s.at))
            for seat in everyone:
                self.no_exit[seat] |= bit
        for e in doc.exclusive:
            bit = 1 << g.index(e.board - 1, *(v - 1 for v in e.at))
            for seat in everyone:
                if seat + 1 not in e.seats:
                    self.no_entry[seat] |= bit
                    self.no_exit[seat] |= bit
        for lock in doc.space_locks:
            bit = 1 << g.index(lock.board - 1, *(v - 1 for v in lock.at))
            for seat in lock.seats:
                if lock.entry:
                    self.no_entry[seat - 1] |= bit
                if lock.exit:
                    self.no_exit[seat - 1] |= bit
        self.locks = any(self.no_entry) or any(self.no_exit)

    def _start(self, doc: RuleDoc) -> None:
        g = self.geometry
        board = [0] * g.n
        cmask = [0] * self.ncolors
        for s in doc.locked:
            board[g.index(s.board - 1, *(v - 1 for v in s.at))] = LOCKED
        # A set-up piece of a colour that is exactly one seat's is that seat's (it moves,
        # captures and counts as the seat's); shared or chosen colours are nobody's.
        owners = [self.seat_color.count(c) == 1 and not self.choose for c in range(self.ncolors)]
        own = [0] * self.nseats
        for p in doc.initial_pieces:
            i = g.index(p.board - 1, *(v - 1 for v in p.at))
            color = self.color_names.index(p.color)
            ri = color * self.nshapes + self.shape_names.index(p.shape)
            if owners[color] and not p.nobody:
                seat = self.seat_color.index(color)
                board[i] = self.code[seat][ri]
                own[seat] |= 1 << i
            else:
                board[i] = self.unowned[ri]
            cmask[color] |= 1 << i
        self.start_own = own
        self.scenery = any(p.nobody for p in doc.initial_pieces)  # nobody's set-up pieces
        # dealt spaces in dealing order (rules/decks.py): (space, seat or None), 0-based
        from gamecore.rules.decks import deal_order

        self.dealt = tuple(
            (g.index(d.board - 1, *(v - 1 for v in d.at)), None if d.seat is None else d.seat - 1)
            for d in deal_order(doc.dealt)
        )
        self.dealt_mask = sum(1 << i for i, _ in self.dealt)
        reserves = [0] * (self.ncolors * self.nshapes)
        for color, by_shape in (doc.reserves or {}).items():
            for shape, n in by_shape.items():
                ri = self.color_names.index(color) * self.nshapes + self.shape_names.index(shape)
                reserves[ri] = n
        heights, free = [], 0
        # per stack, the height of its lowest space that is not locked (a piece there is
        # "on the bottom of a stack", where a by-full-stack mover may leave from)
        self.stack_floor = []
        if self.stacks:
            for t in range(self.npos):
                f = 0
                while f < g.Z and board[self.stack_base[t] + f * self.layer] == LOCKED:
                    f += 1
                self.stack_floor.append(f)
                h = 0
                while h < g.Z and board[self.stack_base[t] + h * self.layer]:
                    h += 1
                heights.append(h)
                if h < g.Z:
                    free |= 1 << t
        else:
            for i, v in enumerate(board):
                if not v:
                    free |= 1 << i
        self.start = (board, cmask, heights, free, reserves)

    def _zobrist(self) -> None:
        """Random numbers whose sum names a position: one per (space, piece code), one per
        reserve entry (times its count), one per seat to move."""
        rng = random.Random(_ZOBRIST_SEED)
        bits = rng.getrandbits
        self.z_piece = [
            [0] + [bits(62) for _ in range(1, self.ncodes)] for _ in range(self.geometry.n)
        ]
        self.z_reserve = [bits(62) for _ in range(self.ncolors * self.nshapes)]
        self.z_turn = [bits(62) for _ in range(self.nseats)]
        self.z_frozen = [bits(62) for _ in range(self.geometry.n)]
        board, _cmask, _heights, _free, reserves = self.start
        h = sum(self.z_piece[i][c] for i, c in enumerate(board) if c > 0)
        self.start_hash = h + sum(n * z for n, z in zip(reserves, self.z_reserve, strict=True))

    # -- moves -----------------------------------------------------------------------
    def place_moves(self, combo: int) -> list[Move]:
        table = self._place_moves[combo]
        if table is None:
            table = [Move(PLACE, t, combo, self.place_text(t, combo)) for t in range(self.npos)]
            self._place_moves[combo] = table
        return table

    def step_move(self, origin: int, target: int, capture: bool, promote: int = -1) -> Move:
        key = (origin, target, capture, promote)
        move = self._step_moves.get(key)
        if move is None:
            sep = "x" if capture else "-"
            text = f"{self.pos_text(origin)}{sep}{self.pos_text(target, board=False)}"
            if promote >= 0:
                text += f"={self.shape_names[promote]}"
            move = self._step_moves[key] = Move(STEP, target, promote, text, origin, capture)
        return move

    def stack_move(self, space: int, target: int, capture: bool = False) -> Move:
        """A step by stack: the piece on ``space`` and those above it go to stack ``target``
        (``x`` when a showdown follows)."""
        key = ("stack", space, target, capture)
        move = self._step_moves.get(key)
        if move is None:
            sep = "x" if capture else "-"
            text = f"{self.space_text(space)}{sep}{self.pos_text(target, board=False)}"
            move = self._step_moves[key] = Move(STACK, target, -1, text, space, capture)
        return move

    def line_coords(self, line: int) -> tuple[tuple[int, int, int, int], ...]:
        coords = self._line_coords.get(line)
        if coords is None:
            g = self.geometry
            coords = tuple(tuple(v + 1 for v in g.coords[i]) for i in g.spaces_of(line))
            self._line_coords[line] = coords
        return coords

    def new_initial_state(self, seed: int | None = None):
        from .fog import CloakedState, fogged
        from .state import GeneralState

        if fogged(self):  # cloaked spaces: each seat knows only part of the position
            return CloakedState(self, seed)
        return GeneralState(self, seed)

    def __repr__(self) -> str:
        return f"<GeneralGame {self.name}>"


def _shift(item, off: int):
    """A position table entry (a Reach, a tuple of rays or positions) moved by ``off``."""
    if isinstance(item, int):
        return item + off
    if isinstance(item, Reach):
        return Reach(_shift(item.rays, off), _shift(item.leaps, off))
    return tuple(_shift(x, off) for x in item)
