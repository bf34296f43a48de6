"""The engine's exceptions. Both are ValueErrors, so a caller that only needs "bad input"
can catch that; messages quote the input and say what would have been allowed."""

from gamecore.rules import RulesError


class IllegalMove(ValueError):
    """A move that may not be played now. The state is left untouched."""


class InvalidMoveText(IllegalMove):
    """Text that does not name any move of this game (``Game.parse_move``)."""


__all__ = ["IllegalMove", "InvalidMoveText", "RulesError"]
