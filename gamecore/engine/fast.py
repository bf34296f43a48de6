"""FastState: the flat family's common case, chosen by ``Game.fast`` — one board, two
seats, one shape, assigned colours, one piece a turn, no passing, no draw offers
(Tic-Tac-Toe, Connect4, Qubic, the gomoku boards). Same API and same results as
``State`` (``tests/test_trusted_paths.py`` plays both side by side); anything off the
common path (an illegal move, a forfeit) goes through ``State``'s code.

Why it is fast (every microsecond here is paid on every move of every playout):

- legal-move lists are shared, not copied: on small boards one list per set of open
  targets for the whole game (``Game.fast_table``, made at compile time for at most 12
  targets, else ``Game.fast_cache``, filled as positions come); on big boards one list
  per state, kept in step by ``apply`` (the move played is cut out, of a copy if anyone
  else holds the list: a list once handed out never changes). **Never mutate a list
  ``legal_moves`` returns**; copy it;
- ``apply`` checks and plays in one function body, no call in between; ``play`` (the
  trusted apply) is the same body without the checks;
- where the reserves cannot run out (``Game.fast_plenty``), no move looks at them
  beyond counting them down;
- no line is tested until the mover has k pieces; on boards of at most 12 spaces one
  look-up in a table of every colour mask says whether a line is complete
  (``Game.fast_wintab``); on boards with many lines through a space (15x15, k 5) the run
  through the new piece is counted; on stacks the lines holding a space above the piece
  (still empty) are not tested (``Game._landing_lines``);
- the outcome of a line is one shared ``Outcome`` per (seat, line), and of a stalemate
  whose rule ignores the board one per game, their words made when first read;
- FastState specialised by the board's shape (``fast_shapes.py``): Tic-Tac-Toe-sized
  boards, few stacks (Connect4), big boards (Qubic, the gomoku boards).
"""

import sys

from .outcome import Outcome
from .state import State, _line_words

getrefcount = sys.getrefcount
CONSTANT_RULES = ("draw", "all-win", "all-lose")  # stalemate rules that ignore the board


