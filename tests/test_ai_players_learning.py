"""Learning AIs at work (issue 33), in this process: the study of a curriculum (labels,
chunks, resumption, cancelling, waiting for a tournament), playing in tournaments and
live matches with every move's prediction stored, and Accuracy, F1 and Long Game on the
Stats tab and the Evolution page, against hand-worked examples. The learning core is
the stand-in of tests/fake_learn (its model counts the labels it was fed)."""

from __future__ import annotations

import json

import pytest

from aiplayers import curriculum, predictions, study
from aiplayers.models import AIPlayer, Prediction
from play.models import Match
from play.move_log import rows_of
from tests.ai_helpers import fake_learn, make_ai, played_tournament  # noqa: F401
from tests.fake_learn.model import Learner
from tests.play_helpers import logged_moves

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fake_learn")]


@pytest.fixture
def quiet(monkeypatch):
    """No broker: what would be sent to the learning queue is recorded."""
    sent = []
    monkeypatch.setattr(curriculum, "send", lambda ai_id, countdown=None: sent.append(ai_id))
    monkeypatch.setattr(study, "send", lambda ai_id, countdown=None: sent.append(ai_id))
    return sent


def expected_counts(tournament) -> dict[str, int]:
    """What the stand-in must have been fed: each move labelled with its mover's result."""
    counts = dict.fromkeys(Learner.new("x", {}, {}, 0).counts, 0)
    for match in Match.objects.filter(tournament=tournament):
        results = {"win": "win", "loss": "lose", "draw": "draw"}
        for seat in (r.seat for r in rows_of(match)):
            counts[results[match.outcome["results"][seat]]] += 1
    return counts


def model_of(ai) -> Learner:
    ai.refresh_from_db()
    return Learner.from_bytes(bytes(ai.model))


def test_a_curriculum_is_studied_in_chunks_once_with_each_moves_label(trainer, quiet, settings):
    settings.AI_STUDY_CHUNK = 3
    t = played_tournament(trainer, games=8)
    ai = make_ai(trainer)
    item = curriculum.add_tournament(ai, trainer, t, games=7)  # the 7 most recent
    assert study.run_study(ai.pk) == "done"
    item.refresh_from_db()
    ai.refresh_from_db()
    newest = list(Match.objects.filter(tournament=t).order_by("game_number").values_list(
        "pk", flat=True))[1:]  # fmt: skip
    assert item.match_ids == newest and item.cursor == 7 and item.done
    moves = logged_moves(pk__in=newest)
    assert ai.moves_studied == moves == item.moves_studied and ai.study == "idle"
    assert item.by_game == {"Tic-Tac-Toe": moves} and ai.settings_fixed
    Match.objects.filter(tournament=t, game_number=1).delete()  # not in the 7
    assert model_of(ai).counts == expected_counts(t) and model_of(ai).moves_studied == moves
    assert study.run_study(ai.pk) == "done"  # again: nothing left, nothing studied twice
    assert model_of(ai).moves_studied == moves


def test_a_tournament_part_is_the_most_recent_games_of_each_matchup(trainer, quiet):
    from accounts.services import random_player
    from tests.play_helpers import bot

    a, b, r = bot("A", "easy").pk, bot("B", "medium").pk, random_player().pk
    t = played_tournament(trainer, sets=[([a, r], 5), ([b, r], 3), ([a, b], 4)])
    ai = make_ai(trainer)
    item = curriculum.add_tournament(ai, trainer, t, games=2)
    study._fix_matches(item)
    chosen = Match.objects.filter(pk__in=item.match_ids)

    def matchups(matches) -> dict[tuple, list[int]]:
        out = {}
        for match in matches.order_by("game_number"):
            key = tuple(sorted(match.seats.values_list("player_id", flat=True)))
            out.setdefault(key, []).append(match.game_number)
        return out

    every = matchups(Match.objects.filter(tournament=t))
    assert sorted(len(v) for v in every.values()) == [3, 4, 5]
    assert matchups(chosen) == {key: numbers[-2:] for key, numbers in every.items()}
    played = list(chosen.order_by("game_number").values_list("pk", flat=True))
    assert item.match_ids == played  # studied in play order


