"""Tournament writes and ratings in one pass agree with the one-at-a-time paths."""

from __future__ import annotations

import pytest
from django.utils import timezone

from accounts.services import random_player
from leaderboards.batch_ratings import rate_matches
from leaderboards.models import Rating, RatingHistory
from leaderboards.services import default_universe, rate_match
from play.models import Match, Move, Seat
from play.move_log import LogRow, rows_of
from play.recording import PlayedGame, PlayedMove, record_games
from tests.leaderboard_helpers import finish, outcome
from tests.play_helpers import bot, rule_set

pytestmark = pytest.mark.django_db

RESULTS = [("win", "loss"), ("loss", "win"), ("draw", "draw")]


def ratings():
    rows = Rating.objects.order_by("player_id").values_list(
        "player_id", "mu", "sigma", "ordinal", "top_burst", "score", "matches", "last_match"
    )
    history = RatingHistory.objects.order_by("match_id", "player_id").values_list(
        "match_id", "player_id", "mu_before", "mu_after", "sigma_after"
    )
    return list(rows), list(history)


def test_rate_matches_equals_rate_match_one_at_a_time():
    ttt = rule_set("Tic-Tac-Toe")
    a, b, c = bot("A", "easy"), bot("B", "medium"), random_player()
    pairs = [(a, b), (b, c), (c, a), (a, c)]
    ids = [finish(ttt, pairs[i % 4], RESULTS[(i * 7) % 3], rate=False).pk for i in range(24)]
    unrated = finish(ttt, (a, b), ("win", "loss"), rate=False, rated=False).pk
    for pk in ids + [unrated]:
        rate_match(pk)
    one_by_one = ratings()
    Rating.objects.all().delete()
    assert not RatingHistory.objects.exists()
    assert rate_matches(ids + [unrated]) == 24
    assert ratings() == one_by_one
    assert rate_matches(ids) == 0  # once only


def test_record_games_writes_a_batch_in_one_go_and_refuses_a_second_write():
    from leaderboards.models import Tournament

    ttt = rule_set("Tic-Tac-Toe")
    a, b = bot("A", "easy"), bot("B", "medium")
    t = Tournament.objects.create(
        name="t", rule_set=ttt, universe=default_universe(), total_games=3, batch_size=3, seed=1
    )

    now = timezone.now()
    games = [
        (
            (a, b),
            PlayedGame(
                seed=n,
                moves=[PlayedMove(0, "1,1,1", 3), PlayedMove(1, "2,2,1", 4)],
                outcome=outcome(*RESULTS[n % 3]),
                started=now,
                finished=now,
            ),
            n,
        )
        for n in (1, 2, 3)
    ]
    ids = record_games(ttt, None, games, tournament=t)
    assert [Match.objects.get(pk=pk).game_number for pk in ids] == [1, 2, 3]
    assert Seat.objects.filter(match__tournament=t).count() == 6
    # the log is packed into the match's row, written once: no Move row a ply
    assert not Move.objects.filter(match__tournament=t).exists()
    first = rows_of(Match.objects.get(pk=ids[0]))
    assert first == [
        LogRow(ply=1, seat=0, kind="move", notation="1,1,1", auto=True, think_ms=3),
        LogRow(ply=2, seat=1, kind="move", notation="2,2,1", auto=True, think_ms=4),
    ]
    totals = Seat.objects.filter(match_id=ids[0]).order_by("index")
    assert [(s.moves_made, s.think_total_ms) for s in totals] == [(1, 3), (1, 4)]
    assert list(Match.objects.get(pk=ids[1]).seats.values_list("result", flat=True)) == [
        "draw",
        "draw",
    ]
    assert record_games(ttt, None, games[1:], tournament=t) is None  # already written
    assert Match.objects.filter(tournament=t).count() == 3


@pytest.mark.parametrize("chaos", [None, 1])
def test_record_games_writes_the_same_seats_as_record_game(chaos):
    """The batch path writes matches and seats as raw rows: the same rows as the one-game
    path."""
    from leaderboards.models import Tournament
    from play.recording import record_game

    ttt = rule_set("Tic-Tac-Toe")
    a, b = bot("A", "easy"), bot("B", "medium")
    players = (a,) if chaos is not None else (a, b)
    now = timezone.now()
    games = [
        (players, PlayedGame(n, [PlayedMove(0, "1,1,1", 1)], outcome(*RESULTS[n % 3]), now, now), n)
        for n in (1, 2, 3)
    ]
    made = []
    for name in ("batch", "one"):
        made.append(
            Tournament.objects.create(
                name=name, rule_set=ttt, universe=default_universe(), total_games=3, seed=1
            )
        )
    record_games(ttt, chaos, games, tournament=made[0])
    for seated, game, number in games:
        record_game(ttt, seated, chaos, game, tournament=made[1], game_number=number)

    def seats(t):
        return list(
            Seat.objects.filter(match__tournament=t)
            .order_by("match__game_number", "index")
            .values_list("index", "kind", "player_id", "invitation", "result", "rank",
                         "disconnect_deadline", "moves_made", "think_total_ms")
        )  # fmt: skip

    assert seats(made[0]) == seats(made[1]) and len(seats(made[0])) == 6

    def matches(t):  # every column but the id, the tournament and the creation time
        names = [f.attname for f in Match._meta.concrete_fields]
        names = [n for n in names if n not in ("id", "tournament_id", "created")]
        return list(Match.objects.filter(tournament=t).order_by("game_number").values(*names))

    assert matches(made[0]) == matches(made[1]) and len(matches(made[0])) == 3


def test_rate_matches_rates_a_crew_as_rate_match_does():
    """Crews are read in one query in the one-pass path: the same ratings as one by one."""
    from play.models import CrewMember

    ultimate = rule_set("Ultimate-Tic-Tac-Toe")
    a, b, c, d = bot("A", "easy"), bot("B", "medium"), bot("C", "easy"), random_player()
    ids = []
    for i in range(6):
        players = [(a, b), (b, a), (a, d)][i % 3]
        match = finish(ultimate, players, RESULTS[i % 3], rate=False)
        if i % 2 == 0:  # c joins the second seat's crew
            CrewMember.objects.create(seat=match.seats.get(index=1), order=1, player=c)
        ids.append(match.pk)
    for pk in ids:
        rate_match(pk)
    one_by_one = ratings()
    assert {row[0] for row in one_by_one[0]} == {a.pk, b.pk, c.pk, d.pk}
    Rating.objects.all().delete()
    assert rate_matches(ids) == 6
    assert ratings() == one_by_one
