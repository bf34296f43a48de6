"""Expectations for history rows rated before they were kept (``RatingHistory
.expected_win`` / ``expected_draw`` null): recomputed exactly from each row's rating
before the match (``mu_before``, ``sigma_before``), the match's seats and crews and its
game's teams, as the rating paths compute them (``rating.expectation``; Chaos plays at
the beginner's rating there too). ``manage.py backfill_expectations`` runs it."""

from __future__ import annotations

from django.db import transaction

from leaderboards import rating as math
from leaderboards.batch_ratings import _teams
from leaderboards.models import RatingHistory
from leaderboards.services import seat_results
from play.models import CrewMember, Match, Seat

BATCH = 500  # matches a transaction


def backfill_expectations(batch: int = BATCH) -> int:
    """Fill every history row still without expectations, ``batch`` matches at a time in
    match order. How many rows it filled. Safe to run again (and beside live rating:
    only null rows are read and each is written once)."""
    filled, after = 0, 0
    while True:
        ids = list(
            RatingHistory.objects.filter(expected_win__isnull=True, match_id__gt=after)
            .order_by("match_id")
            .values_list("match_id", flat=True)
            .distinct()[:batch]
        )
        if not ids:
            return filled
        with transaction.atomic():
            filled += _fill(ids)
        after = ids[-1]


def _fill(ids: list[int]) -> int:
    rule_sets = dict(Match.objects.filter(pk__in=ids).values_list("pk", "rule_set_id"))
    teams = _teams(set(rule_sets.values()))
    seats: dict[int, list[tuple]] = {pk: [] for pk in ids}
    rows = Seat.objects.filter(match_id__in=ids).order_by("match_id", "index")
    for match_id, *seat in rows.values_list("match_id", "id", "index", "kind", "player_id", "rank"):
        seats[match_id].append(tuple(seat))
    crews: dict[int, list[int]] = {}
    members = CrewMember.objects.filter(seat__match_id__in=ids).order_by("seat_id", "order")
    for seat_id, player_id in members.values_list("seat_id", "player_id"):
        crews.setdefault(seat_id, []).append(player_id)
    history: dict[int, list[RatingHistory]] = {pk: [] for pk in ids}
    for row in RatingHistory.objects.filter(match_id__in=ids).only(
        "id", "match_id", "player_id", "mu_before", "sigma_before", "expected_win"
    ):
        history[row.match_id].append(row)
    changed = []
    for pk in ids:
        if pk not in rule_sets:
            continue
        results = seat_results(teams[rule_sets[pk]], seats[pk], crews)
        skills = {r.player_id: math.Skill(r.mu_before, r.sigma_before) for r in history[pk]}
        expected = math.expectation(results, skills)
        for row in history[pk]:
            if row.expected_win is None and row.player_id in expected.wins:
                row.expected_win = expected.wins[row.player_id]
                row.expected_draw = expected.draw
                changed.append(row)
    RatingHistory.objects.bulk_update(changed, ["expected_win", "expected_draw"], batch_size=500)
    return len(changed)
