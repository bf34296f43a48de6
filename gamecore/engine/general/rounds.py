"""Simultaneous rounds of the general family (phases of order "simultaneous" or "single").

Mixed into GeneralState. A round:

- **Starts** with every active seat that has a move (with the option to pass, every
  active seat: it may plan "pass"); if no active seat has a move other than a pass, the
  phase stalemates. ``to_move()`` is the seats still to plan, sorted.
- **Plans**: each seat registers one move (``apply``), legal as if it moved first on the
  board as it was when the round began (nothing moves until the round resolves, so that
  is the board every seat sees). A plan is one move: no second piece, no chain jump. A
  seat that has planned has no legal move until the next round. A seat still to plan may
  offer a draw (where the rules allow, once a round); the offer is answered as usual.
  Plans are hidden: ``view`` says only who has planned; ``pending_plans()`` is for the
  match layer and must never reach another seat.
- **Resolves** when the last plan is in (or the last seat still to plan is skipped or
  forfeits: its plan is nothing). If every plan was a pass, the phase stalemates.
  Otherwise moves to the same landing place (the same space; on stacks boards the same
  stack, where each would land on the same space) **collide**: where the game captures
  by rank and one of the colliding pieces beats every other by rank (ranks.py, whichever
  of two were the attacker; at least one of each pair capturing by rank), it survives,
  takes the others with its own result (removed; reincarnated into its seat's reserve;
  converted: on stacks, put in the stack under it) and its move is then played;
  otherwise every piece moved there is destroyed (a placement's piece leaves the
  reserve and never lands; a shared reserve's last piece, planned by two seats, once).
  Except on stacks, where plans moving only chips (pieces that cannot capture) to the
  same stack pile up: each is played, in the order below (``_piles_up``); and plans
  moving capturing pieces by stack to the same stack (hands pushed to the pot at a
  showdown: release 1.7's poker) meet: all land, then one showdown decides (``_meets``).
  The other moves are then played one by one, a move whose target is another plan's
  origin after that plan (pieces leave before others arrive),
  else in seat order; a move that an earlier one made impossible (its piece was taken,
  its stack filled) comes to nothing. Turn checks run after each move as in sequential
  play (the first line found decides); the typed endings (endings.py: "Any piece wins")
  once, after the round's last move. ``last_round`` is the round's plans, in seat order.
- Then the next round starts, or, in a "single" phase, the phase ends (as by a stalemate).
"""

from ..errors import IllegalMove
from .codes import bits
from .generate import top_space
from .moves import ACCEPT, DECLINE, DRAW, DRAW_MOVE, PASS, PASS_MOVE, PLACE, STACK, STEP
from .ranks import ATTACKER, BY_RANK, DEFENDER, category, duel


