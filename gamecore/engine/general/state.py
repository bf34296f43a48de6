"""GeneralState: one position of a general-family match.

The truth is ``board`` (a piece code per space: 0 empty, -1 locked), ``reserves`` (per
colour and shape) and the turn fields. ``cmask`` (a bit mask per colour), ``own`` (per
seat, the spaces of the pieces it placed), ``free`` (open targets), ``heights`` (per
stack), ``stock`` (reserve entries not empty) and ``hash`` (a Zobrist sum naming the
position) are indexes kept in step with it by ``apply``, which touches only what a move
changes.

**Every game ends**: once pieces move, a position repeated three times with the same
seat to move is a stalemate, and the stalemate rule decides; so is fifty moves by each
seat with no placement, capture or promotion. In every game, moving pieces or not, so
is the move limit (``game.ply_limit``: stationary pieces whose captives reincarnate
two for one would otherwise place and capture for ever). Positions are counted since
the last placement or capture, which can never be undone (unless captives reincarnate,
then over the whole game).
"""

from ..errors import IllegalMove
from .changes import PieceChanges
from .codes import bits
from .deal import deal
from .endings import after_move, stalemate_results
from .endings import start as endings_start
from .finish import Finish
from .generate import moves_of
from .leaving import Leaving
from .moves import ACCEPT_MOVE, DECLINE_MOVE, DRAW_MOVE, PASS_MOVE, PLACE, STACK, STEP
from .offers import Offers
from .phases import PhaseRun
from .pots import Pots
from .rounds import Rounds
from .showdown import Showdown

CACHE_LIMIT = 200_000
REPEATS = 3
QUIET = 50  # chess's fifty-move rule, in games where pieces move


