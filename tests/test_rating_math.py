"""``leaderboards.rating``: pure rating math (no database)."""

from __future__ import annotations

import pytest

from leaderboards.rating import (
    BEGINNER,
    SeatResult,
    Skill,
    display,
    display_change,
    interleaved_schedule,
    level,
    rate_match,
    seat_rotation,
    win_probability,
)


def seats(*triples):
    return [SeatResult(key, team, rank) for key, team, rank in triples]


def test_a_win_moves_winner_up_and_loser_down():
    new = rate_match(seats(("a", 0, 1), ("b", 1, 2)), {})
    assert new["a"].mu > BEGINNER.mu > new["b"].mu
    assert new["a"].sigma < BEGINNER.sigma and new["b"].sigma < BEGINNER.sigma
    assert new["a"].ordinal > 0 > new["b"].ordinal


def test_a_tie_shares_a_rank_and_keeps_equal_players_equal():
    new = rate_match(seats(("a", 0, 1), ("b", 1, 1)), {})
    assert new["a"].mu == pytest.approx(new["b"].mu) == pytest.approx(BEGINNER.mu)


def test_three_players_by_rank_with_a_tie():
    new = rate_match(seats(("a", 0, 1), ("b", 1, 1), ("c", 2, 3)), {})
    assert new["a"].mu == pytest.approx(new["b"].mu)
    assert new["a"].mu > BEGINNER.mu > new["c"].mu


def test_four_players_in_order():
    new = rate_match(seats(("a", 0, 1), ("b", 1, 2), ("c", 2, 3), ("d", 3, 4)), {})
    assert new["a"].mu > new["b"].mu > new["c"].mu > new["d"].mu


def test_partners_are_rated_as_teams():
    # seats 0 and 2 against 1 and 3; the team ranks come from its seats
    new = rate_match(seats(("a", 0, 1), ("b", 1, 2), ("c", 0, 1), ("d", 1, 2)), {})
    assert new["a"].mu == pytest.approx(new["c"].mu)
    assert new["b"].mu == pytest.approx(new["d"].mu)
    assert new["a"].mu > BEGINNER.mu > new["b"].mu


def test_chaos_plays_at_the_beginner_constant_and_is_not_returned():
    strong = Skill(40.0, 2.0)
    beaten_by_chaos = rate_match(seats(("a", 0, 2), (None, 1, 1)), {"a": strong})
    assert set(beaten_by_chaos) == {"a"}
    assert beaten_by_chaos["a"].mu < strong.mu
    # the same as losing to a beginner
    versus_beginner = rate_match(seats(("a", 0, 2), ("x", 1, 1)), {"a": strong})
    assert beaten_by_chaos["a"] == versus_beginner["a"]


def test_a_player_on_both_sides_learns_nothing():
    new = rate_match(seats(("a", 0, 1), ("a", 1, 2)), {})
    assert new == {}
    assert rate_match(seats(("a", 0, 1)), {}) == {}


def test_existing_skills_are_used():
    weak, strong = Skill(15.0, 3.0), Skill(35.0, 3.0)
    upset = rate_match(seats(("w", 0, 1), ("s", 1, 2)), {"w": weak, "s": strong})
    expected = rate_match(seats(("w", 0, 2), ("s", 1, 1)), {"w": weak, "s": strong})
    assert upset["w"].mu - weak.mu > weak.mu - expected["w"].mu > 0


def test_ordinal_display_and_level():
    assert Skill(25.0, 25 / 3).ordinal == pytest.approx(0.0)
    # 1000 + 40 R, never below 0 (issue 38: a first loss no longer reads as negative).
    assert display(0.0) == 1000 and display(-1.83) == 927 and display(29.634) == 2185
    assert display(-30.0) == 0 and display_change(-1.83) == -73
    assert level(29.99) == 29 and level(-0.5) == -1


def test_win_probability():
    assert win_probability(BEGINNER, BEGINNER) == pytest.approx(0.5)
    assert win_probability(Skill(35, 2), Skill(20, 2)) > 0.9


def test_seat_rotation_gives_every_player_every_seat_equally():
    players = ["a", "b", "c"]
    counts = {(p, s): 0 for p in players for s in range(3)}
    for g in range(99):
        for seat, p in enumerate(seat_rotation(players, g)):
            counts[(p, seat)] += 1
    assert set(counts.values()) == {33}
    assert seat_rotation(["a", "b"], 0) == ["a", "b"]
    assert seat_rotation(["a", "b"], 1) == ["b", "a"]
    # Partners: a rotation keeps partners (seats i and i+2) together
    for g in range(4):
        s = seat_rotation(["a", "b", "c", "d"], g)
        assert {s[0], s[2]} in ({"a", "c"}, {"b", "d"})


def test_interleaved_schedule():
    order = interleaved_schedule([4, 4, 2], chunk=2)
    assert order == [
        (0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1),
        (0, 2), (0, 3), (1, 2), (1, 3),
    ]  # fmt: skip
    full = interleaved_schedule([100, 100, 100], chunk=10)
    assert len(full) == 300 and len(set(full)) == 300
    assert [s for s, _ in full[:30:10]] == [0, 1, 2]