class Rounds:
    __slots__ = ()

    # -- reading (engine README) ------------------------------------------------------
    def pending_plans(self) -> dict:
        """{seat: Move} of the round in progress: for the match layer, NEVER for another
        seat's eyes."""
        return dict(self.plans)

    def without_plans(self, seat: int):
        """A clone in which the other seats' unresolved plans are forgotten (they are to
        plan again): what a bot of ``seat`` may search."""
        new = self.clone()
        for s in list(new.plans):
            if s != seat:
                del new.plans[s]
                new.planning |= 1 << s
        return new

    # -- a round ----------------------------------------------------------------------
    def _start_round(self) -> None:
        g = self.game
        self.declined = False
        self.passes = 0
        self.plans = {}
        self.planning = 0
        active = self._active_seats()
        can = [s for s in active if self._can_move(s)]
        if not can:
            return self._stalemate("No seat has a move")
        why = self._limit_reached(self.hash + g.z_round) if g.movers else self._move_limit()
        if why:
            return self._stalemate(why)
        for s in active if self.ph.allow_pass else can:
            self.planning |= 1 << s
        return None

    def _plan_moves(self, seat: int) -> list:
        g = self.game
        if not isinstance(seat, int) or not 0 <= seat < g.nseats or not self.planning >> seat & 1:
            return []
        moves = self._moves(seat)
        extra = []
        if self.ph.allow_pass:
            extra.append(PASS_MOVE)
        if g.agree_draw and not self.declined and seat != g.chaos:
            extra.append(DRAW_MOVE)
        return moves + extra if extra else moves[:]

    def _plan(self, seat: int, move) -> None:
        g = self.game
        if not isinstance(seat, int) or not 0 <= seat < g.nseats:
            raise IllegalMove(f"there is no seat {seat} in this game")
        if not self.planning >> seat & 1:
            if seat in self.plans:
                raise IllegalMove(f"{move}: seat {seat + 1} has already planned this round")
            raise IllegalMove(f"{move}: seat {seat + 1} does not move this round")
        kind = getattr(move, "kind", None)
        if kind == DRAW and move == DRAW_MOVE:
            return self._offer(seat, move)
        if kind == PASS and move == PASS_MOVE:
            if not self.ph.allow_pass:
                raise IllegalMove("this phase has no option to pass")
            plan = PASS_MOVE
        elif kind in (ACCEPT, DECLINE):
            raise IllegalMove(f"{move}: there is no draw offer to answer")
        elif kind in (PLACE, STEP, STACK):
            if kind == PLACE:
                self._check_placement(seat, move)
            elif self.ph.placement_only:
                raise IllegalMove(f"{move}: this phase is placement only (moves from reserves)")
            legal = self._moves(seat)
            try:
                plan = legal[legal.index(move)]
            except ValueError:
                raise IllegalMove(self._why_not(seat, move)) from None
        else:
            raise IllegalMove(f"{move!r} is not a move of this game")
        self.plans[seat] = plan
        self.planning &= ~(1 << seat)
        if not self.planning:
            self._resolve()
        return None

    def _skip_plan(self, seat: int) -> None:
        if not isinstance(seat, int) or not 0 <= seat < self.game.nseats:
            raise IllegalMove(f"there is no seat {seat} in this game")
        if not self.planning >> seat & 1:
            raise IllegalMove(f"seat {seat + 1} is not to plan this round")
        self.planning &= ~(1 << seat)
        if not self.planning:
            self._resolve()

    def _forfeit_in_round(self) -> None:
        for s in list(self.plans):
            if self.out >> s & 1:
                del self.plans[s]
        self.planning &= ~self.out
        if not self.planning:
            self._resolve()

    # -- resolving --------------------------------------------------------------------
    def _resolve(self) -> None:
        plans = sorted(self.plans.items())
        self.plans = {}
        self.planning = 0
        self.round += 1
        self.last_round = tuple(plans)
        moving = [(s, m) for s, m in plans if m.kind != PASS]
        if not moving:
            if plans:
                return self._stalemate("Every seat passed")
            return self._round_over()
        groups: dict[int, list] = {}
        for s, m in moving:
            groups.setdefault(m.target, []).append((s, m))
        # the moving pieces as the round began (a collision's losses change the board)
        pieces = {s: self._moving_piece(m) for s, m in moving}
        played = []
        held: dict = {}  # a pile's plans, as legal when the round began
        meets: dict = {}  # seat -> the stack where its hand meets others' (one showdown)
        for target, group in groups.items():
            if len(group) > 1 and self._meets(group, pieces):
                held.update((s, (m, pieces[s])) for s, m in group)
                meets.update((s, target) for s, _m in group)
                played.extend(group)
            elif len(group) > 1 and self._piles_up(group):
                held.update((s, (m, pieces[s])) for s, m in group)
                played.extend(group)
            elif len(group) == 1:
                played.extend(group)
            else:
                winner = self._collide(target, group, pieces)
                if winner is not None:
                    played.append(winner)
        order = self._in_order(sorted(played))
        for k, (seat, move) in enumerate(order):
            if seat in meets:
                last = not any(meets.get(s) == meets[seat] for s, _m in order[k + 1 :])
                self._meet(seat, move, held[seat], last)
            else:
                self._carry_out(seat, move, held.get(seat))
            if self.outcome is not None:
                return None
        if self._typed_endings(None):  # endings.py: after the whole round
            return None
        return self._round_over()

    def _round_over(self) -> None:
        if self.ph.single:
            return self._stalemate("The single round is over")
        return self._start_round()

    def _moving_piece(self, move) -> tuple[int, int, int]:
        """(space, piece code, shape) of the piece a plan moves (-1, 0, shape: placed)."""
        g = self.game
        if move.kind == PLACE:
            return -1, 0, move.combo % g.nshapes
        space = self._origin_space(move)
        code = self.board[space]
        return space, code, g.piece[code][2]

    def _origin_space(self, move) -> int:
        """The space of the piece a step moves (a stack's top piece on stacks boards)."""
        g = self.game
        if move.kind == STACK or not g.stacks:
            return move.origin
        return top_space(self, move.origin)

    def _origin_pos(self, move) -> int:
        if move.kind == PLACE:
            return -1
        return self.game.space_pos[move.origin] if move.kind == STACK else move.origin

    def _piles_up(self, group: list) -> bool:
        """On stacks, plans moving only chips (pieces that cannot capture) onto the same
        stack do not collide: they land one on another in play order (issue 35: the
        contributions of 3P-PublicGoods reach the pot together). A collision needs a piece
        that could fight; chips have no hand to fight with."""
        g = self.game
        if not g.stacks:
            return False
        for _seat, move in group:
            if move.kind == PLACE:
                shapes = [move.combo % g.nshapes]
            else:
                first = self._origin_space(move)
                spaces = [first]
                if move.kind == STACK:
                    pos = g.space_pos[first]
                    top = g.stack_base[pos] + self.heights[pos] * g.layer
                    spaces = list(range(first, top, g.layer))
                shapes = [g.piece[self.board[sp]][2] for sp in spaces]
            if not all(g.chip[sh] for sh in shapes):
                return False
        return True

    def _meets(self, group: list, pieces: dict) -> bool:
        """On stacks, plans moving capturing pieces by stack onto the same stack (poker
        hands going to the pot at a showdown) do not duel piece by piece: the seed ranks a
        by-stack move by the hand on the destination stack after the move, so they all
        land and one showdown of every hand there decides (READINGS.md, release 1.7)."""
        g = self.game
        return g.stacks and all(
            m.kind == STACK and m.capture and not g.chip[pieces[s][2]] for s, m in group
        )

    def _meet(self, seat: int, move, held: tuple, last: bool) -> None:
        """One plan of a meeting (``_meets``): its stack lands with no showdown of its
        own; after the group's last landing, one showdown on the stack."""
        if self._pile_can_land(seat, move, held[1]):
            self.quiet = 0
            space, color = self._step(seat, move._replace(capture=False))
            self.chain = -1
        else:
            space = color = None
        if last and self.heights[move.target]:
            self._showdown(move.target, held[1][2])
        if space is not None:
            self._after_move(seat, move, space, color)

    def _pile_can_land(self, seat: int, move, piece: tuple) -> bool:
        """A pile's plan, no longer in the legal list: its piece(s) still where they were
        (or its reserve still holding one) and room for them on the target stack."""
        g = self.game
        space, code, _shape = piece
        count = 1
        if move.kind == PLACE:
            ri = move.combo if g.choose else g.seat_color[seat] * g.nshapes + move.combo
            if not self.reserves[ri]:
                return False
        else:
            if self.board[space] != code:
                return False
            if move.kind == STACK:
                pos = g.space_pos[space]
                count = self.heights[pos] - (space - g.stack_base[pos]) // g.layer
        return self.heights[move.target] + count <= g.height

    def _collide(self, target: int, group: list, pieces: dict):
        """Settle moves landing on the same place: the one that beats every other by
        rank, or none (every piece moved there destroyed). Returns the surviving plan."""
        g = self.game
        shapes = [pieces[s][2] for s, _m in group]
        win = None
        if g.ranked:
            for i, a in enumerate(shapes):
                if all(j == i or _beats(g, a, b) for j, b in enumerate(shapes)):
                    win = i
                    break
        captor = None if win is None else (group[win][0], shapes[win])
        for i, (seat, move) in enumerate(group):
            if i != win:
                self._destroy(seat, move, pieces[seat], target, captor)
        return None if win is None else group[win]

    def _destroy(self, seat: int, move, piece: tuple, target: int, captor) -> None:
        """The piece(s) of a plan that lost a collision: taken by ``captor`` (seat, shape)
        with its result, or (None) destroyed."""
        g = self.game
        first, code, shape = piece
        cseat, cshape = captor if captor is not None else (seat, -1)
        if move.kind == PLACE:
            ri = move.combo if g.choose else g.seat_color[seat] * g.nshapes + move.combo
            if not self.reserves[ri]:
                return  # a shared reserve's last piece, planned by two seats: gone already
            self.reserves[ri] -= 1
            if not self.reserves[ri]:
                self.stock &= ~(1 << ri)
            self.hash -= g.z_reserve[ri]
            shapes = [shape]
            if cshape >= 0 and g.gain[cshape]:
                for _ in range(g.gain[cshape]):
                    self._gain(cseat, shape)
        else:
            if self.board[first] != code:
                return  # already carried off by another lost collision of this round
            spaces = [first]
            if move.kind == STACK:
                pos = g.space_pos[first]
                top = g.stack_base[pos] + self.heights[pos] * g.layer
                spaces = list(range(first, top, g.layer))
            shapes = [g.piece[self.board[s]][2] for s in spaces]
            # a reincarnating captor gains each captive; a converting one lands them below
            taker = cshape if cshape >= 0 and not g.converts[cshape] else -1
            for s in reversed(spaces):
                self._capture(cseat, s, taker)
        if cshape >= 0 and g.converts[cshape] and g.stacks:
            color = g.seat_color[cseat]
            for sh in shapes:  # converted: put in the stack, under the captor
                if not self.free >> target & 1:
                    break
                code = g.code[cseat][color * g.nshapes + sh]
                space = self._land(target)
                self.board[space] = code
                self.cmask[color] |= 1 << space
                self.own[cseat] |= 1 << space
                self.hash += g.z_piece[space][code]

    def _in_order(self, plans: list) -> list:
        """Plans in the order they are played: a plan whose target another plan leaves
        after that plan, else seat order."""
        left = list(plans)
        out = []
        while left:
            pick = left[0]
            for p in left:
                if not any(q is not p and self._origin_pos(q[1]) == p[1].target for q in left):
                    pick = p
                    break
            left.remove(pick)
            out.append(pick)
        return out

    def _carry_out(self, seat: int, move, held=None) -> None:
        legal = self._moves(seat)
        if move in legal:
            move = legal[legal.index(move)]
        elif held is None or not self._pile_can_land(seat, move, held[1]):
            return  # an earlier move of the round made it impossible: it comes to nothing
        # (A pile's chip lands even where an earlier landing dealt its seat captives to
        # place first: the plan was legal as the round began and its piece is still there.)
        if move.kind == PLACE:
            space, color = self._place(seat, move)
            self.quiet = 0
        else:
            self.quiet = 0 if move.capture or move.combo >= 0 else self.quiet + 1
            space, color = self._step(seat, move)
        self.chain = -1  # a plan is one move
        self._after_move(seat, move, space, color)

    def plans_view(self, seat) -> dict | None:
        """``view["plans"]`` during a simultaneous phase: who has planned, and the
        viewer's own plan only."""
        if not self.ph.simultaneous:
            return None
        mine = self.plans.get(seat) if isinstance(seat, int) else None
        return {
            "registered": [s + 1 for s in sorted(self.plans)],
            "mine": None if mine is None else str(mine),
            "to_plan": [s + 1 for s in bits(self.planning)],
        }


def _beats(g, a: int, b: int) -> bool:
    """Shape a takes shape b in a collision by rank, whichever of the two attacked."""
    if category(g.rules[a]) != BY_RANK and category(g.rules[b]) != BY_RANK:
        return False
    return duel(g, a, b) == ATTACKER and duel(g, b, a) == DEFENDER
