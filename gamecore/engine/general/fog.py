"""Cloaked play (issue 20): a state that keeps what each seat knows, and the position as
one seat sees it.

``CloakedState`` is a GeneralState (the truth) plus ``known`` (knowledge.py) and each
seat's latest blocked attempt. Per seat:

- ``seat_state(seat)``: the position as the seat sees it (a ``SeatState``): pieces it
  cannot see are gone, obscured pieces have the game's first shape. Its legal moves are
  what the seat may *attempt*; bots get this, never the truth.
- ``legal_moves(seat)`` are the seat state's, so a list never names a hidden piece (a
  capture of a hidden piece is offered as the plain step it looks like).
- ``apply(seat, move)``: a move the seat may not attempt is refused with the reason its
  own position gives. An attempt that the truth allows is played (a step onto a hidden
  piece that the mover may cover captures it); one that a hidden piece in the way
  forbids only reveals that piece to the seat, and the turn ends with nothing moved.
- ``view(seat)``: the general view with hidden pieces left out, obscured ones without a
  shape, other seats' piece moves unnamed, the cloaked spaces and the seat's own last
  blocked attempt. A finished game shows everything to everyone.
- ``determinise(seat, rng)``: a full position (a plain GeneralState) drawn from what the
  seat knows only: the seat state with its unseen pieces put on cloaked spaces at random.
  Two truths that the seat cannot tell apart give the same draw for the same ``rng``.
"""

from ..errors import IllegalMove
from . import observe
from .codes import LOCKED, bits
from .generate import piece_moves, placements
from .knowledge import (
    cloaked_spaces,
    cloaking,
    current_phase,
    fogged,
    fully_seen,
    hidden,
    in_the_way,
    learn,
    obscured,
    occupied,
    reindex,
)
from .moves import ACCEPT, DECLINE, DRAW, PASS, PLACE, STACK, STEP
from .observe import HIDDEN_MOVE
from .state import GeneralState

__all__ = ["CloakedState", "SeatState", "fogged", "public_move"]

PUBLIC = (PASS, DRAW, ACCEPT, DECLINE)  # moves every seat sees named
PUBLIC_WORDS = ("pass", "draw", "accept", "decline")


def public_move(move) -> bool:
    return getattr(move, "kind", None) in PUBLIC


