"""The Game Factory's nested-board section: clamping, errors, save + fingerprint, Copy and
the saved page (seeds 000-002)."""

from __future__ import annotations

import pytest

from gamecore import rules
from tests.test_factory import _QueryDict, _render_body, form_fields, post_data
from variants import catalogue, services
from variants.factory import layout as page
from variants.factory import nested_state
from variants.factory.nested_state import NestedState, adjust, unavailable
from variants.factory.state import from_doc, from_post, to_document
from variants.models import RuleSet

FACTORY = "/games/new/"
REFRESH = "/games/new/refresh/"


def nested_catalogue() -> list[str]:
    return [n for n, d in catalogue.documents().items() if rules.parse(d).board.type == "nested"]


def fingerprint(name: str) -> str:
    return rules.fingerprint(rules.parse(catalogue.get(name)))


@pytest.fixture
def ann(db, client, django_user_model):
    user = django_user_model.objects.create_user("ann", password=None)
    client.force_login(user)
    return user


def refresh(client, fields, **changes) -> tuple[str, dict[str, list[str]]]:
    response = client.post(REFRESH, post_data(fields, **changes), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    return html, form_fields(html)


@pytest.fixture
def nested(client, ann) -> dict[str, list[str]]:
    """The form's fields right after choosing "Nested boards" (as htmx would post them)."""
    fields = form_fields(client.get(FACTORY).content.decode())
    html, fields = refresh(client, fields, family="nested")
    assert 'id="fc-nested"' in html
    return fields


def options(html: str, name: str) -> list[str]:
    """The enabled option values of one select in ``html``."""
    from html.parser import HTMLParser

    class Reader(HTMLParser):
        inside = False
        values: list[str] = []

        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if tag == "select":
                self.inside = a.get("name") == name
            elif tag == "option" and self.inside and "disabled" not in a:
                self.values.append(a.get("value", ""))

    reader = Reader()
    reader.values = []
    reader.feed(html)
    return reader.values


# --- state: documents ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", nested_catalogue())
def test_every_nested_catalogue_game_round_trips_through_the_form(name):
    doc = rules.parse(catalogue.get(name))
    state = from_doc(doc)
    assert state.family == "nested"
    assert page.build(state).nested is not None
    assert to_document(from_doc(doc)) == to_document(nested_adjusted(doc))
    assert rules.fingerprint(rules.parse(to_document(state))) == rules.fingerprint(doc)


def nested_adjusted(doc):
    state = from_doc(doc)
    adjust(state.nested)
    return state


@pytest.mark.parametrize("name", nested_catalogue())
def test_every_nested_catalogue_game_survives_render_and_post(name):
    state = from_doc(rules.parse(catalogue.get(name)))
    fields = form_fields(_render_body(page.build(state)))
    fields["name"] = [name]
    posted, problems = from_post(_QueryDict(fields), _QueryDict(fields).getlist)
    assert problems == []
    assert to_document(posted) == to_document(state)


def test_tactictoy_defaults_are_the_seeds():
    state = NestedState()
    assert (state.side, state.win_length, state.depth, state.dimensions) == (3, None, 2, 2)
    assert state.teams == "2" and state.turn_order == "sequential"
    assert state.crew_order == "in-turn" and state.win_condition == "highest-sign"
    assert state.seconds is None and state.timeout == "loss"
    doc = nested_state.to_document("TacticToy", state)
    assert rules.fingerprint(rules.parse(doc)) == fingerprint("TacticToy")


# --- clamping -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ((10, 2, 2), (10, 1, 2)),  # 10^(2·2) > 1000: depth 1
        ((10, 1, 4), (10, 1, 3)),  # 10^4 > 1000, 10^3 = 1000 is allowed
        ((4, 2, 3), (4, 2, 2)),  # a larger side lowers the dimensions first
        ((3, 4, 2), (3, 3, 2)),  # 3^8 > 1000
        ((3, 3, 3), (3, 3, 2)),
        ((16, 2, 2), (16, 1, 2)),  # 16^2 = 256 > 100 already at the border
        ((17, 0, 9), (16, 1, 2)),  # out of every range
        ((2, 4, 2), (2, 4, 2)),  # 2^8 = 256
    ],
)
def test_side_depth_and_dimensions_clamp_each_other(given, expected):
    state = NestedState(side=given[0], depth=given[1], dimensions=given[2])
    adjust(state)
    assert (state.side, state.depth, state.dimensions) == expected
    assert nested_state.fits(*expected)


