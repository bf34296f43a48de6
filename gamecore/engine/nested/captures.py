"""Marks, captures, ties and the end of a nested-board game, as a part of ``NestedState``
(its own module: the state's code is long enough). A mark may capture its block (L in a
row), a capture or a filled block decides a unit of the block above, and so on up to the
peak; ``TwoLevelState`` settles Ultimate's shape inline and keeps to this order."""

from ..outcome import DRAW, LOSS, WIN, Outcome
from .marks import OPEN, PROTECTED, TIE


class Captures:
    __slots__ = ()

    # -- marks, captures, ties --------------------------------------------------------------
    def _mark(self, i: int, team: int) -> None:
        geo = self.game.geometry
        self.cell[i] = team
        ib, p = geo.inner[i], geo.pos[i]
        self.emask[ib] &= ~(1 << p)
        avail = self.avail
        emptied = False
        for b in geo.anc[i]:
            left = avail[b] - 1
            avail[b] = left
            if not left:
                emptied = True
        tm = self.tmask[team][ib] | (1 << p)
        self.tmask[team][ib] = tm
        if self.bown[ib] == OPEN:
            for line in geo.lines_through[p]:
                if tm & line == line:
                    self._captured(ib, team)
                    emptied = True  # sealing may have emptied blocks above
                    break
        if emptied and self.outcome is None:
            self._ties(geo.anc[i])

    def _captured(self, b: int, team: int) -> None:
        game = self.game
        geo, opts = game.geometry, game.opts
        self.bown[b] = team
        if b == 0 or (opts.quick and geo.level[b] == 1):
            return self._win(team, b)
        if opts.lock_captured:
            self._seal(b)
        self._decided(geo.parent[b], geo.bpos[b], team)

    def _decided(self, b: int, cp: int, owner: int) -> None:
        """Child ``cp`` of block ``b`` now belongs to ``owner`` (a team or TIE): capture
        ``b`` if that completes a line, and carry the capture up the levels."""
        game = self.game
        opts = game.opts
        while self.bown[b] == OPEN:
            if owner >= 0:
                self.tmask[owner][b] |= 1 << cp
                candidates = (owner,)
            else:
                self.dmask[b] |= 1 << cp
                if not opts.draws_count_for_all:
                    return
                candidates = self._tie_order()
            winner = self._winner(b, cp, candidates)
            if winner is None:
                return
            return self._captured(b, winner)

    def _tie_order(self) -> tuple[int, ...]:
        """Who a drawn block counts for first when it completes lines for several teams at
        once: the mover's team, then the others in seat order (READINGS.md, Strategic: the
        line is the mover's doing, as every line a move completes counts for the mover).
        Without a mover (set-up, simultaneous rounds) seat order decides."""
        teams = self.game.teams
        if not self.game.sequential or self.ply == 0:
            return teams
        mover = teams[self.turn]
        return (mover, *(t for t in teams if t != mover))

    def _winner(self, b: int, cp: int, candidates) -> int | None:
        game = self.game
        geo, opts = game.geometry, game.opts
        if b == 0 and opts.win_condition == "majority" and geo.N > 1:
            for t in candidates:
                if self.tmask[t][0].bit_count() * 2 > geo.P:
                    return t
            return None
        dm = self.dmask[b] if opts.draws_count_for_all else 0
        for t in candidates:
            tm = self.tmask[t][b]
            for line in geo.lines_through[cp]:
                if (tm | dm) & line == line and tm & line:
                    return t
        return None

    def _seal(self, b: int) -> None:
        """Lock captured blocks: a won block's empty cells become protected (%)."""
        geo = self.game.geometry
        count = self.avail[b]
        if not count:
            return
        for ib in geo.inner_under[b]:
            m = self.emask[ib]
            cells = geo.cells_of[ib]
            while m:
                low = m & -m
                self.cell[cells[low.bit_length() - 1]] = PROTECTED
                m ^= low
            self.emask[ib] = 0
        for d in geo.blocks_under[b]:
            self.avail[d] = 0
        for a in geo.block_anc[b]:
            self.avail[a] -= count

    def _ties(self, ancestors) -> None:
        """An open block with no playable cell left is drawn (*), innermost first."""
        geo = self.game.geometry
        for b in reversed(ancestors):
            if self.outcome is not None:
                return
            if self.bown[b] == OPEN and not self.avail[b]:
                self.bown[b] = TIE
                if b == 0:
                    return self._finish(
                        [DRAW] * self.game.nseats, "draw", "Every block is complete"
                    )
                self._decided(geo.parent[b], geo.bpos[b], TIE)

    # -- ending -------------------------------------------------------------------------
    def _win(self, team: int, block: int) -> None:
        game = self.game
        inverted = game.opts.inverted
        results = [(LOSS if t == team else WIN) if inverted else (WIN if t == team else LOSS)
                   for t in game.teams]  # fmt: skip
        reason, how = "victory", "captured the peak"
        if block != 0:
            how = "captured a top-level block (Quick)"
        elif game.opts.win_condition == "majority" and game.geometry.N > 1:
            reason, how = "majority", "holds a majority of the blocks"
        detail = f"{game.symbols[team]} {how}" + (" and loses (Inverted)" if inverted else "")
        if reason != "victory":
            return self._finish(results, reason, detail)
        tm = self.tmask[team][block]  # the lines are made when first read
        self._finish(results, reason, detail, (), lambda: (detail, _winning_lines(game, tm)))

    def _finish(self, results, reason, detail, lines=(), make=None) -> None:
        results = [LOSS if self.out >> t & 1 else r for t, r in enumerate(results)]
        self.outcome = Outcome(results, reason, detail, lines, make)


def _winning_lines(game, tm: int):
    """Lines at the level that decided the game, as 1-based unit coordinates there."""
    geo = game.geometry
    side = geo.S
    out = []
    for line in geo.lines:
        if tm & line == line:
            units = []
            for p in range(geo.P):
                if line >> p & 1:
                    units.append(tuple(1 + (p // side**k) % side for k in range(geo.D)))
            out.append(tuple(units))
    return tuple(out[:1])