class CloakedState(GeneralState):
    __slots__ = (
        "known", "attempts", "last_by", "_seen_by",
        # what each viewer observed of the sequence of moves (observe.py)
        "obs", "silent", "corr", "labels", "placed_seen",
    )  # fmt: skip

    def __init__(self, game, seed=None):
        self.known = [0] * (game.nseats + 1)
        self.attempts = [None] * game.nseats  # per seat: (ply, move text, revealed mask)
        self.last_by = None
        self._seen_by = {}
        super().__init__(game, seed)
        # the starting position is in the rules, which every seat may read
        # (one more: what is public, the spectator's: knowledge.fully_seen); dealt
        # pieces are not: a seat sees its own (state.own), the rest as cloaking allows
        self.known = [occupied(self) & ~game.dealt_mask] * (game.nseats + 1)
        learn(self)
        observe.start(self)

    # -- what a seat may do -------------------------------------------------------------
    def seat_state(self, seat: int) -> "SeatState":
        cached = self._seen_by.get(seat)
        if cached is None:
            cached = self._seen_by[seat] = _seat_state(self, seat)
        return cached

    def legal_moves(self, seat: int) -> list:
        if self.outcome is not None or self.offer is not None:
            return GeneralState.legal_moves(self, seat)
        if seat != self.turn and not self.ph.simultaneous:
            return GeneralState.legal_moves(self, seat)
        return self.seat_state(seat).legal_moves(seat)

    def determinise(self, seat: int, rng) -> GeneralState:
        return self.seat_state(seat).determinise(seat, rng)

    def apply(self, seat: int, move) -> None:
        if not isinstance(seat, int) or not 0 <= seat < self.game.nseats:
            raise IllegalMove(f"there is no seat {seat!r} in this game")
        kind = getattr(move, "kind", None)
        piece = kind in (PLACE, STEP, STACK) and self.outcome is None and self.offer is None
        rounds = self.ph.simultaneous and self.offer is None and self.outcome is None
        if piece and self.ph.simultaneous:
            return self._plan_in_fog(seat, move)
        pre = observe.before(self, seat, move) if self.outcome is None else None
        if not piece or seat != self.turn:
            before = self.board[:]  # a pass may end a phase, or a round resolve
            GeneralState.apply(self, seat, move)
            return self._moved(seat, move, before, pre, rounds)
        mine = self.seat_state(seat)
        if move not in mine.legal_moves(seat):
            raise IllegalMove(_why_not(mine, seat, move))
        before = self.board[:]
        try:
            GeneralState.apply(self, seat, move)
        except IllegalMove:
            blockers = in_the_way(self, seat, move) & ~fully_seen(self, seat) & occupied(self)
            if blockers or not self._unforced(seat, move):
                return self._attempt(seat, move, blockers, pre)
        return self._moved(seat, move, before, pre)

    def _plan_in_fog(self, seat: int, move) -> None:
        """A plan of a simultaneous round: checked against the seat's own position; one
        that a hidden piece forbids reveals it, and the seat's plan is to do nothing."""
        if not isinstance(seat, int) or not 0 <= seat < self.game.nseats:
            raise IllegalMove(f"there is no seat {seat} in this game")
        mine = self.seat_state(seat)
        if move not in mine.legal_moves(seat):
            raise IllegalMove(_why_not(mine, seat, move))
        before = self.board[:]
        pre = observe.before(self, seat, move)
        try:
            GeneralState.apply(self, seat, move)
        except IllegalMove:
            blockers = in_the_way(self, seat, move) & ~fully_seen(self, seat) & occupied(self)
            self.known[seat] |= blockers
            self.attempts[seat] = (self.ply - self.silent[seat], str(move), blockers)
            self._skip_plan(seat)
        return self._moved(seat, move, before, pre, True)

    def _moved(self, seat: int, move, before, pre=None, rounds=False) -> None:
        self._seen_by = {}
        self.last_by = seat
        learn(self, before, move, seat)
        observe.observe(self, seat, move, pre, rounds)

    def _attempt(self, seat: int, move, blockers: int, pre) -> None:
        """A move that a piece hidden from the seat forbids: the seat sees that piece now,
        and its turn ends with nothing moved (seed 004)."""
        self.known[seat] |= blockers
        self.ply += 1
        # the ply as the seat counts it: never the moves it did not see (observe.py)
        self.attempts[seat] = (self.ply - self.silent[seat], str(move), blockers)
        self.last = move
        self.passes = 0
        self._next_turn()
        self._moved(seat, move, None, pre)

    def _unforced(self, seat: int, move) -> bool:
        """Play ``move`` if only a capture the seat cannot see forbids it ("must capture"
        binds when a capture is in sight); False if the truth forbids it otherwise (the
        caller then ends the turn as an attempt: a refusal would tell the seat more)."""
        if move.kind == PLACE:
            if move not in placements(self, seat):
                return False
            space, color = self._place(seat, move)
            self.quiet = 0
            self._after_move(seat, move, space, color)
            return True
        steps, captures, _forced = piece_moves(self, seat)
        for m in steps + captures:
            if m == move:
                self.quiet = 0 if m.capture or m.combo >= 0 else self.quiet + 1
                space, color = self._step(seat, m)
                self._after_move(seat, m, space, color)
                return True
        return False

    def skip(self, seat: int) -> None:
        rounds = self.ph.simultaneous and self.offer is None and self.outcome is None
        super().skip(seat)
        self._moved(seat, None, None, None, rounds)

    def forfeit(self, seat: int, reason: str = "resignation") -> None:
        super().forfeit(seat, reason)
        self._seen_by = {}
        learn(self)
        observe.observe(self, None, None, None)

    def unseen_moves(self, viewer: int | None) -> int:
        """Moves that were silent for ``viewer`` (observe.py): not counted in its ply,
        and the match layer sends it no event for them."""
        return observe.unseen_moves(self, viewer)

    def clone(self, _cls=None) -> GeneralState:
        new = GeneralState.clone(self, _cls)
        if isinstance(new, CloakedState):
            new.known = self.known[:]
            new.attempts = self.attempts[:]
            new.last_by = self.last_by
            new._seen_by = {}
            new.obs = self.obs[:]
            new.silent = self.silent[:]
            new.corr = [c[:] for c in self.corr]
            new.labels = self.labels[:]
            new.placed_seen = self.placed_seen[:]
        return new

    # -- what a seat may see ------------------------------------------------------------
    def raw_view(self, seat: int | None = None) -> dict:
        """The position cut to what ``seat`` sees, with the true counters."""
        from .view import view

        return fog_view(self, view(self, seat), seat)

    def raw_reserves(self) -> dict:
        return observe.reserves_view(self, self.reserves)

    def view(self, seat: int | None = None) -> dict:
        """``raw_view`` with the counters as ``seat`` observed them (observe.py)."""
        return observe.patch(self, self.raw_view(seat), seat)