def test_choices_follow_the_other_controls():
    assert nested_state.depth_choices(10, 2) == [1]
    assert nested_state.dimension_choices(10, 1) == [2, 3]
    assert nested_state.depth_choices(3, 2) == [1, 2, 3]
    assert nested_state.depth_choices(3, 3) == [1, 2]
    assert nested_state.dimension_choices(3, 2) == [2, 3]
    assert nested_state.dimension_choices(3, 1) == [2, 3, 4]
    assert nested_state.depth_choices(2, 2) == [1, 2, 3, 4]


def test_win_length_stays_within_the_side():
    state = NestedState(side=5, win_length=4)
    adjust(state)
    assert state.win_length == 4
    state.side = 3
    adjust(state)
    assert state.win_length == 3
    state.win_length = None  # "= side" follows the side
    state.side = 7
    assert adjust(state).win_length is None


def test_depth_one_turns_off_the_block_options_with_a_reason():
    state = NestedState(depth=1, lock_captured=True, kyu=True, quick=True, routing="open")
    state.win_condition = "majority"
    state.symmetric_obstacles = state.no_send_back = state.free_when_decided = True
    state.draws_count_for_all = True
    off = unavailable(state)
    for name in nested_state.BLOCK_ONLY + ("routing",):
        assert off[name], name
    adjust(state)
    assert state == NestedState(depth=1)
    # Inverted means something on a flat board too; Checked is not offered there (issue
    # 39: every move played out against every reply, seconds a move on 10×10×10).
    assert "inverted" not in off and off["checked"] == nested_state.CHECKED_FLAT


def test_map_routing_needs_two_dimensions_and_blocks():
    state = NestedState(depth=2, dimensions=3, routing="map")
    assert set(nested_state.routing_unavailable(state)) == {"map", "hypermap"}
    assert adjust(state).routing == "tactical"
    state = NestedState(depth=3, routing="hypermap", route_map=(1, 2))
    assert "route_map" not in unavailable(state)
    state.routing = "tactical"
    assert adjust(state).route_map is None


def test_timeout_needs_a_time_control():
    state = NestedState(seconds=None, timeout="skip")
    assert "timeout" in unavailable(state)
    assert adjust(state).timeout == "loss"
    state = NestedState(seconds=30, timeout="skip")
    assert adjust(state).timeout == "skip"


def test_partial_clamps_in_the_page(client, nested):
    html, fields = refresh(client, nested, n_side="10")
    assert fields["n_depth"] == ["1"] and options(html, "n_depth") == ["1"]
    assert options(html, "n_dimensions") == ["2", "3"]
    assert options(html, "n_win_length") == [""] + [str(n) for n in range(2, 11)]
    html, fields = refresh(client, fields, n_side="3")
    assert options(html, "n_depth") == ["1", "2", "3"]
    html, fields = refresh(client, fields, n_depth="3")
    assert options(html, "n_dimensions") == ["2"]
    assert "Ground grid 27×27 (729 cells): blocks of 3×3, 3 levels." in html
    html, fields = refresh(client, fields, n_depth="2", n_dimensions="3")
    assert options(html, "n_depth") == ["1", "2"]
    assert options(html, "n_routing") == ["tactical", "open"]  # maps need 2 dimensions
    html, fields = refresh(client, fields, n_side="4")
    assert fields["n_dimensions"] == ["2"] and fields["n_depth"] == ["2"]


def test_partial_depth_one_disables_with_reasons(client, nested):
    fields = post_data(nested, n_lock_captured="1", n_kyu="1")
    html, new = refresh(client, {k: [v] for k, v in fields.items()}, n_depth="1")
    for name in ("n_lock_captured", "n_kyu", "n_quick", "n_win_condition", "n_routing"):
        assert name not in new, name  # disabled selects are not posted
        assert f'id="id_{name}-reason"' in html
    assert "Needs depth N ≥ 2: at depth 1 there are no blocks." in html
    assert "n_inverted" in new and "n_checked" not in new
    assert 'id="id_n_checked-reason"' in html
    html, new = refresh(client, new, n_depth="2")
    assert new["n_lock_captured"] == ["0"]  # cleared while it was off


