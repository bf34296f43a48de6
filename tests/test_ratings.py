"""Ratings: matches move ratings (once), history rows, top burst, held level, what is
not rated, live matches through ``match_finished``."""

from __future__ import annotations

import gc
from datetime import timedelta

import pytest

from accounts.services import random_player
from leaderboards.models import Rating, RatingHistory, Universe
from leaderboards.rating import BEGINNER
from leaderboards.services import default_universe, rate_match
from play import services
from tests.leaderboard_helpers import finish
from tests.play_helpers import bot, rule_set, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def ttt(db):
    return rule_set("Tic-Tac-Toe")


def rating(player, rules, universe=None):
    return Rating.objects.get(
        player=player, rule_set=rules, universe=universe or default_universe()
    )


def test_a_rated_match_moves_both_ratings_and_writes_history(ttt):
    a, b = bot("A"), bot("B")
    match = finish(ttt, [a, b], ["win", "loss"])
    ra, rb = rating(a, ttt), rating(b, ttt)
    assert ra.ordinal > rb.ordinal and ra.mu > BEGINNER.mu > rb.mu
    assert ra.ordinal == pytest.approx(ra.mu - 3 * ra.sigma)
    assert ra.matches == rb.matches == 1 and ra.last_match == match.finished
    history = RatingHistory.objects.get(match=match, player=a)
    assert history.ordinal_before == pytest.approx(0.0)
    assert history.ordinal_after == pytest.approx(ra.ordinal)
    assert ra.top_burst == pytest.approx(ra.ordinal) and ra.score == pytest.approx(2 * ra.ordinal)


def test_rating_a_match_leaves_no_reference_cycle_of_its_rows(ttt):
    """A live match is rated in the web process: what rating reads and writes is freed
    as it is dropped, not left to the garbage collector (whose passes stall a busy
    process's sockets): no seat's prefetched crew, no bulk insert's array dumpers."""
    match = finish(ttt, [bot("A"), bot("B")], ["win", "loss"], rate=False)
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        assert rate_match(match.pk)
        gc.collect()
        kinds = {type(found).__name__ for found in gc.garbage}
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert RatingHistory.objects.filter(match=match).count() == 2
    assert not kinds & {"Seat", "QuerySet", "Transformer", "ListDumper"}, kinds


def test_a_match_is_rated_once(ttt):
    a, b = bot("A"), bot("B")
    match = finish(ttt, [a, b], ["win", "loss"])
    before = rating(a, ttt).mu
    assert rate_match(match.pk) is False
    assert rating(a, ttt).mu == before and RatingHistory.objects.count() == 2


def test_top_burst_is_the_largest_single_rise(ttt):
    a, b = bot("A"), bot("B")
    rises = []
    for results in (["win", "loss"], ["loss", "win"], ["win", "loss"], ["draw", "draw"]):
        before = rating(a, ttt).ordinal if Rating.objects.filter(player=a).exists() else 0.0
        finish(ttt, [a, b], results)
        rises.append(rating(a, ttt).ordinal - before)
    ra = rating(a, ttt)
    assert ra.top_burst == pytest.approx(max(rises)) and ra.matches == 4
    assert ra.score == pytest.approx(ra.ordinal + ra.top_burst)
    assert rating(b, ttt).top_burst >= 0


def test_level_since_moves_only_when_the_level_changes(ttt):
    a, b = bot("A"), bot("B")
    finish(ttt, [a, b], ["win", "loss"])
    ra = rating(a, ttt)
    old = ra.level_since - timedelta(days=3)
    Rating.objects.filter(pk=ra.pk).update(level_since=old)
    finish(ttt, [a, b], ["draw", "draw"])  # a draw between them barely moves a
    ra.refresh_from_db()
    history = list(RatingHistory.objects.filter(player=a).order_by("id"))
    same_level = int(history[-1].ordinal_after // 1) == int(history[-1].ordinal_before // 1)
    assert (ra.level_since == old) == same_level


def test_unrated_and_unfinished_matches_are_not_rated(ttt, creator):
    a, b = bot("A"), bot("B")
    finish(ttt, [a, b], ["win", "loss"], rated=False)
    assert not Rating.objects.exists()
    live = start(ttt, creator, creator, a)
    assert rate_match(live.pk) is False and not Rating.objects.exists()


def test_a_trainers_own_bots_playing_each_other_are_not_rated(ttt, trainer, creator):
    mine = [bot("Mine1"), bot("Mine2")]
    for p in mine:
        p.owner = trainer
        p.save()
    finish(ttt, mine, ["win", "loss"], by=trainer)
    assert not Rating.objects.exists()
    # against Random, or run by someone else, they are rated
    finish(ttt, [mine[0], random_player()], ["win", "loss"], by=trainer)
    finish(ttt, mine, ["win", "loss"], by=creator)
    assert Rating.objects.filter(player=mine[0]).get().matches == 2


def test_chaos_is_never_stored(db):
    rules = rule_set("Chaos-TTT", players="2-vs-chaos")
    a, b = bot("A"), bot("B")
    finish(rules, [a, b], ["loss", "loss", "win"], chaos=2)
    assert set(Rating.objects.values_list("player_id", flat=True)) == {a.pk, b.pk}
    assert rating(a, rules).mu < BEGINNER.mu


def test_partners_share_their_team_result(db):
    rules = rule_set(
        "Partner-TTT", players="partners", board={"type": "squares", "size": [4, 4, 1]}
    )
    a, b, c, d = (bot(n) for n in "ABCD")
    finish(rules, [a, b, c, d], ["win", "loss", "win", "loss"])
    assert rating(a, rules).mu == pytest.approx(rating(c, rules).mu)
    assert rating(a, rules).mu > BEGINNER.mu > rating(b, rules).mu


def test_ratings_are_kept_per_universe(ttt):
    other = Universe.objects.create(slug="lab", name="Lab")
    a, b = bot("A"), bot("B")
    finish(ttt, [a, b], ["win", "loss"], universe=other)
    assert rating(a, ttt, other).matches == 1
    assert not Rating.objects.filter(universe=default_universe()).exists()


def test_a_live_match_is_rated_when_it_ends(
    ttt, creator, other_creator, django_capture_on_commit_callbacks
):
    x, o = creator, other_creator
    with django_capture_on_commit_callbacks(execute=True):
        match = start(ttt, x, x, o)
        services.answer_invitation(match.pk, o, accept=True)
        for user, text in [(x, "1,1,1"), (o, "1,2,1"), (x, "2,1,1"), (o, "2,2,1"), (x, "3,1,1")]:
            services.play(match.pk, user, text)
    assert rating(x.player, ttt).ordinal > 0 > rating(o.player, ttt).ordinal
    assert RatingHistory.objects.filter(match=match).count() == 2
