"""FastState specialised by the board's shape, chosen by ``Game.new_initial_state``: each
``apply`` is FastState's for its case alone (no branch for the others), each
``legal_moves`` reads its case's list directly. Same results as ``State``:
``tests/test_trusted_paths.py`` plays every catalogue game of each shape, and documents off
the catalogue, side by side with it. ``play`` is ``apply`` (its checks cost less than a
second copy of the body would be worth). Keep each ``apply`` in step with
``FastState.apply``.

In these shapes (reserves that cannot run out, one piece a turn, nothing ever removed) a
move writes only what the next move reads: the colour masks, the open targets, the
heights, the turn and the last move. What follows from the masks is made when read:
``reserves`` and ``ply`` (CountedFastState) and, where each seat has a colour of its own,
``board`` (DrawnFastState). Writes to them change nothing (the masks are the truth): the
fast applies skip them, and State's code, which a fast apply falls back to for odd input,
keeps the masks in step as it always does.
"""

import sys

from .fast import FastState

getrefcount = sys.getrefcount


class CountedFastState(FastState):
    """``reserves`` and ``ply`` made when read from the colour masks: a colour's reserve is
    its start count less the pieces placed since, and ``ply`` is the pieces placed."""

    __slots__ = ()

    def _start_fields(self, board: list, reserves: list) -> None:
        self.board = board[:]  # (reserves and ply follow from the masks)

    @property
    def reserves(self) -> list:
        """A new list each read (writing to it changes nothing)."""
        start = self.game.start
        pairs = zip(start[4], self.cmask, start[1], strict=True)
        return [n - (c ^ c0).bit_count() for n, c, c0 in pairs]

    @reserves.setter
    def reserves(self, value) -> None:
        pass  # follows from the masks

    @property
    def ply(self) -> int:
        placed = sum(c.bit_count() for c in self.cmask)
        return placed - sum(c.bit_count() for c in self.game.start[1])

    @ply.setter
    def ply(self, value) -> None:
        pass  # follows from the masks

    def _clone_fields(self, new) -> None:
        new.board = self.board[:]


class DrawnFastState(CountedFastState):
    """``board`` too made when read, from the masks (a colour per seat,
    ``Game.fast_drawn``): the start board with each piece placed since in its seat's code.
    The list is kept until the masks change, so a view reading it space by space draws it
    once; a list read before a move is not updated by it."""

    __slots__ = ("_board", "_seen")

    @property
    def board(self) -> list:
        cmask = self.cmask
        if self._seen != cmask:
            g = self.game
            start, start_cm = g.start[0], g.start[1]
            board = start[:]
            codes = g.fast_color_code
            for c, m in enumerate(cmask):
                new = m ^ start_cm[c]
                while new:
                    low = new & -new
                    board[low.bit_length() - 1] = codes[c]
                    new ^= low
            self._board = board
            self._seen = cmask[:]
        return self._board

    @board.setter
    def board(self, value) -> None:
        self._seen = None  # follows from the masks: drawn again when next read

    def _clone_fields(self, new) -> None:
        new._seen = None

    def _start_fields(self, board: list, reserves: list) -> None:
        self._seen = None  # (all three follow from the masks)


class SmallFastState(DrawnFastState):
    """FastState on a board of at most 12 spaces (not stacks) whose reserves cannot run
    out, with one turn check: Tic-Tac-Toe's size, where a game is a few moves and every
    line of ``apply`` shows. The target is the space; the table of complete lines says
    whether the move ended the game. ``play`` is ``apply`` (its checks cost less than a
    second copy of the body would be worth)."""

    __slots__ = ()

    def legal_moves(self, seat: int) -> list:
        # (its lists: one per set of open targets, made at compile time; never mutate one)
        if seat == self.turn and self.outcome is None:
            return self.game.fast_table[self.free]
        return []

    def apply(self, seat: int, move) -> None:
        """Play ``move`` for ``seat``; IllegalMove (state untouched) if it may not."""
        if seat == self.turn and self.outcome is None:
            free = self.free
            g = self.game
            try:
                t = move[1]
                own = free >> t & 1 and g.fast_moves[t] is move
            except Exception:  # not a Move of this game: State's checks say why
                own = False
            if own:
                ri = g.seat_color[seat]
                self.free = free = free ^ (1 << t)
                cm = self.cmask[ri] | (1 << t)
                self.cmask[ri] = cm
                self.last = move
                if g.fast_wintab[cm] and self._ended(seat, t, cm):
                    return None
                self.turn = s = 1 - seat
                if not free:
                    self._cannot_place(s)
                return None
        return FastState.apply(self, seat, move)

    play = apply


