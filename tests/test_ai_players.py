"""The player factory (issue 33): who may make, see and change AI players; the form's
every control and its errors; Copy, Fork, Delete; a model file's export and import (a
hostile file refused). The learning core is the stand-in of tests/fake_learn."""

from __future__ import annotations

import pytest

from accounts.models import Player
from aiplayers.models import AIPlayer, CurriculumItem
from tests.ai_helpers import fake_learn, make_ai  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fake_learn")]

VALID_SEARCH = {"name": "Deep-Thought", "universe": "", "avatar": "rocket", "kind": "search",
                "search_algorithm": "mcts", "s_mcts_simulations": "500",
                "s_mcts_exploration": "1.5"}  # fmt: skip
VALID_LEARNING = {"name": "Tron", "universe": "", "avatar": "robot", "kind": "learning",
                  "learning_algorithm": "naive_bayes", "l_naive_bayes_smoothing": "2.5",
                  "p_offense": "0.3", "p_tactical": "0.5", "p_faith": "0.7"}  # fmt: skip


def _with_universe(data):
    from leaderboards.services import default_universe

    return {**data, "universe": str(default_universe().pk)}


def test_who_may_see_and_use_the_factory(client, people):
    assert client.get("/ai/new/").status_code == 403  # anonymous
    assert client.get("/ai/").status_code == 403
    client.force_login(people["creator"])
    page = client.get("/ai/new/")  # read-only for a Creator
    body = page.content.decode()
    assert page.status_code == 200 and 'data-testid="read-only"' in body and "Make it" not in body
    assert client.get("/ai/").status_code == 403
    assert client.post("/ai/new/", _with_universe(VALID_SEARCH)).status_code == 403
    assert "My AI players" not in client.get("/").content.decode()
    for role in ("trainer", "admin"):
        client.force_login(people[role])
        assert "My AI players" in client.get("/").content.decode()
        page = client.get("/ai/new/")
        assert page.status_code == 200 and "Make it" in page.content.decode()
    assert not AIPlayer.objects.exists()


def test_a_search_ai_is_made_as_a_bot_with_its_spec(client, trainer):
    client.force_login(trainer)
    response = client.post("/ai/new/", _with_universe(VALID_SEARCH))
    ai = AIPlayer.objects.get()
    assert response.status_code == 302 and response["Location"] == ai.get_absolute_url()
    assert ai.kind == "search" and ai.params == {"simulations": 500, "exploration": 1.5}
    assert ai.player.kind == Player.Kind.BOT and ai.owner == trainer
    assert ai.player.bot_spec == {"kind": "mcts", "simulations": 500, "exploration": 150}
    from gamecore.bots import make_agent

    assert make_agent(ai.player.bot_spec).c == 1.5  # the bots take it as it is


def test_a_learning_ai_is_made_with_its_classifier_and_personality(client, trainer):
    client.force_login(trainer)
    client.post("/ai/new/", _with_universe(VALID_LEARNING))
    ai = AIPlayer.objects.get()
    assert ai.player.kind == Player.Kind.AI and ai.player.bot_spec is None
    assert ai.algorithm == "naive_bayes" and ai.params == {"smoothing": 2.5}
    assert ai.personality == {"offense": 0.3, "tactical": 0.5, "faith": 0.7}
    assert ai.avatar == "robot" and not ai.settings_fixed


