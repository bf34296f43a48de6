"""The Game Factory for pieces that move: the per-shape move, power, condition and result
dropdowns, the exclusive, sticky and per-seat lock markers, forms -> documents, errors
beside their controls, and a saved page hiding what is blank."""

from __future__ import annotations

import pytest

from gamecore import rules
from gamecore.rules.moving import needs_general
from gamecore.rules.vocabulary import MOVEMENT_LABELS
from tests.test_factory import FACTORY, REFRESH, _QueryDict, _render_body, form_fields, post_data
from variants import catalogue
from variants.factory import layout as page
from variants.factory.moving_layout import MOVE_ORDER
from variants.factory.moving_state import ShapeMoves
from variants.factory.state import (
    adjust,
    apply_action,
    default_state,
    from_doc,
    from_post,
    to_document,
)
from variants.models import RuleSet

MOVING = sorted(
    name
    for name, doc in catalogue.documents().items()
    if rules.parse(doc).board.type != "nested" and needs_general(rules.parse(doc))
)


@pytest.fixture
def ann(db, django_user_model, client):
    u = django_user_model.objects.create_user("ann", password=None)
    u.role = "creator"
    u.save()
    client.force_login(u)
    return u


def _state(**changes):
    state = default_state()
    for k, v in changes.items():
        setattr(state, k, v)
    return state


# --- documents ---------------------------------------------------------------------------


def test_the_moving_catalogue_games_are_some():
    assert {"Tapatan", "Achi", "9-Holes"} <= set(MOVING)


@pytest.mark.parametrize("name", MOVING)
def test_every_moving_catalogue_game_round_trips_through_the_form(name):
    doc = rules.parse(catalogue.get(name))
    state = adjust(from_doc(doc))
    assert rules.fingerprint(rules.parse(to_document(state))) == rules.fingerprint(doc)
    html = _render_body(page.build(state))
    fields = form_fields(html)
    fields["name"] = [name]
    posted, problems = from_post(_QueryDict(fields), _QueryDict(fields).getlist)
    assert problems == []
    assert rules.fingerprint(rules.parse(to_document(posted))) == rules.fingerprint(doc)


def test_the_move_dropdown_offers_every_movement_in_the_seeds_words():
    layout = page.build(adjust(default_state()))
    move = layout.shape_rows[0].move
    assert [o.value for o in move.options] == list(MOVE_ORDER)
    assert set(MOVE_ORDER) == set(MOVEMENT_LABELS)
    labels = [o.label for o in move.options]
    assert labels[:4] == ["Stationary", "Moves adjacent", "Moves orth by stack (stacks only)",
                          "Moves linear or knight"]  # fmt: skip
    # Moving by stack is offered only on stacks.
    disabled = {o.value for o in move.options if o.disabled}
    assert disabled == {"orthogonal-by-stack", "orthogonal-by-full-stack"}
    state = _state(board_type="stacks", size=(3, 1, 3))
    move = page.build(adjust(state)).shape_rows[0].move
    assert not any(o.disabled for o in move.options)


def test_posted_moves_and_powers_become_shape_rules():
    data = {
        "name": "Chase",
        "board_type": "squares",
        "size_x": "4",
        "size_y": "4",
        "size_z": "1",
        "move-1": "orthogonal",
        "power-1": "must-capture",
        "power_condition-1": "jump",
        "power_result-1": "convert",
    }
    state, problems = from_post(_QueryDict({k: [v] for k, v in data.items()}))
    assert problems == []
    doc = to_document(adjust(state))
    assert doc["shape_rules"] == {
        "circle": {
            "move": "orthogonal",
            "power": "must-capture",
            "condition": "jump",
            "result": "convert",
        }
    }
    rules.parse(doc)  # a valid game


def test_no_power_clears_and_disables_condition_and_result():
    state = default_state()
    state.moving.rules[1] = ShapeMoves("adjacent", "none", "jump", "convert")
    state = adjust(state)
    assert state.moving.rules[1] == ShapeMoves("adjacent", "none", "", "")
    row = page.build(state).shape_rows[0]
    assert row.condition.disabled and row.result.disabled
    assert row.condition.value == "" and row.result.value == ""
    assert row.condition.hide_when_saved and row.result.hide_when_saved
    # A power chosen: the condition and result are offered, with the defaults.
    state.moving.rules[1].power = "can-capture"
    row = page.build(adjust(state)).shape_rows[0]
    assert not row.condition.disabled and not row.result.disabled
    assert (row.condition.value, row.result.value) == ("cover", "remove")


