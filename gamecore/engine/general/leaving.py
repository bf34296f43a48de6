"""Leaving, as a part of ``GeneralState`` (its own module: the state's code is long
enough): a seat's forfeit and a skipped turn, both decided by the match layer."""

from ..errors import IllegalMove
from ..outcome import LOSS, WIN


class Leaving:
    __slots__ = ()

    # -- leaving (decided by the match layer) ------------------------------------------
    def forfeit(self, seat: int, reason: str = "resignation") -> None:
        """``seat`` leaves and its team loses; one team left wins, else play goes on."""
        g = self.game
        if self.outcome is not None:
            raise IllegalMove("the game is over")
        if not 0 <= seat < g.nseats or seat == g.chaos or self.out >> seat & 1:
            raise IllegalMove(f"seat {seat + 1} cannot forfeit")
        team = g.teams[seat]
        for s in range(g.nseats):
            if g.teams[s] == team:
                self.out |= 1 << s
        live = {g.teams[s] for s in range(g.nseats) if not self.out >> s & 1 and s != g.chaos}
        if len(live) <= 1:
            results = [WIN if g.teams[s] in live else LOSS for s in range(g.nseats)]
            return self._finish(results, reason, f"Seat {seat + 1} left the game ({reason})", ())
        self.offer = None
        if self.ph.simultaneous:
            return self._forfeit_in_round()
        if self.out >> self.turn & 1:
            self.placed = 0
            self._next_turn()
        return None

    def skip(self, seat: int) -> None:
        """The seat to move loses its turn (a timer's "skip" consequence); in a
        simultaneous round, the seat's plan is nothing."""
        if self.ph.simultaneous and self.outcome is None and self.offer is None:
            return self._skip_plan(seat)
        if self.outcome is not None or self.offer is not None or seat != self.turn:
            raise IllegalMove(f"seat {seat + 1} is not the seat to move")
        self.passes = 0
        self._next_turn()
