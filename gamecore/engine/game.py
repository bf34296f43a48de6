"""compile_game(): a rule document -> Game, with everything that depends only on the
rules computed once (lines as bit masks, targets, move tables, the starting position)."""

from functools import reduce
from operator import or_

from gamecore.rules import PLAYER_MODES, RuleDoc, RulesError, canonical_json, color_names, parse
from gamecore.rules.vocabulary import seat_colors

from .errors import InvalidMoveText
from .fast import FastState
from .fast_shapes import BigFastState, SmallFastState, StacksFastState
from .geometry import Geometry
from .lru import DEFAULT_SIZE, LRU
from .moves import PLACE, SPECIAL, Move, is_number
from .state import State

LOCKED = -1
CACHE_TARGETS = 24  # legal-move lists are memoised for boards with at most this many targets
CACHE_LIMIT = 200_000
WINTAB_SPACES = 12  # FastState's table of complete lines, for boards of at most this


class Game:
    """An immutable compiled variant. Make states with ``new_initial_state``."""

    family = "flat"  # NestedGame says "nested"; moves on a flat board only ever go away

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
        self._geometry(doc)
        self._checks(doc)
        self._pieces()
        self._start(doc)
        self.multi = doc.boards > 1
        self.height = self.geometry.Z
        self.stack_locks = self.stacks and bool(doc.locked)
        # Shift that turns a seat's reserve bits into its combo bits (see legal_moves).
        self.combo_shift = [0 if self.choose else c * self.nshapes for c in self.seat_color]
        self.key_shift = self.ncombos + 1
        self._line_coords: dict[int, tuple] = {}
        self._moves: list[list[Move] | None] = [None] * self.ncombos
        self.legal_cache: dict[int, list[Move]] | None = (
            {} if self.ntargets <= CACHE_TARGETS else None
        )
        self.seat_tuples = tuple((s,) for s in range(self.nseats))
        # The common case FastState plays (see state.py); its legal-move cache is keyed
        # by the open targets alone.
        self.fast = (
            doc.boards == 1
            and self.nseats == 2
            and self.chaos is None
            and self.teams == (0, 1)
            and not self.choose
            and self.nshapes == 1
            and self.pieces_per_turn == 1
            and not self.allow_pass
            and not self.agree_draw
            and not self.stack_locks
        )
        self.seat_code = [self.code[s][c * self.nshapes] for s, c in enumerate(self.seat_color)]
        one = len(self.checks) == 1
        self.fast_through = self._landing_lines(doc) if one else None
        self.fast_wins = self.checks[0][1] if one else None
        self.fast_label = self.checks[0][2] if one else None
        self.fast_k = doc.turn_checks[0].k if one else 0
        self.fast_runs = self._runs(doc) if self.fast and one else None
        # Per space, every other space of its runs' windows (big boards) or of the lines
        # through it: fewer than k - 1 of the mover's pieces there and no line through
        # the new piece can be complete (one popcount before any line or direction).
        self.fast_star = None
        if self.fast_runs:
            self.fast_star = [sum(w for _a, _b, w in here) for here in self.fast_runs]
        elif self.fast and one:
            self.fast_star = [
                reduce(or_, lines, 0) & ~(1 << i) for i, lines in enumerate(self.fast_through)
            ]
        # FastState's results of a line completed by seat s: [s][wins]
        self.line_results = [
            (
                tuple("loss" if x == s else "win" for x in range(self.nseats)),
                tuple("win" if x == s else "loss" for x in range(self.nseats)),
            )
            for s in range(self.nseats)
        ]
        self.fast_cache: dict[int, list[Move]] | None = (
            {} if self.fast and self.ntargets <= CACHE_TARGETS else None
        )
        # FastState: (seat, line, label) -> Outcome; "stalemate" where the rule ignores the board
        self.fast_outcomes: dict = {}
        self.fast_plenty = self.fast and self._plenty()
        self.fast_wintab = self._wintab() if self.fast and one else None
        # FastState on at most 12 targets: the legal-move list of every set of open
        # targets, indexed by it (made once, at compile time).
        self.fast_table = None
        if self.fast and self.ntargets <= WINTAB_SPACES:
            table = self.moves_for(0)
            self.fast_table = [
                [table[t] for t in range(self.ntargets) if free >> t & 1]
                for free in range(1 << self.ntargets)
            ]
        # A colour per seat: each seat's pieces are its colour's mask, so the board can be
        # drawn from the masks (fast_shapes.DrawnFastState), each colour in its seat's code.
        self.fast_drawn = self.fast and len(set(self.seat_color)) == self.nseats
        self.fast_color_code = {c: self.seat_code[s] for s, c in enumerate(self.seat_color)}
        # SmallFastState's case (see fast_shapes.py).
        self.fast_small = (
            self.fast_wintab is not None
            and self.fast_plenty
            and self.fast_drawn
            and self.fast_runs is None
            and not self.stacks
            and self.ntargets == self.geometry.n
        )
        # StacksFastState's case (see fast_shapes.py).
        self.fast_small_stacks = (
            self.fast_table is not None
            and self.fast_plenty
            and self.fast_drawn
            and self.stacks
            and not self.stack_locks
            and self.fast_k
            and self.fast_runs is None
        )
        # BigFastState's case (see fast_shapes.py).
        self.fast_big = (
            self.fast_cache is None
            and self.fast_plenty
            and not self.stacks
            and self.fast_k
            and self.ntargets == self.geometry.n
        )
        self.start_moves = None
        # FastState checks a move by identity: the game's own Move for its target.
        self.fast_moves = self.moves_for(0) if self.fast else None
        # Per target, the mask of the targets below it (a move's place in the kept list).
        self.below = [(1 << t) - 1 for t in range(self.ntargets)] if self.fast else None
        if self.fast and self.fast_cache is None:  # FastState's list at the start
            table = self.moves_for(0)
            self.start_moves = [table[t] for t in self.geometry.spaces_of(self.start[3])]

    # -- compile steps -------------------------------------------------------------
    def _geometry(self, doc: RuleDoc) -> None:
        g = self.geometry = Geometry(tuple(doc.board.size), doc.boards)
        self.stacks = doc.board.type == "stacks"
        self.layer = g.X * g.Y
        if self.stacks:  # a target is a stack (board, x, y); pieces fall to its lowest space
            self.ntargets = doc.boards * self.layer
            self.stack_base = [
                b * g.cells + xy for b in range(doc.boards) for xy in range(self.layer)
            ]
        else:
            self.ntargets = g.n
        per_board = self.ntargets // doc.boards
        self.board_targets = [((1 << per_board) - 1) << (b * per_board) for b in range(doc.boards)]
        self.target_board = [t // per_board for t in range(self.ntargets)]

    def _checks(self, doc: RuleDoc) -> None:
        """(lines through each space, wins?, label) per turn check, in precedence order."""
        from gamecore.rules.endings import check_label

        self.checks = []
        for c in doc.turn_checks:
            through = self.geometry.lines_through(self.geometry.lines(c.k, c.diagonal))
            self.checks.append((through, c.result == "wins", check_label(c)))

    def _pieces(self) -> None:
        """Piece codes: 1 + ((owner * colours) + colour) * shapes + shape; owner nseats = none."""
        ns, nc = self.nshapes, self.ncolors
        self.code = [[1 + (s * nc) * ns + ri for ri in range(nc * ns)] for s in range(self.nseats)]
        self.unowned = [1 + (self.nseats * nc) * ns + ri for ri in range(nc * ns)]
        # Reserve indices (colour * shapes + shape) each seat may draw from.
        self.seat_stock = []
        for s in range(self.nseats):
            if self.choose:
                self.seat_stock.append((1 << (nc * ns)) - 1)
            else:
                self.seat_stock.append(((1 << ns) - 1) << (self.seat_color[s] * ns))

    def _runs(self, doc: RuleDoc):
        """Big boards with many lines through a space (15x15, k 5: up to 20): per space,
        per direction, the spaces ahead and behind (nearest first) within k - 1 and the
        mask of both. Counting the run of the mover's pieces through the new piece is
        cheaper than testing every line there, and is done only where the mask holds k - 1
        of them (a popcount: most directions stop there). Only where a colour's pieces all
        carry the seat's code (no set-up pieces, a colour per seat), so ``board[j] == code``
        reads "same colour"."""
        through = self.checks[0][0]
        if (
            doc.initial_pieces
            or len(set(self.seat_color)) != self.nseats
            or sum(map(len, through)) < 10 * len(through)
        ):
            return None
        g = self.geometry
        runs = []
        for i in range(g.n):
            by_dir: dict[tuple, set] = {}
            for line in through[i]:
                sp = g.spaces_of(line)
                a, b = g.coords[sp[0]], g.coords[sp[1]]
                d = tuple(q - p for p, q in zip(a, b, strict=True))
                by_dir.setdefault(d, set()).update(sp)
            here = []
            for d, spaces in by_dir.items():

                def dot(j, d=d):
                    return sum(c * v for c, v in zip(g.coords[j], d, strict=True))

                ahead = sorted((j for j in spaces if dot(j) > dot(i)), key=dot)
                behind = sorted((j for j in spaces if dot(j) < dot(i)), key=dot, reverse=True)
                window = sum(1 << j for j in spaces if j != i)
                here.append((tuple(ahead), tuple(behind), window))
            runs.append(tuple(here))
        return runs

    def _landing_lines(self, doc: RuleDoc) -> list:
        """FastState's lines through each space for its one turn check. On stacks without
        set-up pieces or locks a piece lands on the top of its stack, so a line holding a
        space above it is not complete yet: left out (Connect4: 3 of a column's 4)."""
        through = self.checks[0][0]
        if not self.stacks or doc.initial_pieces or doc.locked:
            return through
        g = self.geometry
        out = []
        for space, lines in enumerate(through):
            b, x, y, z = g.coords[space]
            above = 0
            for h in range(z + 1, g.Z):
                above |= 1 << g.index(b, x, y, h)
            out.append(tuple(line for line in lines if not line & above))
        return out

    def _plenty(self) -> bool:
        """FastState: whether neither seat can run out of pieces before the board fills
        (two seats alternate one piece a turn), so that no move need look at reserves."""
        board, _cmask, heights, free, reserves, _stock = self.start
        if self.stacks:
            room = sum(self.height - h for h in heights)
        else:
            room = free.bit_count()
        first, second = self.seat_color
        if first == second:
            return reserves[first] >= room
        return reserves[first] >= (room + 1) // 2 and reserves[second] >= room // 2

    def _wintab(self) -> bytes | None:
        """FastState on boards of at most 12 spaces: per colour mask, 1 if it holds a line
        of the one turn check (one look-up instead of a loop over the lines)."""
        n = self.geometry.n
        if n > WINTAB_SPACES:
            return None
        table = bytearray(1 << n)
        for line in {line for lines in self.checks[0][0] for line in lines}:
            table[line] = 1
        for bit in range(n):  # every superset of a line holds it
            b = 1 << bit
            for m in range(1 << n):
                if m & b and table[m ^ b]:
                    table[m] = 1
        return bytes(table)

    def decode(self, code: int) -> tuple[int | None, int, int]:
        """Piece code -> (owner seat or None, colour, shape)."""
        v, shape = divmod(code - 1, self.nshapes)
        owner, color = divmod(v, self.ncolors)
        return (None if owner == self.nseats else owner), color, shape

    def _start(self, doc: RuleDoc) -> None:
        g = self.geometry
        board = [0] * g.n
        cmask = [0] * self.ncolors
        for s in doc.locked:
            board[g.index(s.board - 1, *(v - 1 for v in s.at))] = LOCKED
        # As in the general family: a set-up piece of one seat's colour is that seat's.
        owners = [self.seat_color.count(c) == 1 and not self.choose for c in range(self.ncolors)]
        for p in doc.initial_pieces:
            i = g.index(p.board - 1, *(v - 1 for v in p.at))
            color = self.color_names.index(p.color)
            ri = color * self.nshapes + self.shape_names.index(p.shape)
            seat = self.seat_color.index(color) if owners[color] else None
            board[i] = self.unowned[ri] if seat is None else self.code[seat][ri]
            cmask[color] |= 1 << i
        reserves = [0] * (self.ncolors * self.nshapes)
        for color, by_shape in (doc.reserves or {}).items():
            for shape, n in by_shape.items():
                ri = self.color_names.index(color) * self.nshapes + self.shape_names.index(shape)
                reserves[ri] = n
        heights, free = [], 0
        if self.stacks:
            for t, base in enumerate(self.stack_base):
                h = 0
                while h < g.Z and board[base + h * self.layer]:
                    h += 1
                heights.append(h)
                if h < g.Z:
                    free |= 1 << t
        else:
            for i, v in enumerate(board):
                if not v:
                    free |= 1 << i
        stock = sum(1 << ri for ri, n in enumerate(reserves) if n)
        self.start = (board, cmask, heights, free, reserves, stock)

    # -- moves -----------------------------------------------------------------------
    def moves_for(self, combo: int) -> list[Move]:
        """The placement Move of ``combo`` for every target (made once, then shared)."""
        table = self._moves[combo]
        if table is None:
            table = [Move(PLACE, t, combo, self._notation(t, combo)) for t in range(self.ntargets)]
            self._moves[combo] = table
        return table

    def _notation(self, target: int, combo: int) -> str:
        words = []
        color, shape = divmod(combo, self.nshapes)
        if self.choose:
            words.append(self.color_names[color])
        if self.nshapes > 1:
            words.append(self.shape_names[shape])
        words.append(self.target_text(target))
        return " ".join(words)

    def target_text(self, target: int) -> str:
        g = self.geometry
        if self.stacks:
            b, xy = divmod(target, self.layer)
            y, x = divmod(xy, g.X)
            text = f"{x + 1},{y + 1}"
        else:
            b, x, y, z = g.coords[target]
            text = f"{x + 1},{y + 1},{z + 1}"
        return f"b{b + 1}:{text}" if g.boards > 1 else text

    def parse_move(self, text: str) -> Move:
        """Notation -> Move (see engine/README.md). Raises InvalidMoveText, quoting the text."""
        if not isinstance(text, str) or len(text) > 80:
            raise InvalidMoveText(f"{str(text)[:80]!r} is not a move")
        words = text.strip().lower().split()
        if len(words) == 1 and words[0] in SPECIAL:
            return SPECIAL[words[0]]
        if not words:
            raise InvalidMoveText("an empty move")
        target = self._parse_target(text, words[-1])
        return self.moves_for(self._parse_combo(text, words[:-1]))[target]

    def _parse_target(self, text: str, word: str) -> int:
        g = self.geometry
        board = 0
        if ":" in word:
            prefix, word = word.split(":", 1)
            if not (prefix.startswith("b") and is_number(prefix[1:])):
                raise InvalidMoveText(f"{text!r}: a board is written b1:, b2: or b3:")
            board = int(prefix[1:]) - 1
        if not 0 <= board < g.boards:
            raise InvalidMoveText(f"{text!r}: this game has {g.boards} board(s)")
        parts = word.split(",")
        want = 2 if self.stacks else 3
        if not all(is_number(p) for p in parts) or len(parts) != want:
            shape = "x,y (a stack)" if self.stacks else "x,y,z"
            raise InvalidMoveText(f"{text!r}: a placement is written {shape}")
        x, y, *z = (int(p) - 1 for p in parts)
        if not g.inside(x, y, z[0] if z else 0):
            raise InvalidMoveText(f"{text!r} is off the {'x'.join(map(str, g.size))} board")
        if self.stacks:
            return board * self.layer + x + g.X * y
        return g.index(board, x, y, z[0])

    def _parse_combo(self, text: str, words: list[str]) -> int:
        color, shape = 0, 0
        for w in words:
            if w in self.color_names and self.choose:
                color = self.color_names.index(w)
            elif w in self.shape_names:
                shape = self.shape_names.index(w)
            else:
                raise InvalidMoveText(f"{text!r}: {w!r} is not a color or shape to choose here")
        if self.choose and not any(w in self.color_names for w in words):
            raise InvalidMoveText(f"{text!r}: name the color ({', '.join(self.color_names)})")
        if self.nshapes > 1 and not any(w in self.shape_names for w in words):
            raise InvalidMoveText(f"{text!r}: name the shape ({', '.join(self.shape_names)})")
        return color * self.nshapes + shape if self.choose else shape

    def line_coords(self, line: int) -> tuple[tuple[int, int, int, int], ...]:
        """A line mask as 1-based (board, x, y, z) coordinates (memoised: game ends are hot
        in playouts)."""
        coords = self._line_coords.get(line)
        if coords is None:
            coords = tuple(
                tuple(v + 1 for v in self.geometry.coords[i]) for i in self.geometry.spaces_of(line)
            )
            self._line_coords[line] = coords
        return coords

    def new_initial_state(self, seed: int | None = None) -> State:
        if self.fast:
            if self.fast_small:
                return SmallFastState(self, seed)
            if self.fast_small_stacks:
                return StacksFastState(self, seed)
            if self.fast_big:
                return BigFastState(self, seed)
            return FastState(self, seed)
        return State(self, seed)

    def __repr__(self) -> str:
        return f"<Game {self.name}>"


FAMILIES = ("flat", "nested", "general")


_compiled = LRU(DEFAULT_SIZE)  # (canonical text, name, family) -> compiled game


def set_cache_size(games: int) -> None:
    """Keep at most ``games`` compiled games (the least recently used go first)."""
    _compiled.resize(games)


def _compile_canonical(text: str, name: str, family: str | None):
    key = (text, name, family)
    game = _compiled.get(key)
    if game is None:  # two threads may both compile once: harmless
        game = _compiled[key] = _compile(text, name, family)
    return game


def _compile(text: str, name: str, family: str | None):
    import json

    from gamecore.rules.moving import needs_general

    doc = parse({"name": name, **json.loads(text)})
    nested = doc.board.type == "nested"
    if family is None:  # the fastest family that can play the document
        family = "nested" if nested else "general" if needs_general(doc) else "flat"
    if family == "nested":
        if not nested:
            raise RulesError.single("board.type", "the nested family plays nested boards only")
        from .nested.game import NestedGame

        return NestedGame(doc)
    if nested:
        raise RulesError.single("board.type", f"the {family} family does not play nested boards")
    if family == "general":
        from .general.game import GeneralGame

        return GeneralGame(doc)
    if needs_general(doc):
        why = "only the general family plays moving pieces, locks, area, typed endings, 1 vs Chaos"
        raise RulesError.single("", why)
    return Game(doc)


def compile_game(doc: RuleDoc | dict, family: str | None = None):
    """Validate (RulesError on a bad document) and compile into the fastest family that
    can play it: flat (placement only), nested (boards in boards) or general (pieces that
    move and capture, locks, area). ``family`` forces one of them. Compiled games are
    cached by canonical form, so the site and workers compile each rule set once (the
    ``DEFAULT_SIZE`` most recently used: ``set_cache_size``)."""
    if family is not None and family not in FAMILIES:
        raise RulesError.single("family", f"one of {', '.join(FAMILIES)}")
    doc = parse(doc)
    return _compile_canonical(canonical_json(doc), doc.name, family)
