"""Phases of a general-family game (the seed's 1 to 6 phases; rules/phases.py).

Compiled once per game (``compile_phases``): per phase its order, option to pass,
"placement only", locked seats (a bit mask), the locks of every seat (the document's
sticky/exclusive/space locks plus the phase's locked spaces, locked for entry and exit to
every seat), its fold and its cloaked spaces (stored for the cloaking issue), and its own
memo of legal-move lists (moves differ between phases on the same position).

Played by ``PhaseRun``, mixed into GeneralState:

- **Stalemate advances the phase.** A phase ends the way the game would otherwise end by
  stalemate (the seat to move has no move and no pass, every active seat passed in a
  row, a repetition, fifty quiet moves, a single round played); the phase's fold applies,
  and the next phase starts. The last phase's stalemate ends the game by the stalemate
  rule (``GeneralState._stalemate``, the one place that evaluates it).
- **Active seats**: not out (forfeited), not folded, not locked this phase. Locked and
  folded seats are skipped. A sequential phase (after the first) begins with the seat
  that was to move, or the next active seat after it in seat order that has a move; a
  phase in which no active seat has a move ends at once.
- **Folds** (at the end of a phase, never the last; never Chaos): a seat's *committed*
  pieces are its pieces on spaces it may not leave in the phase that ends (sticky,
  exclusive to others, exit-locked to it or locked by the phase).
  ``less-than-most-committed``: only the seats with the most committed pieces stay in;
  ``uncommitted``: the seats with no committed piece fold; ``less-than-most-pieces``: only
  the seats with the most pieces on the board stay in. Seats already out or folded are
  not counted. A folded seat never moves again but keeps its pieces and may still win.
"""

import random

from .codes import bits

_ROUND_SEED = 0x5EA7


class PhaseRules:
    __slots__ = (
        "index", "order", "simultaneous", "single", "allow_pass", "placement_only",
        "locked_seats", "no_entry", "no_exit", "locks", "fold", "cloaked", "cache",
    )  # fmt: skip

    def __repr__(self) -> str:
        return f"<Phase {self.index + 1} {self.order}>"


def compile_phases(game, doc) -> list[PhaseRules]:
    """The game's phases (one for a document without phases). ``game.no_entry`` and
    ``game.no_exit`` are the document's locks; ``game.cache`` the first phase's memo."""
    g = game.geometry
    specs = doc.phases or (None,)
    out = []
    for i, spec in enumerate(specs):
        ph = PhaseRules()
        ph.index = i
        ph.order = "sequential" if spec is None else spec.order
        ph.simultaneous = ph.order != "sequential"
        ph.single = ph.order == "single"
        ph.allow_pass = doc.allow_pass if spec is None else spec.allow_pass
        ph.placement_only = spec is not None and spec.placement_only
        ph.locked_seats = 0 if spec is None else sum(1 << (s - 1) for s in set(spec.locked_seats))
        ph.fold = "none" if spec is None else spec.fold
        locked = 0
        ph.cloaked = 0
        if spec is not None:
            for s in spec.locked:
                locked |= 1 << g.index(s.board - 1, *(v - 1 for v in s.at))
            for s in spec.cloaked:
                ph.cloaked |= 1 << g.index(s.board - 1, *(v - 1 for v in s.at))
        ph.no_entry = [m | locked for m in game.no_entry]
        ph.no_exit = [m | locked for m in game.no_exit]
        ph.locks = any(ph.no_entry) or any(ph.no_exit)
        ph.cache = game.cache if i == 0 or game.cache is None else {}
        out.append(ph)
    game.z_round = random.Random(_ROUND_SEED).getrandbits(62)
    return out


class PhaseRun:
    """The phase machinery of GeneralState (its fields are the state's)."""

    __slots__ = ()

    def _inactive(self) -> int:
        """Seats that may not move now: out, folded, or locked this phase (a bit mask)."""
        return self.out | self.folded | self.ph.locked_seats

    def _active_seats(self) -> list[int]:
        inactive = self._inactive()
        return [s for s in range(self.game.nseats) if not inactive >> s & 1]

    def _next_phase_instead(self) -> bool:
        """At a stalemate: apply the phase's fold and start the next phase (True), or
        False in the last phase (the stalemate rule then ends the game)."""
        g = self.game
        if self.phase + 1 >= len(g.phases):
            return False
        self._fold()
        if self.passes:  # every seat passed: the turn goes on after the last to pass
            self.turn = (self.turn + 1) % g.nseats
        self._enter_phase(self.phase + 1)
        return True

    def _enter_phase(self, index: int, start: bool = False) -> None:
        g = self.game
        self.phase = index
        ph = self.ph = g.phases[index]
        self.passes = 0
        self.placed = 0
        self.chain = -1
        self.declined = False
        self.offer = None
        self.planning = 0
        self.plans = {}
        self.seen.clear()  # a position of another phase is another position
        if ph.simultaneous:
            return self._start_round()
        if start and not self._inactive() & 1:  # the first turn, as before phases existed
            if g.movers:
                self.seen[self.hash + g.z_turn[0]] = 1
            if not self._can_move(0) and not ph.allow_pass:
                self._stalemate()
            return None
        # The turn goes on in seat order from the seat that was to move, to the first
        # active seat with a move: a phase begins with a seat that can act.
        n = g.nseats
        inactive = self._inactive()
        for i in range(n):
            s = (self.turn + i) % n
            if not inactive >> s & 1 and self._can_move(s):
                break
        else:
            return self._stalemate(f"No seat can move in phase {index + 1}")
        self.turn = s
        if g.movers:
            self.seen[self.hash + g.z_turn[s]] = 1
        return None

    def _fold(self) -> None:
        g = self.game
        rule = self.ph.fold
        if rule == "none":
            return
        seats = [
            s for s in range(g.nseats) if s != g.chaos and not (self.out | self.folded) >> s & 1
        ]
        if not seats:
            return
        if rule == "less-than-most-pieces":
            value = {s: self.own[s].bit_count() for s in seats}
        else:
            value = {s: (self.own[s] & self.ph.no_exit[s]).bit_count() for s in seats}
        if rule == "uncommitted":
            fold = [s for s in seats if value[s] == 0]
        else:
            best = max(value.values())
            fold = [s for s in seats if value[s] < best]
        for s in fold:
            self.folded |= 1 << s

    def phase_view(self) -> dict:
        """``view["phase"]`` (engine README): public to every seat."""
        g = self.game
        ph = self.ph
        return {
            "number": self.phase + 1,
            "of": len(g.phases),
            "order": ph.order,
            "locked_seats": [s + 1 for s in bits(ph.locked_seats)],
            "folded": [s + 1 for s in bits(self.folded)],
            "allow_pass": ph.allow_pass,
            "placement_only": ph.placement_only,
        }
