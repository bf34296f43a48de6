"""NestedState: one position of a nested-board match, with the engine's public API.

Truth: ``cell`` (a team, or EMPTY / OBSTACLE / PROTECTED per cell), ``bown`` (OPEN, TIE
or the team that captured each block), the turn fields and the allowed ``area`` (a block
id; 0, the peak, means anywhere). Kept in step by every move: ``tmask`` (per team and
block, the children it owns as bits), ``dmask`` (drawn children), ``emask`` (per
innermost block, its playable cells as bits) and ``avail`` (playable cells under a block).
"""

import random

from ..errors import IllegalMove
from ..moves import PLACE, Move
from ..outcome import LOSS, WIN
from .captures import Captures
from .filters import MoveFilters
from .marks import EMPTY, OBSTACLE, OPEN, PROTECTED

CACHE_LIMIT = 100_000


class NestedState(Captures, MoveFilters):
    __slots__ = (
        "trail",
        "game", "seed", "cell", "bown", "tmask", "dmask", "emask", "avail", "area",
        "turn", "moved", "hist", "last_inner", "outcome", "ply", "last", "out", "known",
        "threats",
    )  # fmt: skip

    def __init__(self, game, seed=None):
        geo = game.geometry
        self.game = game
        self.seed = seed
        self.trail = None  # the moves so far, newest first: (older trail, team, move)
        self.cell = [EMPTY] * geo.ncells
        self.bown = [OPEN] * geo.nblocks
        self.tmask = [[0] * geo.nblocks for _ in game.teams]
        self.dmask = [0] * geo.nblocks
        self.emask = [0] * geo.nblocks
        for ib in geo.inner_ids:
            self.emask[ib] = (1 << geo.P) - 1
        self.avail = [geo.P ** (geo.N - geo.level[b]) for b in range(geo.nblocks)]
        self.area = 0
        self.turn = 0
        self.moved = 0  # simultaneous order: the teams that moved this round, as bits
        self.hist = [()] * game.nseats  # Kyū: the last two blocks each team was sent to
        self.last_inner = [-1] * game.nseats  # innermost block of each team's last move
        self.outcome = None
        self.ply = 0
        self.last = None
        self.out = 0  # teams disqualified (resigned, timed out), as bits
        self.known = None  # filtered games: (position key, its legal moves, their targets)
        self.threats = None  # quick Checked: (position key, the blocks threatened)
        if game.symmetric or game.random_setup:
            self._set_up(random.Random(seed) if game.random_setup else None)
            if game.filtered and self.outcome is None:
                self._detect_stuck(full=True)  # the set-up may leave no valid move

    # -- set-up: obstacles and scouts, from the match's seed --------------------------------
    def _set_up(self, rng: random.Random) -> None:
        opts, geo = self.game.opts, self.game.geometry
        for i in self.game.symmetric:
            self._block(i, OBSTACLE)
        blocks = len(geo.inner_ids)
        if opts.random_obstacles:
            self._scatter_obstacles(rng, opts.random_obstacles)
        per_team = round(opts.scouts * blocks / 2)
        for k in range(per_team * self.game.nseats):
            i = self._random_empty(rng)
            if i is None or self.outcome is not None:
                break
            self._mark(i, k % self.game.nseats)

    def _scatter_obstacles(self, rng: random.Random, value: int) -> None:
        """The seed's "roughly value/2 obstacles per block": every innermost block gets
        value // 2, and an odd value one more with even odds; a block keeps at least one
        playable cell (READINGS.md)."""
        geo = self.game.geometry
        for ib in geo.inner_ids:
            count = value // 2 + (value % 2 and rng.random() < 0.5)
            empty = [i for i in geo.cells_of[ib] if self.cell[i] == EMPTY]
            for i in rng.sample(empty, max(0, min(count, len(empty) - 1))):
                self._block(i, OBSTACLE)

    def _random_empty(self, rng):
        empty = [i for i, v in enumerate(self.cell) if v == EMPTY]
        return rng.choice(empty) if len(empty) > 1 else None

    def _block(self, i, kind) -> None:
        if i is None:
            return
        geo = self.game.geometry
        self.cell[i] = kind
        self.emask[geo.inner[i]] &= ~(1 << geo.pos[i])
        for b in geo.anc[i]:
            self.avail[b] -= 1
        self._ties(geo.anc[i])

    # -- reading ------------------------------------------------------------------------
    def to_move(self) -> tuple[int, ...]:
        if self.outcome is not None:
            return ()
        if self.game.sequential:
            return self.game.seat_tuples[self.turn]
        return tuple(t for t in self.game.teams if not (self.moved | self.out) >> t & 1)

    def is_terminal(self) -> bool:
        return self.outcome is not None

    def _awaits(self, seat: int) -> bool:
        if self.game.opts.turn_order == "sequential":
            return seat == self.turn
        return 0 <= seat < self.game.nseats and not (self.moved | self.out) >> seat & 1

    def legal_moves(self, seat: int) -> list:
        """The list is shared (by positions alike): read it, never mutate it."""
        game = self.game
        if game.simple:
            if seat != self.turn or self.outcome is not None:
                return []
            area = self.area
            if area >= game.first_inner:
                moves = game.inner_moves.get((area << game.P) | self.emask[area])
                if moves is not None:
                    return moves
            return self._raw_moves()
        if self.outcome is not None or (
            seat != self.turn if self.game.sequential else not self._awaits(seat)
        ):
            return []
        if self.game.filtered:  # the filter plays candidates out: kept per position
            key = (self.ply, self.turn, self.moved, self.out, seat)
            known = self.known
            if known is not None and known[0] == key:
                return known[1]
            moves = self._filter(seat, self._raw_moves())
            targets = 0
            for m in moves:
                targets |= 1 << m.target
            self.known = (key, moves, targets)
            return moves
        return self._raw_moves()

    def _raw_moves(self) -> list:
        """The moves in the allowed area (a shared list: never mutate it)."""
        game = self.game
        geo = game.geometry
        area = self.area
        if geo.level[area] == game.inner_level:
            moves = game.inner_moves.get((area << geo.P) | self.emask[area])
            return moves if moves is not None else self._inner_moves(area, self.emask[area])
        return self._gather(area)

    def _gather(self, area: int) -> list:
        out = []
        emask = self.emask
        game = self.game
        known, shift = game.inner_moves, game.P
        for ib in game.geometry.inner_under[area]:
            m = emask[ib]
            if m:
                moves = known.get((ib << shift) | m)
                out += moves if moves is not None else self._inner_moves(ib, m)
        return out

    def _inner_moves(self, ib: int, mask: int) -> list:
        game = self.game
        key = (ib << game.geometry.P) | mask
        moves = game.inner_moves.get(key)
        if moves is None:
            cells = game.geometry.cells_of[ib]
            moves = [game.moves[cells[p]] for p in range(game.geometry.P) if mask >> p & 1]
            if len(game.inner_moves) < CACHE_LIMIT:
                game.inner_moves[key] = moves
        return moves

    # -- playing ------------------------------------------------------------------------
    def apply(self, seat: int, move) -> None:
        game = self.game
        geo = game.geometry
        if game.simple and seat == self.turn and self.outcome is None and move.__class__ is Move:
            # The common case, checked in a few steps and played inline: _play and
            # _route line for line (keep them in step), for no filter and no Kyū; the
            # last block of each team (``last_inner``) is kept only where a filter
            # (no sending back) reads it.
            kind, i, combo, _ = move
            if not kind and not combo and 0 <= i < game.ntargets:
                ib, bit, anc, within, lines = game.simple_info[i]
                area = self.area
                emask = self.emask
                em = emask[ib]
                if em & bit and (not area or within >> area & 1):
                    self.ply += 1
                    self.cell[i] = seat
                    emask[ib] = em ^ bit
                    avail = self.avail
                    if game.two_levels:  # the peak and one block: no loop
                        left = avail[0] - 1
                        avail[0] = left
                        inner = avail[ib] - 1
                        avail[ib] = inner
                        emptied = not left or not inner
                    else:
                        emptied = False
                        for b in anc:
                            left = avail[b] - 1
                            avail[b] = left
                            if not left:
                                emptied = True
                    masks = self.tmask[seat]
                    tm = masks[ib] | bit
                    masks[ib] = tm
                    bown = self.bown
                    if bown[ib] == OPEN:
                        wins = game.block_wins
                        if wins is not None:
                            if wins[tm]:
                                self._captured(ib, seat)
                                emptied = True
                        else:
                            for line in lines:
                                if tm & line == line:
                                    self._captured(ib, seat)
                                    emptied = True
                                    break
                    if emptied and self.outcome is None:
                        self._ties(anc)
                    self.last = move
                    self.trail = (self.trail, seat, move)
                    if self.outcome is None:
                        if game.two_levels:  # sent to one block, or free (0)
                            b = game.dest_block[i]
                            area = (
                                b
                                if avail[b] and (not game.free_when_decided or bown[b] == OPEN)
                                else 0
                            )
                        else:
                            area = 0
                            decided = game.free_when_decided
                            for b in game.dest[i]:
                                if not avail[b] or (decided and bown[b] != OPEN):
                                    break
                                area = b
                        self.area = area
                        self.turn = self._live_after(seat) if self.out else game.next_seat[seat]
                    return
        if (
            not game.filtered
            and game.sequential
            and seat == self.turn
            and self.outcome is None
            and move.__class__ is Move
        ):  # the common case, checked in a few steps
            kind, i, combo, _ = move
            if not kind and not combo and 0 <= i < geo.ncells:
                area = self.area
                if self.emask[geo.inner[i]] >> geo.pos[i] & 1 and (
                    not area or geo.anc[i][geo.level[area]] == area
                ):
                    self._play(seat, i, True)
                    self.last = move
                    self.trail = (self.trail, seat, move)
                    return
        if (
            self.outcome is not None
            or move.kind != PLACE
            or (seat != self.turn if game.sequential else not self._awaits(seat))
        ):
            raise IllegalMove(self._why_not(seat, move))
        i = move.target
        if not 0 <= i < geo.ncells or move.combo:
            raise IllegalMove(f"{move!r}: not a cell of this board")
        if not self.emask[geo.inner[i]] >> geo.pos[i] & 1:
            raise IllegalMove(f"{move}: {self._cell_word(i)}")
        area = self.area
        if area and geo.anc[i][geo.level[area]] != area and not self._released(seat, move):
            raise IllegalMove(f"{move}: the move must be in block {self._area_text()}")
        # (a placement on a playable cell, checked above: its target says which)
        if game.filtered and not self._kept(seat, move.target):
            raise IllegalMove(f"{move}: {self._filter_reason()}")
        self._play(seat, i, True)
        self.last = move
        self.trail = (self.trail, seat, move)

    def random_move(self, rng):
        """A uniformly random legal move of the first seat ``to_move`` (None at the end)."""
        seats = self.to_move()
        if not seats:
            return None
        moves = self.legal_moves(seats[0])
        return moves[int(rng.random() * len(moves))]

    def playout(self, rng) -> int:
        """Play uniformly random legal moves (``random_move``) to the end; the number of
        moves. For rollouts and benchmarks: the trusted play, nothing asked twice."""
        n = 0
        while self.outcome is None:
            self.play(self.to_move()[0], self.random_move(rng))
            n += 1
        return n

    def play(self, seat: int, move) -> None:
        """The trusted apply, for internal callers (bots, tools) that pass a move of
        ``legal_moves(seat)`` of this very position: no checks (on simple games apply's
        inline path, whose few checks cost less than the calls they save)."""
        if self.game.simple:
            return self.apply(seat, move)
        self._play(seat, move.target, True)
        self.last = move
        self.trail = (self.trail, seat, move)

    def _play(self, seat: int, i: int, detect: bool) -> None:
        """Place ``seat``'s mark on cell i (already checked), settle captures and ties,
        and route the next move. ``_mark`` inlined: this runs on every playout move."""
        game = self.game
        ib, p, anc, lines = game.cell_info[i]
        self.ply += 1
        self.last_inner[seat] = ib
        self.cell[i] = seat
        self.emask[ib] &= ~(1 << p)
        avail = self.avail
        emptied = False
        for b in anc:
            left = avail[b] - 1
            avail[b] = left
            if not left:
                emptied = True
        masks = self.tmask[seat]
        tm = masks[ib] | (1 << p)
        masks[ib] = tm
        if self.bown[ib] == OPEN:
            for line in lines:
                if tm & line == line:
                    self._captured(ib, seat)
                    emptied = True  # sealing may have emptied blocks above
                    break
        if emptied and self.outcome is None:
            self._ties(anc)
        if self.outcome is None:
            self._route(i, seat, detect)

    def _why_not(self, seat, move) -> str:
        if self.outcome is not None:
            return f"{move}: the game is over"
        if move.kind != PLACE:
            return f"{move}: nested boards take placements only"
        if not 0 <= seat < self.game.nseats:
            return f"there is no seat {seat + 1} in this game"
        waiting = ", ".join(str(s + 1) for s in self.to_move())
        return f"{move}: it is not seat {seat + 1}'s turn (waiting for {waiting})"

    def _cell_word(self, i: int) -> str:
        v = self.cell[i]
        if v >= 0:
            return "that cell is taken"
        return {OBSTACLE: "that cell is an obstacle", PROTECTED: "that cell is protected"}.get(
            v, "that cell is not playable"
        )

    def _area_text(self) -> str:
        path = self.game.geometry.block_path(self.area)
        return "/".join(str(p + 1) for p in path)

    # -- routing: where the next move must go ------------------------------------------------
    def _route(self, i: int, seat: int, detect: bool) -> None:
        game = self.game
        dest = game.dest[i]
        area, free = 0, False
        avail = self.avail
        when_decided = game.free_when_decided
        for b in dest:
            if not avail[b] or (when_decided and self.bown[b] != OPEN):
                free = True
                break
            area = b
        self.area = area
        nxt = seat + 1
        if nxt == game.nseats:
            nxt = 0
        if self.out:
            nxt = self._live_after(seat)
        if game.sequential:
            self.turn = nxt
        else:
            self._round_done(seat)
        if game.kyu:  # a free move resets the history of the team that gets it
            self.hist[nxt] = () if free or not dest else (*self.hist[nxt][-1:], dest[-1])
        if detect and game.filtered:
            self._detect_stuck()  # the team(s) to move have a valid move, or it ends

    def _round_done(self, team: int) -> None:
        self.moved |= 1 << team
        if self.moved | self.out == (1 << self.game.nseats) - 1:
            self.moved = 0

    def _live_after(self, team: int) -> int:
        n = self.game.nseats
        t = (team + 1) % n
        while self.out >> t & 1 and t != team:
            t = (t + 1) % n
        return t

    # -- leaving: resignation, timeouts (decided by the match layer) ----------------------
    def forfeit(self, seat: int, reason: str = "resignation") -> None:
        """The team is disqualified and loses; its turns are skipped. If only one team
        remains, that team wins."""
        game = self.game
        if self.outcome is not None:
            raise IllegalMove("the game is over")
        if not 0 <= seat < game.nseats or self.out >> seat & 1:
            raise IllegalMove(f"seat {seat + 1} cannot forfeit")
        self.out |= 1 << seat
        live = [t for t in game.teams if not self.out >> t & 1]
        if len(live) == 1:
            results = [WIN if t in live else LOSS for t in game.teams]
            return self._finish(results, reason, f"Team {game.symbols[seat]} left ({reason})")
        if game.sequential and self.turn == seat:
            self.turn = self._live_after(seat)
        elif not game.sequential and self.moved | self.out == (1 << game.nseats) - 1:
            self.moved = 0
        if game.filtered:  # another team to move, and its filters see one team fewer
            self._detect_stuck(full=True)

    def skip(self, seat: int) -> None:
        """The team's turn passes without a mark (a timer's "skip" consequence); the
        allowed area stays as it was."""
        if self.outcome is not None or not self._awaits(seat):
            raise IllegalMove(f"seat {seat + 1} is not to move")
        if self.game.sequential:
            self.turn = self._live_after(seat)
        else:
            self._round_done(seat)
        if self.game.filtered:  # another team to move: it has a valid move, or it ends
            self._detect_stuck(full=True)

    # -- copying and showing ------------------------------------------------------------
    def clone(self):
        cls = self.__class__
        new = cls.__new__(cls)
        new.game = self.game
        new.seed = self.seed
        new.trail = self.trail  # shared: a trail is never changed, only extended
        new.cell = self.cell[:]
        new.bown = self.bown[:]
        new.tmask = [m[:] for m in self.tmask]
        new.dmask = self.dmask[:]
        new.emask = self.emask[:]
        new.avail = self.avail[:]
        new.area = self.area
        new.turn = self.turn
        new.moved = self.moved
        new.hist = self.hist[:]
        new.last_inner = self.last_inner[:]
        new.outcome = self.outcome
        self._clone_ply(new)
        new.out = self.out
        new.known = self.known
        new.threats = self.threats
        return new

    def _clone_ply(self, new) -> None:
        """``ply`` and ``last`` (TwoLevelState reads both from the trail)."""
        new.ply = self.ply
        new.last = self.last

    # -- the move record ----------------------------------------------------------------
    def record(self) -> list[tuple[int, str]]:
        """Every move played with ``apply`` (or ``play``), oldest first: (team, notation)."""
        out = []
        t = self.trail
        while t is not None:
            t, team, move = t
            out.append((team, str(move)))
        out.reverse()
        return out

    def view(self, seat: int | None = None) -> dict:
        from .view import view

        return view(self, seat)

    def __str__(self) -> str:
        from .view import ascii_board

        return ascii_board(self)
