"""Nested boards (TacticToy, Ultimate, Strategic): boards of blocks of blocks of cells,
played through the same API as flat games."""

from .game import NestedGame
from .state import NestedState

__all__ = ["NestedGame", "NestedState"]
