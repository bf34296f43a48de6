"""The factory's nested section: Strategic's rule sets combined level by level (the
"Lower levels' routing" control), through the form to a saved game and back."""

from __future__ import annotations

from gamecore import rules
from tests.test_factory_nested import ann, nested, refresh, save, saved  # noqa: F401, F811
from variants import catalogue
from variants.factory import nested_state
from variants.factory.nested_state import NestedState, adjust, unavailable


def options(html: str, name: str) -> list[str]:
    import re

    block = re.search(rf'<select[^>]*name="{name}"[^>]*>(.*?)</select>', html, re.S)
    return re.findall(r'<option value="([^"]*)"', block.group(1)) if block else []


def test_the_control_is_on_only_where_levels_below_the_top_are_routed():
    assert "lower_routing" in unavailable(NestedState(depth=2))
    assert "lower_routing" in unavailable(NestedState(depth=3, routing="open"))
    assert "lower_routing" in unavailable(NestedState(side=2, depth=3, dimensions=3))
    assert "lower_routing" not in unavailable(NestedState(depth=3))
    stale = adjust(NestedState(depth=2, lower_routing="map"))
    assert stale.lower_routing == "tactical"


def test_depth_four_offers_every_combination_of_its_two_lower_levels():
    choices = nested_state.lower_choices(NestedState(side=2, depth=4))
    assert len(choices) == 9 and ("map,hypermap", "Map-like, then Hypermap-like") in choices


def test_the_route_map_counts_the_numbers_of_every_numbered_level():
    state = NestedState(depth=3, routing="map", lower_routing="hypermap")
    assert nested_state.route_map_size(state) == (81 + 729, 9)
    state = NestedState(depth=3, routing="tactical", lower_routing="map")
    assert "route_map" not in unavailable(state)
    assert nested_state.route_map_size(state) == (243, 9)


def test_a_combination_through_the_form_is_saved_and_shown(client, nested):  # noqa: F811
    html, fields = refresh(client, nested, n_depth="3")
    assert options(html, "n_lower_routing") == ["tactical", "map", "hypermap"]
    steps = [{"n_depth": "3"}, {"n_routing": "map"}, {"n_lower_routing": "hypermap"}]
    game = saved(client, nested, "MyStrategicMix", steps, n_draws_count_for_all="1")
    doc = rules.parse(game.document)
    assert doc.nested.level_routing == ("map", "hypermap")
    assert "Routing level by level: Map-like, then Hypermap-like" in game.summary
    page = client.get(game.get_absolute_url()).content.decode()
    assert "Lower levels" in page and "Hypermap-like" in page


def test_the_named_rule_sets_through_the_form_keep_their_fingerprints(client, nested):  # noqa: F811
    steps = [{"n_depth": "3"}, {"n_routing": "hypermap"}, {"n_lower_routing": "tactical"}]
    game = saved(client, nested, "MyHyper", steps, n_draws_count_for_all="1")
    named = rules.fingerprint(rules.parse(catalogue.get("Strategic-Hypermap")))
    assert game.fingerprint == named


def test_a_bad_combination_is_named(client, nested):  # noqa: F811
    _html, fields = refresh(client, nested, n_depth="3")
    response = save(client, fields, name="Junk", n_lower_routing="zigzag")
    assert response.status_code == 400
    html = response.content.decode()
    error = html[html.index('id="id_n_lower_routing-error"') :][:400]
    assert "Lower levels&#x27; routing: &#x27;zigzag&#x27; is not an option" in error