def test_cover_off_stacks_keeps_only_remove_and_reincarnate():
    state = _state(board_type="squares", size=(4, 4, 1))
    state.moving.rules[1] = ShapeMoves("adjacent", "can-capture", "cover", "convert")
    state = adjust(state)
    assert state.moving.rules[1].result == "remove"  # cleared
    result = page.build(state).shape_rows[0].result
    enabled = {o.value for o in result.options if not o.disabled}
    assert enabled == {"remove", "reincarnate", "reincarnate-x2"}
    # Jumping is no cover: every result is offered.
    state.moving.rules[1].condition = "jump"
    state.moving.rules[1].result = "convert"
    state = adjust(state)
    assert state.moving.rules[1].result == "convert"
    assert not any(o.disabled for o in page.build(state).shape_rows[0].result.options)
    # On stacks the cover keeps convert (the pot is split); other conditions are refused.
    state = _state(board_type="stacks", size=(3, 1, 3))
    state.moving.rules[1] = ShapeMoves("orthogonal-by-stack", "can-capture", "cover", "convert")
    state = adjust(state)
    assert state.moving.rules[1].result == "convert"
    condition = page.build(state).shape_rows[0].condition
    assert {o.value for o in condition.options if not o.disabled} == {"cover", "cover-by-rank"}


def test_a_shape_at_its_maximum_reserves_cannot_move():
    state = _state(board_type="squares", size=(2, 2, 1))
    state.reserves_auto = False
    state.reserves = {"black": {1: 2}, "white": {1: 2}}  # 4 spaces / 2 colours = 2 each
    state.moving.rules[1] = ShapeMoves("adjacent")
    state = adjust(state)
    assert 1 not in state.moving.rules  # the move is cleared
    move = page.build(state).shape_rows[0].move
    assert move.disabled and move.value == "" and move.reason and move.blank
    state.reserves["white"][1] = 1
    state.moving.rules[1] = ShapeMoves("adjacent")
    move = page.build(adjust(state)).shape_rows[0].move
    assert not move.disabled and move.value == "adjacent"


# --- markers --------------------------------------------------------------------------------


def test_exclusive_sticky_and_seat_lock_markers_toggle_spaces():
    state = adjust(_state(players="2-vs-chaos", board_type="squares", size=(3, 3, 1)))
    state.marker = "sticky"
    apply_action(state, "toggle", "1,2,2,1")
    assert state.moving.sticky == {(1, 2, 2, 1)}
    apply_action(state, "toggle", "1,2,2,1")
    assert state.moving.sticky == set()
    # Exclusive needs a seat; each click with a seat adds or removes that seat.
    state.marker = "exclusive"
    assert "Choose the seat" in apply_action(state, "toggle", "1,1,1,1")
    state.moving.marker_seat = 1
    apply_action(state, "toggle", "1,1,1,1")
    state.moving.marker_seat = 3
    apply_action(state, "toggle", "1,1,1,1")
    assert state.moving.exclusive == {(1, 1, 1, 1): frozenset({1, 3})}
    apply_action(state, "toggle", "1,1,1,1")
    assert state.moving.exclusive == {(1, 1, 1, 1): frozenset({1})}
    # The lock for a seat is a space lock; for everyone it is a locked space.
    state.marker = "lock"
    state.moving.marker_seat = 3
    apply_action(state, "toggle", "1,3,3,1")
    assert state.moving.seat_locks == {((1, 3, 3, 1), "ex"): frozenset({3})}
    state.moving.marker_seat = 0
    apply_action(state, "toggle", "1,3,1,1")
    assert state.locked == {(1, 3, 1, 1)}
    doc = to_document(adjust(state))
    assert doc["exclusive"] == [{"board": 1, "at": [1, 1, 1], "seats": [1]}]
    assert doc["space_locks"] == [
        {"board": 1, "at": [3, 3, 1], "seats": [3], "entry": True, "exit": True}
    ]
    parsed = rules.parse({**doc, "name": "Marked"})
    assert needs_general(parsed)
    # Fewer seats: marks for a seat that no longer exists are dropped.
    state.players = "2"
    state = adjust(state)
    assert state.moving.exclusive == {(1, 1, 1, 1): frozenset({1})}
    assert state.moving.seat_locks == {}


def test_on_stacks_a_space_marker_marks_the_whole_stack():
    state = adjust(_state(board_type="stacks", size=(3, 1, 3)))
    state.marker = "exclusive"
    state.moving.marker_seat = 2
    apply_action(state, "toggle", "1,2,1,3")
    assert set(state.moving.exclusive) == {(1, 2, 1, z) for z in (1, 2, 3)}
    apply_action(state, "toggle", "1,2,1,1")
    assert state.moving.exclusive == {}


