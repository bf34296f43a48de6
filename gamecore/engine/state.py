"""State: one position of a match. ``apply`` checks and plays a move; everything else
reads.

The truth is ``board`` (a piece code per space, 0 empty, -1 locked), ``reserves`` and the
turn fields. ``cmask`` (a bit mask per colour), ``free`` (open targets), ``heights`` (per
stack) and ``stock`` (reserve entries that are not empty) are indexes kept in step with
it by ``apply`` so that a move touches only what it changes.
"""

import sys

from gamecore.rules.vocabulary import STALEMATE_LABELS

from .errors import IllegalMove
from .moves import (
    ACCEPT,
    ACCEPT_MOVE,
    DECLINE,
    DECLINE_MOVE,
    DRAW,
    DRAW_MOVE,
    PASS,
    PASS_MOVE,
)
from .outcome import DRAW as R_DRAW
from .outcome import LOSS, WIN, Outcome, board_results, boards_detail
from .scoring import stalemate_results
from .view_text import dumps as _view_dumps
from .view_text import view_text as _view_text

LOCKED = -1
getrefcount = sys.getrefcount


def _line_words(g, seat: int, line: int, label: str):
    """The detail and lines of a game won or lost by a line, for Outcome to make lazily."""

    def make():
        # "black (seat 1)"; where seats choose colours, the seat alone ("seat 2", not
        # "seat 2 (seat 2)")
        who = (
            f"{g.color_names[g.seat_color[seat]]} (seat {seat + 1})"
            if not g.choose
            else f"seat {seat + 1}"
        )
        return f"{label}: {who} completed a line", (g.line_coords(line),)

    return make


