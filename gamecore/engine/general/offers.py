"""Passes and draw offers, as a part of ``GeneralState`` (its own module: the state's code
is long enough): every move that is not a placement or a step, and the answers to a draw
offer. ``GeneralState.apply`` hands them here, so the piece moves' path stays short."""

from ..errors import IllegalMove
from ..outcome import DRAW as R_DRAW
from .moves import ACCEPT, ACCEPT_MOVE, DECLINE, DECLINE_MOVE, DRAW, DRAW_MOVE, PASS, PASS_MOVE


class Offers:
    __slots__ = ()

    def _apply_other(self, seat: int, move) -> None:
        g = self.game
        if self.outcome is not None:
            raise IllegalMove(f"{move}: the game is over")
        if not isinstance(seat, int) or not 0 <= seat < g.nseats:
            raise IllegalMove(f"there is no seat {seat} in this game")
        kind = getattr(move, "kind", None)
        if self.offer is not None:
            return self._answer(seat, move, kind)
        if seat != self.turn:
            raise IllegalMove(f"{move}: it is seat {self.turn + 1}'s turn, not seat {seat + 1}'s")
        if kind == PASS and move == PASS_MOVE:
            if self.chain >= 0:  # ends the chain, and the turn
                self.ply += 1
                self.last = move
                return self._next_turn()
            if not self.ph.allow_pass:
                raise IllegalMove("this game has no option to pass")
            self.ply += 1
            self.last = move
            self.passes += 1
            if self.passes >= len(self._active_seats()):
                return self._stalemate()
            return self._next_turn()
        if kind == DRAW and move == DRAW_MOVE:
            return self._offer(seat, move)
        if kind in (ACCEPT, DECLINE):
            raise IllegalMove(f"{move}: there is no draw offer to answer")
        raise IllegalMove(f"{move!r} is not a move of this game")

    def _offer(self, seat: int, move) -> None:
        g = self.game
        if not g.agree_draw:
            raise IllegalMove("this game has no option to agree a draw")
        if seat == g.chaos:
            raise IllegalMove("Chaos cannot offer a draw")
        if self.placed or self.chain >= 0:
            raise IllegalMove("a draw is offered at the start of a turn")
        if self.declined:
            raise IllegalMove("your draw offer was declined this turn: choose another move")
        self.ply += 1
        self.last = move
        self.offer = [
            s for s in range(g.nseats) if s != seat and s != g.chaos and not self.out >> s & 1
        ]
        if not self.offer:
            self._agreed_draw()
        return None

    def _answer(self, seat: int, move, kind) -> None:
        if seat not in self.offer:
            raise IllegalMove(
                f"{move}: waiting for seat(s) "
                f"{', '.join(str(s + 1) for s in self.offer)} to answer a draw offer"
            )
        if kind == ACCEPT and move == ACCEPT_MOVE:
            self.offer = [s for s in self.offer if s != seat]
            self.ply += 1
            self.last = move
            if not self.offer:
                self._agreed_draw()
        elif kind == DECLINE and move == DECLINE_MOVE:
            self.offer = None
            self.declined = True
            self.ply += 1
            self.last = move
        else:
            raise IllegalMove(f"{move}: answer the draw offer with 'accept' or 'decline'")

    def _agreed_draw(self) -> None:
        self.offer = None
        self._finish([R_DRAW] * self.game.nseats, "agreed-draw", "All players agreed a draw", ())
