"""Move: an immutable, hashable value; ``str(move)`` is its notation.

A placement names a target (a space, or a stack on a stacks board) and a "combo": the
shape, plus the colour when players choose colours. Where the colour follows from the
seat (assigned, shared, partners' colours) the move does not carry it, so "3,1,1" is the
same move whichever seat plays it.
"""

from typing import NamedTuple

PLACE, PASS, DRAW, ACCEPT, DECLINE = range(5)


def is_number(text: str) -> bool:
    """ASCII digits only: ``str.isdigit`` also takes "²", which ``int`` refuses."""
    return text.isascii() and text.isdigit()


class Move(NamedTuple):
    kind: int
    target: int = -1
    combo: int = -1
    text: str = ""

    def __str__(self) -> str:
        return self.text

    # The text is a rendering of (kind, target, combo), so it takes no part in equality.
    def __eq__(self, other) -> bool:
        return isinstance(other, Move) and self[:3] == other[:3]

    def __ne__(self, other) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self[:3])

    def __repr__(self) -> str:
        return f"Move({self.text!r})"


PASS_MOVE = Move(PASS, text="pass")
DRAW_MOVE = Move(DRAW, text="draw")
ACCEPT_MOVE = Move(ACCEPT, text="accept")
DECLINE_MOVE = Move(DECLINE, text="decline")
SPECIAL = {m.text: m for m in (PASS_MOVE, DRAW_MOVE, ACCEPT_MOVE, DECLINE_MOVE)}
