"""Stacks as pots (the factory seed's "For conversion and reincarnation on cover, all
players with the highest rank on the stack split the pot"; catalogue/READINGS.md,
"Social-dilemma games", "Stacks are pots"). Mixed into GeneralState.

- **Whole pots**: a piece that captures by plain cover and lands on a stack (placed or
  moved) takes every piece of the other teams on it, not only the top one, by its
  result: converted where they stand (the captor lands on top), or removed (those above
  fall) and, reincarnating, gained into the captor's reserve in its colour.
- **Guarded stacks**: a piece that cannot capture (a chip) landing on a stack holding
  another team's stationary capturing piece (a guard, at any height) is captured, with every other
  chip on that stack (the pot), by the guards of the highest shape there: they are the
  captors, several if several teams have one (their own chips are in the pot too). The
  pot is dealt round-robin over the captors in seat order from a random start drawn
  with the state's seed and ply (so a replay deals the same): each chip converted to a
  captor's where it stands, or removed and gained (once, twice for x2) by a captor.
- **Converting duels**: by rank, the winner of a cover on stacks that converts makes the
  loser its own: the covered piece where it stands (the attacker on top), or the
  attacker, which then lands on the stack as the defender's.
"""

import random

from .codes import enemy
from .generate import stack_pieces


class Pots:
    __slots__ = ()

    def _deal_start(self, n: int) -> int:
        """Where the round-robin of a split pot starts among ``n`` captors (seeded)."""
        return random.Random(f"{self.seed}:{self.ply}").randrange(n) if n > 1 else 0

    def _cover_all(self, seat: int, pos: int, shape: int) -> None:
        """A plain cover by ``seat``'s piece of ``shape`` landing on stack ``pos``: every
        piece of the other teams on the stack is taken (before the piece lands)."""
        g = self.game
        board = self.board
        spaces = stack_pieces(self, pos)
        taken = [sp for sp in spaces if enemy(g, board[sp], seat)]
        if not taken:
            return
        if g.converts[shape]:
            for sp in taken:
                self._convert(seat, sp)
            return
        if g.irreversible:
            self.seen.clear()  # a capture is never undone
        for sp in taken:
            for _ in range(g.gain[shape]):
                self._gain(seat, g.piece[board[sp]][2])
        self.converted = [s for s in self.converted if s not in spaces]
        self.converted += self._restack(pos, set(taken))

    def _guard(self, seat: int, pos: int) -> bool:
        """A chip of ``seat`` has landed on stack ``pos``: if another team's capturing
        piece guards the stack, its chips are the pot of the highest guards. True if
        the pot was taken."""
        g = self.game
        board = self.board
        spaces = stack_pieces(self, pos)
        guards = [sp for sp in spaces if g.guard[g.piece[board[sp]][2]]]
        if not any(enemy(g, board[sp], seat) for sp in guards):
            return False
        top = max(g.shape_rank[g.piece[board[sp]][2]] for sp in guards)
        tops = [sp for sp in guards if g.shape_rank[g.piece[board[sp]][2]] == top]
        gshape = g.piece[board[tops[0]]][2]
        captors = sorted({g.piece[board[sp]][0] for sp in tops} - {None})
        pot = [sp for sp in spaces if g.chip[g.piece[board[sp]][2]]]
        n = len(captors)
        turn = self._deal_start(n)
        if g.converts[gshape]:
            for sp in pot:
                if n and g.piece[board[sp]][0] != captors[turn % n]:
                    self._convert(captors[turn % n], sp)
                turn += 1
            return True
        if g.irreversible:
            self.seen.clear()  # a capture is never undone
        for sp in pot:
            chip = g.piece[board[sp]][2]
            for _ in range(g.gain[gshape] if n else 0):
                self._gain(captors[turn % n], chip)
                turn += 1
        self.converted = [s for s in self.converted if s not in spaces]
        self.converted += self._restack(pos, set(pot))
        return True

    def _land_as(self, owner: int, pos: int, shape: int) -> int:
        """A piece of ``shape`` lands on stack ``pos`` as ``owner``'s, in its colour (a
        loser of a converting duel); its space."""
        g = self.game
        color = g.seat_color[owner]
        code = g.code[owner][color * g.nshapes + shape]
        space = self._land(pos)
        self.board[space] = code
        self.cmask[color] |= 1 << space
        self.own[owner] |= 1 << space
        self.hash += g.z_piece[space][code]
        self.converted.append(space)
        return space
