"""The leaderboard benchmark command, at a small size (it needs PostgreSQL's COPY)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.db import connection

from leaderboards.models import Rating, RatingHistory
from play.models import Match

pytestmark = pytest.mark.django_db


def test_bench_fills_and_times(settings):
    if connection.vendor != "postgresql":
        pytest.skip("bench_leaderboard runs on PostgreSQL")
    settings.ALLOWED_HOSTS = ["localhost"]
    out = io.StringIO()
    call_command("bench_leaderboard", players=30, matches=400, requests=3, stdout=out)
    text = out.getvalue()
    assert Match.objects.count() == 400 and RatingHistory.objects.count() == 800
    assert Rating.objects.count() == 30
    assert sum(Rating.objects.values_list("matches", flat=True)) == 800
    top = Rating.objects.order_by("-score").first()
    assert top.score == pytest.approx(top.ordinal + top.top_burst)
    assert text.count("median") == 3 and "p95" in text