def test_another_games_matches_are_passed_over_and_said(trainer, quiet):
    from accounts.services import random_player
    from tests.play_helpers import bot, rule_set

    ttt = played_tournament(trainer, games=2)
    c4 = played_tournament(trainer, games=2, name="C4", game=rule_set("Connect4"),
                           players=[random_player().pk, bot("C4-easy", "easy").pk])  # fmt: skip
    ai = make_ai(trainer)
    curriculum.add_tournament(ai, trainer, ttt)
    item = curriculum.add_tournament(ai, trainer, c4)
    assert study.run_study(ai.pk) == "done"
    item.refresh_from_db()
    ai.refresh_from_db()
    assert item.done and item.cursor == 2 and item.moves_studied == 0
    assert "Connect4: game: this model learns 'Tic-Tac-Toe'" in ai.study_note
    assert ai.moves_studied == logged_moves(tournament=ttt)


def test_a_learner_that_cannot_play_a_game_plays_at_random():
    from aiplayers.agents import SafeAgent
    from play.replay import game_of_rule_set
    from tests.play_helpers import rule_set

    class Refuses:
        last_prediction = {"label": "win"}

        def choose(self, state, seat):
            raise ValueError("this AI learnt 'Connect4', not 'Tic-Tac-Toe'")

    state = game_of_rule_set(rule_set("Tic-Tac-Toe")).new_initial_state(seed=1)
    agent = SafeAgent(Refuses(), seed=3)
    assert agent.choose(state, 0) in state.legal_moves(0)
    assert agent.last_prediction is None  # nothing predicted for that move


def test_a_chunk_whose_start_moved_on_is_not_written(trainer, quiet):
    """Two workers on one AI: the second to commit a chunk finds the cursor moved and
    writes nothing (then starts again from the other's model)."""
    t = played_tournament(trainer, games=4)
    ai = make_ai(trainer)
    item = curriculum.add_tournament(ai, trainer, t)
    study._fix_matches(item)
    studier = study._Studier(ai)
    learner = Learner.new("logistic", {}, {}, 0)
    assert studier._commit(item, 0, 2, 0, learner, {"Tic-Tac-Toe": 5})
    assert not studier._commit(item, 0, 2, 0, learner, {"Tic-Tac-Toe": 5})  # stale
    item.refresh_from_db()
    ai.refresh_from_db()
    assert item.cursor == 2 and ai.moves_studied == 5


def test_cancel_stops_between_chunks_and_study_again_resumes(trainer, quiet, settings):
    settings.AI_STUDY_CHUNK = 2
    t = played_tournament(trainer, games=6)
    ai = make_ai(trainer)
    item = curriculum.add_tournament(ai, trainer, t)
    calls = []
    fit = study._Studier._fit

    def cancelling(self, learner, ids):
        calls.append(ids)
        curriculum.cancel(ai, trainer)  # the trainer presses Cancel during the first chunk
        return fit(self, learner, ids)

    study._Studier._fit = cancelling
    try:
        assert study.run_study(ai.pk) == "cancelled"
    finally:
        study._Studier._fit = fit
    item.refresh_from_db()
    assert len(calls) == 1 and item.cursor == 2 and not item.done  # the chunk under way ends
    curriculum.request_study(AIPlayer.objects.get(pk=ai.pk))
    assert study.run_study(ai.pk) == "done"
    item.refresh_from_db()
    assert item.cursor == 6 and model_of(ai).moves_studied == item.moves_studied


def test_a_running_tournament_is_waited_for(trainer, quiet):
    from leaderboards.models import Tournament

    t = played_tournament(trainer, games=2)
    Tournament.objects.filter(pk=t.pk).update(status="running")
    ai = make_ai(trainer)
    curriculum.add_tournament(ai, trainer, t)
    quiet.clear()
    assert study.run_study(ai.pk) == "waiting" and quiet == [ai.pk]
    ai.refresh_from_db()
    assert ai.study == "waiting" and "Waiting for Lessons to finish" in ai.study_note


