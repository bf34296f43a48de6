"""Captures by pieces that move by stack or by full stack: a showdown of poker hands on
the destination stack, after the move (the factory seed; catalogue/READINGS.md,
"Captures on stacks").

- Every seat with a piece on the stack has a hand (hands.py): its own pieces and the
  communal ones (nobody's), chips (shapes that cannot capture) left out.
- The seats with the highest hand are the captors (ties share). Each keeps the pieces
  that make its hand; pieces of the captors' teams are never taken.
- The rest of the stack is the pot, taken by the moving piece's result: removed;
  converted (each piece becomes a captor's, where it stands); reincarnated (each piece,
  twice for x2, joins a captor's reserve in the captor's colour). Pieces are dealt in
  descending rank, round-robin over the captors in seat order, from a start drawn with
  the state's seed and ply (so a replay deals the same).
- Pieces taken off the stack leave no gap: those above fall down.

Mixed into GeneralState.
"""

import random
from collections import Counter

from .generate import stack_pieces
from .hands import best_hand


class Showdown:
    __slots__ = ()

    def _showdown(self, pos: int, mover_shape: int) -> None:
        g = self.game
        board = self.board
        spaces = stack_pieces(self, pos)
        owners: dict[int, list[int]] = {}
        communal = []
        for sp in spaces:
            owner, _color, shape, _ri = g.piece[board[sp]]
            if g.chip[shape]:
                continue
            if owner is None:
                communal.append(sp)
            else:
                owners.setdefault(owner, []).append(sp)
        hands = {}
        for owner, own in owners.items():
            mine = own + communal
            key, used = best_hand([self._rank_at(sp) for sp in mine])
            hands[owner] = (key, used, mine)
        if not hands:
            return
        best = max(key for key, _used, _mine in hands.values())
        captors = sorted(o for o, (key, _u, _m) in hands.items() if key == best)
        kept = set()
        for o in captors:
            _key, used, mine = hands[o]
            need = Counter(used)
            for sp in mine:  # its own pieces first, then communal ones
                r = self._rank_at(sp)
                if need[r]:
                    need[r] -= 1
                    kept.add(sp)
        teams = {g.teams[o] for o in captors}
        pot = []
        for sp in spaces:
            owner = g.piece[board[sp]][0]
            if sp not in kept and (owner is None or g.teams[owner] not in teams):
                pot.append(sp)
        if not pot:
            return
        pot.sort(key=lambda sp: -self._rank_at(sp))  # stable: bottom up among equals
        n = len(captors)
        turn = random.Random(f"{self.seed}:{self.ply}").randrange(n) if n > 1 else 0
        if g.converts[mover_shape]:
            for sp in pot:
                self._convert(captors[turn % n], sp)
                turn += 1
            self.converted += spaces
            return
        if g.irreversible:
            self.seen.clear()  # a capture is never undone
        for sp in pot:
            shape = g.piece[board[sp]][2]
            for _ in range(g.gain[mover_shape]):
                self._gain(captors[turn % n], shape)
                turn += 1
        self.converted = [s for s in self.converted if s not in spaces]
        self.converted += self._restack(pos, set(pot))

    def _rank_at(self, space: int) -> int:
        g = self.game
        return g.shape_rank[g.piece[self.board[space]][2]]

    def _gain(self, seat: int, shape: int) -> None:
        """One piece of ``shape`` in ``seat``'s colour joins its reserve."""
        g = self.game
        ri = g.seat_color[seat] * g.nshapes + shape
        self.reserves[ri] += 1
        self.stock |= 1 << ri
        self.hash += g.z_reserve[ri]

    def _restack(self, pos: int, gone: set[int]) -> list[int]:
        """Take the pieces on ``gone`` off stack ``pos``; those above fall. Returns the
        spaces of the pieces left on the stack."""
        g = self.game
        spaces = stack_pieces(self, pos)
        codes = [self.board[s] for s in spaces if s not in gone]
        for s in reversed(spaces):
            self._remove(s)
        landed = []
        for code in codes:
            space = self._land(pos)
            owner, color, _shape, _ri = g.piece[code]
            self.board[space] = code
            self.cmask[color] |= 1 << space
            if owner is not None:
                self.own[owner] |= 1 << space
            self.hash += g.z_piece[space][code]
            landed.append(space)
        return landed