def test_marked_spaces_survive_render_and_post():
    state = adjust(_state(name="Marked", players="3", board_type="squares", size=(3, 3, 1)))
    state.moving.sticky = {(1, 1, 1, 1)}
    state.moving.exclusive = {(1, 2, 2, 1): frozenset({1, 3})}
    state.moving.seat_locks = {((1, 3, 3, 1), "e"): frozenset({2})}
    state.moving.rules[1] = ShapeMoves("adjacent", "can-capture", "jump", "reincarnate")
    state = adjust(state)
    html = _render_body(page.build(state))
    assert "fc-flag-exclusive" in html and "fc-flag-sticky" in html and "fc-flag-lock" in html
    assert 'aria-label="space 2,2,1, exclusive to seat 1,3"' in html
    assert "exclusive to the numbered seats" in html and "sticky: no piece leaves" in html
    fields = form_fields(html)
    fields["name"] = ["Marked"]
    posted, problems = from_post(_QueryDict(fields), _QueryDict(fields).getlist)
    assert problems == []
    assert to_document(posted) == to_document(state)


# --- errors beside their controls -------------------------------------------------------------


def test_junk_posted_to_the_moving_controls_is_reported_beside_them():
    data = {"move-1": "teleport", "power-1": "all", "exclusive": "1,1,1,1:9", "sticky": "x"}
    state, problems = from_post(_QueryDict({k: [v] for k, v in data.items()}))
    paths = {p["path"] for p in problems}
    assert {"move-1", "power-1", "exclusive", "sticky"} <= paths
    layout = page.build(state, problems)
    row = layout.shape_rows[0]
    assert row.move.errors and "teleport" in row.move.errors[0]
    assert row.power.errors
    assert layout.board_errors


def test_validation_errors_go_to_the_shape_rows_controls(ann, client):
    fields = form_fields(client.get(FACTORY).content.decode())
    # A cover by a stationary piece is refused by validation: the power names it.
    data = post_data(
        fields,
        name="Bad",
        board_type="squares",
        **{"move-1": "knight", "power-1": "can-capture", "power_condition-1": "jump"},
    )
    response = client.post(FACTORY, data)
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="id_power_condition-1-error"' in html
    assert "a knight jumps nothing" in html.lower()
    assert not RuleSet.objects.filter(name="Bad").exists()


def test_the_refresh_partial_disables_the_condition_when_power_is_none(ann, client):
    fields = form_fields(client.get(FACTORY).content.decode())
    html = client.post(REFRESH, post_data(fields, **{"power-1": "must-capture"})).content.decode()
    assert '<select class="form-select form-select-sm"\n          id="id_power_condition-1"' in html
    assert 'name="power_condition-1"\n          \n' in html  # enabled
    html = client.post(REFRESH, post_data(fields, **{"power-1": "none"})).content.decode()
    assert 'name="power_condition-1"\n          disabled' in html


# --- saving -------------------------------------------------------------------------------------


def test_tapatan_saved_through_the_form_has_the_catalogues_fingerprint(ann, client):
    fields = form_fields(client.get(FACTORY).content.decode())
    data = post_data(fields, name="MyTapatan", **{"move-1": "adjacent"})
    data.update({"reserve-black-1": "3", "reserve-white-1": "3", "reserves_auto": ""})
    response = client.post(FACTORY, data)
    assert response.status_code == 302, response.content.decode()[-3000:]
    saved = RuleSet.objects.get(name="MyTapatan")
    expected = rules.fingerprint(rules.parse(catalogue.get("Tapatan")))
    assert saved.fingerprint == expected


def test_a_saved_page_hides_blank_dropdowns_and_zero_selects(ann, client):
    doc = {
        "name": "Hunters",
        "board": {"type": "squares", "size": [4, 4, 1]},
        "shapes": ["circle", "pentagon"],
        "reserves": {"black": {"circle": 3, "pentagon": 0}, "white": {"circle": 3, "pentagon": 1}},
        "shape_rules": {
            "circle": {"move": "adjacent"},
            "pentagon": {"move": "orthogonal", "power": "can-capture", "result": "reincarnate"},
        },
        "sticky": [{"board": 1, "at": [1, 1, 1]}],
    }
    from variants import services

    saved = services.create_rule_set(doc, ann)
    html = client.get(saved.get_absolute_url()).content.decode()
    # Shape 1 has no power: its condition and result are hidden; shape 2's are shown.
    condition_1 = html.index('id="id_power_condition-1"')
    assert 'class="fc-field d-none"' in html[condition_1 - 400 : condition_1]
    condition_2 = html.index('id="id_power_condition-2"')
    assert "d-none" not in html[condition_2 - 300 : condition_2]
    # The black pentagon reserve (0) is hidden, the white one (1) is shown.
    black = html.index('id="id_reserve-black-2"')
    assert "fc-reserve d-none" in html[black - 1200 : black]
    white = html.index('id="id_reserve-white-2"')
    assert "fc-reserve d-none" not in html[white - 900 : white]
    assert 'name="marker"' not in html  # no palette on a saved page
    assert "space 1,1,1, sticky" in html
