"""Move filters of nested boards: Kyū, no sending back (seed 002's absolute reading) and
Checked, as a part of ``NestedState`` (its own module: the state's code is long enough).

Checked keeps a move only if it does not lose at once nor leave the next team a winning
move. On two plain levels (``NestedGame.quick_checked``: Ultimate-Checked) most
candidates are proved safe by reading the opponent's threats instead of playing each one
out, and "can the team win at once" is read from the blocks, not from every move: both
from ``win_cells``; ``tests/test_trusted_paths.py`` compares that reading with playing
every candidate out on every position of random games.
"""

from ..deadline import check
from ..outcome import DRAW, LOSS, WIN
from .marks import OPEN, TIE


class MoveFilters:
    __slots__ = ()

    # -- move filters: Kyū, no sending back, Checked ----------------------------------------
    def _filter(self, seat: int, moves: list) -> list:
        game = self.game
        opts, dest = game.opts, game.dest
        nxt = self._live_after(seat)
        if opts.kyu and len(self.hist[nxt]) == 2 and self.hist[nxt][0] == self.hist[nxt][1]:
            again = self.hist[nxt][0]
            others = {dest[m.target][-1] for m in moves} - {again}
            if len(others) >= 2:  # soft: only when two other destinations exist
                moves = [m for m in moves if dest[m.target][-1] != again]
        if opts.no_send_back and self.last_inner[nxt] >= 0 and game.levels:
            # Absolute (seed 002): when every move of the allowed area would send the
            # next team back, the area is released, as for a full block (READINGS.md).
            back = self.last_inner[nxt]
            kept = [m for m in moves if dest[m.target][-1] != back]
            if not kept and self.area:
                kept = [m for m in self._board_moves() if dest[m.target][-1] != back]
            moves = kept
        if opts.checked:
            threats = self._threats(seat)
            if threats is None:
                moves = [m for m in moves if self._safe(seat, m)]
            elif threats:
                moves = [m for m in moves if self._quick_safe(m, threats) or self._safe(seat, m)]
        return moves

    def _kept(self, seat: int, i: int) -> bool:
        """The filter keeps the placement on cell i (a bit of the kept list's targets, not
        a comparison of Moves down the list)."""
        self.legal_moves(seat)
        return bool(self.known[2] >> i & 1)

    def _threats(self, seat: int):
        """Quick Checked (see NestedGame.quick_checked): the open blocks where the team
        after ``seat`` could capture at once and so complete a line at the peak; None
        where that reading does not apply (then every candidate is played out). Read from
        ``win_cells`` (per mask of a team's units, the units that would complete a line),
        once per position and seat: the check after a move and the next list ask alike."""
        game = self.game
        if not game.quick_checked or self.out:
            return None
        key = (self.ply, seat)
        cached = self.threats
        if cached is not None and cached[0] == key:
            return cached[1]
        masks = self.tmask[1 - seat]
        wins = game.win_cells
        found = set()
        blocks = wins[masks[0]]  # the peak's units that would complete the opponent's line
        if blocks:
            bown, emask = self.bown, self.emask
            first = game.first_inner
            while blocks:
                low = blocks & -blocks
                blocks ^= low
                b = first + low.bit_length() - 1
                if bown[b] == OPEN and wins[masks[b]] & emask[b]:
                    found.add(b)
        self.threats = (key, found)
        return found

    def _quick_safe(self, move, threats) -> bool:
        """Safe for sure: the move is not in a threatened block and sends the next team
        to an open block, not full and not threatened (else it is played out)."""
        geo = self.game.geometry
        i = move.target
        dest = self.game.dest[i]
        if not dest:
            return False
        d = dest[-1]
        ib = geo.inner[i]
        return (
            d != ib
            and d not in threats
            and ib not in threats
            and self.avail[d] > 0
            and self.bown[d] == OPEN
        )

    def _filter_reason(self) -> str:
        opts = self.game.opts
        named = (("the Kyū rule", opts.kyu), ("no sending back", opts.no_send_back),
                 ("Checked", opts.checked))  # fmt: skip
        rules = [name for name, on in named if on]
        return "not allowed by " + " / ".join(rules)

    def _safe(self, seat: int, move) -> bool:
        """Checked: a move may not lose at once, nor (unless Inverted) leave the next team
        a winning move."""
        if self.game.quick_checked and not self.out:
            return self._safe_read(seat, move.target)
        check()  # each candidate played out: a caller's deadline holds in between
        after = self.clone()
        after._play(seat, move.target, False)
        if after.outcome is not None:
            return after.outcome.results[seat] != LOSS
        if self.game.opts.inverted:
            return True
        return not after._can_win_now(after.to_move()[0])

    def _safe_read(self, seat: int, i: int) -> bool:
        """``_safe`` on two plain levels with two teams, read from the masks instead of
        played out on a copy: what the move does to its block (``_play``, ``_captured``,
        ``_seal``, ``_ties`` in their order), where it sends the next team (``_route``), and
        whether that team then has a capture completing its peak line."""
        game = self.game
        geo = game.geometry
        wins = game.win_cells
        ib, bit = geo.inner[i], 1 << geo.pos[i]
        mine, avail = self.tmask[seat], self.avail
        owner = self.bown[ib]
        em = self.emask[ib] & ~bit
        left, block_left = avail[0] - 1, avail[ib] - 1
        if owner == OPEN and wins[mine[ib]] & bit:  # the move captures its block
            if wins[mine[0]] >> geo.bpos[ib] & 1:
                return True  # and completes a line at the peak: it wins
            owner = seat
            if game.opts.lock_captured:  # sealed: the block's other cells go
                left -= block_left
                block_left = em = 0
        elif owner == OPEN and not block_left:
            owner = TIE
        if not left:
            return True  # no playable cell left: drawn
        area = 0
        for b in game.dest[i]:  # _route
            own = owner if b == ib else self.bown[b]
            if not (block_left if b == ib else avail[b]) or (
                game.free_when_decided and own != OPEN
            ):
                area = 0
                break
            area = b
        theirs = self.tmask[1 - seat]
        peak = wins[theirs[0]]
        if not peak:
            return True
        bown, emask, bpos = self.bown, self.emask, geo.bpos
        for b in (area,) if area else geo.inner_ids:
            own, e = (owner, em) if b == ib else (bown[b], emask[b])
            if own == OPEN and peak >> bpos[b] & 1 and wins[theirs[b]] & e:
                return False
        return True

    def _can_win_now(self, team: int) -> bool:
        geo = self.game.geometry
        for m in self._raw_moves():
            i = m.target
            ib, p = geo.inner[i], geo.pos[i]
            tm = self.tmask[team][ib] | (1 << p)
            if any(tm & line == line for line in geo.lines_through[p]):  # captures a block
                check()
                trial = self.clone()
                trial._play(team, i, False)
                if trial.outcome is not None and trial.outcome.results[team] == WIN:
                    return True
        return False

    def _detect_stuck(self, full: bool = False) -> None:
        """Every team to move has a legal move, or the game ends now. A team with moves
        but no valid one is checkmated (Checked); one the filters leave with none some
        other way draws (``_detect_no_move``). After a move, taking turns, Checked alone
        needs only the checkmate test (it keeps the safe moves) and Kyū alone never
        empties a list; ``full`` asks every team to move anyway: after the set-up (it
        may leave the first team none), a skipped turn or a forfeit (what the filters
        see changes). The lists asked are kept for the next caller (``known``)."""
        game, opts = self.game, self.game.opts
        if game.checked:
            for team in self.to_move():
                self._detect_checkmate(team)
                if self.outcome is not None:
                    return
        if full or opts.no_send_back or not game.sequential or (opts.kyu and opts.checked):
            self._detect_no_move()

    def _detect_checkmate(self, team: int) -> None:
        raw = self._raw_moves()
        threats = self._threats(team)
        if threats is not None and raw and (not threats or self._quick_safe(raw[0], threats)):
            return
        if raw and not any(self._safe(team, m) for m in raw):
            results = [LOSS if t == team else WIN for t in self.game.teams]
            self._finish(results, "checkmate", f"Team {self.game.symbols[team]} is checkmated")

    # -- seed 002's absolute "no sending back" -------------------------------------------
    def _released(self, seat: int, move) -> bool:
        """No sending back released the allowed area and ``move`` is one it allows."""
        return self.game.opts.no_send_back and move in self.legal_moves(seat)

    def _board_moves(self) -> list:
        """Every playable cell of the board (the allowed area released)."""
        emask = self.emask
        out = []
        for ib in self.game.geometry.inner_ids:
            if emask[ib]:
                out += self._inner_moves(ib, emask[ib])
        return out

    def _detect_no_move(self) -> None:
        """No sending back is absolute: a team left with no move that keeps it (even
        with the area released) cannot move, and the game is drawn (READINGS.md); so is
        a team the filters left with none some other way (Kyū and Checked together)."""
        for team in self.to_move():
            if not self.legal_moves(team):
                sym = self.game.symbols[team]
                why = (
                    "no move that does not send the next team back"
                    if self.game.opts.no_send_back
                    else "no move the rules allow"
                )
                return self._finish([DRAW] * self.game.nseats, "stalemate", f"{sym} has {why}")
