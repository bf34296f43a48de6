"""Property: generated junk posted to every factory endpoint never ends in a server error,
never gives a page larger than a fixed size, and never half-writes a game: a request
answered with an error saves nothing. Seeded (derandomized) and bounded."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import FUZZ_SCALE
from tests.rule_set_helpers import game_doc
from variants.factory.nested_state import NestedState
from variants.models import RuleSet
from variants.services import create_rule_set

pytestmark = pytest.mark.django_db

MAX_PAGE = 1_500_000  # bytes: the largest page the seed's limits allow is well under it

FLAT_FIELDS = [
    "family", "name", "stalemate", "players", "colors", "board_type", "allow_pass",
    "agree_draw", "timeout", "marker", "check", "shape", "shape_count", "pieces_per_turn",
    "boards", "size_x", "size_y", "size_z", "seconds", "reserves_auto", "locked", "pieces",
    "action", "toggle", "reserve-black-1", "reserve-white-1", "reserve-red-2",
]  # fmt: skip
NESTED_FIELDS = [f"n_{f}" for f in NestedState.__dataclass_fields__]
NUMBERS = ["0", "1", "2", "3", "19", "20", "-1", "512", "99999999999999999999", "9" * 5000,
           "²", "1e3", " 4 ", "3.0", ""]  # fmt: skip
WORDS = ["flat", "nested", "hash", "squares", "stacks", "3-wins-d", "9-loses-o", "circle",
         "pentagon", "lock", "piece-black-1", "piece-red-99", "add_check", "delete_check-0",
         "delete_check-9", "toggle", "save", "1,1,1,1", "3,3,3,3", "1,1,1,1,black,1",
         "2", "partners", "choose", "map", "hypermap", "simultaneous", "1 2 3"]  # fmt: skip

values = st.one_of(
    st.sampled_from(NUMBERS),
    st.sampled_from(WORDS),
    st.text(max_size=40),
    st.lists(st.sampled_from(NUMBERS + WORDS), min_size=2, max_size=12),
)


NUMBER_FIELDS = {"shape_count", "pieces_per_turn", "boards", "size_x", "size_y", "size_z",
                 "seconds", "reserve-black-1", "reserve-white-1", "reserve-red-2",
                 "n_side", "n_win_length", "n_depth", "n_dimensions", "n_random_obstacles",
                 "n_scouts", "n_seconds"}  # fmt: skip
# A form as the page sends it, into which the junk is mixed: junk then reaches the deeper
# steps (validation, the redraw) instead of stopping at the first missing field.
BASE = {
    "flat": {"family": "flat", "name": "Fuzz", "board_type": "squares", "size_x": "3",
             "size_y": "3", "size_z": "1", "check": "3-wins-d", "shape": "circle"},
    "nested": {"family": "nested", "name": "Fuzz", "n_side": "3", "n_depth": "2",
               "n_dimensions": "2", "n_teams": "2"},
}  # fmt: skip


@st.composite
def posted(draw, fields: list[str]):
    family = draw(st.sampled_from(["flat", "nested", "none"]))
    data = dict(BASE.get(family, {}))
    for _ in range(draw(st.integers(1, 6))):
        field = draw(st.sampled_from(fields))
        if field in NUMBER_FIELDS and draw(st.booleans()):
            data[field] = draw(st.sampled_from(NUMBERS))
        else:
            data[field] = draw(values)
    return data


@pytest.fixture
def own_game(creator):
    return create_rule_set(game_doc(3), creator)


@settings(
    max_examples=250 * FUZZ_SCALE,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    url=st.sampled_from(["/games/new/", "/games/new/refresh/", "rename", "manage", "copy"]),
    data=posted(FLAT_FIELDS + NESTED_FIELDS),
)
def test_factory_junk_never_errs_grows_or_half_writes(client, creator, site_admin, own_game,
                                                      url, data):  # fmt: skip
    client.force_login(site_admin if url in ("rename", "manage") else creator)
    before = set(RuleSet.objects.values_list("pk", "name"))
    if url == "copy":
        response = client.get("/games/new/", {"copy": data.get("name", own_game.pk)})
    elif url in ("rename", "manage"):
        path = f"/games/{own_game.pk}/{url}/"
        response = client.post(path, {"action": "rename", **data})
    else:
        response = client.post(url, data)
    assert response.status_code < 500, (url, data)
    assert len(response.content) < MAX_PAGE, (url, len(response.content))
    after = set(RuleSet.objects.values_list("pk", "name"))
    if response.status_code >= 400:
        assert after == before, (url, data)  # refused: nothing written
    if response.status_code < 300 and url in ("/games/new/", "/games/new/refresh/"):
        assert after == before  # a redrawn page saves nothing either
