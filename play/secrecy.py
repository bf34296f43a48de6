"""What of a cloaked match (issue 20) each path may send, in one place.

The engine already cuts every ``state.view(seat)`` to what the seat sees (fog.py), so
the live paths (the first state, each move's state, reconnects, spectators; Channels
and Socket.IO alike) need nothing more. What the engine cannot know is who reads the
*move log*, and when: that is decided here.

- While a cloaked match is being played, the log as served (the replay page) names
  only the moves every seat sees named (pass, draw, accept, decline, resign, timeouts);
  a placement or step is "(hidden move)", and each frame is a spectator's view (what no
  seat's secret reveals).
- Once the match is over, everything is revealed to everyone: every frame in full and
  every move named. (Blotto's rule: the allocations are shown when the battle is done.)
- A bot seated in a cloaked match is given its seat's position (``seat_state``), never
  the state, and its move is checked against the seat's own legal moves: that is
  ``gamecore.bots.common.for_seat`` and ``checked``, the one place every bot path uses.

Games that hide nothing pass through every function here unchanged.
"""

from __future__ import annotations

from gamecore.engine.general.fog import HIDDEN_MOVE, fogged
from gamecore.engine.general.view import view as general_view

from .models import Match, Move

__all__ = [
    "HIDDEN_MOVE",
    "cloaked",
    "frame_move",
    "frame_view",
    "revealed",
]


def cloaked(game) -> bool:
    return getattr(game, "family", None) == "general" and fogged(game)


def revealed(match: Match) -> bool:
    """Whether the match's secrets are out: once it is over (see the docstring)."""
    return match.is_over


def frame_view(game, state, reveal: bool) -> dict:
    """A replay frame: the spectator's view, or the whole position once revealed."""
    if reveal and cloaked(game):
        data = general_view(state, None)
        data["cloaking"] = state.view(None)["cloaking"]
        return data
    return state.view(None)


def frame_move(game, row: Move, reveal: bool) -> str:
    """A log row's text as the replay page shows it."""
    text = row.notation or row.get_kind_display()
    if reveal or not cloaked(game) or row.kind != Move.Kind.MOVE:
        return text
    if text in ("pass", "draw", "accept", "decline"):
        return text
    return HIDDEN_MOVE
