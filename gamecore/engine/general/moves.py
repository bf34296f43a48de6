"""Moves of the general family: placements (written as in the flat family) and steps of a
placed piece from one position to another.

A ``Move`` is an immutable, hashable value whose identity is (kind, target, combo,
origin); ``str(move)`` is its notation (engine/README.md), which also marks a capture
with ``x`` instead of ``-``. The text takes no part in equality, so the move parsed from
``1,1,1-2,2,1`` equals the capture ``1,1,1x2,2,1`` played from the same position.
"""

from typing import NamedTuple

from ..moves import ACCEPT, DECLINE, DRAW, PASS, PLACE

STEP = 5
STACK = 6  # a step "by stack": the piece carries those above it; origin is its space

__all__ = ["ACCEPT", "DECLINE", "DRAW", "PASS", "PLACE", "STACK", "STEP", "Move"]


class Move(NamedTuple):
    kind: int
    target: int = -1  # placement: target; step: destination position
    combo: int = -1  # placement: shape (and colour where players choose)
    text: str = ""
    origin: int = -1  # step: the position the piece leaves
    capture: bool = False  # step: takes a piece (only changes the text)

    def __str__(self) -> str:
        return self.text

    def __eq__(self, other) -> bool:
        return (
            isinstance(other, Move)
            and self[0] == other[0]
            and self[1] == other[1]
            and self[2] == other[2]
            and self[4] == other[4]
        )

    def __ne__(self, other) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((self[0], self[1], self[2], self[4]))

    def __repr__(self) -> str:
        return f"Move({self.text!r})"


PASS_MOVE = Move(PASS, text="pass")
DRAW_MOVE = Move(DRAW, text="draw")
ACCEPT_MOVE = Move(ACCEPT, text="accept")
DECLINE_MOVE = Move(DECLINE, text="decline")
SPECIAL = {m.text: m for m in (PASS_MOVE, DRAW_MOVE, ACCEPT_MOVE, DECLINE_MOVE)}
