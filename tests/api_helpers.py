"""Matches for the read API's tests: played to the end by the server's players."""

from __future__ import annotations

from play import services
from play.models import Match
from tests.play_helpers import later


def play_out(match, steps: int = 2000) -> Match:
    """Let the server's players play ``match`` to its end."""
    for _ in range(steps):
        if Match.objects.get(pk=match.pk).status != Match.Status.ACTIVE:
            break
        services.server_move(match.pk, now=later(5))
    match = Match.objects.get(pk=match.pk)
    assert match.status == Match.Status.FINISHED
    return match
