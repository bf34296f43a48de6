"""Tournaments without a worker: plans, batches, games written once, the reconciler,
ratings in game order, results, the Benchmark condition and the pages."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.services import random_player
from leaderboards.models import Rating, RatingHistory, Tournament, TournamentBatch
from leaderboards.services import default_universe
from play.models import Match, Move, Seat
from play.move_log import rows_of
from tests.leaderboard_helpers import finish
from tests.play_helpers import bot, rule_set
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db


@pytest.fixture
def ttt(db):
    return rule_set("Tic-Tac-Toe")


def run_everything(tournament, sent):
    for batch in TournamentBatch.objects.filter(tournament=tournament).order_by("number"):
        tournaments.run_batch(batch.pk)
    # the batch that rated the last game of a rated tournament marked it done: no
    # finaliser sent; an unrated one is the finaliser's
    status = Tournament.objects.get(pk=tournament.pk).status
    assert status == ("done" if tournament.rated else "finalising")
    assert not (tournament.rated and [s for s in sent if s[0] == "finalise"])
    assert tournaments.finalise(tournament.pk) is True  # a finaliser sent anyway: no harm
    tournament.refresh_from_db()
    return tournament


def test_benchmark_of_three_bots_plays_100_games_a_pair(
    ttt, trainer, no_broker, django_capture_on_commit_callbacks
):
    players = [bot("A", "easy"), bot("B", "medium"), random_player()]
    with django_capture_on_commit_callbacks(execute=True):
        t = tournaments.create_benchmark(ttt, default_universe(), [p.pk for p in players], trainer)
    assert t.total_games == 300 and t.rated and t.kind == "S"
    assert sum(1 for s in no_broker if s[0] == "run_batch") == 2  # one a chain
    with django_capture_on_commit_callbacks(execute=True):
        t = run_everything(t, no_broker)
    assert t.status == "done" and t.ratings_through == 300
    matches = Match.objects.filter(tournament=t)
    assert sorted(matches.values_list("game_number", flat=True)) == list(range(1, 301))
    pairs = Counter(
        frozenset(m.seats.values_list("player_id", flat=True)) for m in matches.prefetch_related()
    )
    assert sorted(pairs.values()) == [100, 100, 100]
    # seats rotate: each player takes each seat 50 times in each of its pairs
    firsts = Counter(
        Seat.objects.filter(match__tournament=t, index=0).values_list("player_id", flat=True)
    )
    assert sorted(firsts.values()) == [100, 100, 100]
    # interleaved: the first thirty games are ten of each pair
    first30 = matches.filter(game_number__lte=30)
    assert len({frozenset(m.seats.values_list("player_id", flat=True)) for m in first30}) == 3
    # recorded like any other match, rated in game order
    one = matches.get(game_number=1)
    assert one.status == "finished" and one.outcome["type"] == "game:over"
    assert len(rows_of(one)) == one.ply > 0 and one.move_log  # packed: no row a move
    assert not Move.objects.filter(match__tournament=t).exists()
    history = list(RatingHistory.objects.filter(match__tournament=t).order_by("id"))
    assert [h.match.game_number for h in history[::2]] == list(range(1, 301))
    assert Rating.objects.filter(player__in=players).count() == 3
    r = t.results
    assert r["games"] == 300 and r["average_moves"] >= 5 and len(r["players"]) == 3
    assert all(p["games"] == 200 for p in r["players"])
    # each player's counts as the seats say (PostgreSQL's own query, side by side)
    for p in r["players"]:
        seats = Seat.objects.filter(match__tournament=t, player_id=p["player"])
        wins, draws = (seats.filter(result=k).count() for k in ("win", "draw"))
        assert (p["win_rate"], p["draw_rate"]) == (wins / 200, draws / 200)
    assert sum(p["win_rate"] for p in r["players"]) > 0


def test_a_batch_run_twice_counts_each_game_once(ttt, trainer, no_broker):
    t = tournaments.create_from_plan(
        tournaments.Plan(ttt, default_universe(), "T", [([bot("A").pk, bot("B").pk], 12)]), trainer
    )
    batch = TournamentBatch.objects.filter(tournament=t).first()
    assert tournaments.run_batch(batch.pk) == 10
    TournamentBatch.objects.filter(pk=batch.pk).update(state="queued")
    assert tournaments.run_batch(batch.pk) == 0
    assert Match.objects.filter(tournament=t).count() == 10


def test_reconcile_sends_lost_batches_again(ttt, trainer, no_broker, settings):
    settings.TOURNAMENT_STALE_SECONDS = 30
    t = tournaments.create_from_plan(
        tournaments.Plan(ttt, default_universe(), "T", [([bot("A").pk, bot("B").pk], 30)]), trainer
    )
    first, second, third = TournamentBatch.objects.filter(tournament=t).order_by("number")
    tournaments.run_batch(first.pk)
    assert tournaments.reconcile(t.pk) == []  # nothing is stale yet
    old = timezone.now() - timedelta(seconds=60)
    TournamentBatch.objects.filter(pk=second.pk).update(state="running", touched=old)
    assert tournaments.reconcile(t.pk) == [second.pk]  # its worker died
    TournamentBatch.objects.filter(tournament=t).exclude(state="done").update(touched=old)
    TournamentBatch.objects.filter(pk=first.pk).update(touched=old)
    assert sorted(tournaments.reconcile(t.pk)) == [second.pk, third.pk]  # all stalled
    Match.objects.filter(tournament=t, game_number=3).delete()  # a done batch lost a game
    TournamentBatch.objects.filter(tournament=t).update(touched=old)
    assert first.pk in tournaments.reconcile(t.pk)
    TournamentBatch.objects.filter(pk=first.pk).update(sends=tournaments.MAX_SENDS)
    TournamentBatch.objects.filter(tournament=t).update(touched=old)
    tournaments.reconcile(t.pk)
    assert Tournament.objects.get(pk=t.pk).status == "failed"


def test_own_bots_of_a_trainer_are_not_rated(ttt, trainer, no_broker):
    mine = [bot("A"), bot("B")]
    for p in mine:
        p.owner = trainer
        p.save()
    t = tournaments.create_benchmark(ttt, default_universe(), [p.pk for p in mine], trainer)
    assert not t.rated
    run_everything(t, no_broker)
    assert not Rating.objects.exists() and not Match.objects.filter(rated=True).exists()


def test_refusals(ttt, creator, trainer, no_broker):
    a = bot("A")
    with pytest.raises(tournaments.TournamentError, match="at least 2"):
        tournaments.create_benchmark(ttt, default_universe(), [a.pk], trainer)
    with pytest.raises(tournaments.TournamentError, match="not a bot"):
        tournaments.create_benchmark(ttt, default_universe(), [a.pk, creator.player.pk], trainer)
    with pytest.raises(tournaments.TournamentError, match="Trainers and Admins"):
        tournaments.create_benchmark(ttt, default_universe(), [a.pk, bot("B").pk], creator)


def test_benchmark_condition(ttt):
    top, favouring, other = bot("Top"), bot("Fan"), bot("Other")
    rnd = random_player()
    for _ in range(3):
        finish(ttt, [top, favouring], ["win", "loss"])
    finish(ttt, [top, other], ["draw", "draw"])
    finish(ttt, [top, rnd], ["draw", "draw"])  # below what its rating expects
    universe = default_universe()
    from leaderboards.favouritism import favoured_by  # the highest preference for it

    assert favoured_by(top.pk, ttt, universe) == favouring.pk
    extra = bot("Extra")
    ids = [top.pk, favouring.pk, rnd.pk]
    assert not tournaments.is_benchmark(ttt, universe, ids)  # needs one more
    assert tournaments.is_benchmark(ttt, universe, [*ids, extra.pk])
    assert not tournaments.is_benchmark(ttt, universe, [top.pk, rnd.pk, other.pk, extra.pk])


def test_benchmark_button_and_tournament_page(client, ttt, trainer, creator, no_broker):
    a, b = bot("A"), bot("B")
    client.force_login(creator)
    data = {"rule_set": ttt.pk, "universe": "main", "players": [a.pk, b.pk]}
    assert client.post("/tournaments/benchmark/", data).status_code == 403
    client.force_login(trainer)
    response = client.post("/tournaments/benchmark/", {**data, "players": [a.pk]}, follow=True)
    assert "Check at least 2" in response.content.decode()
    response = client.post("/tournaments/benchmark/", data)
    t = Tournament.objects.get()
    assert response.url == t.get_absolute_url()
    html = client.get(response.url).content.decode()
    assert 'data-testid="progress"' in html and "0 / 100" in html.replace("</span>", "")
    progress = client.get(f"/tournaments/{t.pk}/progress/").json()
    assert progress == {**progress, "written": 0, "total": 100, "percent": 0, "done": False}
    for batch in TournamentBatch.objects.filter(tournament=t):
        tournaments.run_batch(batch.pk)
    tournaments.finalise(t.pk)
    html = client.get(response.url).content.decode()
    assert 'data-testid="results"' in html and 'data-testid="player-result"' in html
    html = client.get(f"/games/{ttt.pk}/tournaments/?sort=-draw_rate").content.decode()
    assert t.name in html and 'data-testid="open-tournament"' in html


def test_tournament_factory(client, ttt, trainer, creator, no_broker):
    a, b = bot("A"), bot("B")
    client.force_login(creator)
    assert client.get("/tournaments/").status_code == 403
    client.force_login(trainer)
    assert client.get(f"/tournaments/?game={ttt.pk}").status_code == 200
    data = {"name": "Mine", "game": ttt.pk, "universe": "main"}
    response = client.post("/tournaments/", {**data, "set1_games": 4, "set1_seat1": a.pk})
    assert response.status_code == 400 and "choose 2 players" in response.content.decode()
    assert client.post("/tournaments/", data).status_code == 400
    plan = {**data, "set1_games": 4, "set1_seat1": a.pk, "set1_seat2": b.pk,
            "set2_games": 2, "set2_seat1": b.pk, "set2_seat2": random_player().pk}  # fmt: skip
    response = client.post("/tournaments/", plan)
    t = Tournament.objects.get()
    assert response.url == t.get_absolute_url() and t.total_games == 6 and t.name == "Mine"


def test_the_progress_poll_nudges_a_stuck_tournament_once(ttt, trainer, no_broker, settings):
    settings.TOURNAMENT_STALE_SECONDS = 30
    t = tournaments.create_from_plan(
        tournaments.Plan(ttt, default_universe(), "T", [([bot("A").pk, bot("B").pk], 20)]), trainer
    )
    tournaments.nudge(t)
    assert no_broker == []  # batches were touched just now: nothing is stuck
    old = timezone.now() - timedelta(seconds=60)
    TournamentBatch.objects.filter(tournament=t).update(touched=old)
    tournaments.nudge(Tournament.objects.get(pk=t.pk))
    tournaments.nudge(Tournament.objects.get(pk=t.pk))
    assert no_broker == [("reconcile", t.pk)]
    Tournament.objects.filter(pk=t.pk).update(status="finalising", touched=old)
    tournaments.nudge(Tournament.objects.get(pk=t.pk))
    tournaments.nudge(Tournament.objects.get(pk=t.pk))
    assert no_broker[1:] == [("finalise", t.pk)]


def test_a_broker_outage_keeps_the_tournament(ttt, trainer, monkeypatch):
    from tournaments import tasks

    def down(*args, **kwargs):
        raise ConnectionError("broker down")

    monkeypatch.setattr(tasks.run_batch, "delay", down)
    t = tournaments.create_from_plan(
        tournaments.Plan(ttt, default_universe(), "T", [([bot("A").pk, bot("B").pk], 10)]), trainer
    )
    tournaments.start(t.pk)  # logged, not raised
    assert Tournament.objects.get(pk=t.pk).status == "running"


def test_tournament_games_stay_out_of_the_trainers_match_list_unless_asked(
    client, ttt, trainer, no_broker, django_capture_on_commit_callbacks
):
    players = [bot("A", "easy"), random_player()]
    with django_capture_on_commit_callbacks(execute=True):
        t = tournaments.create_benchmark(ttt, default_universe(), [p.pk for p in players], trainer)
        tournaments.run_batch(TournamentBatch.objects.filter(tournament=t).first().pk)
    played = Match.objects.filter(tournament=t)
    assert played.exists()
    client.force_login(trainer)
    page = client.get("/matches/").content.decode()
    assert f"Show {played.count()} tournament games" in page
    assert f"/matches/{played.first().pk}/" not in page
    shown = client.get("/matches/?tournaments=1").content.decode()
    assert f"/matches/{played.order_by('-id').first().pk}/" in shown
    assert t.get_absolute_url() in shown and "Hide tournament games" in shown