@pytest.mark.parametrize(
    "change, field, message",
    [
        ({"name": ""}, "name", "Name: give your AI a name."),
        ({"name": "Deep Thought"}, "name", "Name may not contain whitespace"),
        ({"name": "Deep(Thought)"}, "name", "Name may not contain '('"),
        ({"name": "x" * 65}, "name", "Name: at most 64 characters."),
        ({"universe": "999999"}, "universe", "Select a valid choice"),
        ({"avatar": "dragon"}, "avatar", "Select a valid choice"),
        ({"kind": "psychic"}, "kind", "Select a valid choice"),
        ({"search_algorithm": "oracle"}, "search_algorithm", "Select a valid choice"),
        ({"s_mcts_simulations": "5"}, "s_mcts_simulations", "Simulations: at least 10."),
        ({"s_mcts_simulations": "100001"}, "s_mcts_simulations", "Simulations: at most 100000."),
        ({"s_mcts_simulations": "1.5"}, "s_mcts_simulations", "Simulations: a whole number."),
        ({"s_mcts_exploration": "9"}, "s_mcts_exploration", "Exploration: at most 5.0."),
        ({"s_mcts_exploration": "zero"}, "s_mcts_exploration", "Exploration: a number."),
        ({"search_algorithm": "hard", "s_hard_depth": "21"}, "s_hard_depth", "Depth: at most 20."),
        ({"search_algorithm": "hard", "s_hard_depth": "0"}, "s_hard_depth", "Depth: at least 1."),
    ],
)
def test_each_search_control_refuses_bad_input_naming_it(client, trainer, change, field, message):
    client.force_login(trainer)
    page = client.post("/ai/new/", {**_with_universe(VALID_SEARCH), **change})
    assert page.status_code == 400
    errors = page.context["form"].errors
    assert field in errors and message in " ".join(errors[field]), errors
    assert message.replace("'", "&#x27;") in page.content.decode()
    assert not AIPlayer.objects.exists()


@pytest.mark.parametrize(
    "change, field, message",
    [
        ({"learning_algorithm": "astrology"}, "learning_algorithm", "Select a valid choice"),
        ({"l_naive_bayes_smoothing": "3.5"}, "l_naive_bayes_smoothing", "Smoothing: at most 3.0."),
        ({"l_naive_bayes_smoothing": "-1"}, "l_naive_bayes_smoothing", "Smoothing: at least 0.0."),
        ({"p_offense": "1.2"}, "p_offense", "Offense: at most 1.0."),
        ({"p_faith": "x"}, "p_faith", "Faith: a number."),
        ({"learning_algorithm": "logistic", "l_logistic_alpha": "0.5"}, "l_logistic_alpha",
         "Alpha: at most 0.0003."),
    ],
)  # fmt: skip
def test_each_learning_control_refuses_bad_input_naming_it(client, trainer, change, field, message):
    client.force_login(trainer)
    page = client.post("/ai/new/", {**_with_universe(VALID_LEARNING), **change})
    assert page.status_code == 400
    errors = page.context["form"].errors
    assert field in errors and message in " ".join(errors[field]), errors


def test_another_algorithms_fields_are_not_read_and_defaults_fill_gaps(client, trainer):
    client.force_login(trainer)
    data = {**_with_universe(VALID_SEARCH), "s_hard_depth": "99", "l_naive_bayes_smoothing": "x"}
    del data["s_mcts_exploration"]
    assert client.post("/ai/new/", data).status_code == 302
    assert AIPlayer.objects.get().params == {"simulations": 500, "exploration": 1.0}


def test_names_are_unique_among_bots_and_ais(client, trainer):
    from tests.play_helpers import bot

    bot("Deep-Thought", "easy")
    client.force_login(trainer)
    page = client.post("/ai/new/", _with_universe(VALID_SEARCH))
    assert page.status_code == 400
    assert "there is already a bot or AI called Deep-Thought" in page.content.decode()


def test_the_form_shows_every_control_with_range_and_default(client, trainer):
    client.force_login(trainer)
    body = client.get("/ai/new/").content.decode()
    for name in ("name", "universe", "avatar", "kind", "search_algorithm", "learning_algorithm",
                 "s_mcts_simulations", "s_mcts_exploration", "s_hard_depth",
                 "l_naive_bayes_smoothing", "l_logistic_alpha", "l_logistic_l1_ratio",
                 "p_offense", "p_tactical", "p_faith"):  # fmt: skip
        assert f'name="{name}"' in body, name
    assert "10–100000, default 1000" in body and "0.0–1.0, default 0.5" in body
    for future in ("Introvert", "Empath", "Curious"):
        assert f'id="future-{future.lower()}"' in body and "A later release." in body