def route_map_tag(html: str) -> str:
    start = html.index("<textarea")
    return html[start : html.index(">", start)]


def test_partial_routing_shows_the_route_map(client, nested):
    html, fields = refresh(client, nested, n_depth="3")
    assert "disabled" in route_map_tag(html)
    assert "Only with Map-like or Hypermap-like routing." in html
    html, fields = refresh(client, fields, n_routing="map")
    assert "disabled" not in route_map_tag(html) and "give 81 numbers from 1 to 9" in html
    html, fields = refresh(client, fields, n_routing="hypermap")
    assert "give 729 numbers from 1 to 9" in html


def test_partial_time_control_enables_the_consequence(client, nested):
    assert "n_timeout" not in nested
    _html, fields = refresh(client, nested, n_seconds="15")
    assert fields["n_timeout"] == ["loss"]
    assert options(_html, "n_seconds")[:5] == ["", "5", "10", "15", "30"]


def test_switching_back_to_flat_shows_the_flat_form(client, nested):
    html, fields = refresh(client, nested, family="flat")
    assert 'id="fc-nested"' not in html and "board_type" in fields


# --- saving through the form ---------------------------------------------------------------------


def save(client, fields, **changes):
    return client.post(FACTORY, post_data(fields, **changes))


def saved(client, nested, name, steps: list[dict], **last) -> RuleSet:
    """Change the controls step by step (each step a refresh, as the page does), then save."""
    fields = nested
    for step in steps:
        _html, fields = refresh(client, fields, **step)
    response = save(client, fields, name=name, **last)
    assert response.status_code == 302, response.content.decode()[-3000:]
    return RuleSet.objects.get(name=name)


def test_ultimate_through_the_form(client, nested):
    game = saved(client, nested, "MyUltimate", [{"n_seconds": "15"}], n_lock_captured="1")
    assert game.fingerprint != fingerprint("Ultimate-Tic-Tac-Toe")  # the timeout is missing
    game.delete()
    game = saved(
        client,
        nested,
        "MyUltimate",
        [{"n_seconds": "15"}],
        n_lock_captured="1",
        n_timeout="random-move",
    )
    assert game.fingerprint == fingerprint("Ultimate-Tic-Tac-Toe")


@pytest.mark.parametrize("option", ["inverted", "checked", "quick"])
def test_ultimate_forms_through_the_form(client, nested, option):
    last = {"n_lock_captured": "1", "n_timeout": "random-move", f"n_{option}": "1"}
    game = saved(client, nested, "MyForm", [{"n_seconds": "15"}], **last)
    assert game.fingerprint == fingerprint(f"Ultimate-{option.capitalize()}")


def test_ultimate_open_through_the_form(client, nested):
    last = {"n_lock_captured": "1", "n_timeout": "random-move", "n_routing": "open"}
    game = saved(client, nested, "MyOpen", [{"n_seconds": "15"}], **last)
    assert game.fingerprint == fingerprint("Ultimate-Open")


@pytest.mark.parametrize("routing", ["tactical", "map", "hypermap"])
def test_strategic_through_the_form(client, nested, routing):
    steps = [{"n_depth": "3"}, {"n_routing": routing}]
    game = saved(client, nested, "MyStrategic", steps, n_draws_count_for_all="1")
    assert game.fingerprint == fingerprint(f"Strategic-{routing.capitalize()}")


def test_tactictoy_defaults_3d_4d_and_four_teams_through_the_form(client, nested):
    assert saved(client, nested, "MyTT", []).fingerprint == fingerprint("TacticToy")
    game = saved(client, nested, "MyTT3", [{"n_dimensions": "3"}])
    assert game.fingerprint == fingerprint("TacticToy-3D")
    game = saved(client, nested, "MyTT4D", [{"n_depth": "1"}, {"n_dimensions": "4"}])
    assert game.fingerprint == fingerprint("TacticToy-4D")
    game = saved(client, nested, "MyTT4T", [{"n_side": "4"}], n_teams="4", n_win_length="3")
    assert game.fingerprint == fingerprint("TacticToy-4Teams")


