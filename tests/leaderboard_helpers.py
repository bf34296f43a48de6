"""Finished matches for rating tests: written through ``play.recording``, then rated."""

from __future__ import annotations

from django.utils import timezone

from gamecore.engine import Outcome


def outcome(*results: str) -> Outcome:
    return Outcome(results=tuple(results), reason="victory", detail="test")


def finish(
    rule_set,
    players,
    results,
    *,
    rate=True,
    by=None,
    chaos=None,
    universe=None,
    moves=(),
    rated=True,
):
    """A finished match of ``players`` (one per non-Chaos seat) with these seat results;
    rated unless ``rate`` is false. ``moves``: (seat, notation, think_ms) rows."""
    from leaderboards.services import rate_match
    from play.recording import PlayedGame, PlayedMove, record_game

    now = timezone.now()
    game = PlayedGame(
        seed=1,
        moves=[PlayedMove(s, n, t) for s, n, t in moves],
        outcome=outcome(*results),
        started=now,
        finished=now,
    )
    match = record_game(rule_set, players, chaos, game, by=by, universe=universe, rated=rated)
    if rate:
        rate_match(match.pk)
    return match
