"""The end of a general-family game, as a part of ``GeneralState`` (its own module: the
state's code is long enough): a completed line, a decided board (multi-board games:
most boards won wins), the stalemate rule, and the outcome written once."""

from ..outcome import DRAW as R_DRAW
from ..outcome import LOSS, WIN, Outcome, board_results, boards_detail
from .endings import dq_note, overachieved, stalemate_results, stalemate_verdict


class Finish:
    __slots__ = ()

    # -- ending ---------------------------------------------------------------------
    def _line(self, seat: int, line: int, wins: bool, label: str, space: int) -> None:
        g = self.game
        team = g.teams[seat]
        if wins:
            results = [WIN if g.teams[s] == team else LOSS for s in range(g.nseats)]
        else:
            results = [LOSS if g.teams[s] == team else WIN for s in range(g.nseats)]
        # "black (seat 1)"; where seats choose colours, the seat alone ("seat 2", not
        # "seat 2 (seat 2)")
        who = (
            f"{g.color_names[g.seat_color[seat]]} (seat {seat + 1})"
            if not g.choose
            else f"seat {seat + 1}"
        )
        detail = f"{label}: {who} completed a line"
        if g.ends.overachievers:  # the first winners are disqualified: play may go on
            lost = 0 if wins else sum(1 << s for s in range(g.nseats) if g.teams[s] == team)
            results = overachieved(self, results, lost)
            if results is None:
                self.converted = []
                return None if self._typed_endings(seat) else self._go_on(seat)
            detail += dq_note(self)
        if not g.multi:
            return self._finish(results, "victory", detail, (g.line_coords(line),))
        self.converted = []
        if not self._decide_board(space // g.geometry.cells, results, g.line_coords(line)):
            self._go_on(seat)
        return None

    def _decide_board(self, board: int, results: list[str], line=None) -> bool:
        """Record a board's result and lock it; True if that ended the game (most boards
        won wins, as in the flat family)."""
        g = self.game
        self.decided[board] = (board_results(results), line)
        self.free &= ~g.board_targets[board]
        self.closed |= g.board_spaces[board]
        if all(d is not None for d in self.decided):
            self._finish_boards()
            return True
        return False

    def _finish_boards(self) -> None:
        g = self.game
        wins = [sum(d[0][s] == WIN for d in self.decided) for s in range(g.nseats)]
        best = max(wins)
        if best == 0 or all(w == best for w in wins):
            results = [R_DRAW] * g.nseats
        else:
            results = [WIN if w == best else LOSS for w in wins]
        lines = tuple(d[1] for d in self.decided if d[1])
        detail = boards_detail(self.decided)
        self._finish(results, "boards", detail, lines)

    def _stalemate(self, why: str = "") -> None:
        if self._next_phase_instead():  # before the last phase, stalemate ends the phase
            return None
        g = self.game
        if g.multi and not g.typed_stalemate:  # (typed endings: over all boards, below)
            for b, d in enumerate(self.decided):
                if d is None:
                    self.decided[b] = (board_results(stalemate_results(self, b)), None)
            return self._finish_boards()
        results, label = stalemate_verdict(self)
        reason = "draw" if all(r == R_DRAW for r in results) else "stalemate"
        self._finish(results, reason, f"{why}: {label}" if why else label, ())

    def _finish(self, results: list[str], reason: str, detail: str, lines) -> None:
        g = self.game
        if g.chaos is not None:
            players = [r for s, r in enumerate(results) if s != g.chaos]
            if all(r == WIN for r in players):
                results[g.chaos] = LOSS  # if all players win, Chaos loses
        for s in range(g.nseats):
            if self.out >> s & 1:
                results[s] = LOSS
        self.offer = None
        self.outcome = Outcome(tuple(results), reason, detail, tuple(lines))