class GeneralState(PieceChanges, Pots, Showdown, PhaseRun, Rounds, Offers, Leaving, Finish):
    # The mixins hold what is not on a piece move's path: passes and draw offers
    # (offers.py), leaving (leaving.py), the end of the game (finish.py).
    __slots__ = (
        "game", "seed", "board", "cmask", "own", "heights", "free", "reserves", "stock",
        "hash", "seen", "chain", "converted", "frozen", "turn", "placed", "passes", "offer",
        "declined", "outcome", "ply", "last", "out", "quiet", "decided", "closed", "passant",
        "dq", "marks",
        # phases and simultaneous rounds (phases.py, rounds.py)
        "phase", "ph", "folded", "planning", "plans", "round", "last_round",
    )  # fmt: skip

    def __init__(self, game, seed=None):
        board, cmask, heights, free, reserves = game.start
        self.game = game
        self.seed = seed
        self.board = board[:]
        self.cmask = cmask[:]
        self.own = game.start_own[:]  # set-up pieces of a seat's colour (game.py)
        self.heights = heights[:]
        self.free = free
        self.reserves = reserves[:]
        self.stock = sum(1 << ri for ri, n in enumerate(reserves) if n)
        self.hash = game.start_hash
        self.seen: dict[int, int] = {}
        self.chain = -1  # the position of the piece that may jump again this turn
        self.converted: list[int] = []  # spaces converted by the move being played
        self.frozen = 0  # spaces of paralysed pieces (they cannot move)
        self.quiet = 0  # steps in a row with no placement, capture or promotion
        self.decided = [None] * game.geometry.boards  # per board: (results, line) once decided
        self.closed = 0  # spaces of decided boards: their pieces never move again
        self.passant = (0, -1, -1)  # (spaces passed over, the piece's space, ply it holds at)
        self.turn = 0
        self.placed = 0  # moves made this turn (pieces_per_turn may be 2)
        self.passes = 0
        self.offer = None
        self.declined = False
        self.outcome = None
        self.ply = 0
        self.last = None
        self.out = 0
        self.dq = 0  # seats disqualified as overachievers (endings.py)
        if game.dealt:  # release 1.7: the deck dealt with the match's seed (deal.py)
            deal(self, seed)
        self.marks = endings_start(self)  # what "last" endings follow (endings.py)
        self.folded = 0  # seats folded at the end of a phase (phases.py)
        self.planning = 0  # seats still to plan this round (rounds.py)
        self.plans: dict = {}  # seat -> Move registered this round (hidden)
        self.round = 0  # simultaneous rounds resolved so far
        self.last_round = None  # ((seat, Move), ...) of the latest round resolved
        self._enter_phase(0, start=True)

    # -- reading --------------------------------------------------------------------
    def to_move(self) -> tuple[int, ...]:
        if self.outcome is not None:
            return ()
        if self.offer is not None:
            return tuple(self.offer)
        if self.ph.simultaneous:
            return tuple(bits(self.planning))
        return (self.turn,)

    def is_terminal(self) -> bool:
        return self.outcome is not None

    def en_passant(self) -> tuple[int, int]:
        """(spaces the last move's piece passed over, its space), for the next move only."""
        passed, piece, ply = self.passant
        return (passed, piece) if ply == self.ply else (0, -1)

    def key(self):
        """The position (pieces, reserves, seat to move, turn state) as a hashable value;
        bots use it for transpositions."""
        offer = None if self.offer is None else tuple(self.offer)
        plans = tuple(sorted(self.plans.items())) if self.plans else ()
        return (
            self.hash, self.turn, self.placed, self.chain, self.declined, offer, self.passes,
            self.en_passant()[0], self.phase, self.folded, self.planning, plans, self.dq,
            self.marks,
        )  # fmt: skip

    def legal_moves(self, seat: int) -> list:
        if self.ph.simultaneous and self.offer is None and self.outcome is None:
            return self._plan_moves(seat)
        if self.outcome is not None or self.offer is not None or seat != self.turn:
            if self.offer is not None and self.outcome is None and seat in self.offer:
                return [ACCEPT_MOVE, DECLINE_MOVE]
            return []
        g = self.game
        moves = self._moves(seat)
        if self.chain >= 0:
            return [*moves, PASS_MOVE]
        extra = []
        if self.ph.allow_pass:
            extra.append(PASS_MOVE)
        if g.agree_draw and not self.placed and not self.declined and seat != g.chaos:
            extra.append(DRAW_MOVE)
        return moves + extra if extra else moves[:]

    def _moves(self, seat: int) -> list:
        """The seat's placements and steps (memoised per position on small boards; never
        mutate the list returned)."""
        g = self.game
        cache = self.ph.cache
        if cache is None:
            return moves_of(self, seat)
        if g.movers:  # (each phase has its own memo: phases.py)
            key = (self.hash, seat, self.chain, self.en_passant()[0] if g.passing else 0)
        else:
            key = (self.free, seat, self.stock & g.seat_stock[seat])
        moves = cache.get(key)
        if moves is None:
            moves = moves_of(self, seat)
            if len(cache) < CACHE_LIMIT:
                cache[key] = moves
        return moves

    def _can_move(self, seat: int) -> bool:
        g = self.game
        if not g.movers and not self.ph.locks:
            return bool(self.free) and bool(self.stock & g.seat_stock[seat])
        return bool(self._moves(seat))

    # -- playing --------------------------------------------------------------------
    # The engine API's additions for internal callers, as in the other families
    # (gamecore/engine/README.md): no fast path here yet.
    def random_move(self, rng):
        """A uniformly random legal move of the first seat ``to_move`` (None at the end)."""
        seats = self.to_move()
        if not seats:
            return None
        moves = self.legal_moves(seats[0])
        return moves[int(rng.random() * len(moves))]

    def play(self, seat: int, move) -> None:
        """The trusted apply (a move of ``legal_moves(seat)`` of this position): ``apply``."""
        return self.apply(seat, move)

    def playout(self, rng) -> int:
        """``random_move`` and ``play`` to the end; the number of moves."""
        n = 0
        while self.outcome is None:
            self.play(self.to_move()[0], self.random_move(rng))
            n += 1
        return n

    def apply(self, seat: int, move) -> None:
        """Play ``move`` for ``seat``; IllegalMove (state untouched) if it may not."""
        if self.ph.simultaneous and self.offer is None and self.outcome is None:
            return self._plan(seat, move)  # a plan of a simultaneous round (rounds.py)
        kind = getattr(move, "kind", None)
        if kind not in (PLACE, STEP, STACK) or self.offer is not None or self.outcome is not None:
            return self._apply_other(seat, move)
        if seat != self.turn:
            raise IllegalMove(f"{move}: it is seat {self.turn + 1}'s turn, not seat {seat + 1}'s")
        if kind == PLACE:
            self._check_placement(seat, move)
            space, color = self._place(seat, move)
            self.quiet = 0
        else:
            legal = self._moves(seat)
            try:
                move = legal[legal.index(move)]  # the legal move knows whether it captures
            except ValueError:
                raise IllegalMove(self._why_not(seat, move)) from None
            self.quiet = 0 if move.capture or move.combo >= 0 else self.quiet + 1
            space, color = self._step(seat, move)
        self._after_move(seat, move, space, color)
        return None

    def _check_placement(self, seat: int, move) -> None:
        g = self.game
        t, combo = move.target, move.combo
        if not 0 <= t < g.npos or not (self.free >> t) & 1:
            raise IllegalMove(
                f"{move}: that {'stack is full' if g.stacks else 'space is taken'}"
                if 0 <= t < g.npos
                else f"{move}: not a space of this game"
            )
        if not 0 <= combo < g.ncombos:
            raise IllegalMove(f"{move}: not a piece of this game")
        ri = combo if g.choose else g.seat_color[seat] * g.nshapes + combo
        if not self.reserves[ri]:
            raise IllegalMove(f"{move}: no {self._piece_name(ri)} left in reserve")
        if (g.movers or self.ph.locks) and move not in self._moves(seat):
            raise IllegalMove(self._why_not(seat, move))

    def _why_not(self, seat: int, move) -> str:
        g = self.game
        if self.chain >= 0:
            at = g.pos_text(self.chain)
            return f"{move}: this turn may only go on with a jump from {at}, or pass"
        if g.must and any(m.capture for m in self._moves(seat)):
            return f"{move}: a piece that must capture has a capture"
        if move.kind == PLACE:
            return f"{move}: that space is locked to seat {seat + 1}"
        origin = getattr(move, "origin", -1)
        if not 0 <= origin < g.npos or not 0 <= move.target < g.npos:
            return f"{move}: not a space of this game"
        return f"{move}: not a move of any piece of seat {seat + 1} here"

    def _after_move(self, seat: int, move, space: int, color: int) -> None:
        """Turn checks on the colour just moved, a chain's extra jump, then the next turn."""
        g = self.game
        self.ply += 1
        self.last = move
        self.passes = 0
        cm = self.cmask[color]
        for through, wins, label in g.checks:
            for line in through[space]:
                if cm & line == line:
                    return self._line(seat, line, wins, label, space)
        if self.converted:  # converted pieces may complete lines of their new colour
            converted, self.converted = self.converted, []
            for through, wins, label in g.checks:
                for at in converted:
                    piece = g.piece[self.board[at]]
                    if piece is None:  # taken away since (a meeting's showdown): no line
                        continue
                    cm = self.cmask[piece[1]]
                    for line in through[at]:
                        if cm & line == line:
                            return self._line(seat, line, wins, label, at)
        if self._typed_endings(seat):
            return None  # a typed ending (gamecore/rules/endings.py) ended the game
        if g.multi and not g.typed_stalemate:  # a full board: decided by the stalemate rule
            b = space // g.geometry.cells
            if not self.free & g.board_targets[b] and self.decided[b] is None:
                if self._decide_board(b, stalemate_results(self, b)):
                    return None
        return self._go_on(seat)

    def _typed_endings(self, seat: int | None) -> bool:
        """The typed endings after a move (True if one ended the game); in a simultaneous
        round, once, when all its moves are played (rounds.py), so every plan counts."""
        if not self.game.typed_endings or (self.ph.simultaneous and seat is not None):
            return False
        return after_move(self, seat)

    def _go_on(self, seat: int) -> None:
        """The turn goes on (a chain, two pieces a turn) or passes to the next seat."""
        g = self.game
        if self.ph.simultaneous:
            return None  # a round's moves: the round goes on (rounds.py)
        if self.chain >= 0:
            return None  # the same seat goes on jumping (or passes)
        if self.placed + 1 < g.pieces_per_turn and self._can_move(seat):
            self.placed += 1
            return None
        return self._next_turn()

    def _next_turn(self) -> None:
        g = self.game
        inactive = self.out | self.folded | self.ph.locked_seats  # PhaseRun._inactive
        s = self._live_after(self.turn, inactive)
        self.turn = s
        self.placed = 0
        self.declined = False
        self.chain = -1
        if inactive >> s & 1:  # every seat is out, folded or locked this phase
            return self._stalemate("No seat may move")
        if g.movers:
            key = self.hash + g.z_turn[s] + (self.en_passant()[0] if g.passing else 0)
            why = self._limit_reached(key)
        else:  # no repetition without movers, but reincarnation may still breed for ever
            why = self._move_limit()
        if why:
            return self._stalemate(why)
        if not self._can_move(s):
            self._cannot_move()
        return None

    def _limit_reached(self, key: int) -> str | None:
        """Count position ``key``; why the game (phase) stalemates now, or None."""
        g = self.game
        seen = self.seen.get(key, 0) + 1
        self.seen[key] = seen
        if seen >= REPEATS:
            return "The same position came up three times"
        if self.quiet >= g.quiet_limit:
            return f"{QUIET} moves by each seat without a placement or capture"
        return self._move_limit()

    def _move_limit(self) -> str | None:
        """The bound every game keeps, whether or not pieces move: reincarnated captives
        (two for one) can breed pieces for ever, so no other rule need ever end it."""
        if self.ply >= self.game.ply_limit:
            return f"Move limit reached ({self.game.ply_limit:,} moves)"
        return None

    def _cannot_move(self) -> None:
        """The seat to move has no move: it must pass, or the game is stalemated."""
        live = self._active_seats()
        # Before the last phase a seat that cannot move is skipped: the phase ends when
        # no active seat can (READINGS.md, "A seat with nothing to play is skipped").
        skip = self.phase + 1 < len(self.game.phases)
        if (self.ph.allow_pass or skip) and any(self._can_move(o) for o in live):
            return None if self.ph.allow_pass else self._next_turn()
        return self._stalemate()

    def _live_after(self, seat: int, inactive: int) -> int:
        n = self.game.nseats
        s = (seat + 1) % n
        while inactive >> s & 1 and s != seat:
            s = (s + 1) % n
        return s

    # -- copying and showing ----------------------------------------------------------
    def clone(self, _cls=None) -> "GeneralState":
        cls = _cls or type(self)  # fog.py's states copy their own fields on top
        new = cls.__new__(cls)
        new.game = self.game
        new.seed = self.seed
        new.board = self.board[:]
        new.cmask = self.cmask[:]
        new.own = self.own[:]
        new.heights = self.heights[:]
        new.free = self.free
        new.reserves = self.reserves[:]
        new.stock = self.stock
        new.hash = self.hash
        new.seen = self.seen.copy()
        new.chain = self.chain
        new.converted = []
        new.frozen = self.frozen
        new.quiet = self.quiet
        new.decided = self.decided[:]
        new.closed = self.closed
        new.passant = self.passant
        new.turn = self.turn
        new.placed = self.placed
        new.passes = self.passes
        new.offer = None if self.offer is None else self.offer[:]
        new.declined = self.declined
        new.outcome = self.outcome
        new.ply = self.ply
        new.last = self.last
        new.out = self.out
        new.dq = self.dq
        new.marks = self.marks
        new.phase = self.phase
        new.ph = self.ph
        new.folded = self.folded
        new.planning = self.planning
        new.plans = self.plans.copy()
        new.round = self.round
        new.last_round = self.last_round
        return new

    def _piece_name(self, ri: int) -> str:
        g = self.game
        color, shape = divmod(ri, g.nshapes)
        return g.color_names[color] + ("" if g.nshapes == 1 else " " + g.shape_names[shape])

    def view(self, seat: int | None = None) -> dict:
        from .view import view

        return view(self, seat)

    def __str__(self) -> str:
        from ..view import ascii_board

        return ascii_board(self)
