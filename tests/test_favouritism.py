"""Favouritism as the plan defines it: the formulas by hand (``favour_math``), the
expectations kept on every rating path (live match, tournament chain, finaliser), the
Favouritism tab's columns and order, and the Benchmark rule by preference."""

from __future__ import annotations

import re

import pytest

from accounts.services import random_player
from leaderboards import favour_math as fm
from leaderboards import rating
from leaderboards.favouritism import favour_rows, favoured_by
from leaderboards.models import RatingHistory, Tournament, TournamentBatch
from leaderboards.services import default_universe
from play.models import Match
from tests.leaderboard_helpers import finish
from tests.play_helpers import bot, rule_set, start
from tournaments import services as tournaments

A, B, DRAW, OTHER = fm.A, fm.B, fm.DRAW, fm.OTHER


# --- the formulas, worked by hand ------------------------------------------------------------


THREE = [
    fm.Meeting(A, e_a=0.5, e_b=0.3, e_draw=0.2),  # a won
    fm.Meeting(DRAW, e_a=0.6, e_b=0.2, e_draw=0.2),  # drawn
    fm.Meeting(B, e_a=0.4, e_b=0.4, e_draw=0.2),  # b won
]


def test_boosts_and_preference_by_hand():
    # Win boost = ((1 - 0.5) + (0 - 0.6) + (0 - 0.4)) / 10 = -0.5 / 10 = -0.05
    assert fm.win_boost(THREE) == pytest.approx(-0.05)
    # Kick back = ((0 - 0.3) + (0 - 0.2) + (1 - 0.4)) / 10 = 0.1 / 10 = 0.01
    assert fm.kick_back(THREE) == pytest.approx(0.01)
    # Draw boost = ((0 - 0.2) + (1 - 0.2) + (0 - 0.2)) / 10 = 0.4 / 10 = 0.04
    assert fm.draw_boost(THREE) == pytest.approx(0.04)
    # Preference = 0.04 + 2 × (-0.05) = -0.06
    assert fm.preference(THREE) == pytest.approx(-0.06)


def test_favours_by_hand():
    # Favour done by a for b: b won -> E(a) + E(d); a won -> -E(b) - E(d); drawn -> E(a) - E(b)
    assert fm.favour_by_a(THREE[2]) == pytest.approx(0.4 + 0.2)
    assert fm.favour_by_a(THREE[0]) == pytest.approx(-0.3 - 0.2)
    assert fm.favour_by_a(THREE[1]) == pytest.approx(0.6 - 0.2)
    assert fm.favour_by_a(fm.Meeting(OTHER, 0.3, 0.3, 0.1)) == 0.0  # a third team won
    # Favours owed(a, b) = favours b did for a:
    #   a won: E(b) + E(d) = 0.3 + 0.2 = 0.5; drawn: E(b) - E(a) = 0.2 - 0.6 = -0.4;
    #   b won: -E(a) - E(d) = -0.4 - 0.2 = -0.6; sum = 0.5 - 0.4 - 0.6 = -0.5
    assert fm.favours_owed(THREE) == pytest.approx(-0.5)


def test_only_the_last_ten_count_for_boosts_all_for_favours():
    old = [fm.Meeting(A, e_a=0.0, e_b=0.5, e_draw=0.5)] * 2
    recent = [fm.Meeting(DRAW, e_a=0.25, e_b=0.25, e_draw=0.5)] * 10
    stats = fm.pair_stats(old + recent, r_a=20.0, r_b=25.0)
    # last ten: ten draws. Win boost = 10 × (0 - 0.25) / 10 = -0.25 (the two old wins
    # would have made it (2 - 2.5) / 10 = -0.05); draw boost = 10 × (1 - 0.5) / 10 = 0.5
    assert stats.win_boost == pytest.approx(-0.25)
    assert stats.draw_boost == pytest.approx(0.5)
    assert stats.kick_back == pytest.approx(-0.25)
    assert stats.preference == pytest.approx(0.5 - 0.5)
    # favours owed over all twelve: 2 × (0.5 + 0.5) + 10 × (0.25 - 0.25) = 2
    assert stats.favours_owed == pytest.approx(2.0) and stats.matches == 12
    # fewer than ten meetings still divide by ten: one win at E 0.5 -> 0.05
    assert fm.win_boost([fm.Meeting(A, 0.5, 0.3, 0.2)]) == pytest.approx(0.05)


