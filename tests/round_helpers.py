"""PlanToy: a stand-in for a general game in simultaneous rounds, written to the engine's
contract for issue 19 (``gamecore/engine/README.md``: ``to_move`` lists every seat still
to plan, ``apply`` registers a plan, the last plan resolves the round; ``pending_plans``,
``last_round``, ``round``, ``without_plans``; ``view(seat)`` says who planned and only the
seat's own plan). The match layer is tested on it; the real engine's simultaneous
documents are tested the same way once they exist (``tests/test_live_rounds.py``).

Two seats; two rounds; each round every seat plans a number: seat 1 writes ``a1``..``a3``,
seat 2 ``b1``..``b3`` (distinct texts, so a plan that leaks is found by its text). The
higher total after two rounds wins. A skipped seat plans nothing (0).
"""

from __future__ import annotations

import copy

from gamecore.engine import IllegalMove
from gamecore.engine.errors import InvalidMoveText
from gamecore.engine.outcome import DRAW, LOSS, WIN, Outcome

LETTERS = "ab"
ROUNDS = 2


class PlanToyGame:
    nseats = 2
    chaos = None
    family = "general"
    doc = None  # no rule document: nothing is cloaked (gamecore/engine/general/knowledge.py)

    def parse_move(self, text: str) -> str:
        text = str(text).strip().lower()
        if len(text) == 2 and text[0] in LETTERS and text[1] in "123":
            return text
        raise InvalidMoveText(f"{text[:20]!r} is not a plan of PlanToy")

    def new_initial_state(self, seed: int | None = None) -> PlanToyState:
        return PlanToyState()


class PlanToyState:
    def __init__(self):
        self.totals = [0, 0]
        self.plans: dict[int, str | None] = {}
        self.round = 0
        self.last_round = None
        self.out: set[int] = set()
        self.outcome = None

    # -- the contract ----------------------------------------------------------------------
    def to_move(self) -> tuple[int, ...]:
        if self.outcome is not None:
            return ()
        return tuple(s for s in range(2) if s not in self.plans and s not in self.out)

    def legal_moves(self, seat: int) -> list[str]:
        if seat not in self.to_move():
            return []
        return [f"{LETTERS[seat]}{n}" for n in (1, 2, 3)]

    def apply(self, seat: int, move) -> None:
        if move not in self.legal_moves(seat):
            raise IllegalMove(f"{move} is not a plan of seat {seat + 1} now")
        self._register(seat, move)

    def play(self, seat: int, move) -> None:
        self._register(seat, move)

    def skip(self, seat: int) -> None:
        if seat not in self.to_move():
            raise IllegalMove(f"seat {seat + 1} is not to plan")
        self._register(seat, None)

    def forfeit(self, seat: int, reason: str = "resignation") -> None:
        if self.outcome is not None:
            raise IllegalMove("the game is over")
        self.out.add(seat)
        results = [LOSS if s == seat else WIN for s in range(2)]
        self.outcome = Outcome(results, reason, f"Seat {seat + 1} left the game.")

    def pending_plans(self) -> dict:
        return {s: m for s, m in self.plans.items()}

    def without_plans(self, seat: int) -> PlanToyState:
        new = self.clone()
        new.plans = {s: m for s, m in self.plans.items() if s == seat}
        return new

    def is_terminal(self) -> bool:
        return self.outcome is not None

    def clone(self) -> PlanToyState:
        return copy.deepcopy(self)

    def random_move(self, rng):
        seats = self.to_move()
        return rng.choice(self.legal_moves(seats[0])) if seats else None

    def view(self, seat: int | None) -> dict:
        planning = bool(self.plans) or len(self.to_move()) > 1
        mine = self.plans.get(seat) if seat is not None else None
        return {
            "family": "general",
            "seat": seat,
            "to_move": list(self.to_move()),
            "legal_moves": self.legal_moves(seat) if seat is not None else [],
            "totals": list(self.totals),
            "last_move": None,
            "seat_colors": ["red", "blue"],
            "teams": [0, 1],
            "phase": {
                "number": 1,
                "of": 1,
                "order": "simultaneous",
                "locked_seats": [],
                "folded": [],
                "allow_pass": False,
                "placement_only": True,
            },
            "plans": (
                {"registered": sorted(s + 1 for s in self.plans), "mine": mine}
                if planning and self.outcome is None
                else None
            ),
            "outcome": self.outcome.to_dict() if self.outcome is not None else None,
        }

    # -- the rules ---------------------------------------------------------------------------
    def _register(self, seat: int, move) -> None:
        self.plans[seat] = move
        if self.to_move():
            return
        resolved = tuple(sorted(self.plans.items()))
        for s, m in resolved:
            self.totals[s] += 0 if m is None else int(m[1])
        self.plans = {}
        self.round += 1
        self.last_round = resolved
        if self.round == ROUNDS:
            a, b = self.totals
            results = [WIN, LOSS] if a > b else [LOSS, WIN] if b > a else [DRAW, DRAW]
            self.outcome = Outcome(results, "victory" if a != b else "draw", f"Totals {a}-{b}.")


def plan_toy(name: str = "PlanToy", **doc):
    """A rule set whose compiled game is PlanToy (its document only gives the timers:
    ``seconds_per_turn``, ``timeout``). Call ``forget_plan_toys`` after the test."""
    from play.replay import _games
    from tests.play_helpers import rule_set

    rules = rule_set(name, board={"type": "squares", "size": [4, 4, 1]}, **doc)
    _games[(rules.fingerprint, rules.document.get("name", ""))] = PlanToyGame()
    return rules


def forget_plan_toys() -> None:
    from play.replay import _cache, _games

    for key in [k for k, g in _games.items() if isinstance(g, PlanToyGame)]:
        del _games[key]
    _cache.clear()
