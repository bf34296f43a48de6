"""TwoLevelState: Ultimate's shape at full speed — a NestedState on two levels, two
teams taking turns, no move filter, captured blocks locked (``NestedGame.two_level``).

Same truth and same results as ``NestedState`` (``tests/test_two_level_state.py`` plays
both side by side); only the two calls of every playout move are shorter:

- ``legal_moves`` reads one list from a table made once per game, indexed by the allowed
  block and its playable cells (``NestedGame.area_rows``): no dictionary, no key tuple;
  a free move joins the lists of the blocks that have room;
- ``apply`` plays a legal move in one short body. Locked captures make it short: a block
  with a playable cell is still open, so the capture test is one look-up in the table of
  complete lines, and the next block is the move's own destination if it has room, else
  anywhere. Captures, filled blocks and the end of the game go through ``NestedState``'s
  code (a few moves a game); anything off the common path too;
- ``avail`` (playable cells under each block) is left behind while playing: on two levels
  it is a function of ``emask``, which the move keeps, and ``_sync`` makes it right
  before any of NestedState's code runs and when the game ends;
- ``ply`` and ``last`` are read from ``trail`` (every move pushes one entry, and
  nothing else does), so no move writes them.
"""

from ..outcome import DRAW
from .marks import PROTECTED, TIE
from .state import NestedState


class TwoLevelState(NestedState):
    __slots__ = ()

    # Made when read from the trail; writes (NestedState's code) change nothing.
    @property
    def ply(self) -> int:
        n, t = 0, self.trail
        while t is not None:
            t = t[0]
            n += 1
        return n

    @ply.setter
    def ply(self, value) -> None:
        pass

    @property
    def last(self):
        t = self.trail
        return None if t is None else t[2]

    @last.setter
    def last(self, value) -> None:
        pass

    def _clone_ply(self, new) -> None:
        pass  # both follow from the trail, which the clone shares

    def to_move(self) -> tuple[int, ...]:
        if self.outcome is None:
            return self.game.seat_tuples[self.turn]
        return ()

    def legal_moves(self, seat: int) -> list:
        """The list is shared (by positions alike): read it, never mutate it."""
        if seat == self.turn and self.outcome is None:
            area = self.area
            if area:
                return self.game.area_rows[area][self.emask[area]]
            return self._free_moves()
        return []

    def _free_moves(self) -> list:
        """Every playable cell of the open blocks (a new list)."""
        game = self.game
        r = game.area_rows
        e = self.emask
        if game.nine_blocks:  # Ultimate's 3x3 blocks of 3x3 cells: unrolled (-25%)
            out = r[1][e[1]][:]
            more = out.extend
            more(r[2][e[2]])
            more(r[3][e[3]])
            more(r[4][e[4]])
            more(r[5][e[5]])
            more(r[6][e[6]])
            more(r[7][e[7]])
            more(r[8][e[8]])
            more(r[9][e[9]])
            return out
        out = []
        for ib in game.geometry.inner_ids:
            if e[ib]:
                out += r[ib][e[ib]]
        return out

    # ``NestedState.apply``'s simple path for this shape: keep the two in step. A move
    # is checked by identity: the game's own Move for its cell (every list and
    # ``parse_move`` hand those out; only that object is found at its own target, and
    # a negative target finds another); an equal copy takes NestedState's checks.
    def apply(self, seat: int, move) -> None:
        """Play ``move`` for ``seat``; IllegalMove (state untouched) if it may not."""
        if seat == self.turn and self.outcome is None:
            game = self.game
            try:
                i = move[1]
                own = game.moves[i] is move
            except Exception:  # not a Move of this game: NestedState's checks say why
                own = False
            if own:
                ib, bit, dest = game.two_level_info[i]
                emask = self.emask
                em = emask[ib]
                area = self.area
                if em & bit and (area == ib or not area):
                    em ^= bit
                    emask[ib] = em
                    self.cell[i] = seat
                    masks = self.tmask[seat]
                    tm = masks[ib] | bit
                    masks[ib] = tm
                    self.trail = (self.trail, seat, move)
                    if game.block_wins[tm]:  # the block was open: it had a playable cell
                        if game.plain_peak:
                            self._won_block(ib, seat, em)
                        else:
                            self._sync()
                            self._captured(ib, seat)
                            if self.outcome is None:
                                self._ties(game.cell_info[i][2])
                        if self.outcome is not None:
                            return None
                    elif not em:  # the block is full
                        if game.plain_peak:
                            self._drawn_block(ib)
                        else:
                            self._sync()
                            self._ties(game.cell_info[i][2])
                        if self.outcome is not None:
                            return None
                    self.area = dest if emask[dest] else 0
                    self.turn = 1 - seat
                    return None
        self._sync()
        return NestedState.apply(self, seat, move)

    def _sync(self) -> None:
        """``avail`` made right again. On two levels it is a function of ``emask`` (a
        block's playable cells, the peak's their sum), so the playing path leaves it and
        everything that reads it (NestedState's code) is called after this."""
        emask, avail = self.emask, self.avail
        total = 0
        for ib in self.game.geometry.inner_ids:
            n = emask[ib].bit_count()
            avail[ib] = n
            total += n
        avail[0] = total

    # A block decided, where the peak is won by a line of blocks and a drawn block counts
    # for nobody (``NestedGame.plain_peak``): ``_captured``, ``_seal``, ``_decided`` and
    # ``_ties`` for this shape, in their order.
    def _won_block(self, ib: int, seat: int, em: int) -> None:
        game = self.game
        self.bown[ib] = seat
        emask = self.emask
        if em:  # locked: the block's empty cells become protected
            cells, cell = game.geometry.cells_of[ib], self.cell
            for p in game.mask_bits[em]:
                cell[cells[p]] = PROTECTED
            emask[ib] = 0
        masks = self.tmask[seat]
        pm = masks[0] | game.peak_bit[ib]
        masks[0] = pm
        if game.block_wins[pm]:
            self.bown[0] = seat
            self._sync()
            return self._win(seat, 0)
        if not any(emask):
            self._board_full()
        return None

    def _drawn_block(self, ib: int) -> None:
        self.bown[ib] = TIE
        self.dmask[0] |= self.game.peak_bit[ib]
        if not any(self.emask):
            self._board_full()

    def _board_full(self) -> None:
        self.bown[0] = TIE
        self._sync()
        self._finish([DRAW] * self.game.nseats, "draw", "Every block is complete")

    def forfeit(self, seat: int, reason: str = "resignation") -> None:
        self._sync()
        return NestedState.forfeit(self, seat, reason)

    play = apply  # the trusted apply: apply's checks cost less than a second body would