class StacksFastState(DrawnFastState):
    """FastState on a stacks board of at most 12 stacks (Connect4's 7), no locks, whose
    reserves cannot run out, with one turn check read from the lines through the space a
    piece lands on (``Game._landing_lines``): ``apply``'s stacks branch alone, its list
    read from ``Game.fast_table``. ``play`` is ``apply``, as in SmallFastState."""

    __slots__ = ()

    def legal_moves(self, seat: int) -> list:
        # (its lists: one per set of open targets, made at compile time; never mutate one)
        if seat == self.turn and self.outcome is None:
            return self.game.fast_table[self.free]
        return []

    def apply(self, seat: int, move) -> None:
        """Play ``move`` for ``seat``; IllegalMove (state untouched) if it may not."""
        if seat == self.turn and self.outcome is None:
            free = self.free
            g = self.game
            try:
                t = move[1]
                own = free >> t & 1 and g.fast_moves[t] is move
            except Exception:  # not a Move of this game: State's checks say why
                own = False
            if own:
                ri = g.seat_color[seat]
                heights = self.heights
                h = heights[t]
                space = g.stack_base[t] + h * g.layer
                h += 1
                heights[t] = h
                if h == g.height:
                    self.free = free = free ^ (1 << t)
                cm = self.cmask[ri] | (1 << space)
                self.cmask[ri] = cm
                self.last = move
                if (cm & g.fast_star[space]).bit_count() >= g.fast_k - 1 and self._ended(
                    seat, space, cm
                ):
                    return None
                self.turn = s = 1 - seat
                if not free:
                    self._cannot_place(s)
                return None
        return FastState.apply(self, seat, move)

    play = apply


class BigFastState(CountedFastState):
    """FastState on one board of more than 24 spaces, not stacks (Qubic-4, the gomoku
    boards), whose reserves cannot run out, with one turn check: the kept list cut in
    place, the lines tested only where the spaces of the lines through the new piece hold
    k - 1 of the mover's pieces, then the run through it counted (boards with many lines
    through a space) or each line tested."""

    __slots__ = ()

    def legal_moves(self, seat: int) -> list:
        # (one list per state, cut by apply: never mutate it)
        if seat == self.turn and self.outcome is None:
            moves = self.moves
            if moves is None:
                moves = self.moves = self._placements()
            return moves
        return []

    def apply(self, seat: int, move) -> None:
        """Play ``move`` for ``seat``; IllegalMove (state untouched) if it may not."""
        if seat == self.turn and self.outcome is None:
            free = self.free
            g = self.game
            try:
                t = move[1]
                own = free >> t & 1 and g.fast_moves[t] is move
            except Exception:  # not a Move of this game: State's checks say why
                own = False
            if own:
                ri = g.seat_color[seat]
                moves = self.moves
                if moves is not None:  # (held by another too: cut a copy; see fast.py)
                    if getrefcount(moves) > 3:
                        moves = self.moves = moves[:]
                    del moves[(free & g.below[t]).bit_count()]
                self.free = free = free ^ (1 << t)
                self.board[t] = g.seat_code[seat]  # (the run count reads it)
                cm = self.cmask[ri] | (1 << t)
                self.cmask[ri] = cm
                self.last = move
                if (cm & g.fast_star[t]).bit_count() >= g.fast_k - 1 and self._ended(seat, t, cm):
                    return None
                self.turn = s = 1 - seat
                if not free:
                    self._cannot_place(s)
                return None
        self.moves = None
        return FastState.apply(self, seat, move)

    play = apply
