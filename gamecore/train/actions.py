"""A fixed, numbered universe of moves per compiled game: the action space of the
PettingZoo environment and of the OpenSpiel game.

A move of any family is identified by integers (``kind, target, combo`` and, for steps,
``origin``: ``engine/moves.py``, ``engine/general/moves.py``), each bounded by the rules
alone, so the universe is static (no exploration, the same numbers in every process):

- ``0..3``: ``pass``, ``draw``, ``accept``, ``decline``;
- placements: ``target × combo`` (combo: the shape, with the colour where players choose);
- steps (games whose pieces move): ``origin × target × (no promotion, or a shape)``;
- moves by stack (stacks boards whose pieces move): ``space × stack``.

``index(move)`` numbers a legal move; an action number is turned back into a move by
looking it up among the position's legal moves (``moves_by_index``), so what is played is
always the engine's own Move, and a number that is not legal here is refused.
"""

import weakref

from gamecore.engine.general.moves import STACK, STEP
from gamecore.engine.moves import ACCEPT, DECLINE, DRAW, PASS, PLACE

SPECIALS = {PASS: 0, DRAW: 1, ACCEPT: 2, DECLINE: 3}
SPECIAL_TEXT = ("pass", "draw", "accept", "decline")


class MoveUniverse:
    """The action numbers of one compiled game; ``size`` of them."""

    def __init__(self, game):
        self.ntargets = game.ntargets
        self.ncombos = getattr(game, "ncombos", 1)  # nested boards: one combo
        self.nshapes = getattr(game, "nshapes", 1)
        movers = bool(getattr(game, "movers", False))
        self.place_at = len(SPECIALS)
        at = self.place_at + self.ntargets * self.ncombos
        self.promotions = self.nshapes + 1  # none, or each shape
        self.step_at = at if movers else None
        if movers:
            at += self.ntargets * self.ntargets * self.promotions
        self.nspaces = game.geometry.n if movers and getattr(game, "stacks", False) else 0
        self.stack_at = at if self.nspaces else None
        at += self.nspaces * self.ntargets
        self.size = at

    def index(self, move) -> int:
        """The action number of ``move``; ValueError for a move outside the universe
        (never for a legal move of this game: tests/test_train_pettingzoo.py)."""
        kind = move[0]
        if kind in SPECIALS:
            return SPECIALS[kind]
        target, combo = move[1], move[2]
        if not 0 <= target < self.ntargets:
            raise ValueError(f"{move!r}: target out of the universe")
        if kind == PLACE and 0 <= combo < self.ncombos:
            return self.place_at + target * self.ncombos + combo
        origin = move[4] if len(move) > 4 else -1
        if kind == STEP and self.step_at is not None and 0 <= origin < self.ntargets:
            if -1 <= combo < self.nshapes:
                return (
                    self.step_at + (origin * self.ntargets + target) * self.promotions + combo + 1
                )
        if kind == STACK and self.stack_at is not None and 0 <= origin < self.nspaces:
            return self.stack_at + origin * self.ntargets + target
        raise ValueError(f"{move!r}: not in this game's move universe")

    def moves_by_index(self, moves) -> dict:
        """{action number: Move} of a list of legal moves."""
        return {self.index(m): m for m in moves}


_BY_GAME: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def universe_for(game) -> MoveUniverse:
    """The universe of ``game``, made once per compiled game (compile_game caches games)."""
    found = _BY_GAME.get(game)
    if found is None:
        found = _BY_GAME[game] = MoveUniverse(game)
    return found
