"""The Game Factory form as plain data: ``FactoryState`` (everything the factory page
shows) and ``Check`` (a turn check's dropdown), with the limits the form keeps to.

Shapes are addressed by their *row* (1-based), not by name, in reserve fields, piece
markers and set-up pieces: renaming a shape row (circle -> pentagon) then carries its
reserves and pieces along instead of dropping them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from gamecore import rules
from gamecore.rules.schema import ShapeRules
from gamecore.rules.vocabulary import (
    COLORS,
    MAX_DIMENSION,
    MAX_SPACES,
    MAX_STACK_HEIGHT,
    PLAYER_MODES,
    seat_colors,
)

from .checks import MAX_BOARDS, Check
from .moving_state import MovingState
from .nested_state import NestedState
from .phase_state import PhaseState
from .spaces import Spot

# The board types of the flat family; the nested family is the other choice.
FLAT_BOARDS = ("hash", "squares", "stacks")
FAMILIES = {"flat": "Flat board", "nested": "Nested boards"}
MAX_CHECKS = 8


@dataclass
class FactoryState:
    name: str = ""
    family: str = "flat"  # "nested": the nested section holds the game, the rest is unused
    nested: NestedState = field(default_factory=NestedState)
    stalemate: str = "draw"
    checks: list[Check] = field(default_factory=lambda: [Check()])
    players: str = "2"
    colors: str = "assigned"
    shapes: list[str] = field(default_factory=lambda: ["circle"])
    pieces_per_turn: int = 1
    boards: int = 1
    board_type: str = "hash"
    size: tuple[int, int, int] = (3, 3, 1)
    # colour -> shape row (1-based) -> count
    reserves: dict[str, dict[int, int]] = field(default_factory=dict)
    # True while the creator has not touched the reserves: they follow the rules' own
    # default (the open spaces dealt round-robin over the colours) as the board changes.
    reserves_auto: bool = True
    locked: set[Spot] = field(default_factory=set)
    pieces: dict[Spot, tuple[str, int]] = field(default_factory=dict)  # -> (colour, shape row)
    # The set-up pieces that belong to nobody (scenery, issue 35: HideSeek's ring): their
    # spots, a subset of ``pieces``. ``piece_owner`` is what a piece marker places now.
    nobody: set[Spot] = field(default_factory=set)
    piece_owner: str = "seat"  # "seat" (its colour's player) or "nobody"
    # On stacks the cloak marker cloaks the whole stack ("stack") or the one space clicked
    # ("space": release 1.7's pokers show a stack's cards round by round).
    cloak_reach: str = "stack"
    allow_pass: bool = False
    agree_draw: bool = False
    seconds: int | None = None
    turn_ms: int | None = None  # seed 001's turn time, when the select says milliseconds
    timeout: str = "loss"
    # "lock", "exclusive", "sticky", "piece-<colour>-<row>", "dealt-common" or
    # "dealt-<seat>": the palette marker
    marker: str = ""
    moving: MovingState = field(default_factory=MovingState)  # pieces that move, marked spaces
    phases: list[PhaseState] = field(default_factory=lambda: [PhaseState()])
    phase_shown: int = 0  # the phase whose controls the page shows (0-based)
    cloaking: str = "none"
    overachievers: bool = False
    # Release 1.7 (deck_state.py): the deck's notation and the dealt spaces -> seat (None:
    # common). A dealt space holds nothing else, as a locked space holds no piece.
    deck: str = ""
    dealt: dict[Spot, int | None] = field(default_factory=dict)

    # --- derived ------------------------------------------------------------------

    @property
    def color_names(self) -> tuple[str, ...]:
        return COLORS[: seat_colors(self.players, self.colors)[1]]

    @property
    def seats(self) -> int:
        return PLAYER_MODES[self.players][0]

    @property
    def spaces(self) -> int:
        return math.prod(self.size) * self.boards

    def reserve_limit(self) -> int:
        """The reserve selects' maximum: the seed's example, the board's spaces divided by
        the colours (rounded up, as ``rules.reserve_limit`` deals them). It follows the
        board and the colours only, never a shape's power: choosing a power is no reason
        for every select's range to jump (issue 35: StagHunt's 0-4 became 0-12)."""
        return self._rules_limit(with_powers=False)

    def capture_limit(self) -> int:
        """The most the rules accept (``rules.reserve_limit``): a whole board's spaces
        when some shape captures (pieces leave the board), else the maximum above. The
        selects offer the values past the maximum marked ⚔ (captures)."""
        return max(self.reserve_limit(), self._rules_limit(with_powers=True))

    def _rules_limit(self, with_powers: bool) -> int:
        """Asked of ``rules.reserve_limit`` itself (the factory never drifts from the
        rules' formula), never more than the largest board the seed allows, whatever was
        posted."""
        boards = min(max(self.boards, 1), MAX_BOARDS)
        size = tuple(
            min(max(v or 1, 1), MAX_STACK_HEIGHT if i == 2 else MAX_DIMENSION)
            for i, v in enumerate(self.size)
        )
        shapes = {
            self.shapes[row - 1]: ShapeRules.model_construct(
                move=r.move, power=r.power, condition=r.condition or "cover",
                result=r.result or "remove",
            )
            for row, r in self.moving.rules.items()
            if with_powers and 1 <= row <= len(self.shapes)
        }  # fmt: skip
        doc = rules.RuleDoc.model_construct(
            name="limit",
            players=self.players if self.players in PLAYER_MODES else "2",
            colors=self.colors,
            boards=boards,
            board=rules.BoardSpec.model_construct(type=self.board_type, size=size),
            shape_rules=shapes,
        )
        return max(0, min(rules.reserve_limit(doc), MAX_SPACES * boards))

    def on_board(self, spot: Spot) -> bool:
        b, *at = spot
        return 1 <= b <= self.boards and all(
            1 <= v <= n for v, n in zip(at, self.size, strict=True)
        )