def test_strategic_and_unstrategic_read_twenty_matches_later():
    ai = AIPlayer(pk=1)
    studier = study._Studier(ai)
    match = Match(pk=100, rule_set_id=1, universe_id=1)
    key = (7, 1, 1)
    # (match, mu before, sigma before, mu after); the top mu on the board: 40
    rows = [(100, 25.0, 2.0, 25.0)] + [(200 + i, 25.0, 2.0, 25.0) for i in range(19)]
    studier.histories[key] = (rows, 40.0)
    assert studier._strategic(7, match) is None  # 20 matches later does not exist yet
    for later, expected in ((29.0, "strategic"), (39.5, "strategic"), (21.0, "unstrategic"),
                            (26.0, None)):  # fmt: skip
        studier.histories[key] = (rows + [(300, 25.0, 2.0, later)], 40.0)
        assert studier._strategic(7, match) == expected, later


def test_search_ais_and_strangers_cannot_be_given_a_curriculum(trainer, creator, quiet):
    t = played_tournament(trainer, games=1)
    searcher = make_ai(trainer, name="Searcher", kind="search", algorithm="medium")
    with pytest.raises(curriculum.FactoryError, match="A search AI does not study"):
        curriculum.add_tournament(searcher, trainer, t)
    ai = make_ai(trainer)
    with pytest.raises(curriculum.FactoryError, match="Only the AI's trainer"):
        curriculum.add_tournament(ai, creator, t)
    with pytest.raises(curriculum.FactoryError, match="Games: from 1"):
        curriculum.add_tournament(ai, trainer, t, games="0")
    with pytest.raises(curriculum.FactoryError, match="not its own"):
        curriculum.add_history(ai, trainer, ai.player)


def test_the_curriculum_tab_adds_studies_and_charts(client, trainer, quiet):
    from accounts.services import random_player

    t = played_tournament(trainer, games=3)
    ai = make_ai(trainer)
    client.force_login(trainer)
    url = f"/ai/{ai.pk}/curriculum/"
    client.post(url, {"tournament": t.pk, "games": "2"})
    client.post(url, {"player": "Random"})
    bad = client.post(url, {"tournament": "99999"}, follow=True).content.decode()
    assert "There is no such tournament." in bad
    nobody = client.post(url, {"player": "Nobody"}, follow=True).content.decode()
    assert "There is no player" in nobody
    items = list(ai.curriculum.all())
    assert [(i.tournament, i.history_of, i.games) for i in items] == [
        (t, None, 2), (None, random_player(), None)
    ]  # fmt: skip
    assert study.run_study(ai.pk) == "done"
    page = client.get(f"/ai/{ai.pk}/?tab=curriculum")
    chart = json.loads(page.context["chart"])
    by_type = dict(zip(chart["labels"], chart["values"], strict=True))
    assert list(by_type) == ["Anomalies", "Masters", "Mediocrity", "Benchmarks",
                             "Social history", "Other"]  # fmt: skip
    assert by_type["Other"] == items[0].__class__.objects.get(pk=items[0].pk).moves_studied > 0
    assert by_type["Social history"] > 0 and 'data-testid="fork-form"' in page.content.decode()
    by_game = json.loads(client.get(f"/ai/{ai.pk}/?tab=curriculum&by=game").context["chart"])
    assert by_game["labels"] == ["Tic-Tac-Toe"]
    assert b"vendor/chart.js/chart.umd.min.js" in page.content