def test_a_custom_route_map_is_saved(client, nested):
    numbers = " ".join(str(1 + i % 9) for i in range(81))
    steps = [{"n_depth": "3"}, {"n_routing": "map"}]
    game = saved(client, nested, "MyMap", steps, n_route_map=numbers)
    assert game.rule_doc().nested.route_map[:3] == (1, 2, 3)
    assert game.fingerprint != fingerprint("Strategic-Map")


# --- every error ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "control", "message"),
    [
        ({"n_side": "17"}, "n_side", "Side length (S): at most 16"),
        ({"n_side": "1"}, "n_side", "Side length (S): at least 2"),
        ({"n_side": "abc"}, "n_side", "Side length (S): must be a whole number"),
        ({"n_side": "5", "n_depth": "3"}, "n_depth", "side**depth = 125: at most 100"),
        ({"n_side": "4", "n_dimensions": "3"}, "n_dimensions", "side**(depth*dimensions)"),
        ({"n_depth": "5"}, "n_depth", "Nesting depth (N): at most 4"),
        ({"n_dimensions": "1"}, "n_dimensions", "Dimensions (D): at least 2"),
        ({"n_win_length": "4"}, "n_win_length", "Win line length (L): at most the side (3)"),
        ({"n_teams": "5"}, "n_teams", "Number of teams: &#x27;5&#x27; is not an option"),
        ({"n_turn_order": "random"}, "n_turn_order", "is not an option"),
        ({"n_crew_order": "x"}, "n_crew_order", "is not an option"),
        ({"n_win_condition": "x"}, "n_win_condition", "is not an option"),
        ({"n_routing": "zigzag"}, "n_routing", "Allowed area: &#x27;zigzag&#x27; is not"),
        ({"n_routing": "map", "n_dimensions": "3"}, "n_routing", "need"),
        ({"n_kyu": "maybe"}, "n_kyu", "Kyū rule: &#x27;maybe&#x27; is not an option (0 or 1)"),
        ({"n_random_obstacles": "10"}, "n_random_obstacles", "Random obstacles: at most 9"),
        ({"n_scouts": "-1"}, "n_scouts", "Scouts: at least 0"),
        ({"n_seconds": "3", "n_timeout": "loss"}, "n_seconds", "Time control: at least 5"),
        ({"n_seconds": "soon"}, "n_seconds", "Time control: must be a whole number"),
        ({"n_timeout": "skip"}, "n_timeout", "Timeout consequence: only with a time control"),
        ({"n_seconds": "15", "n_timeout": "never"}, "n_timeout", "is not an option"),
        ({"n_depth": "1", "n_quick": "1"}, "n_quick", "Quick: needs depth N ≥ 2"),
        ({"n_route_map": "1 2 3"}, "n_route_map", "only with Map-like or Hypermap-like"),
        ({"n_depth": "3", "n_routing": "map", "n_route_map": "1 2 3"}, "n_route_map", "81"),
        ({"n_depth": "3", "n_routing": "map", "n_route_map": "1 x"}, "n_route_map", "whole"),
        ({"n_depth": "3", "n_routing": "map", "n_route_map": "1 ²"}, "n_route_map", "whole"),
        ({"n_depth": "3", "n_routing": "map", "n_route_map": "0 -1"}, "n_route_map", "1 to 9"),
        ({"n_side": "9" * 5000}, "n_side", "Side length (S): at most 16"),
        ({"n_side": "-" + "9" * 5000}, "n_side", "Side length (S): at least 2"),
        ({"n_routing": "map", "n_route_map": "9" * 5000}, "n_route_map", "whole numbers"),
    ],
)
def test_junk_is_reported_next_to_its_control_and_nothing_is_saved(
    client, nested, changes, control, message
):
    response = save(client, nested, name="Junk", **changes)
    assert response.status_code == 400
    html = response.content.decode()
    assert f'id="id_{control}-error"' in html, html[html.find("invalid-feedback") - 500 :][:2000]
    error = html[html.index(f'id="id_{control}-error"') :][:400]
    assert message in error, error
    assert not RuleSet.objects.filter(name="Junk").exists()


@pytest.mark.parametrize("missing", ["n_side", "n_depth", "n_teams", "n_routing", "n_quick"])
def test_a_missing_field_is_named(client, nested, missing):
    data = post_data(nested, name="Junk")
    del data[missing]
    response = client.post(FACTORY, data)
    assert response.status_code == 400
    assert "is required" in response.content.decode()
    assert f'id="id_{missing}-error"' in response.content.decode()
    assert not RuleSet.objects.exists()