def test_relative_rating_and_its_guard():
    assert fm.relative_rating(20.0, 25.0) == pytest.approx(25 / 20 - 1)  # +25%
    assert fm.relative_rating(10.0, -5.0) == pytest.approx(-1.5)
    assert fm.relative_rating(0.0, 5.0) is None  # a beginner's R = 0: no ratio
    assert fm.relative_rating(-3.0, 5.0) is None


def test_pair_outcomes():
    assert fm.pair_outcome(1, 2, [1, 2]) == A
    assert fm.pair_outcome(2, 1, [2, 1]) == B
    assert fm.pair_outcome(1, 1, [1, 1]) == DRAW
    assert fm.pair_outcome(2, 3, [1, 2, 3]) == OTHER  # a third team won
    assert fm.pair_outcome(1, 1, [1, 1, 3]) == OTHER  # a tie for first, not a draw
    assert fm.Meeting(A, 0.6, 0.3, 0.1).flipped() == fm.Meeting(B, 0.3, 0.6, 0.1)


def test_expectation_is_openskills_prediction_scaled_to_sum_to_one():
    a, b = rating.Skill(30.0, 5.0), rating.Skill(22.0, 7.0)
    seats = [rating.SeatResult("a", 0, 1), rating.SeatResult("b", 1, 2)]
    got = rating.expectation(seats, {"a": a, "b": b})
    m = rating.model()
    teams = [[m.rating(mu=30.0, sigma=5.0)], [m.rating(mu=22.0, sigma=7.0)]]
    draw = m.predict_draw(teams)
    win_a, win_b = m.predict_win(teams)
    assert got.draw == pytest.approx(draw)
    assert got.wins["a"] == pytest.approx(win_a * (1 - draw))
    assert got.wins["b"] == pytest.approx(win_b * (1 - draw))
    assert got.wins["a"] + got.wins["b"] + got.draw == pytest.approx(1.0)
    for mu_a, sigma_a, mu_b, sigma_b in [
        (25, 25 / 3, 25, 25 / 3),
        (10, 2, 40, 1),
        (33, 9, 31, 0.5),
    ]:
        fast = rating.expectation(
            seats, {"a": rating.Skill(mu_a, sigma_a), "b": rating.Skill(mu_b, sigma_b)}
        )
        teams = [[m.rating(mu=mu_a, sigma=sigma_a)], [m.rating(mu=mu_b, sigma=sigma_b)]]
        draw = m.predict_draw(teams)
        assert fast.draw == pytest.approx(draw)
        assert fast.wins["a"] == pytest.approx(m.predict_win(teams)[0] * (1 - draw))
    # Partners (two seats a team) take openskill's own path: the team's chance, each
    partners = [rating.SeatResult(k, t, 1) for k, t in [("a", 0), ("b", 1), ("c", 0), ("d", 1)]]
    got = rating.expectation(partners, {"a": a})
    assert got.wins["a"] == got.wins["c"] and got.wins["a"] > got.wins["b"] == got.wins["d"]
    assert got.wins["a"] + got.wins["b"] + got.draw == pytest.approx(1.0)
    # Chaos (key None) has no expectation; one team alone: nothing to expect
    chaos = rating.expectation([*seats, rating.SeatResult(None, 2, 3)], {"a": a, "b": b})
    assert set(chaos.wins) == {"a", "b"} and sum(chaos.wins.values()) + chaos.draw < 1.0001
    assert rating.expectation(seats[:1], {}).wins == {}


# --- the expectations kept on each rating path -------------------------------------------------


def assert_kept(match_ids):
    """Every history row of these matches keeps the expectation its ratings before gave."""
    rows = list(RatingHistory.objects.filter(match_id__in=match_ids).order_by("match_id", "id"))
    assert rows and len(rows) == 2 * len(set(match_ids))
    for first, second in zip(rows[::2], rows[1::2], strict=True):
        skills = {r.player_id: rating.Skill(r.mu_before, r.sigma_before) for r in (first, second)}
        seats = [rating.SeatResult(r.player_id, i, 1) for i, r in enumerate((first, second))]
        want = rating.expectation(seats, skills)
        for row in (first, second):
            assert row.expected_win == pytest.approx(want.wins[row.player_id])
            assert row.expected_draw == pytest.approx(want.draw)
        total = first.expected_win + second.expected_win + first.expected_draw
        assert total == pytest.approx(1.0)


