"""The Game Factory: form state -> rule document, layout rules, the htmx partial, the pages."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from gamecore import rules
from gamecore.rules.moving import needs_general
from variants import catalogue, services
from variants.factory import layout as page
from variants.factory.state import (
    FLAT_BOARDS,
    Check,
    adjust,
    adjusted_size,
    apply_action,
    default_state,
    from_doc,
    from_post,
    to_document,
)

FACTORY = "/games/new/"
REFRESH = "/games/new/refresh/"


# --- helpers ----------------------------------------------------------------------


class FormReader(HTMLParser):
    """What a browser would submit from the factory form (inputs, enabled selects)."""

    def __init__(self):
        super().__init__()
        self.fields: list[tuple[str, str]] = []
        self._select: str | None = None
        self._first: str | None = None
        self._chosen: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "input" and a.get("name"):
            if "disabled" in a:  # a browser does not submit a disabled field
                return
            if a.get("type") in ("radio", "checkbox") and "checked" not in a:
                return
            self.fields.append((a["name"], a.get("value", "")))
        elif tag == "select":
            self._select = a.get("name") if "disabled" not in a else None
            self._first = self._chosen = None
        elif tag == "option" and self._select:
            if self._first is None:
                self._first = a.get("value", "")
            if "selected" in a:
                self._chosen = a.get("value", "")

    def handle_endtag(self, tag):
        if tag == "select" and self._select:
            value = self._chosen if self._chosen is not None else self._first
            self.fields.append((self._select, value or ""))
            self._select = None


def form_fields(html: str) -> dict[str, list[str]]:
    reader = FormReader()
    reader.feed(html)
    out: dict[str, list[str]] = {}
    for name, value in reader.fields:
        out.setdefault(name, []).append(value)
    return out


def post_data(fields: dict[str, list[str]], **changes) -> dict[str, list[str] | str]:
    data: dict = {k: (v if len(v) > 1 else v[0]) for k, v in fields.items()}
    data.update(changes)
    return data


@pytest.fixture
def user(db, django_user_model):
    def make(username: str, role: str = "creator"):
        u = django_user_model.objects.create_user(username, password=None)  # fast: no hashing
        u.role = role
        u.save()
        return u

    return make


@pytest.fixture
def ann(user, client):
    u = user("ann")
    client.force_login(u)
    return u


def flat_catalogue() -> dict[str, dict]:
    """The games the factory form carries (moving pieces join with the factory-and-board
    issue: Tapatan, Achi and 9-Holes are played by the general family)."""
    return {
        name: doc
        for name, doc in catalogue.documents().items()
        if rules.parse(doc).board.type in FLAT_BOARDS and not needs_general(rules.parse(doc))
    }


# --- state: document round trips ----------------------------------------------------------


def test_default_state_is_tic_tac_toe_with_the_derived_reserves():
    state = default_state()
    doc = to_document(state)
    assert doc["reserves"] == {"black": {"circle": 5}, "white": {"circle": 4}}
    assert rules.fingerprint(rules.parse({**doc, "name": "T"})) == rules.fingerprint(
        rules.parse(catalogue.get("Tic-Tac-Toe"))
    )
    assert state.reserves_auto


@pytest.mark.parametrize("name", sorted(flat_catalogue()))
def test_every_flat_catalogue_game_round_trips_through_the_form(name):
    doc = rules.parse(catalogue.get(name))
    state = from_doc(doc)
    again = adjust(from_doc(doc))  # adjusting a valid game changes nothing
    assert to_document(again) == to_document(state)
    assert rules.fingerprint(rules.parse(to_document(state))) == rules.fingerprint(doc)


@pytest.mark.parametrize("name", sorted(flat_catalogue()))
def test_every_flat_catalogue_game_survives_render_and_post(name):
    """Rendering the state and reading the posted form back gives the same document."""
    state = from_doc(rules.parse(catalogue.get(name)))
    html = _render_body(page.build(state))
    fields = form_fields(html)
    fields["name"] = [name]
    posted, problems = from_post(_QueryDict(fields), _QueryDict(fields).getlist)
    assert problems == []
    assert to_document(posted) == to_document(state)


class _QueryDict(dict):
    def __init__(self, fields):
        super().__init__({k: v[-1] for k, v in fields.items()})
        self._lists = fields

    def getlist(self, key):
        return self._lists.get(key, [])


def _render_body(layout) -> str:
    from django.template.loader import render_to_string

    return render_to_string("variants/factory/body.html", {"layout": layout})


def test_timeout_is_cleared_without_a_timer():
    state = default_state()
    state.timeout, state.seconds = "skip", None
    assert to_document(adjust(state))["timeout"] == "loss"
    state.seconds = 30
    state.timeout = "skip"
    assert to_document(adjust(state))["timeout"] == "skip"


# --- state: the seed's rules between controls ------------------------------------------------


def test_hash_is_frozen_and_stacks_need_a_height():
    assert adjusted_size("hash", (7, 7, 3)) == (3, 3, 1)
    assert adjusted_size("stacks", (7, 1, 1)) == (7, 1, 2)
    # 19×19 squares becoming stacks keep z=2 and shrink y to fit 512 spaces.
    assert adjusted_size("stacks", (19, 19, 1)) == (19, 13, 2)
    assert adjusted_size("squares", (19, 19, 19)) == (19, 19, 1)
    for size in [(19, 19, 1), (8, 8, 8), (1, 1, 19)]:
        x, y, z = adjusted_size("squares", size)
        assert x * y * z <= 512


def test_untouched_reserves_follow_the_board():
    state = default_state()
    state.board_type, state.size = "stacks", (7, 1, 6)
    assert adjust(state).reserves == {"black": {1: 21}, "white": {1: 21}}
    state.players = "3"
    assert adjust(state).reserves == {"black": {1: 14}, "white": {1: 14}, "pink": {1: 14}}


def test_edited_reserves_are_kept_and_added_selects_copy_the_last_ones():
    state = default_state()
    state.reserves = {"black": {1: 2}, "white": {1: 3}}
    state.reserves_auto = False
    state.players = "3"  # pink copies white (the highest-numbered existing colour)
    assert adjust(state).reserves == {"black": {1: 2}, "white": {1: 3}, "pink": {1: 3}}
    state.shapes = ["circle", "x"]  # shape 2 copies shape 1 for every colour
    assert adjust(state).reserves == {
        "black": {1: 2, 2: 2},
        "white": {1: 3, 2: 3},
        "pink": {1: 3, 2: 3},
    }
    state.reserves["black"][1] = 99  # clamped to the reserve limit (9 spaces / 3 colours)
    assert adjust(state).reserves["black"][1] == 3


def test_posted_reserves_equal_to_the_snapshot_are_untouched():
    layout = page.build(adjust(default_state()))
    fields = form_fields(_render_body(layout))
    assert fields["reserves_auto"] == ["black.1=5 white.1=4"]
    state, _ = from_post(_QueryDict(fields), _QueryDict(fields).getlist)
    assert state.reserves_auto
    fields["reserve-white-1"] = ["2"]
    state, _ = from_post(_QueryDict(fields), _QueryDict(fields).getlist)
    assert not state.reserves_auto
    assert adjust(state).reserves["white"][1] == 2


def test_partners_share_color_only_for_partners():
    state = default_state()
    state.players, state.colors = "partners", "partners-share"
    assert adjust(state).colors == "partners-share"
    state.players = "4"
    assert adjust(state).colors == "assigned"


def test_renaming_a_shape_row_keeps_its_reserves_and_pieces():
    state = default_state()
    state.reserves_auto = False
    state.pieces = {(1, 2, 2, 1): ("white", 1)}
    state.shapes = ["pentagon"]
    doc = to_document(adjust(state))
    assert doc["reserves"] == {"black": {"pentagon": 5}, "white": {"pentagon": 4}}
    assert doc["initial_pieces"] == [
        {"board": 1, "at": [2, 2, 1], "color": "white", "shape": "pentagon"}
    ]


def test_fewer_players_shapes_or_boards_drop_what_no_longer_exists():
    state = default_state()
    state.players, state.boards, state.shapes = "3", 2, ["circle", "x"]
    state.pieces = {
        (1, 1, 1, 1): ("pink", 1),
        (2, 1, 1, 1): ("black", 1),
        (1, 2, 1, 1): ("black", 2),
    }
    state.locked = {(2, 3, 3, 1)}
    state.players, state.boards, state.shapes = "2", 1, ["circle"]
    adjust(state)
    assert state.pieces == {} and state.locked == set()


def test_lock_marker_toggles_a_space():
    state = default_state()
    state.marker = "lock"
    assert apply_action(state, "toggle", "1,3,1,1") == ""
    assert state.locked == {(1, 3, 1, 1)}
    apply_action(state, "toggle", "1,3,1,1")
    assert state.locked == set()


def test_shape_marker_places_replaces_and_clears_a_piece():
    state = default_state()
    state.marker = "piece-white-1"
    apply_action(state, "toggle", "1,2,2,1")
    assert state.pieces == {(1, 2, 2, 1): ("white", 1)}
    state.marker = "lock"
    apply_action(state, "toggle", "1,2,2,1")  # a lock replaces the piece
    assert state.pieces == {} and state.locked == {(1, 2, 2, 1)}
    state.marker = "piece-black-1"
    apply_action(state, "toggle", "1,2,2,1")
    apply_action(state, "toggle", "1,2,2,1")
    assert state.pieces == {} and state.locked == set()


def test_toggle_needs_a_marker_and_a_space_on_the_board():
    state = default_state()
    assert "Select a marker" in apply_action(state, "toggle", "1,1,1,1")
    state.marker = "lock"
    assert "not on the board" in apply_action(state, "toggle", "1,4,1,1")
    assert "not on the board" in apply_action(state, "toggle", "junk")
    assert state.locked == set()


def test_on_stacks_pieces_fall_and_close_gaps():
    state = default_state()
    state.board_type, state.size = "stacks", (7, 1, 6)
    state.marker = "piece-black-1"
    apply_action(state, "toggle", "1,4,1,5")  # clicked high up: falls to the floor
    state.marker = "piece-white-1"
    apply_action(state, "toggle", "1,4,1,6")  # lands on the black piece
    assert state.pieces == {(1, 4, 1, 1): ("black", 1), (1, 4, 1, 2): ("white", 1)}
    state.marker = "piece-black-1"
    apply_action(state, "toggle", "1,4,1,1")  # removing the bottom lets white drop
    assert state.pieces == {(1, 4, 1, 1): ("white", 1)}
    rules.parse({**to_document(adjust(state)), "name": "ok"})  # gravity holds


def test_switching_to_stacks_drops_floating_pieces():
    state = default_state()
    state.board_type, state.size = "squares", (3, 1, 3)
    state.locked = {(1, 2, 1, 3)}
    state.board_type = "stacks"
    assert adjust(state).locked == {(1, 2, 1, 1)}


def test_add_and_delete_checks():
    state = default_state()
    state.checks = [Check(4, "loses", False)]
    apply_action(state, "add_check")
    assert state.checks == [Check(4, "loses", False)] * 2  # the new one repeats the last
    apply_action(state, "delete_check-0")
    apply_action(state, "delete_check-0")
    apply_action(state, "delete_check-5")  # gone already: nothing happens
    assert state.checks == []
    apply_action(state, "add_check")
    assert state.checks == [Check()]


def test_shape_count_adds_unused_shapes():
    state, problems = from_post({"shape": "x", "shape_count": "3"})
    assert problems == []
    assert state.shapes == ["x", "circle", "triangle"]
    state, problems = from_post({"shape_count": "9", "size_x": "abc"})
    assert len(state.shapes) == 6
    assert problems == [{"path": "board.size[0]", "message": "must be a whole number"}]


# --- layout ----------------------------------------------------------------------


def goal_sides(state):
    view = page.draw_boards(adjust(state))[0]
    return {side: labels for side, labels in view.goals.items() if labels}


def test_goals_two_players_top_and_bottom():
    assert goal_sides(default_state()) == {
        "top": ["(Player 1 Goal)"],
        "bottom": ["(Player 2 Goal)"],
    }


def test_goals_go_counter_clockwise_for_more_players():
    state = default_state()
    state.players = "4"
    assert goal_sides(state) == {
        "top": ["(Player 1 Goal)"],
        "left": ["(Player 2 Goal)"],
        "bottom": ["(Player 3 Goal)"],
        "right": ["(Player 4 Goal)"],
    }
    state.players = "3-vs-chaos"  # Chaos has no goal
    assert goal_sides(state) == {
        "top": ["(Player 1 Goal)"],
        "left": ["(Player 2 Goal)"],
        "bottom": ["(Player 3 Goal)"],
    }
    state.players = "2-vs-chaos"  # two players: opposite
    assert goal_sides(state) == {"top": ["(Player 1 Goal)"], "bottom": ["(Player 2 Goal)"]}


def test_goals_when_the_largest_y_is_1():
    state = default_state()
    state.board_type, state.size = "squares", (15, 1, 1)
    assert goal_sides(state) == {"left": ["(Player 1 Goal)"], "right": ["(Player 2 Goal)"]}


def test_board_shapes_row_plane_and_slices():
    state = default_state()
    state.board_type = "squares"
    state.size = (15, 1, 1)
    (view,) = page.draw_boards(adjust(state))
    assert view.shape == "row" and len(view.slices[0].rows) == 1
    assert [c.label for c in view.slices[0].rows[0]][:2] == ["space 1,1,1", "space 2,1,1"]
    state.size = (6, 6, 1)
    (view,) = page.draw_boards(adjust(state))
    assert view.shape == "plane"
    assert view.slices[0].rows[0][0].spot == (1, 1, 6, 1)  # y = max on top
    state.size = (4, 4, 4)
    (view,) = page.draw_boards(adjust(state))
    assert view.shape == "cube" and [s.label for s in view.slices] == ["z=1", "z=2", "z=3", "z=4"]


def test_stacks_draw_two_levels_above_the_tallest():
    state = default_state()
    state.board_type, state.size = "stacks", (7, 1, 6)
    (view,) = page.draw_boards(adjust(state))
    assert len(view.slices[0].rows) == 2 and view.height_note == "max height 6"
    state.pieces = {(1, 1, 1, 1): ("black", 1), (1, 1, 1, 2): ("white", 1)}
    (view,) = page.draw_boards(adjust(state))
    assert len(view.slices[0].rows) == 4
    assert view.slices[0].rows[-1][0].label == "space 1,1,1, black circle"


def test_several_boards_are_named_in_labels():
    state = default_state()
    state.boards = 2
    views = page.draw_boards(adjust(state))
    assert [v.label for v in views] == ["Board 1", "Board 2"]
    assert views[1].slices[0].rows[0][0].label == "board 2 space 1,3,1"


def test_dimension_selects_offer_one_to_the_limit():
    state = default_state()
    state.board_type, state.size = "squares", (19, 19, 1)
    layout = page.build(adjust(state))
    x, y, z = layout.dims
    assert [o.value for o in x.options] == [str(n) for n in range(1, 20)]
    assert [o.value for o in z.options] == ["1"]  # 512 // 361
    state.board_type, state.size = "stacks", (7, 1, 6)
    x, y, z = page.build(adjust(state)).dims
    assert z.options[0].value == "2" and z.options[-1].value == "19"
    assert x.options[-1].value == "19" and y.options[-1].value == str(512 // (7 * 6))
    assert all(c.disabled for c in page.build(adjust(default_state())).dims)  # hash


def test_unsupported_features_are_disabled_and_coming():
    layout = page.build(adjust(default_state()))
    for control in (layout.cloaking, layout.phases, layout.order, layout.movement):
        assert not control.disabled and not control.coming  # phases and cloaking are saved
    assert layout.phase.disabled  # one phase: nothing to choose
    row = layout.shape_rows[0]
    for control in (row.power, row.condition, row.result, row.move):
        assert not control.coming  # pieces that move are played (tests/test_factory_moving.py)
    assert row.condition.disabled and row.result.disabled  # "No power" disables them
    assert row.condition.value == "" and row.result.value == ""  # and clears them
    # Only the dealt pieces wait (the seed: they do not show until batch play).
    assert not [m.label for m in layout.space_markers if m.coming]  # no "coming" anywhere
    assert "Dealt common marker" not in [m.label for m in layout.space_markers]  # batch play
    assert not layout.allow_pass.disabled and not layout.agree_draw.disabled
    assert layout.phase_locks == ["Player 1", "Player 2"]
    state = default_state()
    state.players = "2-vs-chaos"
    assert page.build(adjust(state)).phase_locks == ["Player 1", "Player 2", "Chaos"]


def test_check_and_stalemate_labels_come_from_the_vocabulary():
    layout = page.build(adjust(default_state()))
    labels = [o.label for o in layout.checks[0].options]
    assert len(labels[:20]) == 20 and all(lab.startswith("First ") for lab in labels[:20])
    assert "First 3-same-color-in-a-row wins (no diagonal)" in labels
    assert "First 2-same-color-in-a-row loses" in labels
    # Then the typed endings of the seed's "can extend" lists (rules/endings.py).
    assert "Last pentagon wins" in labels
    assert "More pieces than Chaos wins (at stalemate)" in labels
    stalemate = [o.label for o in layout.stalemate.options]
    assert stalemate[:7] == list(rules.vocabulary.STALEMATE_LABELS.values())
    assert "More pieces than Chaos wins" in stalemate[7:]


@pytest.mark.parametrize(
    ("path", "key"),
    [
        ("name", "name"),
        ("board.size[0]", "size_x"),
        ("board.size[2]", "size_z"),
        ("board.size", "board"),
        ("reserves.black.circle", "reserve-black-1"),
        ("turn_checks[1].k", "check-1"),
        ("shapes[0]", "shape-0"),
        ("seconds_per_turn", "seconds"),
        ("locked[0].at", "board"),
        ("reserves.yellow", "top"),
        ("something.else", "top"),
    ],
)
def test_error_paths_map_to_controls(path, key):
    state = adjust(default_state())
    state.locked = {(1, 1, 1, 1)}
    assert page.error_key(state, path)[0] == key


def test_errors_are_placed_next_to_their_controls():
    state = adjust(default_state())
    state.locked = {(1, 2, 1, 1)}
    layout = page.build(
        state,
        [
            {"path": "board.size[0]", "message": "at most 19"},
            {"path": "locked[0].at", "message": "floats above an empty space of its stack"},
            {"path": "turn_checks[0].k", "message": "at most 6"},
            {"path": "", "message": "Something else"},
        ],
    )
    assert layout.dims[0].errors == ["At most 19"]
    assert layout.board_errors == [
        "Locked space at (2,1,1): Floats above an empty space of its stack"
    ]
    assert layout.checks[0].errors == ["At most 6"]
    assert layout.top_errors == ["Something else"]


# --- views: the factory page ----------------------------------------------------------------------


def test_anonymous_visitors_are_sent_to_log_in(client, db):
    response = client.get(FACTORY)
    assert response.status_code == 302
    assert response["Location"].startswith(
        reverse("login") if _has("login") else "/accounts/login/"
    )
    assert client.post(REFRESH, {}).status_code == 302


def _has(name: str) -> bool:
    from django.urls import NoReverseMatch

    try:
        reverse(name)
    except NoReverseMatch:
        return False
    return True


def test_factory_page_renders_every_control(client, ann):
    html = client.get(FACTORY).content.decode()
    for element_id in (
        "id_name",
        "id_stalemate",
        "id_check_0",
        "fc-add-check",
        "fc-delete-check-0",
        "id_players",
        "id_shape_count",
        "id_colors",
        "id_cloaking",
        "id_pieces_per_turn",
        "id_boards",
        "id_phases",
        "id_board_type",
        "id_size_x",
        "id_size_y",
        "id_size_z",
        "id_reserve-black-1",
        "id_shape_1",
        "id_power-1",
        "id_power_condition-1",
        "id_power_result-1",
        "id_move-1",
        "id_phase",
        "id_order",
        "id_movement",
        "id_allow_pass",
        "id_agree_draw",
        "id_seconds",
        "id_timeout",
        "mk-lock",
        "mk-piece-black-1",
        "sp-1-1-1-1",
        "fc-save",
    ):
        assert f'id="{element_id}"' in html, element_id
    assert 'aria-label="space 3,1,1"' in html
    assert "fa-plus" in html and "fa-trash-o" in html
    assert "/static/vendor/htmx/htmx.min.js" in html
    # Every script and stylesheet is served from here (the CSRF token may contain "cdn").
    assert not re.search(r'(src|href)="(https?:)?//', html), "an asset from another host"
    assert "You can create 15 more games." in html


def test_valid_save_redirects_to_the_saved_page(client, ann):
    fields = form_fields(client.get(FACTORY).content.decode())
    data = post_data(fields, name="Line7", board_type="squares", size_x="7", size_y="1")
    data.update({"reserve-black-1": "4", "reserve-white-1": "3", "check": "4-wins-d"})
    response = client.post(FACTORY, data)
    assert response.status_code == 302
    rule_set = services.visible_rule_sets(ann).get(name="Line7")
    assert response["Location"] == rule_set.get_absolute_url()
    assert rule_set.creator == ann
    assert rule_set.document["board"] == {"type": "squares", "size": [7, 1, 1]}
    assert rule_set.document["turn_checks"] == [{"k": 4}]


def _errors_page(client, **changes):
    fields = form_fields(client.get(FACTORY).content.decode())
    data = post_data(fields, **({"name": "Good"} | changes))
    response = client.post(FACTORY, data)
    assert response.status_code == 400, response.status_code
    return response.content.decode()


@pytest.mark.parametrize("bad", ["two words", "star*", "paren(", "x)"])
def test_bad_name_is_shown_next_to_the_name(client, ann, bad):
    html = _errors_page(client, name=bad)
    assert 'id="id_name-error"' in html
    assert "no whitespace, &#x27;*&#x27;, &#x27;(&#x27; or &#x27;)&#x27;" in html


def test_missing_name_is_required(client, ann):
    html = _errors_page(client, name="")
    assert 'id="id_name-error"' in html and "Is required" in html


def test_dimension_beyond_its_limit_is_shown_next_to_it(client, ann):
    html = _errors_page(client, board_type="squares", size_x="19", size_y="19", size_z="2")
    assert 'id="id_size_z-error"' in html or 'id="id_size_x-error"' in html
    assert "At most" in html
    # The submitted (invalid) value stays selected, so the creator sees what was wrong.
    assert '<option value="19" selected>19</option>' in html
    assert "The board cannot be drawn with these dimensions." in html


def test_reserve_beyond_its_limit_is_shown_next_to_it(client, ann):
    html = _errors_page(client, **{"reserve-black-1": "12"})
    assert 'id="id_reserve-black-1-error"' in html and "From 0 to 5" in html


def test_floating_piece_on_stacks_is_shown_at_the_board(client, ann):
    html = _errors_page(
        client, board_type="stacks", size_x="3", size_y="1", size_z="3", locked="1,2,1,3"
    )
    assert 'id="fc-board-errors"' in html
    assert "Locked space at (2,1,3): Floats above an empty space of its stack" in html


def test_junk_values_are_reported_not_crashed(client, ann):
    html = _errors_page(client, size_x="abc", players="7", check="9-maybe-d")
    assert "must be a whole number" in html.lower()
    assert "is not an option" in html.lower()


def test_duplicate_of_a_saved_game_names_it(client, ann, user):
    services.create_rule_set({**catalogue.get("Connect4")}, user("lead", "admin"))
    fields = form_fields(client.get(FACTORY).content.decode())
    data = post_data(fields, name="MyConnect", board_type="stacks", size_x="7", size_y="1")
    data.update({"size_z": "6", "check": "4-wins-d", "reserve-black-1": "21"})
    data["reserve-white-1"] = "21"
    response = client.post(FACTORY, data)
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="fc-top-errors"' in html
    assert "the existing game &#x27;Connect4&#x27;" in html


def test_name_taken_is_shown_next_to_the_name(client, ann, user):
    services.create_rule_set(
        {"name": "Taken", "board": {"type": "squares", "size": [4, 1, 1]}}, ann
    )
    html = _errors_page(client, name="taken")
    assert 'id="id_name-error"' in html and "already taken" in html


def test_sixteenth_game_of_a_creator_is_refused(client, ann):
    for n in range(2, 17):
        doc = {"name": f"Row{n}", "board": {"type": "squares", "size": [n, 1, 1]}}
        services.create_rule_set(doc, ann)
    response = client.get(FACTORY)
    assert response.status_code == 403
    html = response.content.decode()
    assert 'id="fc-quota"' in html and "up to 15 games" in html
    assert 'id="factory-form"' not in html


def test_quota_reached_between_page_and_save(client, ann, monkeypatch):
    fields = form_fields(client.get(FACTORY).content.decode())
    monkeypatch.setattr(services, "can_create", lambda user: True)
    for n in range(2, 17):
        services.create_rule_set(
            {"name": f"Row{n}", "board": {"type": "squares", "size": [n, 1, 1]}}, ann
        )
    response = client.post(FACTORY, post_data(fields, name="Sixteenth"))
    assert response.status_code == 400
    assert "the limit for a Creator is 15" in response.content.decode()


def test_copy_prefills_an_unsaved_page(client, ann, user):
    source = services.create_rule_set(catalogue.get("Wild-TTT-6sq3143"), user("lead", "admin"))
    response = client.get(f"{FACTORY}?copy={source.pk}")
    assert response.status_code == 200
    fields = form_fields(response.content.decode())
    assert fields["name"] == ["Wild-TTT-6sq3143-copy"]
    assert fields["locked"] == ["1,3,1,1 1,4,3,1"]
    assert fields["colors"] == ["choose"] and fields["reserve-black-1"] == ["18"]
    # Saving the copy unchanged is refused as a duplicate naming the original.
    response = client.post(FACTORY, post_data(fields))
    assert "the existing game &#x27;Wild-TTT-6sq3143&#x27;" in response.content.decode()
    assert client.get(f"{FACTORY}?copy=999999").status_code == 404


# --- views: the htmx partial ----------------------------------------------------------------------


def _refresh(client, fields, headers=True, **changes):
    extra = {"HTTP_HX_REQUEST": "true"} if headers else {}
    response = client.post(REFRESH, post_data(fields, **changes), **extra)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="factory-body"')
    return html, form_fields(html)


@pytest.fixture
def fields(client, ann):
    return form_fields(client.get(FACTORY).content.decode())


def test_partial_players_adds_goals_and_reserves(client, fields):
    html, new = _refresh(client, fields, players="4")
    assert html.count("Goal)") == 4
    assert {k for k in new if k.startswith("reserve-")} == {
        f"reserve-{c}-1" for c in ("black", "white", "pink", "yellow")
    }


def test_partial_shared_color_has_one_reserve(client, fields):
    _html, new = _refresh(
        client, fields, colors="shared", board_type="squares", size_x="15", size_y="1"
    )
    assert new["reserve-black-1"] == ["15"] and "reserve-white-1" not in new


def test_partial_shapes_add_rows_and_markers(client, fields):
    html, new = _refresh(client, fields, shape_count="3")
    assert new["shape"] == ["circle", "triangle", "x"]
    assert 'id="mk-piece-white-3"' in html and 'id="id_move-3"' in html


def test_partial_board_type_and_dimensions(client, fields):
    html, new = _refresh(client, fields, board_type="stacks")
    assert new["size_z"] == ["2"] and "max height 2" in html
    html, new = _refresh(client, new, size_x="7", size_y="1", size_z="6")
    assert new["reserve-black-1"] == ["21"]
    assert html.count('name="toggle"') == 14  # two levels above the (empty) stacks


def test_partial_boards(client, fields):
    html, _new = _refresh(client, fields, boards="3")
    assert 'aria-label="board 3 space 3,3,1"' in html


def test_partial_add_and_delete_check(client, fields):
    _html, new = _refresh(client, fields, action="add_check")
    assert new["check"] == ["3-wins-d", "3-wins-d"]
    _html, new = _refresh(client, new, action="delete_check-0")
    assert new["check"] == ["3-wins-d"]
    html, new = _refresh(client, new, action="delete_check-0")
    assert "check" not in new and 'id="fc-no-checks"' in html


def test_partial_space_click_toggles_the_selected_marker(client, fields):
    html, new = _refresh(client, fields, marker="lock", toggle="1,2,2,1")
    assert new["locked"] == ["1,2,2,1"] and 'aria-label="space 2,2,1, locked"' in html
    assert new["marker"] == ["lock"]  # the marker stays selected
    assert new["reserve-black-1"] == ["4"]  # untouched reserves: one space fewer
    html, new = _refresh(client, fields, marker="piece-white-1", toggle="1,1,3,1")
    assert new["pieces"] == ["1,1,3,1,white,1"] and "space 1,3,1, white circle" in html
    html, _new = _refresh(client, fields, toggle="1,1,3,1")
    assert "Select a marker first" in html


def test_partial_seconds_enable_the_timeout(client, fields):
    html, new = _refresh(client, fields, seconds="300")
    assert "timeout" in new  # enabled, so it is submitted
    html, new = _refresh(client, fields, seconds="")
    assert "timeout" not in new


def test_refresh_never_saves(client, fields):
    _refresh(client, fields, name="NotSaved")
    assert not services.visible_rule_sets(None).filter(name="NotSaved").exists()


def test_without_javascript_buttons_rerender_the_whole_page(client, fields):
    response = client.post(FACTORY, post_data(fields, action="add_check"))
    assert response.status_code == 200
    assert form_fields(response.content.decode())["check"] == ["3-wins-d"] * 2
    response = client.post(FACTORY, post_data(fields, marker="lock", toggle="1,1,1,1"))
    assert form_fields(response.content.decode())["locked"] == ["1,1,1,1"]
    response = client.post(FACTORY, post_data(fields, action="refresh", players="3"))
    assert "reserve-pink-1" in form_fields(response.content.decode())


# --- views: the saved page ----------------------------------------------------------------------


@pytest.fixture
def saved(user):
    lead = user("lead", "admin")
    return services.create_rule_set(catalogue.get("Connect6-19x19"), lead)


def test_saved_page_is_read_only_with_summary_and_creator(client, saved, ann):
    response = client.get(saved.get_absolute_url())
    assert response.status_code == 200
    html = response.content.decode()
    assert rules.summary(saved.rule_doc()) in html
    assert "Created by <strong>lead</strong>" in html
    assert 'id="fc-creations"' in html and "?tab=creations" in html and "fa-flask" in html
    assert f'href="{FACTORY}?copy={saved.pk}"' in html
    assert 'name="toggle"' not in html and 'name="marker"' not in html  # no palette, no clicks
    assert 'id="id_rename"' not in html  # only Admins rename
    assert 'aria-label="space 10,10,1, white circle"' in html
    # Blank dropdowns and zero selects are hidden; every select is disabled.
    assert 'class="fc-field d-none"' in html  # the cleared power condition and result
    selects = re.findall(r"<select[^>]*>", html)
    assert selects and all("disabled" in tag for tag in selects)


def test_saved_page_for_anonymous_has_no_copy(client, saved):
    html = client.get(saved.get_absolute_url()).content.decode()
    assert 'id="fc-copy"' not in html


def test_saved_page_has_no_copy_once_the_quota_is_used(client, saved, ann):
    for n in range(2, 17):
        services.create_rule_set(
            {"name": f"Row{n}", "board": {"type": "squares", "size": [n, 1, 1]}}, ann
        )
    assert 'id="fc-copy"' not in client.get(saved.get_absolute_url()).content.decode()


def test_admin_renames(client, saved):
    admin = saved.creator
    client.force_login(admin)
    html = client.get(saved.get_absolute_url()).content.decode()
    assert 'id="id_rename"' in html and "data-confirm" in html
    response = client.post(reverse("variants:rename", args=[saved.pk]), {"name": "C6"})
    assert response.status_code == 302
    saved.refresh_from_db()
    assert saved.name == "C6"
    response = client.post(reverse("variants:rename", args=[saved.pk]), {"name": "bad name"})
    assert response.status_code == 400 and 'id="id_rename-error"' in response.content.decode()


def test_rename_by_a_non_admin_is_refused(client, saved, ann):
    response = client.post(reverse("variants:rename", args=[saved.pk]), {"name": "Mine"})
    assert response.status_code == 403
    assert "Only an Admin can rename a game." in response.content.decode()
    saved.refresh_from_db()
    assert saved.name == "Connect6-19x19"


def test_hidden_and_removed_games_are_404_except_for_admins(client, saved, ann):
    services.hide_rule_set(saved, True, saved.creator)
    assert client.get(saved.get_absolute_url()).status_code == 404
    assert client.get(f"{FACTORY}?copy={saved.pk}").status_code == 404
    client.force_login(saved.creator)
    assert client.get(saved.get_absolute_url()).status_code == 200
    assert client.get("/games/999999/").status_code == 404
