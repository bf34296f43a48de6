"""The nested section's board preview: the starting position of the game the form
describes, as the live board draws it (the spectator's view, from one fixed seed)."""

from __future__ import annotations

import logging

from gamecore import rules
from gamecore.engine import compile_game

from . import nested_state
from .nested_state import NestedState

log = logging.getLogger(__name__)

PREVIEW_SEED = 1  # obstacles and scouts are drawn from each match's own seed


def starting_view(nested: NestedState) -> dict | None:
    """The view of the start, or None while the form does not describe a valid game (its
    errors are shown next to the controls instead)."""
    doc = nested_state.to_document("Preview", nested)
    try:
        game = compile_game(doc)
    except rules.RulesError:
        return None
    except Exception:  # a preview must never break the form
        log.exception("factory preview: could not compile %r", doc)
        return None
    return game.new_initial_state(seed=PREVIEW_SEED).view(None)