class State:
    __slots__ = (
        "game", "seed", "board", "cmask", "heights", "free", "reserves", "stock",
        "turn", "placed", "passes", "offer", "declined", "decided", "outcome", "ply", "last",
        "out",
    )  # fmt: skip

    def __init__(self, game, seed=None):
        board, cmask, heights, free, reserves, stock = game.start
        self.game = game
        self.seed = seed
        self.board = board[:]
        self.cmask = cmask[:]
        self.heights = heights[:]
        self.free = free
        self.reserves = reserves[:]
        self.stock = stock
        self.turn = 0
        self.placed = 0  # placements made this turn (pieces_per_turn may be 2)
        self.passes = 0  # passes in a row
        self.offer = None  # seats still to answer a draw offer, or None
        self.declined = False  # the seat to move had its draw offer declined this turn
        self.decided = [None] * game.geometry.boards  # per board: results per team
        self.outcome = None
        self.ply = 0
        self.last = None
        self.out = 0  # seats that forfeited (resigned, timed out), as bits
        if not self._can_place(0) and not game.allow_pass:
            self._stalemate()

    # -- reading --------------------------------------------------------------------
    def to_move(self) -> tuple[int, ...]:
        if self.outcome is not None:
            return ()
        if self.offer is not None:
            return tuple(self.offer)
        return (self.turn,)

    def is_terminal(self) -> bool:
        return self.outcome is not None

    def legal_moves(self, seat: int) -> list:
        if self.outcome is not None or self.offer is not None or seat != self.turn:
            if self.offer is not None and self.outcome is None and seat in self.offer:
                return [ACCEPT_MOVE, DECLINE_MOVE]
            return []
        g = self.game
        combos = (self.stock & g.seat_stock[seat]) >> g.combo_shift[seat]
        extra = g.agree_draw and not self.placed and not self.declined and seat != g.chaos
        cache = g.legal_cache
        if cache is None:
            return self._generate(combos, extra)
        key = (self.free << g.key_shift) | (combos << 1) | extra
        moves = cache.get(key)
        if moves is None:
            moves = self._generate(combos, extra)
            if len(cache) < 200_000:
                cache[key] = moves
        return moves[:]

    def _generate(self, combos: int, extra: bool) -> list:
        g = self.game
        moves = []
        targets = g.geometry.spaces_of(self.free) if self.free else []
        if targets:
            for combo in g.geometry.spaces_of(combos):
                table = g.moves_for(combo)
                moves += [table[t] for t in targets]
        if g.allow_pass:
            moves.append(PASS_MOVE)
        if extra:
            moves.append(DRAW_MOVE)
        return moves

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

    # -- playing --------------------------------------------------------------------
    def play(self, seat: int, move) -> None:
        """The trusted apply, for internal callers (bots, tools) that pass a move of
        ``legal_moves(seat)`` of this very position: no checks where they cost (FastState);
        here, on the uncommon cases, simply ``apply``."""
        return self.apply(seat, move)

    def apply(self, seat: int, move) -> None:
        """Play ``move`` for ``seat``; IllegalMove (state untouched) if it may not."""
        g = self.game
        if move.kind or self.offer is not None or self.outcome is not None or seat != self.turn:
            return self._apply_other(seat, move)
        t, combo = move.target, move.combo
        if not 0 <= t < g.ntargets or not (self.free >> t) & 1:
            raise IllegalMove(
                f"{move}: that {'stack is full' if g.stacks else 'space is taken'}"
                if 0 <= t < g.ntargets
                else f"{move}: not a space of this game"
            )
        if not 0 <= combo < g.ncombos:
            raise IllegalMove(f"{move}: not a piece of this game")
        if g.choose:
            ri = combo
            color = combo // g.nshapes
        else:
            color = g.seat_color[seat]
            ri = color * g.nshapes + combo
        left = self.reserves[ri]
        if not left:
            raise IllegalMove(f"{move}: no {self._piece_name(ri)} left in reserve")
        # -- the move is legal: play it --
        self.reserves[ri] = left - 1
        if left == 1:
            self.stock &= ~(1 << ri)
        if g.stacks:
            base = g.stack_base[t]
            h = self.heights[t]
            space = base + h * g.layer
            h += 1
            if g.stack_locks:
                while h < g.height and self.board[base + h * g.layer]:
                    h += 1  # a locked space above is skipped over
            self.heights[t] = h
            if h == g.height:
                self.free &= ~(1 << t)
        else:
            space = t
            self.free &= ~(1 << t)
        self.board[space] = g.code[seat][ri]
        cm = self.cmask[color] | (1 << space)
        self.cmask[color] = cm
        self.ply += 1
        self.last = move
        self.passes = 0
        for through, wins, label in g.checks:
            for line in through[space]:
                if cm & line == line:
                    return self._line(seat, line, wins, label, g.target_board[t])
        if g.multi:
            b = g.target_board[t]
            if not self.free & g.board_targets[b] and self._decide_board(
                b, stalemate_results(self, b)
            ):
                return None
        # The turn goes on (two pieces a turn) or passes to the next seat; inlined
        # because this runs on every move of every playout.
        if self.placed + 1 < g.pieces_per_turn and self.free and self.stock & g.seat_stock[seat]:
            self.placed += 1
            return None
        s = seat + 1
        if s == g.nseats:
            s = 0
        if self.out:
            s = self._live_after(seat)
        self.turn = s
        self.placed = 0
        self.declined = False
        if not (self.free and self.stock & g.seat_stock[s]):
            self._cannot_place(s)
        return None

    def _after_placement(self, seat: int) -> None:
        placed = self.placed + 1
        if placed < self.game.pieces_per_turn and self._can_place(seat):
            self.placed = placed
        else:
            self._next_turn()

    def _apply_other(self, seat: int, move) -> None:
        g = self.game
        if self.outcome is not None:
            raise IllegalMove(f"{move}: the game is over")
        if not 0 <= seat < g.nseats:
            raise IllegalMove(f"there is no seat {seat + 1} in this game")
        if self.offer is not None:
            return self._answer(seat, move)
        if seat != self.turn:
            raise IllegalMove(f"{move}: it is seat {self.turn + 1}'s turn, not seat {seat + 1}'s")
        if move.kind == PASS:
            if not g.allow_pass:
                raise IllegalMove("this game has no option to pass")
            self.ply += 1
            self.last = move
            self.passes += 1
            if self.passes >= g.nseats - self.out.bit_count():
                return self._stalemate()
            return self._next_turn()
        if move.kind == DRAW:
            if not g.agree_draw:
                raise IllegalMove("this game has no option to agree a draw")
            if seat == g.chaos:
                raise IllegalMove("Chaos cannot offer a draw")
            if self.placed:
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
        if move.kind in (ACCEPT, DECLINE):
            raise IllegalMove(f"{move}: there is no draw offer to answer")
        raise IllegalMove(f"{move!r} is not a move of this game")

    def _answer(self, seat: int, move) -> None:
        if seat not in self.offer:
            raise IllegalMove(
                f"{move}: waiting for seat(s) "
                f"{', '.join(str(s + 1) for s in self.offer)} to answer a draw offer"
            )
        if move.kind == ACCEPT:
            self.offer = [s for s in self.offer if s != seat]
            self.ply += 1
            self.last = move
            if not self.offer:
                self._agreed_draw()
        elif move.kind == DECLINE:
            self.offer = None
            self.declined = True  # the offerer moves again, and not "draw" this time
            self.ply += 1
            self.last = move
        else:
            raise IllegalMove(f"{move}: answer the draw offer with 'accept' or 'decline'")

    def _can_place(self, seat: int) -> bool:
        return bool(self.free) and bool(self.stock & self.game.seat_stock[seat])

    def _next_turn(self) -> None:
        s = self._live_after(self.turn)
        self.turn = s
        self.placed = 0
        self.declined = False
        if not self._can_place(s):
            self._cannot_place(s)

    def _cannot_place(self, seat: int) -> None:
        """The seat to move has no placement: it must pass, or the game is stalemated."""
        g = self.game
        live = [o for o in range(g.nseats) if not self.out >> o & 1]
        if g.allow_pass and any(self._can_place(o) for o in live):
            return
        self._stalemate()

    def _live_after(self, seat: int) -> int:
        """The next seat in turn order that has not forfeited."""
        n = self.game.nseats
        s = (seat + 1) % n
        while self.out >> s & 1 and s != seat:
            s = (s + 1) % n
        return s

    # -- leaving: resignation, timeouts, disconnects (decided by the match layer) -------
    def forfeit(self, seat: int, reason: str = "resignation") -> None:
        """``seat`` leaves the game and its team loses. If one team is left it wins;
        otherwise play goes on without that team (its turns are skipped)."""
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
        if self.out >> self.turn & 1:
            self.placed = 0
            self._next_turn()

    def skip(self, seat: int) -> None:
        """The seat to move loses its turn (a timer's "skip" consequence)."""
        if self.outcome is not None or self.offer is not None or seat != self.turn:
            raise IllegalMove(f"seat {seat + 1} is not the seat to move")
        self.passes = 0
        self._next_turn()

    # -- ending ---------------------------------------------------------------------
    def _team_results(self, winners: set[int] | None, losers: set[int] | None) -> list[str]:
        teams = self.game.teams
        if winners is not None:
            return [WIN if teams[s] in winners else LOSS for s in range(len(teams))]
        return [LOSS if teams[s] in losers else WIN for s in range(len(teams))]

    def _line(self, seat: int, line: int, wins: bool, label: str, board: int) -> None:
        g = self.game
        team = g.teams[seat]
        results = self._team_results({team}, None) if wins else self._team_results(None, {team})
        if g.geometry.boards == 1:  # the words and coordinates are made when first read
            return self._finish(results, "victory", "", (), _line_words(g, seat, line, label))
        if not self._decide_board(board, results, g.line_coords(line)):
            self._after_placement(seat)
        return None

    def _decide_board(self, board: int, results: list[str], line=None) -> bool:
        """Record a board's result and close it; True if that ended the game."""
        self.decided[board] = (board_results(results), line)
        self.free &= ~self.game.board_targets[board]
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

    def _stalemate(self) -> None:
        g = self.game
        if g.geometry.boards > 1:
            for b, d in enumerate(self.decided):
                if d is None:
                    self.decided[b] = (board_results(stalemate_results(self, b)), None)
            return self._finish_boards()
        results = stalemate_results(self, None)
        reason = "draw" if g.stalemate == "draw" else "stalemate"
        self._finish(results, reason, STALEMATE_LABELS[g.stalemate], ())

    def _agreed_draw(self) -> None:
        self.offer = None
        self._finish([R_DRAW] * self.game.nseats, "agreed-draw", "All players agreed a draw", ())

    def _finish(self, results: list[str], reason: str, detail: str, lines, make=None) -> None:
        g = self.game
        if g.chaos is not None:
            players = [r for s, r in enumerate(results) if s != g.chaos]
            if all(r == WIN for r in players):
                results[g.chaos] = LOSS  # if all players win, Chaos loses
        for s in range(g.nseats):
            if self.out >> s & 1:
                results[s] = LOSS  # a seat that forfeited loses, whatever the board says
        self.offer = None
        self.outcome = Outcome(results, reason, detail, lines, make)

    # -- copying and showing ----------------------------------------------------------
    def clone(self) -> "State":
        new = State.__new__(State)
        new.game = self.game
        new.seed = self.seed
        new.board = self.board[:]
        new.cmask = self.cmask[:]
        new.heights = self.heights[:]
        new.free = self.free
        new.reserves = self.reserves[:]
        new.stock = self.stock
        new.turn = self.turn
        new.placed = self.placed
        new.passes = self.passes
        new.offer = None if self.offer is None else self.offer[:]
        new.declined = self.declined
        new.decided = self.decided[:]
        new.outcome = self.outcome
        new.ply = self.ply
        new.last = self.last
        new.out = self.out
        return new

    def _piece_name(self, ri: int) -> str:
        g = self.game
        color, shape = divmod(ri, g.nshapes)
        return g.color_names[color] + ("" if g.nshapes == 1 else " " + g.shape_names[shape])

    def view(self, seat: int | None = None) -> dict:
        from .view import view

        return view(self, seat)

    def view_text(self, seat: int | None = None, legal: list[str] | None = None) -> str:
        """``view(seat)`` as compact JSON text, made straight (``view_text``); a state
        whose ``view`` is not this class's (one that filters what a seat sees) encodes
        its own view instead: the text never shows what the view would not."""
        if type(self).view is not State.view:
            return _view_dumps(self.view(seat))
        return _view_text(self, seat, legal)

    def __str__(self) -> str:
        from .view import ascii_board

        return ascii_board(self)
