"""The bottom of the factory's form data: a turn check's dropdown (``Check``), the
endings written as dropdown values, and the names the sub-state modules use for the form.

Every other module of the factory may import this one; it imports none of them. The
sub-states (``deck_state``, ``moving_state``, ``phase_state``, ``spaces``) take the form
(``form.FactoryState``) as an argument without importing ``form``, which imports them:
``FactoryState`` here is only its name for their signatures.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from gamecore.rules import endings as ending_words
from variants import json_input
from variants.bounded import whole_number

Spot = tuple[int, int, int, int]  # board, x, y, z
FactoryState = Any  # form.FactoryState, named without importing form (form imports us)
MAX_BOARDS = 3


def is_ending(value: str) -> bool:
    return value.startswith("{")


def read_ending(value: str, when: str) -> str | None:
    """An ending's key from a posted value, or None when it is not an ending of ``when``."""
    try:
        raw = json_input.loads(value[:400], max_bytes=400, max_depth=4)
        ending = ending_words.Ending.model_validate(raw)
    except (ValueError, ValidationError):
        return None
    return ending_words.key(ending) if ending.when == when else None


@dataclass(frozen=True)
class Check:
    k: int = 3
    result: str = "wins"
    diagonal: bool = True
    ending: str = ""  # another ending of the typed vocabulary (its key), instead of k

    @property
    def value(self) -> str:
        """The turn-check dropdown's option value, e.g. "3-wins-d" / "4-loses-o", or an
        ending's key (JSON)."""
        if self.ending:
            return self.ending
        return f"{self.k}-{self.result}-{'d' if self.diagonal else 'o'}"

    @classmethod
    def from_value(cls, text: str) -> Check:
        if is_ending(text):
            found = read_ending(text, "turn") or read_ending(text, "stalemate")
            if found is None:
                raise ValueError(text)
            return cls(ending=found)
        k, result, diag = text.split("-")
        if result not in ("wins", "loses") or diag not in ("d", "o"):
            raise ValueError(text)
        # Wider than the rules allow (2..6), so validation names the limit; never unbounded.
        return cls(whole_number(k, 1, 99), result, diag == "d")
