"""The player factory on the real learning core (gamecore.learn), end to end: study a
tournament, export and import the model, play a tournament and a live match with every
move's prediction stored, and the Stats tab's numbers. Skipped while the core is not
installed (TEST_AI_LEARN_PACKAGE names another package with its API)."""

from __future__ import annotations

import importlib
import os
import pickle

import pytest

from aiplayers import curriculum, predictions, services, study
from aiplayers.models import AIPlayer, Prediction
from tests.ai_helpers import make_ai, played_tournament
from tests.play_helpers import logged_moves

PACKAGE = os.environ.get("TEST_AI_LEARN_PACKAGE", "gamecore.learn")
if PACKAGE == "tests.fake_learn":
    PACKAGE = "gamecore.learn"
try:
    importlib.import_module(f"{PACKAGE}.model")
except ImportError:
    pytestmark = pytest.mark.skip(reason=f"the learning core {PACKAGE} is not installed")
else:
    pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def real_core(settings, monkeypatch):
    from aiplayers.agents import clear_cache

    settings.AI_LEARN_PACKAGE = PACKAGE
    monkeypatch.setattr(curriculum, "send", lambda *a, **k: None)
    clear_cache()
    yield
    clear_cache()


def test_study_export_import_and_play_on_the_real_core(client, trainer):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from accounts.services import random_player

    lessons = played_tournament(trainer, games=12)
    ai = make_ai(trainer, algorithm="logistic_regression")
    curriculum.add_tournament(ai, trainer, lessons)
    assert study.run_study(ai.pk) == "done"
    ai.refresh_from_db()
    assert ai.moves_studied == logged_moves(tournament=lessons) > 0
    learner = importlib.import_module(f"{PACKAGE}.model").Learner.from_bytes(bytes(ai.model))
    assert learner.moves_studied == ai.moves_studied

    other = make_ai(trainer, name="Clone", algorithm="naive_bayes")
    data = services.export_bytes(ai)
    services.import_model(other, trainer, SimpleUploadedFile("m", data))
    other.refresh_from_db()
    assert other.algorithm == "logistic_regression" and other.moves_studied == ai.moves_studied
    with pytest.raises(services.FactoryError, match="not a model file"):
        services.import_model(other, trainer, SimpleUploadedFile("m", pickle.dumps({"a": 1})))

    played_tournament(trainer, games=4, players=[ai.player.pk, random_player().pk], name="Exam")
    rows = list(Prediction.objects.filter(player=ai.player))
    assert rows and all(r.actual and r.moves_studied == ai.moves_studied for r in rows)
    metrics = predictions.recent_metrics(ai.player_id)
    assert 0 <= metrics["accuracy"] <= 1 and 0 <= metrics["long_game"] <= 1
    client.force_login(trainer)
    page = client.get(f"/ai/{ai.pk}/?tab=stats").content.decode()
    assert f'data-testid="metric-accuracy">{metrics["accuracy"]:.3f}<' in page
    assert client.get(f"/ai/{ai.pk}/").status_code == 200
    assert AIPlayer.objects.get(pk=ai.pk).study == "idle"


def test_the_factory_form_on_the_real_core(client, trainer):
    from leaderboards.services import default_universe

    client.force_login(trainer)
    body = client.get("/ai/new/").content.decode()
    for name in ("l_naive_bayes_smoothing", "l_passive_aggressive_1_C", "l_modified_huber_epsilon",
                 "p_offense", "p_tactical", "p_faith"):  # fmt: skip
        assert f'name="{name}"' in body, name
    assert 'name="p_introvert"' not in body and 'id="future-introvert"' in body
    data = {"name": "Huber", "universe": default_universe().pk, "avatar": "robot",
            "kind": "learning", "learning_algorithm": "modified_huber",
            "l_modified_huber_epsilon": "0.2", "p_faith": "0.9"}  # fmt: skip
    assert client.post("/ai/new/", data).status_code == 302
    ai = AIPlayer.objects.get(player__name="Huber")
    assert ai.params == {"alpha": 0.0001, "l1_ratio": 0.15, "epsilon": 0.2}
    assert ai.personality == {"offense": 0.5, "tactical": 0.5, "faith": 0.9}
    page = client.post("/ai/new/", {**data, "name": "Huber2", "l_modified_huber_epsilon": "0.5"})
    assert page.status_code == 400 and "Epsilon: at most 0.3." in page.content.decode()


def test_a_live_match_on_the_real_core(trainer, django_capture_on_commit_callbacks):
    from play import services as play
    from tests.play_helpers import bot, later, rule_set, start

    ai = make_ai(trainer, algorithm="naive_bayes")
    match = start(rule_set("Connect4"), trainer, bot("B", "easy"), ai.player)
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(60):
            match.refresh_from_db()
            if match.status == "finished":
                break
            play.server_move(match.pk, now=later(5))
    match.refresh_from_db()
    assert match.status == "finished"
    rows = list(Prediction.objects.filter(match=match).order_by("ply"))
    plies = list(match.moves.filter(seat=1, kind="move").values_list("ply", flat=True))
    assert [r.ply for r in rows] == plies and all(r.actual for r in rows)
