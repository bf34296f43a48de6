"""What a move does to the pieces of a general-family state: place, lift, land, step,
capture (remove, reincarnate), convert, paralyse, and cover-by-rank duels. Mixed into
GeneralState; each change keeps the indexes (colour masks, seats' piece masks, open
targets, stack heights, reserves, the Zobrist sum) in step with the board."""

from gamecore.rules.vocabulary import CHAINS

from .codes import enemy
from .effects import effect_captures
from .generate import captive_of, jumps_from, landing, stack_pieces, top_space
from .moves import STACK
from .ranks import ATTACKER, BY_RANK, DEFENDER, category, duel


class PieceChanges:
    __slots__ = ()

    def _place(self, seat: int, move) -> tuple[int, int]:
        g = self.game
        combo = move.combo
        if g.choose:
            ri, color = combo, combo // g.nshapes
        else:
            color = g.seat_color[seat]
            ri = color * g.nshapes + combo
        left = self.reserves[ri]
        self.reserves[ri] = left - 1
        if left == 1:
            self.stock &= ~(1 << ri)
        code = g.code[seat][ri]
        if g.stack_captures and g.stack_cover[g.piece[code][2]]:
            taken = self._place_cover(seat, move.target, code)
            if taken >= 0:  # the placed piece lost a duel: it never lands
                self.hash -= g.z_reserve[ri]
                if g.irreversible:
                    self.seen.clear()
                return taken, color
        space = self._land(move.target)
        self.board[space] = code
        self.cmask[color] |= 1 << space
        self.own[seat] |= 1 << space
        self.hash += g.z_piece[space][code] - g.z_reserve[ri]
        if g.movers and g.irreversible:
            self.seen.clear()  # a placement is never undone
        shape = g.piece[code][2]
        if g.effect[shape]:
            self._take(seat, effect_captures(self, seat, shape, space), shape)
        elif g.guards and g.chip[shape]:
            self._guard(seat, move.target)  # a guarded stack takes the chip (pots.py)
        elif g.stack_captures and g.showdown[shape]:
            if any(enemy(g, self.board[s], seat) for s in stack_pieces(self, move.target)):
                self._showdown(move.target, shape)
        return space, color

    def _place_cover(self, seat: int, pos: int, code: int) -> int:
        """A piece placed on stack ``pos`` covers it: by plain cover it takes every piece
        of the other teams there (pots.py); by rank it duels the top piece. Returns -1 if
        the placed piece is to land, else the space where it was taken (or converted)."""
        g = self.game
        shape = g.piece[code][2]
        if category(g.rules[shape]) != BY_RANK:
            self._cover_all(seat, pos, shape)
            return -1
        top = top_space(self, pos)
        if top < 0 or (covered := self.board[top]) <= 0 or not enemy(g, covered, seat):
            return -1
        owner, _color, defender, _ri = g.piece[covered]
        if not g.may_cover[shape][defender]:
            return -1
        winner = duel(g, shape, defender) if g.ranked else ATTACKER
        if winner == ATTACKER:
            if g.converts[shape]:
                self._convert(seat, top)
            else:
                self._capture(seat, top, shape)
            return -1
        if winner != DEFENDER:  # equal ranks: both go
            self._capture(seat, top, -1)
        elif owner is not None and g.converts[defender]:
            return self._land_as(owner, pos, shape)  # the placed piece becomes the owner's
        elif owner is not None:
            for _ in range(g.gain[defender]):  # the defender's reward: the placed piece
                self._gain(owner, shape)
        return top

    def _land(self, pos: int) -> int:
        """Put a piece on position ``pos``: the space it rests in (indexes updated)."""
        g = self.game
        if not g.stacks:
            self.free &= ~(1 << pos)
            return pos
        h = self.heights[pos]
        base = g.stack_base[pos]
        space = base + h * g.layer
        h += 1
        while h < g.height and self.board[base + h * g.layer]:
            h += 1  # a locked space above is skipped over
        self.heights[pos] = h
        if h == g.height:
            self.free &= ~(1 << pos)
        return space

    def _lift(self, space: int) -> None:
        """Take the piece off ``space`` (indexes updated; the caller clears board/masks)."""
        g = self.game
        if not g.stacks:
            self.free |= 1 << space
            return
        pos = g.space_pos[space]
        self.heights[pos] = g.space_z[space]
        self.free |= 1 << pos

    def _remove(self, space: int) -> int:
        g = self.game
        code = self.board[space]
        owner, color, _shape, _ri = g.piece[code]
        self.board[space] = 0
        self.cmask[color] &= ~(1 << space)
        if owner is not None:
            self.own[owner] &= ~(1 << space)
        self.hash -= g.z_piece[space][code]
        if self.frozen >> space & 1:
            self.frozen &= ~(1 << space)
            self.hash -= g.z_frozen[space]
        self._lift(space)
        return code

    def _step(self, seat: int, move) -> tuple[int, int]:
        g = self.game
        if move.kind == STACK:
            return self._carry(seat, move)
        origin = landing(self, move.origin) - g.layer if g.stacks else move.origin
        code = self.board[origin]
        _owner, color, shape, _ri = g.piece[code]
        captured = -1
        effects = []
        if g.effect[shape]:
            effects = effect_captures(self, seat, shape, move.target, origin)
        elif move.capture and g.stacks:  # a cover of the target stack
            if category(g.rules[shape]) == BY_RANK:  # a duel with the top piece
                return self._duel(seat, move, origin, code, shape, top_space(self, move.target))
            self._remove(origin)  # (before the pot falls, when both are on one stack)
            self._cover_all(seat, move.target, shape)
            origin = -1
        elif move.capture and g.ranked and self.board[move.target] > 0:
            return self._duel(seat, move, origin, code, shape, move.target)
        elif move.capture:
            captured = captive_of(self, seat, move, shape)
            if g.converts[shape] and captured != move.target:
                self._convert(seat, captured)
            elif g.paralyses[shape]:
                self._paralyse(captured)
            else:
                self._capture(seat, captured, shape)
        if origin >= 0:
            self._remove(origin)
        if move.combo >= 0:  # reached its goal: it becomes the shape the mover chose
            code += move.combo - shape
            shape = move.combo
        space = self._land(move.target)
        self.board[space] = code
        self.cmask[color] |= 1 << space
        self.own[seat] |= 1 << space
        self.hash += g.z_piece[space][code]
        self._take(seat, effects, shape)
        if g.guards and g.chip[shape]:
            self._guard(seat, move.target)  # a guarded stack takes the chip (pots.py)
        if g.passing and origin >= 0:
            self._passed(origin, space)
        self.chain = -1
        if captured >= 0 and g.rules[shape].condition in CHAINS and captured != move.target:
            if jumps_from(self, seat, move.target):
                self.chain = move.target
        return space, color

    def _passed(self, origin: int, space: int) -> None:
        """Note the spaces a piece passed over in a straight move of two or more, for an
        en passant capture on the next move (only)."""
        g = self.game
        coords = g.geometry.coords
        (b, x, y, z), (_b, x2, y2, z2) = coords[origin], coords[space]
        d = (x2 - x, y2 - y, z2 - z)
        n = max(map(abs, d))
        if n < 2 or g.stacks or any(v and abs(v) != n for v in d):
            return
        step = tuple(v // n for v in d)
        passed = 0
        for i in range(1, n):
            passed |= 1 << g.geometry.index(b, x + step[0] * i, y + step[1] * i, z + step[2] * i)
        self.passant = (passed, space, self.ply + 1)

    def _carry(self, seat: int, move) -> tuple[int, int]:
        """A step by stack: the piece and every piece above it land, in order, on the
        target stack (each keeps its owner). Lines are checked through each of them."""
        g = self.game
        pos = g.space_pos[move.origin]
        top = g.stack_base[pos] + self.heights[pos] * g.layer
        spaces = list(range(move.origin, top, g.layer))
        codes = [self.board[s] for s in spaces]
        for s in reversed(spaces):
            self._remove(s)
        landed = []
        for code in codes:
            space = self._land(move.target)
            owner, color, _shape, _ri = g.piece[code]
            self.board[space] = code
            self.cmask[color] |= 1 << space
            if owner is not None:
                self.own[owner] |= 1 << space
            self.hash += g.z_piece[space][code]
            landed.append(space)
        self.chain = -1
        self.converted += landed[1:]  # the carried pieces may complete lines too
        if move.capture:  # a showdown on the destination stack (showdown.py)
            self._showdown(move.target, g.piece[codes[0]][2])
        elif g.guards and g.chip[g.piece[codes[0]][2]]:
            self._guard(seat, move.target)  # chips onto a guarded stack (pots.py)
        return landed[0], g.piece[codes[0]][1]

    def _duel(
        self, seat: int, move, origin: int, code: int, shape: int, target: int
    ) -> tuple[int, int]:
        """A cover where ranks decide: the higher-ranked piece captures the other (both go
        when equal); ``target`` is the covered piece's space. Returns the landing space
        and the mover's colour, as ``_step``."""
        g = self.game
        owner, _color, defender, _ri = g.piece[self.board[target]]
        winner = duel(g, shape, defender)
        self.chain = -1
        if winner == DEFENDER:  # the attacker is taken; its reward goes to the defender
            if owner is not None and g.converts[defender] and g.stacks:
                self._remove(origin)  # converted: it lands on the stack as the owner's
                return self._land_as(owner, move.target, shape), g.piece[code][1]
            if owner is None:
                self._capture(seat, origin, -1)
            else:
                self._capture(owner, origin, defender)
            return target, g.piece[code][1]
        if winner != ATTACKER:  # equal ranks: both go
            self._capture(seat, target, -1)
            self._capture(seat, origin, -1)
            return target, g.piece[code][1]
        if g.converts[shape] and g.stacks:
            self._convert(seat, target)  # it stays where it stands, the attacker on top
        else:
            self._capture(seat, target, shape)
        self._remove(origin)
        space = self._land(move.target)
        if move.combo >= 0:
            code += move.combo - shape
        self.board[space] = code
        color = g.piece[code][1]
        self.cmask[color] |= 1 << space
        self.own[seat] |= 1 << space
        self.hash += g.z_piece[space][code]
        return space, color

    def _take(self, seat: int, spaces: list[int], captor_shape: int) -> None:
        """Captives of a surround, approach or adjacent capture: converted, paralysed or
        captured."""
        g = self.game
        for space in spaces:
            if g.converts[captor_shape]:
                self._convert(seat, space)
            elif g.paralyses[captor_shape]:
                self._paralyse(space)
            else:
                self._capture(seat, space, captor_shape)

    def _paralyse(self, space: int) -> None:
        if not self.frozen >> space & 1:
            self.frozen |= 1 << space
            self.hash += self.game.z_frozen[space]

    def _convert(self, seat: int, space: int) -> None:
        """The piece on ``space`` becomes ``seat``'s (its colour and owner; its shape kept)."""
        g = self.game
        code = self.board[space]
        owner, color, shape, _ri = g.piece[code]
        new_color = g.seat_color[seat]
        new = g.code[seat][new_color * g.nshapes + shape]
        self.board[space] = new
        self.cmask[color] &= ~(1 << space)
        self.cmask[new_color] |= 1 << space
        if owner is not None:
            self.own[owner] &= ~(1 << space)
        self.own[seat] |= 1 << space
        self.hash += g.z_piece[space][new] - g.z_piece[space][code]
        self.converted.append(space)

    def _capture(self, seat: int, space: int, captor_shape: int) -> None:
        """Take the piece on ``space``: removed, or reincarnated (once or twice) into the
        captor's reserves in the captor's colour."""
        g = self.game
        code = self._remove(space)
        shape = g.piece[code][2]
        if g.irreversible:
            self.seen.clear()  # a capture is never undone
        gain = g.gain[captor_shape] if captor_shape >= 0 else 0
        if gain:
            ri = g.seat_color[seat] * g.nshapes + shape
            self.reserves[ri] += gain
            self.stock |= 1 << ri
            self.hash += gain * g.z_reserve[ri]