def test_a_missing_timeout_with_a_timer_is_named(client, nested):
    response = save(client, nested, name="Junk", n_seconds="30")
    assert response.status_code == 400
    assert "Timeout consequence: is required" in response.content.decode()


def test_an_unknown_family_is_reported(client, nested):
    response = save(client, nested, name="Junk", family="hexagonal")
    assert response.status_code == 400
    assert "is not an option" in response.content.decode()
    assert not RuleSet.objects.exists()


def test_refresh_with_junk_never_fails(client, nested):
    junk = {k: "junk" for k in nested if k.startswith("n_")}
    html, fields = refresh(client, nested, **junk)
    assert fields["n_side"] == ["3"] and fields["n_routing"] == ["tactical"]
    _html, fields = refresh(client, nested, n_side="-4", n_depth="99", n_dimensions="0")
    assert (fields["n_side"], fields["n_depth"], fields["n_dimensions"]) == (["2"], ["4"], ["2"])


def test_a_duplicate_names_the_catalogue_game(client, nested, django_user_model):
    services.create_rule_set(
        catalogue.get("TacticToy"), django_user_model.objects.get(username="ann")
    )
    response = save(client, nested, name="Again")
    assert response.status_code == 400
    assert "the existing game &#x27;TacticToy&#x27;" in response.content.decode()


def test_error_paths_map_to_nested_controls():
    state = from_doc(rules.parse(catalogue.get("TacticToy")))
    for path, key in (
        ("nested.side", "n_side"),
        ("nested.route_map", "n_route_map"),
        ("players", "n_teams"),
        ("seconds_per_turn", "n_seconds"),
        ("timeout", "n_timeout"),
        ("board.type", "family"),
        ("name", "name"),
        ("nested.unknown", "top"),
    ):
        assert page.error_key(state, path)[0] == key, path


# --- Copy and the saved page --------------------------------------------------------------------


@pytest.fixture
def strategic(db, django_user_model):
    lead = django_user_model.objects.create_user("lead", password=None)
    lead.role = "admin"
    lead.save()
    return services.create_rule_set(catalogue.get("Strategic-Map"), lead)


def test_copy_prefills_the_nested_settings(client, ann, strategic):
    response = client.get(f"{FACTORY}?copy={strategic.pk}")
    assert response.status_code == 200
    fields = form_fields(response.content.decode())
    assert fields["name"] == ["Strategic-Map-copy"] and fields["family"] == ["nested"]
    assert fields["n_depth"] == ["3"] and fields["n_routing"] == ["map"]
    assert fields["n_draws_count_for_all"] == ["1"]
    response = client.post(FACTORY, post_data(fields))  # unchanged: a duplicate
    assert "the existing game &#x27;Strategic-Map&#x27;" in response.content.decode()
    response = client.post(FACTORY, post_data(fields, n_no_send_back="1"))
    assert response.status_code == 302
    copy = RuleSet.objects.get(name="Strategic-Map-copy").rule_doc()
    assert copy.nested.no_send_back and copy.nested.routing == "map"


def test_saved_page_shows_the_nested_settings_read_only(client, ann, strategic):
    html = client.get(strategic.get_absolute_url()).content.decode()
    assert 'id="fc-nested"' in html and 'id="fc-copy"' in html
    fields = form_fields(html)
    assert not any(k.startswith("n_") for k in fields)  # every select is disabled
    for label in ("Side length (S)", "Nesting depth (N)", "Allowed area", "Drawn blocks"):
        assert label in html
    assert '<option value="map" selected' in html
    assert '<option value="3" selected' in html
    assert "Map-like routing" in html  # the summary
    # Options that are off are hidden: no timer, so no timeout consequence.
    timeout = html.index('id="id_n_timeout"')
    assert 'class="fc-field d-none"' in html[timeout - 300 : timeout]
    assert "<textarea" in html and "The default numbers." in html
    assert 'name="toggle"' not in html and "hx-post" not in html


def test_anonymous_saved_page_has_no_copy(client, strategic):
    html = client.get(strategic.get_absolute_url()).content.decode()
    assert 'id="fc-nested"' in html and 'id="fc-copy"' not in html