class FastState(State):
    __slots__ = ("moves",)

    def __init__(self, game, seed=None):
        board, cmask, heights, free, reserves, stock = game.start
        self.game = game
        self.seed = seed
        self._start_fields(board, reserves)
        self.cmask = cmask[:]
        self.heights = heights[:]
        self.free = free
        self.stock = stock
        self.turn = 0
        self.placed = 0
        self.passes = 0
        self.offer = None
        self.declined = False
        self.decided = [None]
        self.outcome = None
        self.last = None
        self.out = 0
        # Big boards: the placements on ``free``, in target order (at first the game's
        # own start list: the first cut copies it).
        self.moves = game.start_moves
        if not (free and stock & game.seat_stock[0]):
            self._stalemate()

    def _start_fields(self, board: list, reserves: list) -> None:
        """The fields the shapes in fast_shapes.py make when read instead."""
        self.board = board[:]
        self.reserves = reserves[:]
        self.ply = 0

    def to_move(self) -> tuple[int, ...]:
        if self.outcome is None:
            return self.game.seat_tuples[self.turn]
        return ()

    def legal_moves(self, seat: int) -> list:
        # Not terminal and the seat's turn: it has a piece and a free target (else
        # the game would have been stalemated), so its moves are the placements on free.
        if seat != self.turn or self.outcome is not None:
            return []
        g = self.game
        table = g.fast_table
        if table is not None:
            return table[self.free]
        cache = g.fast_cache
        if cache is not None:
            moves = cache.get(self.free)
            if moves is None:
                moves = self._placements()
                if len(cache) < 200_000:
                    cache[self.free] = moves
            return moves
        moves = self.moves
        if moves is None:
            moves = self.moves = self._placements()
        return moves

    def playout(self, rng) -> int:
        """As ``State.playout``, with the lists read in place."""
        random = rng.random
        play = self.play
        table = self.game.fast_table
        cache = self.game.fast_cache
        n = 0
        while self.outcome is None:
            seat = self.turn
            if table is not None:
                moves = table[self.free]
            else:
                moves = cache.get(self.free) if cache is not None else self.moves
            if moves is None:
                moves = self.legal_moves(seat)
            move = moves[int(random() * len(moves))]
            moves = None  # held here, the kept list would be copied, not cut in place
            play(seat, move)
            n += 1
        return n

    def _placements(self) -> list:
        table = self.game.moves_for(0)
        return [table[t] for t in self.game.geometry.spaces_of(self.free)]

    def random_move(self, rng):
        """A uniformly random legal move of the seat to move (None at the end)."""
        if self.outcome is not None:
            return None
        moves = self.legal_moves(self.turn)
        return moves[int(rng.random() * len(moves))]

    def _stalemate(self) -> None:
        """As ``State._stalemate``; where the rule does not look at the board (a draw, all
        win, all lose) and nobody left, one shared Outcome for every game that ends so."""
        g = self.game
        if self.out or g.stalemate not in CONSTANT_RULES:
            return State._stalemate(self)
        outcome = g.fast_outcomes.get("stalemate")
        if outcome is None:
            State._stalemate(self)
            g.fast_outcomes["stalemate"] = self.outcome
            return None
        self.outcome = outcome
        return None

    def _line(self, seat: int, line: int, wins: bool, label: str, board: int) -> None:
        g = self.game
        key = (seat, line, label)
        outcome = g.fast_outcomes.get(key)
        if outcome is None:  # one per (seat, line): its words are made when first read
            results = g.line_results[seat][wins]
            outcome = Outcome(results, "victory", "", (), _line_words(g, seat, line, label))
            g.fast_outcomes[key] = outcome
        self.outcome = outcome

    def _ended(self, seat: int, space: int, cm: int) -> bool:
        """The one turn check, once the cheap tests (``Game.fast_wintab`` or
        ``Game.fast_star``) say the mover may have completed a line through ``space``: the
        line ends the game (True); False if there is none. On boards with many lines
        through a space the run through the piece is counted first, in the directions
        whose window holds k - 1 of the mover's pieces."""
        g = self.game
        runs = g.fast_runs
        if runs is not None:
            k = g.fast_k
            board = self.board
            code = board[space]
            for ahead, behind, window in runs[space]:
                if (cm & window).bit_count() < k - 1:
                    continue
                n = 1
                for j in ahead:
                    if board[j] != code:
                        break
                    n += 1
                for j in behind:
                    if board[j] != code:
                        break
                    n += 1
                if n >= k:
                    break
            else:
                return False
        for line in g.fast_through[space]:
            if cm & line == line:
                self._line(seat, line, g.fast_wins, g.fast_label, 0)
                return True
        return False

    # ``apply`` is the checks, then ``play``'s body line for line (a call less on every
    # move of the public loop): keep the two in step. A move is checked by identity: the
    # game's own Move for its target (``Game.fast_moves``: every list and ``parse_move``
    # hand those out; only that object is found at its own target); an equal copy, or
    # anything else, takes State's checks; tests/test_trusted_paths.py plays
    # them side by side on every catalogue game. On big boards the move played is cut
    # out of the kept list in place unless someone else holds the list (the slot, the
    # local name and getrefcount's argument make 3; a caller that kept it, a clone, or
    # the game's start list make more): then out of a copy.
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
                reserves = self.reserves
                left = reserves[ri]
                if left:  # -- legal: from here on, play()'s body --
                    reserves[ri] = left - 1
                    if left == 1:
                        self.stock &= ~(1 << ri)
                    if g.stacks:
                        h = self.heights[t]
                        space = g.stack_base[t] + h * g.layer
                        h += 1
                        self.heights[t] = h
                        if h == g.height:
                            moves = self.moves
                            if moves is not None and g.fast_cache is None:
                                if getrefcount(moves) > 3:
                                    moves = self.moves = moves[:]
                                del moves[(free & g.below[t]).bit_count()]
                            self.free = free = free ^ (1 << t)
                    else:
                        space = t
                        if g.fast_cache is None:
                            moves = self.moves
                            if moves is not None:
                                if getrefcount(moves) > 3:
                                    moves = self.moves = moves[:]
                                del moves[(free & g.below[t]).bit_count()]
                        self.free = free = free ^ (1 << t)
                    self.board[space] = g.seat_code[seat]
                    cm = self.cmask[ri] | (1 << space)
                    self.cmask[ri] = cm
                    self.ply += 1
                    self.last = move
                    k = g.fast_k  # one turn check (else 0)
                    if k:
                        if (
                            g.fast_wintab[cm]
                            if g.fast_wintab is not None
                            else (cm & g.fast_star[space]).bit_count() >= k - 1
                        ) and self._ended(seat, space, cm):
                            return None
                    else:
                        for through, wins, label in g.checks:
                            for line in through[space]:
                                if cm & line == line:
                                    return self._line(seat, line, wins, label, 0)
                    s = 1 - seat
                    self.turn = s
                    if not free or not (g.fast_plenty or self.stock & g.seat_stock[s]):
                        self._cannot_place(s)
                    return None
        self.moves = None
        return State.apply(self, seat, move)

    def play(self, seat: int, move) -> None:
        """``apply`` without the checks, for internal callers (bots, tools) that pass a
        move of ``legal_moves(seat)`` of this very position, with ``seat`` to move."""
        g = self.game
        t = move.target
        free = self.free
        ri = g.seat_color[seat]
        reserves = self.reserves
        left = reserves[ri]
        reserves[ri] = left - 1
        if left == 1:
            self.stock &= ~(1 << ri)
        if g.stacks:
            h = self.heights[t]
            space = g.stack_base[t] + h * g.layer
            h += 1
            self.heights[t] = h
            if h == g.height:
                moves = self.moves
                if moves is not None and g.fast_cache is None:
                    if getrefcount(moves) > 3:
                        moves = self.moves = moves[:]
                    del moves[(free & g.below[t]).bit_count()]
                self.free = free = free ^ (1 << t)
        else:
            space = t
            if g.fast_cache is None:
                moves = self.moves
                if moves is not None:
                    if getrefcount(moves) > 3:
                        moves = self.moves = moves[:]
                    del moves[(free & g.below[t]).bit_count()]
            self.free = free = free ^ (1 << t)
        self.board[space] = g.seat_code[seat]
        cm = self.cmask[ri] | (1 << space)
        self.cmask[ri] = cm
        self.ply += 1
        self.last = move
        k = g.fast_k  # one turn check (else 0)
        if k:
            if (
                g.fast_wintab[cm]
                if g.fast_wintab is not None
                else (cm & g.fast_star[space]).bit_count() >= k - 1
            ) and self._ended(seat, space, cm):
                return None
        else:
            for through, wins, label in g.checks:
                for line in through[space]:
                    if cm & line == line:
                        return self._line(seat, line, wins, label, 0)
        s = 1 - seat
        self.turn = s
        if not free or not (g.fast_plenty or self.stock & g.seat_stock[s]):
            self._cannot_place(s)
        return None

    def clone(self) -> "FastState":
        cls = self.__class__
        new = cls.__new__(cls)
        new.game = self.game
        new.seed = self.seed
        self._clone_fields(new)
        new.cmask = self.cmask[:]
        new.heights = self.heights[:]
        new.free = self.free
        new.stock = self.stock
        new.turn = self.turn
        new.placed = self.placed
        new.passes = self.passes
        new.offer = None if self.offer is None else self.offer[:]
        new.declined = self.declined
        new.decided = self.decided[:]
        new.outcome = self.outcome
        new.last = self.last
        new.out = self.out
        new.moves = self.moves  # shared: whichever cuts first copies it
        return new

    def _clone_fields(self, new) -> None:
        """As ``_start_fields``: what the shapes in fast_shapes.py make when read."""
        new.board = self.board[:]
        new.reserves = self.reserves[:]
        new.ply = self.ply
