"""Simultaneous rounds as the match layer sees them (issue 19; the engine's contract in
``gamecore/engine/README.md``): in a general game whose phase is ``simultaneous`` or
``single``, every seat still to plan is in ``state.to_move()``; ``apply`` registers a
plan, hidden from the other seats; the last plan resolves the round
(``state.last_round``, ``state.round``). Other families have no plans: every helper here
then answers as for an ordinary turn.

Pure reading of the state (no Django): ``play.clock`` asks whether several seats plan at
once (a clock each), ``play.moves`` which event a row makes (``plan:registered`` or
``round:resolved``), ``play.replay`` how to show the rows of a round, ``play.agents``
what a bot may search (``without_plans``).
"""

from __future__ import annotations

SIMULTANEOUS = ("simultaneous", "single")


def pending(state) -> dict:
    """{seat: move} of the round in progress; NEVER sent to another seat."""
    plans = getattr(state, "pending_plans", None)
    return dict(plans()) if plans is not None else {}


def round_number(state) -> int | None:
    """Rounds resolved so far, or None in a game without rounds."""
    return getattr(state, "round", None) if hasattr(state, "pending_plans") else None


def planning(state) -> bool:
    """Do the seats to move plan at once (a simultaneous round in progress)? A round is
    known by a plan already registered, or by several seats to move in a phase whose
    order is simultaneous or single (several seats to move otherwise: a draw offer)."""
    if not hasattr(state, "pending_plans") or state.is_terminal():
        return False
    if pending(state):
        return True
    if len(state.to_move()) < 2:
        return False
    phase = state.view(None).get("phase") or {}
    return phase.get("order") in SIMULTANEOUS


def resolved(state, before: int | None) -> list[tuple[int, str]] | None:
    """The moves of the round that resolved since ``before`` (``round_number`` then), as
    (seat, move text) in seat order; None if no round resolved."""
    if before is None:
        return None
    now = round_number(state)
    if now is None or now <= before or not getattr(state, "last_round", None):
        return None
    return [(seat, _text(move)) for seat, move in state.last_round]


def _text(move) -> str:
    return "" if move is None else str(move)


def registered(state, seat: int) -> bool:
    """Did ``seat``'s last row register a plan that is still hidden?"""
    return seat in pending(state)


def same_round(state, seen: int, ply: int) -> bool:
    """Did a client that saw log row ``seen`` see this round's board? In a round nothing
    moves until it resolves, so a plan sent while another seat planned is not stale:
    ``ply`` (the log's length now) less the plans registered since is the round's start."""
    return planning(state) and ply - len(pending(state)) <= seen <= ply


def for_bot(state, seat: int):
    """The position a bot of ``seat`` may search (``gamecore.bots.common.for_seat``: never
    another seat's unresolved plan, never a piece hidden from it), as a copy of its own:
    the state here is the match's cached position, which a search must not touch."""
    from gamecore.bots.common import for_seat

    seen = for_seat(state, seat)
    return state.clone() if seen is state else seen
