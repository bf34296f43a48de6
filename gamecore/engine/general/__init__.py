"""The general family: spaces holding pieces (shape, colour, owner) that may move and
capture, reserves per colour and shape, per-seat locks on spaces, repetition endings.
It also plays every flat game (a differential test holds it to the flat family)."""

from .game import GeneralGame
from .moves import Move
from .state import GeneralState

__all__ = ["GeneralGame", "GeneralState", "Move"]