@pytest.fixture
def ttt(db):
    return rule_set("Tic-Tac-Toe")


def test_a_live_match_keeps_its_expectations(
    ttt, creator, other_creator, django_capture_on_commit_callbacks
):
    from play import services

    x, o = creator, other_creator
    finish(ttt, [x.player, o.player], ["win", "loss"])  # not beginners any more
    with django_capture_on_commit_callbacks(execute=True):
        match = start(ttt, x, x, o)
        services.answer_invitation(match.pk, o, accept=True)
        for user, text in [(x, "1,1,1"), (o, "1,2,1"), (x, "2,1,1"), (o, "2,2,1"), (x, "3,1,1")]:
            services.play(match.pk, user, text)
    assert_kept([match.pk])
    mine = RatingHistory.objects.get(match=match, player=x.player)
    theirs = RatingHistory.objects.get(match=match, player=o.player)
    assert mine.expected_win > theirs.expected_win  # x had won before: expected to again


def test_a_tournament_keeps_expectations_chain_and_finaliser(ttt, trainer, no_broker):
    from leaderboards.batch_ratings import rate_matches

    a, b = bot("A"), bot("B")
    plan = tournaments.Plan(ttt, default_universe(), "T", [([a.pk, b.pk], 12)])
    t = tournaments.create_from_plan(plan, trainer)
    for batch in TournamentBatch.objects.filter(tournament=t).order_by("number"):
        tournaments.run_batch(batch.pk)  # the chain rates what it writes
    assert Tournament.objects.get(pk=t.pk).status == "done"  # and, at the last, finishes
    played = list(Match.objects.filter(tournament=t).values_list("id", flat=True))
    assert len(played) == 12
    assert_kept(played)
    # the finaliser's way (rate_matches over matches left unrated)
    left = [finish(ttt, [a, b], ["draw", "draw"], rate=False).pk for _ in range(2)]
    assert rate_matches(left) == 2
    assert_kept(left)


# --- the tab -----------------------------------------------------------------------------------

COLUMNS = ["preference", "last", "win_boost", "draw_boost", "kick_back", "relative", "owed"]


def cells(html, name):
    return re.findall(rf'data-testid="favour-{name}">(.*?)</td>', html)


def test_the_tab_shows_the_plans_columns_sortable(client, ttt, trainer):
    me, kind, tough = bot("Me"), bot("Kind"), bot("Tough")
    for _ in range(3):
        finish(ttt, [me, kind], ["win", "loss"])
    finish(ttt, [me, tough], ["loss", "win"])
    finish(ttt, [tough, me], ["draw", "draw"])
    url = me.get_absolute_url() + "?tab=favouritism"
    html = client.get(url).content.decode()
    assert re.findall(r'data-testid="favour-sort-(\w+)"', html) == COLUMNS
    heads = re.findall(r'data-testid="favour-col">\s*<a[^>]*>([^<]*?) <i', html)
    want = ["Preference", "Last match", "Win boost", "Draw boost", "Kick back"]
    assert heads == [*want, "Relative rating", "Favours owed"]
    rows = re.findall(r'data-testid="favour-row" data-player="(\d+)"', html)
    assert rows == [str(kind.pk), str(tough.pk)]  # highest preference first
    stats = {row.opponent.pk: row.stats for row in favour_rows(me.pk, ttt, default_universe())}
    # three wins against Kind: win boost = (3 - ΣE(me wins)) / 10 > 0, preference twice it
    # plus the draw boost (-ΣE(draw) / 10)
    k = stats[kind.pk]
    assert k.win_boost > 0 and k.preference == pytest.approx(k.draw_boost + 2 * k.win_boost)
    shown = [f"{'+' if v >= 0 else '−'}{abs(round(v * 100))}%" for v in (k.preference,)]
    assert cells(html, "preference")[0] == shown[0]
    assert "—" in cells(html, "relative")[1] or cells(html, "relative")[1].endswith("%")
    assert cells(html, "kick-back")[1].startswith("+")  # Tough beat Me once in two
    # sorted by kick back, highest first: Tough; again: lowest first
    html = client.get(url + "&sort=-kick_back").content.decode()
    assert re.findall(r'data-testid="favour-row" data-player="(\d+)"', html)[0] == str(tough.pk)
    assert 'href="?tab=favouritism&amp;game=' in html and "sort=kick_back" in html
    assert html.index('data-testid="favour-top"') > html.index(f'data-player="{kind.pk}"')
    html = client.get(url + "&sort=kick_back").content.decode()
    assert re.findall(r'data-testid="favour-row" data-player="(\d+)"', html)[0] == str(kind.pk)
    html = client.get(url + "&sort=%3Cscript%3E").content.decode()  # junk: the default
    assert re.findall(r'data-testid="favour-row" data-player="(\d+)"', html)[0] == str(kind.pk)
    # Benchmark checkboxes (bots) and the button, for Trainers and Admins only
    assert "favour-select" not in html and "favour-benchmark" not in html
    client.force_login(trainer)
    html = client.get(url).content.decode()
    assert 'data-testid="favour-benchmark"' in html
    assert len(re.findall('data-testid="favour-select"', html)) == 2  # Kind, Tough
    assert html.index("favour-sort-owed") < html.index("Benchmark</th>")
    assert f'name="players" value="{me.pk}"' in html  # the shown bot is benchmarked too