def test_study_buttons_on_a_tournament_and_a_players_stats(client, trainer, creator, quiet):
    t = played_tournament(trainer, games=1)
    ai = make_ai(trainer)
    client.force_login(trainer)
    page = client.get(t.get_absolute_url()).content.decode()
    assert 'data-testid="study"' in page
    client.post("/ai/study/", {"ai": ai.pk, "tournament": t.pk, "next": t.get_absolute_url()})
    stats = client.get(creator.player.get_absolute_url()).content.decode()
    assert 'data-testid="study"' in stats
    client.post("/ai/study/", {"ai": ai.pk, "player_id": creator.player.pk, "next": "/"})
    assert [(i.tournament, i.history_of) for i in ai.curriculum.all()] == [
        (t, None), (None, creator.player)
    ]  # fmt: skip
    client.force_login(creator)  # not theirs: refused
    assert 'data-testid="study"' not in client.get(t.get_absolute_url()).content.decode()
    client.post("/ai/study/", {"ai": ai.pk, "tournament": t.pk, "next": "/"})
    assert ai.curriculum.count() == 2


def test_an_ai_with_pending_curriculum_does_not_play_yet(client, trainer, quiet):
    from tests.play_helpers import rule_set
    from tournaments import services as tournaments

    ai = make_ai(trainer)
    curriculum.add_tournament(ai, trainer, played_tournament(trainer, games=1))
    client.force_login(trainer)
    form = client.get("/play/").content.decode()
    assert f"{ai.player.name} (AI, still studying)" in form
    from accounts.services import random_player
    from leaderboards.services import default_universe

    plan = tournaments.Plan(rule_set("Tic-Tac-Toe"), default_universe(), "T",
                            [([ai.player.pk, random_player().pk], 2)])  # fmt: skip
    with pytest.raises(tournaments.TournamentError, match="still studying its curriculum"):
        tournaments.create_from_plan(plan, trainer)
    study.run_study(ai.pk)
    assert f"{ai.player.name} (AI)" in client.get("/play/").content.decode()


def test_a_learning_ai_plays_a_tournament_and_every_move_stores_its_prediction(trainer):
    from accounts.services import random_player

    ai = make_ai(trainer)
    t = played_tournament(trainer, games=6, players=[ai.player.pk, random_player().pk])
    rows = list(Prediction.objects.filter(player=ai.player).order_by("match_id", "ply"))
    ai_moves = []
    for match in Match.objects.filter(tournament=t):
        seat = match.seats.get(player=ai.player).index
        for ply in (r.ply for r in rows_of(match) if r.seat == seat):
            result = {"win": "win", "loss": "lose", "draw": "draw"}[match.outcome["results"][seat]]
            ai_moves.append((match.pk, ply, seat, result))
    assert len(ai_moves) > 0
    assert sorted((r.match_id, r.ply, r.seat, r.actual) for r in rows) == sorted(ai_moves)
    assert all(r.label == "win" and r.moves_studied == 0 for r in rows)  # untrained: first label


def test_a_live_match_stores_predictions_and_their_outcome_at_the_end(
    trainer, django_capture_on_commit_callbacks
):
    from play import services
    from tests.play_helpers import bot, later, rule_set, start

    ai = make_ai(trainer)
    match = start(rule_set("Tic-Tac-Toe"), trainer, ai.player, bot("B", "easy"))
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(20):
            match.refresh_from_db()
            if match.status == "finished":
                break
            services.server_move(match.pk, now=later(5))
    match.refresh_from_db()
    assert match.status == "finished"
    plies = list(match.moves.filter(seat=0, kind="move").values_list("ply", flat=True))
    rows = Prediction.objects.filter(match=match).order_by("ply")
    assert [r.ply for r in rows] == plies and all(r.seat == 0 for r in rows)
    result = {"win": "win", "loss": "lose", "draw": "draw"}[match.outcome["results"][0]]
    assert {r.actual for r in rows} == {result}


def hand_worked(player, pairs):
    from tests.play_helpers import rule_set, start

    match = start(rule_set("Tic-Tac-Toe"), None, player, player)
    Prediction.objects.bulk_create(
        Prediction(player=player, match=match, ply=i + 1, seat=0, label=p, actual=a,
                   moves_studied=10 * (i + 1))
        for i, (p, a) in enumerate(pairs)
    )  # fmt: skip
    return match


