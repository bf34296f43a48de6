"""Favouritism math, pure Python (no Django): the formulas of the plan (LATER.md,
"Favouritism") over the rated matches of one pair of players (a, b) in one game.

Each ``Meeting`` is one match of the pair seen from a's side: what happened and what the
ratings expected before it (``rating.expectation``: E(a wins), E(b wins), E(draw)).

- Win boost(a,b) = Σ (X(a wins) − E(a wins)) / 10 over their last ten matches;
  Kick back(a,b) the same for b's wins; Draw boost(a,b) the same for draws. The sum is
  divided by 10 even when they met fewer times: a short acquaintance counts for less.
- Preference(a,b) = draw boost + 2 × win boost: how much b lets a have.
- Relative rating(a,b) = R_b / R_a − 1 (R = μ − 3σ); ``None`` when R_a ≤ 0 (a beginner
  starts at R = 0, and a ratio to zero or to a negative rating says nothing).
- Favour done by a for b in one match: E(a wins) + E(draw) if b won; −E(b wins) − E(draw)
  if a won; E(a wins) − E(b wins) if drawn; 0 when someone else won (three or more
  teams). Favours owed(a,b) = the sum of the favours b did for a.

Outcomes (``pair_outcome``): "a" or "b" when that player's team alone ranks first,
"draw" when every team shares one rank, "other" otherwise (another team won, or a tie
for first that leaves someone out).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WINDOW = 10  # the last ten matches of a pair
A, B, DRAW, OTHER = "a", "b", "draw", "other"


@dataclass(frozen=True)
class Meeting:
    outcome: str  # A, B, DRAW or OTHER
    e_a: float  # E(a wins)
    e_b: float  # E(b wins)
    e_draw: float  # E(draw)

    def flipped(self) -> Meeting:
        """The same match seen from b's side."""
        swap = {A: B, B: A}.get(self.outcome, self.outcome)
        return Meeting(swap, self.e_b, self.e_a, self.e_draw)


def pair_outcome(rank_a: int, rank_b: int, team_ranks: Sequence[int]) -> str:
    """The match's outcome for the pair from a's side; ``team_ranks``: every team's rank
    (1 is best; a's and b's among them)."""
    if len(set(team_ranks)) == 1:
        return DRAW
    top = min(team_ranks)
    alone = list(team_ranks).count(top) == 1
    if alone and rank_a == top:
        return A
    if alone and rank_b == top:
        return B
    return OTHER


def _boost(meetings: Sequence[Meeting], happened, expected) -> float:
    recent = list(meetings)[-WINDOW:]
    return sum((1.0 if happened(m) else 0.0) - expected(m) for m in recent) / WINDOW


def win_boost(meetings: Sequence[Meeting]) -> float:
    """Σ (X(a wins) − E(a wins)) / 10 over the last ten (``meetings`` oldest first)."""
    return _boost(meetings, lambda m: m.outcome == A, lambda m: m.e_a)


def kick_back(meetings: Sequence[Meeting]) -> float:
    return _boost(meetings, lambda m: m.outcome == B, lambda m: m.e_b)


def draw_boost(meetings: Sequence[Meeting]) -> float:
    return _boost(meetings, lambda m: m.outcome == DRAW, lambda m: m.e_draw)


def preference(meetings: Sequence[Meeting]) -> float:
    """Draw boost + 2 × win boost."""
    return draw_boost(meetings) + 2.0 * win_boost(meetings)


def relative_rating(r_a: float, r_b: float) -> float | None:
    """R_b / R_a − 1; ``None`` when R_a ≤ 0 (no meaningful ratio)."""
    if r_a <= 0:
        return None
    return r_b / r_a - 1.0


def favour_by_a(m: Meeting) -> float:
    """The favour a did for b in this match."""
    if m.outcome == B:
        return m.e_a + m.e_draw
    if m.outcome == A:
        return -m.e_b - m.e_draw
    if m.outcome == DRAW:
        return m.e_a - m.e_b
    return 0.0


def favours_owed(meetings: Sequence[Meeting]) -> float:
    """The sum of the favours b did for a (all ``meetings``, not only the last ten)."""
    return sum(favour_by_a(m.flipped()) for m in meetings)


@dataclass(frozen=True)
class PairStats:
    """The Favouritism tab's numbers of a against one opponent b."""

    preference: float
    win_boost: float
    draw_boost: float
    kick_back: float
    relative_rating: float | None
    favours_owed: float
    matches: int


def pair_stats(meetings: Sequence[Meeting], r_a: float, r_b: float) -> PairStats:
    """All of a pair's numbers; ``meetings`` oldest first (all known; the boosts read the
    last ten)."""
    return PairStats(
        preference=preference(meetings),
        win_boost=win_boost(meetings),
        draw_boost=draw_boost(meetings),
        kick_back=kick_back(meetings),
        relative_rating=relative_rating(r_a, r_b),
        favours_owed=favours_owed(meetings),
        matches=len(meetings),
    )