class SeatState(GeneralState):
    """A position as one seat (``viewer``) sees it, with ``unseen``: the codes of the
    pieces the seat can count but not see (from the reserves, which are public)."""

    __slots__ = ("viewer", "unseen")

    def clone(self, _cls=None) -> GeneralState:
        new = GeneralState.clone(self, _cls)
        if isinstance(new, SeatState):
            new.viewer = self.viewer
            new.unseen = self.unseen
        return new

    def determinise(self, seat: int, rng) -> GeneralState:
        """A full position: the unseen pieces put where they could be, at random."""
        del seat  # the seat state already belongs to its viewer
        world = GeneralState.clone(self, GeneralState)
        _fill(world, list(self.unseen), rng)
        reindex(world)
        return world


def _why_not(mine: "SeatState", seat: int, move) -> str:
    """Why ``seat`` may not attempt ``move``, from its own position only."""
    try:
        mine.clone().apply(seat, move)
    except IllegalMove as exc:
        return str(exc)
    return f"{move}: not a move of seat {seat + 1} now"


def _seat_state(state: CloakedState, seat: int) -> SeatState:
    g = state.game
    new = GeneralState.clone(state, SeatState)
    board = new.board
    for i in bits(hidden(state, seat)):
        board[i] = 0
    for i in bits(obscured(state, seat)):
        owner, color, _shape, _ri = g.piece[board[i]]
        ri = color * g.nshapes  # the first shape: the seat cannot tell which it is
        board[i] = g.code[owner][ri] if owner is not None else g.unowned[ri]
    new.decided = [None if d is None else (d[0], None) for d in state.decided]
    passed, passer, _ply = state.passant
    if passer >= 0 and not board[passer]:
        new.passant = (0, -1, -1)
    if state.last_by != seat and not public_move(state.last) and state.outcome is None:
        new.last = None
    if state.outcome is None:  # other seats' reserves and the ply as the seat counted them
        new.reserves = observe.counted(state, seat)
        new.ply = state.ply - observe.unseen_moves(state, seat)
        if new.passant[2] == state.ply:  # en passant holds for the next move, as counted
            new.passant = (*new.passant[:2], new.ply)
    reindex(new)
    new.viewer = seat
    new.unseen = _unseen(new, seat)
    for s in list(new.plans):  # another seat's plan is its secret (rounds.py)
        if s != seat:
            del new.plans[s]
            new.planning |= 1 << s
    return new


def _unseen(mine: GeneralState, seat: int) -> tuple[int, ...]:
    """Codes of the pieces ``seat`` knows are on the board but cannot see: placed from a
    reserve (start minus now) or there from the start, less those it sees. Captures the
    seat did not see make this an overestimate; it never reads a hidden piece."""
    g = mine.game
    start_board, _c, _h, _f, start_reserves = g.start
    nri = g.ncolors * g.nshapes
    there, there_owned = [0] * nri, [0] * nri  # set-up pieces of nobody / of a seat
    for code in start_board:
        if code > 0:
            owner, _color, _shape, ri = g.piece[code]
            (there if owner is None else there_owned)[ri] += 1
    seen_owned, seen_unowned = [0] * nri, [0] * nri
    for code in mine.board:
        if code > 0:
            owner, _color, _shape, ri = g.piece[code]
            (seen_unowned if owner is None else seen_owned)[ri] += 1
    out = []
    for ri in range(nri):
        out += [g.unowned[ri]] * max(0, there[ri] - seen_unowned[ri])
        placed = max(0, start_reserves[ri] - mine.reserves[ri]) + there_owned[ri]
        placed -= seen_owned[ri]
        owner = _placer(g, ri, seat)
        if placed > 0 and owner is not None:
            out += [g.code[owner][ri]] * placed
    return tuple(sorted(out))