def test_owner_edits_others_read_and_settings_fix_once_learning_began(client, trainer, people):
    ai = make_ai(trainer, algorithm="naive_bayes")
    url = ai.get_absolute_url()
    client.force_login(people["creator"])
    assert client.get(url).status_code == 200 and "Save" not in client.get(url).content.decode()
    assert client.post(url, {}).status_code == 403
    other = people["other_creator"]
    other.role = "trainer"
    other.save()
    client.force_login(other)
    assert client.post(url, {}).status_code == 403
    client.force_login(trainer)
    data = {**_with_universe(VALID_LEARNING), "name": "Tron2", "l_naive_bayes_smoothing": "0.5"}
    assert client.post(url, data).status_code == 302
    ai.refresh_from_db()
    assert ai.player.name == "Tron2" and ai.params == {"smoothing": 0.5}
    AIPlayer.objects.filter(pk=ai.pk).update(learning_started="2026-01-01T00:00Z")
    page = client.post(url, {**data, "name": "Tron3", "l_naive_bayes_smoothing": "3"})
    ai.refresh_from_db()  # the name may change; the (disabled) settings stay
    assert page.status_code == 302 and ai.player.name == "Tron3" and ai.params == {"smoothing": 0.5}
    assert "Its settings are fixed" in client.get(url).content.decode()
    client.force_login(people["admin"])
    assert client.post(url, {**data, "name": "Tron4"}).status_code == 302


def test_copy_opens_a_new_unsaved_form_with_the_same_settings(client, trainer):
    ai = make_ai(trainer, algorithm="naive_bayes", params={"smoothing": 2.0},
                 personality={"offense": 0.9})  # fmt: skip
    client.force_login(trainer)
    page = client.get(f"/ai/new/?copy={ai.pk}")
    form = page.context["form"]
    assert form.initial["name"] == "Tron-copy" and form.initial["l_naive_bayes_smoothing"] == 2.0
    assert form.initial["p_offense"] == 0.9 and form.initial["kind"] == "learning"
    assert AIPlayer.objects.count() == 1  # nothing saved
    assert client.get("/ai/new/?copy=junk").status_code == 200


def test_delete_asks_first_and_only_the_owner_or_an_admin_may(client, trainer, creator):
    ai = make_ai(trainer)
    client.force_login(creator)
    assert client.get(f"/ai/{ai.pk}/delete/").status_code == 403
    client.force_login(trainer)
    assert "Yes, delete it" in client.get(f"/ai/{ai.pk}/delete/").content.decode()
    client.post(f"/ai/{ai.pk}/delete/", {})
    assert AIPlayer.objects.filter(pk=ai.pk).exists()  # not confirmed
    assert client.post(f"/ai/{ai.pk}/delete/", {"confirm": "yes"}).status_code == 302
    assert not AIPlayer.objects.exists() and not Player.objects.filter(kind="ai").exists()


def test_fork_makes_an_ai_studying_the_curriculum_up_to_the_point(client, trainer):
    from tests.ai_helpers import played_tournament

    ai = make_ai(trainer)
    first = played_tournament(trainer, 4, name="One")
    second = played_tournament(trainer, 4, name="Two")
    a = CurriculumItem.objects.create(ai=ai, tournament=first, match_ids=[1, 2, 3], cursor=3,
                                      studied_at="2026-01-01T00:00Z", moves_studied=20)  # fmt: skip
    CurriculumItem.objects.create(ai=ai, tournament=second, match_ids=[4, 5], cursor=2,
                                  studied_at="2026-01-02T00:00Z", moves_studied=10)  # fmt: skip
    client.force_login(trainer)
    response = client.post(f"/ai/{ai.pk}/fork/", {"item": a.pk, "name": "Tron-early"})
    fork = AIPlayer.objects.get(player__name="Tron-early")
    assert response.status_code == 302 and fork.forked_from == ai
    assert (fork.algorithm, fork.params, fork.personality) == (ai.algorithm, ai.params,
                                                               ai.personality)  # fmt: skip
    items = list(fork.curriculum.all())
    assert [(i.tournament, i.match_ids, i.cursor, i.done) for i in items] == [
        (first, [1, 2, 3], 0, False)
    ]
    assert fork.moves_studied == 0 and fork.model is None
    # a point under way: the fork studies what the original had studied of it
    under_way = CurriculumItem.objects.create(ai=ai, tournament=second, match_ids=[6, 7, 8],
                                              cursor=1, moves_studied=4)  # fmt: skip
    client.post(f"/ai/{ai.pk}/fork/", {"item": under_way.pk, "name": "Tron-late"})
    late = AIPlayer.objects.get(player__name="Tron-late")
    assert [i.match_ids for i in late.curriculum.all()] == [[1, 2, 3], [4, 5], [6]]
    bad = client.post(f"/ai/{ai.pk}/fork/", {"item": "junk", "name": "X"}, follow=True)
    assert "Choose a point of the curriculum history" in bad.content.decode()