def test_matches_rated_before_expectations_were_kept_are_skipped(ttt):
    me, old = bot("Me"), bot("Old")
    finish(ttt, [me, old], ["win", "loss"])
    RatingHistory.objects.update(expected_win=None, expected_draw=None)
    assert favour_rows(me.pk, ttt, default_universe()) == []
    assert favoured_by(me.pk, ttt, default_universe()) is None


# --- the Benchmark rule ------------------------------------------------------------------------


def test_benchmark_rule_uses_preference(client, ttt, trainer):
    top, once, often, other = bot("Top"), bot("Once"), bot("Often"), bot("Other")
    rnd = random_player()
    # One win over Once at even odds: the old rule (mean score minus the expected score
    # at today's ratings) put Once first (+17% against +9%). Four wins over Often: each
    # beyond what the ratings expected before it, and the boosts add up over the matches.
    finish(ttt, [top, once], ["win", "loss"])
    for _ in range(4):
        finish(ttt, [top, often], ["win", "loss"])
    finish(ttt, [top, rnd], ["draw", "draw"])
    universe = default_universe()
    rows = {row.opponent.pk: row.stats for row in favour_rows(top.pk, ttt, universe)}
    assert rows[often.pk].preference > rows[once.pk].preference
    assert favoured_by(top.pk, ttt, universe) == often.pk
    assert tournaments.is_benchmark(ttt, universe, [top.pk, often.pk, rnd.pk, other.pk])
    assert not tournaments.is_benchmark(ttt, universe, [top.pk, once.pk, rnd.pk, other.pk])
    client.force_login(trainer)
    base = f"/tournaments/benchmark/?rule_set={ttt.pk}&universe=main"
    ids = "".join(f"&players={p.pk}" for p in (top, often, rnd, other))
    assert "counts as a <strong>Benchmark" in client.get(base + ids).content.decode()
    ids = "".join(f"&players={p.pk}" for p in (top, once, rnd, other))
    assert "It is a <strong>Standard" in client.get(base + ids).content.decode()


def test_backfill_recomputes_the_expectations_the_rating_paths_kept(ttt):
    import io

    from django.core.management import call_command

    a, b = bot("A"), bot("B")
    finish(ttt, [a, b], ["win", "loss"])
    finish(ttt, [a, b], ["draw", "draw"])
    chaos_rules = rule_set("Chaos-TTT", players="2-vs-chaos")  # three teams, Chaos unrated
    finish(chaos_rules, [a, b], ["loss", "loss", "win"], chaos=2)
    kept = {h.pk: (h.expected_win, h.expected_draw) for h in RatingHistory.objects.all()}
    assert all(w is not None for w, _ in kept.values())
    RatingHistory.objects.update(expected_win=None, expected_draw=None)
    out = io.StringIO()
    call_command("backfill_expectations", stdout=out)
    assert "Filled the expectations of 6 rating-history rows" in out.getvalue()
    for h in RatingHistory.objects.all():
        assert (h.expected_win, h.expected_draw) == pytest.approx(kept[h.pk])