def _placer(g, ri: int, seat: int) -> int | None:
    """Another seat that places pieces of reserve entry ``ri`` (None: only ``seat``)."""
    color = ri // g.nshapes
    for s in range(g.nseats):
        if s != seat and (g.choose or g.seat_color[s] == color):
            return s
    return None


def _fill(world: GeneralState, pool: list[int], rng) -> None:
    """Put the ``pool`` codes on cloaked empty spaces their owners may enter: on stacks,
    first into the gaps under pieces the seat sees (something hidden must be there)."""
    g = world.game
    cloaked = cloaked_spaces(g, current_phase(world))
    board = world.board
    if g.stacks:
        for t in range(g.npos):
            base = g.stack_base[t]
            for z in range(world.heights[t]):
                space = base + z * g.layer
                if not board[space] and pool:
                    board[space] = pool.pop(int(rng.random() * len(pool)))
    rng.shuffle(pool)
    for code in pool:
        owner = g.piece[code][0]
        banned = g.no_entry[owner] if owner is not None else 0
        if g.stacks:
            spots = []
            for t in range(g.npos):
                h = world.heights[t]
                space = g.stack_base[t] + h * g.layer
                if h < g.height and cloaked >> space & 1 and not banned >> space & 1:
                    spots.append((t, space))
            if not spots:
                continue
            t, space = spots[int(rng.random() * len(spots))]
            board[space] = code
            h = world.heights[t] + 1
            while h < g.height and board[g.stack_base[t] + h * g.layer] == LOCKED:
                h += 1
            world.heights[t] = h
        else:
            spots = [i for i in bits(cloaked & ~banned) if board[i] == 0]
            if spots:
                board[spots[int(rng.random() * len(spots))]] = code


def _coords(g, space: int) -> list[int]:
    b, x, y, z = g.geometry.coords[space]
    return [b + 1, x + 1, y + 1, z + 1]


def fog_view(state: CloakedState, data: dict, seat: int | None) -> dict:
    """The general view of ``state`` cut to what ``seat`` (None: a spectator) sees."""
    g = state.game
    geo = g.geometry
    if state.outcome is None:
        gone, vague = hidden(state, seat), obscured(state, seat)
        for b, board in enumerate(data["boards"]):
            kept = []
            for piece in board["pieces"]:
                x, y, z = (v - 1 for v in piece["at"])
                i = geo.index(b, x, y, z)
                if gone >> i & 1:
                    continue
                if vague >> i & 1:
                    piece = {"at": piece["at"], "color": piece["color"], "obscured": True}
                kept.append(piece)
            board["pieces"] = kept
        if state.last is not None and state.last_by != seat and not public_move(state.last):
            data["last_move"] = HIDDEN_MOVE
        if state.chain >= 0 and gone >> observe.chain_space(state) & 1:
            data["chain"] = None  # a hidden piece's chain jump: where it is is its secret
        if data.get("last_round"):  # a round's moves: the seat's own, and public words
            data["last_round"] = [
                [s, text if s - 1 == seat or text in PUBLIC_WORDS else HIDDEN_MOVE]
                for s, text in data["last_round"]
            ]
    cloaked = cloaked_spaces(g, current_phase(state))
    data["cloaking"] = {
        "type": cloaking(g),
        "cloaked": [_coords(g, i) for i in bits(cloaked)],
    }
    attempt = state.attempts[seat] if seat is not None and state.outcome is None else None
    data["attempt"] = (
        None
        if attempt is None
        else {
            "ply": attempt[0],
            "move": attempt[1],
            "revealed": [_coords(g, i) for i in bits(attempt[2])],
        }
    )
    return data