def test_export_and_import_round_trip_and_a_hostile_file_is_refused(client, trainer, creator):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from tests.fake_learn.model import MAGIC, Learner

    ai = make_ai(trainer)
    learner = Learner.new("logistic", {}, {}, 1)
    learner.partial_fit([[1], [2], [3]], ["win", "lose", "win"])
    AIPlayer.objects.filter(pk=ai.pk).update(model=learner.to_bytes(), moves_studied=3)
    client.force_login(creator)
    assert client.get(f"/ai/{ai.pk}/export/").status_code == 403
    client.force_login(trainer)
    exported = client.get(f"/ai/{ai.pk}/export/")
    assert exported["Content-Disposition"] == 'attachment; filename="Tron.vfmodel"'
    other = make_ai(trainer, name="Joshua")
    from aiplayers.agents import learner_of

    assert learner_of(other.player)[0].moves_studied == 0  # untrained, now cached
    AIPlayer.objects.filter(pk=other.pk).update(moves_studied=3)  # an import may keep it
    upload = SimpleUploadedFile("Tron.vfmodel", exported.content)
    client.post(f"/ai/{other.pk}/import/", {"model": upload})
    other.refresh_from_db()
    assert bytes(other.model) == exported.content and other.moves_studied == 3
    assert learner_of(other.player)[0].counts == learner.counts  # not the cached one
    assert other.settings_fixed
    # A pickle (which would run code if unpickled), junk, a damaged file: all refused.
    import pickle

    for hostile in (pickle.dumps(Learner), b"\x00junk", MAGIC + b"{not json"):
        third = make_ai(trainer, name=f"Victim{len(hostile)}")
        page = client.post(f"/ai/{third.pk}/import/",
                           {"model": SimpleUploadedFile("x", hostile)}, follow=True)  # fmt: skip
        assert "Import refused: That is not a model file of this site" in page.content.decode()
        third.refresh_from_db()
        assert third.model is None and not third.settings_fixed
    page = client.post(f"/ai/{other.pk}/import/", {}, follow=True)
    assert "Choose a model file to import." in page.content.decode()


def test_junk_never_makes_a_server_error(client, trainer):
    ai = make_ai(trainer)
    searcher = make_ai(trainer, name="Searcher", kind="search", algorithm="easy")
    client.force_login(trainer)
    junk = {"name": "\x00" * 3, "universe": "-1", "kind": "learning", "learning_algorithm": "x",
            "tournament": "1e9", "player": "\u202e" * 200, "games": "-5", "item": "0",
            "ai": "99999999999999999999", "next": "http://evil.example/", "confirm": "no",
            "l_naive_bayes_smoothing": "nan", "p_offense": "inf"}  # fmt: skip
    for target in (ai, searcher):
        base = f"/ai/{target.pk}/"
        for path in ("", "curriculum/", "fork/", "import/", "study/", "cancel/", "delete/"):
            assert client.post(base + path, junk).status_code < 500, path
        for path in ("?tab=%00", "?tab=curriculum&by=%ff", "export/", "progress/",
                     "curriculum/1/remove/"):  # fmt: skip
            assert client.get(base + path).status_code < 500, path
    for path in ("/ai/new/", "/ai/study/"):
        assert client.post(path, junk).status_code < 500, path
    assert client.get("/ai/new/?copy=99999999999999999999").status_code == 200
    assert client.get("/players/99999999/learning-curve/").status_code == 404
