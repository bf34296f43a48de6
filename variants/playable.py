"""Save refuses a game nobody can play (issue 39): the rules are compiled, the starting
position made for a few seeds (obstacles, scouts and Chaos depend on the seed) and a few
seeded random games played, under a small CPU budget. Refused, with a plain message:

- every match would be over before its first move (no player has a piece: say where);
- a position that is not over where no seat has a legal move (a match would hang);
- the engine raising, or refusing a move it offered, anywhere on the way.

A game still being played when the budget runs out is not refused: long games end by
the engine's own bounds. The catalogue's games are checked by a test (they load
unchecked: they are the project's own, and loading them runs in many tests).
"""

from __future__ import annotations

import logging
import random
import time

from gamecore import rules
from gamecore.engine import IllegalMove, compile_game

log = logging.getLogger(__name__)

SEEDS = 4  # starting positions made, and random games played from them
CPU_SECONDS = 0.4  # the whole check's budget (this thread's CPU time)
MOVES = 400  # per random game: enough to pass every opening; the rest is the bounds' job


def check_playable(doc: rules.RuleDoc) -> None:
    """RulesError naming what to change when ``doc`` cannot be played; None if it can
    (as far as a few random games under the budget show)."""
    try:
        _check(doc)
    except rules.RulesError:
        raise
    except Exception as exc:  # an engine bug must refuse the game, never answer 500
        log.exception("playable: the engine failed on %r", doc.name)
        raise _refusal(
            "", f"The engine cannot play these rules ({type(exc).__name__}). Change the rules."
        ) from None


def _check(doc: rules.RuleDoc) -> None:
    game = compile_game(doc)
    deadline = time.thread_time() + CPU_SECONDS
    starts = [game.new_initial_state(seed=seed) for seed in range(SEEDS)]
    if all(s.is_terminal() for s in starts):
        raise _over_at_start(doc, starts[0])
    for seed, state in enumerate(starts):
        rng = random.Random(seed)
        for _ in range(MOVES):
            if state.is_terminal() or time.thread_time() > deadline:
                break
            seat, moves = _mover(state)
            if not moves:
                who = ", ".join(f"Player {s + 1}" for s in state.to_move())
                raise _refusal(
                    "",
                    f"A game can reach a position where {who} has no legal move and the game "
                    "does not end. Change the rules (pieces, moves, locks or endings).",
                )
            move = moves[rng.randrange(len(moves))]
            try:
                state.apply(seat, move)
            except IllegalMove as exc:
                log.error("playable: %r refused its own legal move %s: %s", doc.name, move, exc)
                raise _refusal(
                    "", f"The engine refused a move it offered ({move}). Change the rules."
                ) from None


def _mover(state) -> tuple[int, list]:
    """A seat to move and its legal moves (draw offers left out), or that of the last
    seat asked when none has any."""
    seat, moves = -1, []
    for seat in state.to_move():
        moves = [m for m in state.legal_moves(seat) if str(m) != "draw"]
        if moves:
            break
    return seat, moves


def _over_at_start(doc: rules.RuleDoc, state) -> rules.RulesError:
    detail = getattr(state.outcome, "detail", "") or "over"
    if doc.board.type != "nested" and not _any_piece(doc):
        color = next(iter(doc.reserves or {}), None) or rules.color_names(doc)[0]
        return _refusal(
            f"reserves.{color}.{doc.shapes[0]}",
            "No player has a piece to place, so every match would be over before the "
            "first move: give the players pieces in the reserves.",
        )
    return _refusal(
        "",
        f"Every match would be over before the first move ({detail}). Change the rules "
        "so that the first player has a move.",
    )


def _any_piece(doc: rules.RuleDoc) -> bool:
    in_reserve = any(n for by_shape in (doc.reserves or {}).values() for n in by_shape.values())
    return in_reserve or bool(doc.initial_pieces)


def _refusal(path: str, message: str) -> rules.RulesError:
    return rules.RulesError.single(path, message)