def openskill_pair(a: Skill, b: Skill, rank_a: int, rank_b: int) -> tuple[Skill, Skill]:
    """The reference: openskill's own ``PlackettLuce.rate`` on two one-player teams."""
    from leaderboards.rating import model

    m = model()
    (new_a,), (new_b,) = m.rate(
        [[m.rating(mu=a.mu, sigma=a.sigma)], [m.rating(mu=b.mu, sigma=b.sigma)]],
        ranks=[rank_a, rank_b],
    )
    return Skill(new_a.mu, new_a.sigma), Skill(new_b.mu, new_b.sigma)


def test_the_two_sided_update_equals_openskills():
    """``rate_match`` rates a one-against-one match without openskill (its copies and
    uuids cost more than a tournament game's other work): the same numbers, over random
    skills (beginners, veterans with a small sigma, far apart) and every result."""
    import random

    from leaderboards.rating import _two_sided

    rng = random.Random(23)
    results = [(1, 2), (2, 1), (1, 1), (2, 2), (1, 3), (3, 1)]
    largest = 0.0
    for n in range(3000):
        a = Skill(rng.uniform(-20, 70), rng.choice([25 / 3, rng.uniform(0.05, 12)]))
        b = BEGINNER if n % 10 == 0 else Skill(rng.uniform(-20, 70), rng.uniform(0.05, 12))
        rank_a, rank_b = results[n % len(results)]
        mine, theirs = _two_sided(a, b, rank_a, rank_b), openskill_pair(a, b, rank_a, rank_b)
        for x, y in zip(mine, theirs, strict=True):
            largest = max(largest, abs(x.mu - y.mu), abs(x.sigma - y.sigma))
        # and through the public function, seats in either order, Chaos as a beginner
        new = rate_match(seats(("a", 0, rank_a), ("b", 1, rank_b)), {"a": a, "b": b})
        assert new == {"a": mine[0], "b": mine[1]}
        new = rate_match(seats((None, 0, rank_a), ("b", 1, rank_b)), {"b": b})
        assert new == {"b": _two_sided(BEGINNER, b, rank_a, rank_b)[1]}
    assert largest <= 1e-9


def test_a_broken_two_sided_update_would_be_caught():
    """The comparison above can fail: a draw rated as a win differs by far more."""
    from leaderboards.rating import _two_sided

    a, b = Skill(30.0, 4.0), Skill(22.0, 6.0)
    assert abs(_two_sided(a, b, 1, 1)[0].mu - openskill_pair(a, b, 1, 2)[0].mu) > 0.1


@pytest.mark.parametrize("n", [3, 4])
def test_a_match_of_three_or_four_adds_nothing_to_the_sum_of_ratings(n):
    """The release's acceptance: the sum of the ratings does not change. Plackett-Luce
    alone drifts for more than two teams; each change is shifted by the mean change."""
    from openskill.models import PlackettLuce

    skills = {"a": Skill(30.0, 4.0), "b": Skill(22.0, 7.0), "c": Skill(25.0, 2.0),
              "d": Skill(18.0, 8.0)}  # fmt: skip
    keys = "abcd"[:n]
    ranks = [2, 1, 3, 1][:n]
    new = rate_match(
        seats(*[(k, i, r) for i, (k, r) in enumerate(zip(keys, ranks, strict=True))]), skills
    )
    before = sum(skills[k].mu for k in keys)
    assert sum(new[k].mu for k in keys) == pytest.approx(before, abs=1e-9)
    # openskill alone would have drifted (the test can fail), and the order of the changes
    # is openskill's own, with the same sigmas
    model = PlackettLuce(mu=25.0, sigma=25 / 3)
    plain = model.rate([[model.rating(mu=skills[k].mu, sigma=skills[k].sigma)] for k in keys],
                       ranks=ranks)  # fmt: skip
    assert abs(sum(t[0].mu for t in plain) - before) > 1e-6
    change = {k: new[k].mu - skills[k].mu for k in keys}
    plain_change = {k: t[0].mu - skills[k].mu for k, t in zip(keys, plain, strict=True)}
    assert sorted(keys, key=change.get) == sorted(keys, key=plain_change.get)
    assert [new[k].sigma for k in keys] == pytest.approx([t[0].sigma for t in plain])


def test_two_players_and_games_with_chaos_are_not_shifted():
    skills = {"a": Skill(30.0, 4.0), "b": Skill(22.0, 7.0)}
    new = rate_match(seats(("a", 0, 1), ("b", 1, 2), (None, 2, 3)), skills)
    from openskill.models import PlackettLuce

    model = PlackettLuce(mu=25.0, sigma=25 / 3)
    plain = model.rate(
        [[model.rating(mu=30.0, sigma=4.0)], [model.rating(mu=22.0, sigma=7.0)], [model.rating()]],
        ranks=[1, 2, 3],
    )
    assert new["a"].mu == pytest.approx(plain[0][0].mu)  # Chaos: openskill's numbers