def test_accuracy_f1_and_long_game_over_the_last_100_predictions(client, trainer):
    ai = make_ai(trainer)
    old = [("win", "lose")] * 150  # older than the last 100: not counted
    recent = [("win", "win"), ("win", "lose"), ("lose", "lose"), ("strategic_lose", "win"),
              ("strategic_lose", "strategic_lose")] * 20  # fmt: skip
    hand_worked(ai.player, old + recent)
    # By hand, over one block of five (the 100 are 20 of them). Tactically (a strategic
    # lose is a lose) the pairs are (w,w) (w,l) (l,l) (l,w) (l,l): accuracy 3/5. F1 per
    # class: win 2·1/(2+1+1) = 1/2, lose 2·2/(4+1+1) = 2/3, draw never occurs: macro
    # F1 = (1/2 + 2/3) / 2 = 7/12. Long Game, the strategic sign (+1 win and strategic
    # lose, -1 lose): (+,+) (+,-) (-,-) (+,+) (+,+): 4/5.
    metrics = predictions.recent_metrics(ai.player_id)
    assert metrics["count"] == 100 and metrics["accuracy"] == pytest.approx(0.6)
    assert metrics["f1"] == pytest.approx(7 / 12) and metrics["long_game"] == pytest.approx(0.8)
    client.force_login(trainer)
    page = client.get(f"/ai/{ai.pk}/?tab=stats").content.decode()
    assert 'data-testid="metric-accuracy">0.600<' in page
    assert 'data-testid="metric-f1">0.583<' in page
    assert 'data-testid="metric-long-game">0.800<' in page


def test_no_predictions_show_dashes_and_a_search_ai_has_none(client, trainer):
    ai = make_ai(trainer)
    searcher = make_ai(trainer, name="Searcher", kind="search", algorithm="easy")
    client.force_login(trainer)
    page = client.get(f"/ai/{ai.pk}/?tab=stats").content.decode()
    assert 'data-testid="metric-accuracy">—<' in page
    assert "records no predictions" in client.get(f"/ai/{searcher.pk}/?tab=stats").content.decode()


def test_the_learning_curve_on_the_evolution_page(client, trainer):
    ai = make_ai(trainer)
    pairs = [("win", "lose")] * 100 + [("win", "win")] * 100
    match = hand_worked(ai.player, pairs)
    curve = predictions.curve(ai.player_id, points=2)
    assert curve["x"] == [1000, 2000] and curve["accuracy"] == [0.0, 1.0]
    games = predictions.curve(ai.player_id, x="games", points=2)
    assert games["x"] == [1, 1]
    client.force_login(trainer)
    response = client.get(f"/players/{ai.player_id}/learning-curve/")
    assert response.status_code == 302
    assert (
        f"/games/{match.rule_set_id}/evolution/?measure=accuracy&players={ai.player_id}"
        in (response["Location"])
    )
    page = client.get(response["Location"])
    body = page.content.decode()
    assert page.status_code == 200 and "Accuracy, learning curve (%)" in body
    assert 'data-testid="learning-x"' in body and "against moves studied" in body
    points = page.context["chart"].curves[0].points  # (moves studied, accuracy %)
    assert points[0] == (40, 0) and points[-1] == (2000, 100)
    lb = client.get(f"/games/{match.rule_set_id}/leaderboard/").content.decode()
    assert 'data-testid="show-learning-curve"' in lb
    stats = client.get(ai.player.get_absolute_url()).content.decode()
    assert 'data-testid="stats-learning-curve"' in stats


def test_the_study_task_is_routed_to_the_learning_queue():
    from config.celery import app

    assert app.amqp.router.route({}, "aiplayers.study", args=(1,))["queue"].name == "learning"
    assert app.amqp.router.route({}, "leaderboards.run_batch", args=(1,))["queue"].name == "celery"
