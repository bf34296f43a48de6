"""Every named game of the general family (pieces that move, phases, markers, cloaking,
endings), made through the Game Factory form from a fresh page, saves with the
catalogue's fingerprint.

Fast form-filling: ``tests/browser/factory_fill.PostForm`` works the form's controls by
HTTP exactly as the page's htmx sends them (one request per control that re-renders,
the fields a browser submits, no hidden field written by hand). The same fill, click by
click in Chromium, runs for a few of these games in
``tests/browser/test_factory_catalogue_browser.py``.
"""

from __future__ import annotations

import pytest

from gamecore import rules
from tests.browser.factory_fill import SAVED, CannotFill, PostForm, build, general_games
from variants import catalogue
from variants.models import RuleSet

GENERAL = general_games()


@pytest.fixture
def creator(db, django_user_model, client, monkeypatch):
    # The quick estimate (random games on every redraw of the form) says nothing about the
    # controls and costs up to 0.15 s a request: left out here, kept in the browser tests.
    monkeypatch.setattr("variants.factory.estimate.estimate", lambda doc: "")
    u = django_user_model.objects.create_user("maker", password=None)
    u.role = "creator"
    u.save()
    client.force_login(u)
    return u


def test_the_general_games_are_the_seeds_named_ones():
    assert {"Tapatan", "Achi", "9-Holes", "StagHunt", "PrisonerDilemma", "3P-PublicGoods"} <= set(
        GENERAL
    )
    assert {"3Blotto13", "KBeauty9", "Shopping9"} <= set(GENERAL)
    assert not {"Connect4", "Tic-Tac-Toe", "Ultimate-Open"} & set(GENERAL)


@pytest.mark.parametrize("name", GENERAL)
def test_a_general_game_made_through_the_form_has_the_catalogues_fingerprint(name, creator, client):
    doc = rules.parse(catalogue.get(name))
    form = PostForm(client)
    build(form, doc, f"My{name}")
    where = form.save()
    assert SAVED.search(where), f"{name} not saved: {form.errors()}"
    saved = RuleSet.objects.get(name=f"My{name}")
    assert saved.fingerprint == rules.fingerprint(doc), saved.document


def test_a_missing_option_is_named(creator, client):
    """The fill fails loudly, naming the control, when the form cannot say something."""
    doc = rules.parse(catalogue.get("Tapatan"))
    doc = doc.model_copy(update={"seconds_per_turn": 7})  # the timer offers no 7 seconds
    with pytest.raises(CannotFill, match="id_seconds"):
        build(PostForm(client), doc, "Timed")


def test_everyone_this_phase_only_locks_a_space_for_phase_one_alone():
    """The marker seat "Everyone, this phase only": phase 1's own locked spaces (pieces
    stay), which the plain lock marker cannot make in phase 1 (it makes blanks)."""
    from variants.factory.moving_state import THIS_PHASE
    from variants.factory.state import adjust, apply_action, default_state, to_document

    state = default_state()
    state.phases = [state.phases[0].copy(), state.phases[0].copy()]
    state.marker, state.moving.marker_seat = "lock", THIS_PHASE
    assert apply_action(state, "toggle", "1,2,2,1") == ""
    doc = to_document(adjust(state))
    assert doc["locked"] == []
    assert [p["locked"] for p in doc["phases"]] == [[{"board": 1, "at": [2, 2, 1]}], []]
    state.marker = "exclusive"  # an exclusive space needs a seat
    assert "Choose the seat" in apply_action(state, "toggle", "1,1,1,1")
    assert not state.moving.exclusive


def test_no_named_general_game_is_warned_to_be_a_draw_every_time():
    """Their endings decide ("Most 2-same-color-in-a-row wins"): the factory's warning that
    nothing wins or loses must not show for them (it did, for every dilemma game)."""
    from variants.factory.warnings import warnings_for

    for name in GENERAL:
        assert not [w for w in warnings_for(catalogue.get(name)) if "No line" in w], name
    (draw,) = warnings_for({"name": "x", "turn_checks": []})
    assert "every match is a draw" in draw


def test_entry_only_and_exit_only_locks_are_made_through_the_form(creator, client):
    """Issue 35's per-seat locks, entry only and exit only, filled like any control."""
    base = catalogue.get("Tapatan")
    doc = rules.parse(
        base | {"space_locks": [
            {"at": [1, 1, 1], "seats": [1], "entry": True, "exit": False},
            {"at": [3, 3, 1], "seats": [2], "entry": False, "exit": True},
            {"at": [2, 1, 1], "seats": [1, 2]},
        ]}
    )  # fmt: skip
    form = PostForm(client)
    build(form, doc, "LockedTapatan")
    assert SAVED.search(form.save()), form.errors()
    saved = RuleSet.objects.get(name="LockedTapatan")
    assert saved.fingerprint == rules.fingerprint(doc), saved.document
