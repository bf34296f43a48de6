"""FastState specialised by the board's shape, chosen by ``Game.new_initial_state``: each
``apply`` is FastState's for its case alone (no branch for the others), each
``legal_moves`` reads its case's list directly. Same results as ``State``:
``tests/test_trusted_paths.py`` plays every catalogue game of each shape, and documents off
the catalogue, side by side with it. ``play`` is ``apply`` (its checks cost less than a
second copy of the body would be worth). Keep each ``apply`` in step with
``FastState.apply``.
"""

import sys

from .fast import FastState

getrefcount = sys.getrefcount


class SmallFastState(FastState):
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
                self.reserves[ri] -= 1  # never to 0 before the board fills (fast_plenty)
                self.free = free = free ^ (1 << t)
                self.board[t] = g.seat_code[seat]
                cm = self.cmask[ri] | (1 << t)
                self.cmask[ri] = cm
                self.ply += 1
                self.last = move
                if g.fast_wintab[cm] and self._ended(seat, t, cm):
                    return None
                self.turn = s = 1 - seat
                if not free:
                    self._cannot_place(s)
                return None
        return FastState.apply(self, seat, move)

    play = apply


class StacksFastState(FastState):
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
                self.reserves[ri] -= 1  # never to 0 before the board fills (fast_plenty)
                heights = self.heights
                h = heights[t]
                space = g.stack_base[t] + h * g.layer
                h += 1
                heights[t] = h
                if h == g.height:
                    self.free = free = free ^ (1 << t)
                self.board[space] = g.seat_code[seat]
                cm = self.cmask[ri] | (1 << space)
                self.cmask[ri] = cm
                self.ply += 1
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


class BigFastState(FastState):
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
                self.reserves[ri] -= 1  # never to 0 before the board fills (fast_plenty)
                moves = self.moves
                if moves is not None:  # (held by another too: cut a copy; see fast.py)
                    if getrefcount(moves) > 3:
                        moves = self.moves = moves[:]
                    del moves[(free & g.below[t]).bit_count()]
                self.free = free = free ^ (1 << t)
                self.board[t] = g.seat_code[seat]
                cm = self.cmask[ri] | (1 << t)
                self.cmask[ri] = cm
                self.ply += 1
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
