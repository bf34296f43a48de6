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
- A move may be *silent* for a viewer (issue 32; the engine's observe.py): a hidden move
  after which the same seat is still to move. Such a viewer is sent nothing for it (no
  ``state``, no event, no replay frame), and every ply it is given (the ``state``
  event's, a bot's turn, the replay's frames) counts only the moves it observed
  (``seen_ply``); a ``ply`` it sends back is read the same way.

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
    "seen_ply",
    "silent_viewers",
    "unseen",
    "unseen_counts",
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


def frame_move(game, row: Move, reveal: bool, view: dict | None = None) -> str:
    """A log row's text as the replay page shows it: while a cloaked match is on, the
    spectator's label of the move (``view``: the frame's; a move is named only where
    every piece it changed is public, a pass that could have hidden a move is hidden)."""
    text = row.notation or row.get_kind_display()
    if reveal or not cloaked(game) or row.kind != Move.Kind.MOVE:
        return text
    label = None if view is None else view.get("last_move")
    return label or HIDDEN_MOVE


def unseen(state, viewer: int | None) -> int:
    """Moves of the match that were silent for ``viewer`` (None: spectators); none once
    the game is over (everything is revealed: the true ply)."""
    counter = getattr(state, "unseen_moves", None)
    return 0 if counter is None or state.is_terminal() else counter(viewer)


def seen_ply(ply: int, state, viewer: int | None) -> int:
    """The log's ``ply`` as ``viewer`` counts it: without the moves silent for it."""
    return ply - unseen(state, viewer)


def unseen_counts(state) -> list[int]:
    """``unseen`` of every seat, then of spectators (before a move: ``silent_viewers``)."""
    if getattr(state, "unseen_moves", None) is None:
        return []
    return [unseen(state, s) for s in range(state.game.nseats)] + [unseen(state, None)]


def silent_viewers(state, before: list[int]) -> list:
    """The viewers (seat indices, None for spectators) for whom the move just played
    was silent: ``unseen_counts`` went up."""
    after = unseen_counts(state)
    viewers = [*range(len(after) - 1), None]
    return [v for v, a, b in zip(viewers, before, after, strict=False) if b > a]
