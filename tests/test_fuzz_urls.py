"""Property: every URL of the URLconf, asked by an anonymous visitor, a creator and an
outsider to the object, with ids of real objects and of none and junk in the query or
the form, never ends in a server error and never serves anything of a hidden game.

The routes are read from the URLconf itself, so a page added later is covered too.
"""

from __future__ import annotations

import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from config.text_input import CONTROL
from leaderboards.services import default_universe
from tests.conftest import FUZZ_SCALE
from tests.play_helpers import bot, human, start
from tests.rule_set_helpers import game_doc
from tournaments import services as tournaments
from variants.services import create_rule_set, hide_rule_set

pytestmark = pytest.mark.django_db

HIDDEN_NAME = "Zebrahidden"  # appears nowhere else on the site
JUNK = ["0", "99999999999999999999", "9" * 19, "²", "-1", "abc", "1e9", "%00", "9" * 5000]
# Texts with control characters (issue 39: a NUL reached PostgreSQL and answered 500).
CONTROL_TEXTS = ["a\x00b", "\x00", "Tic-Tac-Toe\x00", "\x1b[31m", "x\x7f", "\x08\x0b"]
# Deep JSON for the fields read as JSON (the factory's phases raised RecursionError: 500).
DEEP_TEXTS = ["[" * 4000, '{"a":' * 1000, '[{"locked":' * 900, "{" + '"stalemate":{' * 500]


def _routes(patterns=None, prefix: str = "") -> list[str]:
    """Every route of the URLconf as a template ("games/<id:pk>/"), Django's admin left
    out (its own pages, behind staff login)."""
    out = []
    for entry in patterns if patterns is not None else get_resolver().url_patterns:
        route = str(entry.pattern)
        # /healthz answers 503 when no worker is up: that is its job (tested in test_pages.py).
        if route.startswith("admin/") or route == "healthz":
            continue
        if isinstance(entry, URLResolver):
            out += _routes(entry.url_patterns, prefix + route)
        elif isinstance(entry, URLPattern):
            out.append(prefix + route)
    return sorted(set(out))


ROUTES = _routes()


@pytest.fixture
def world(creator, other_creator, trainer, site_admin):
    """A hidden game with a match, a tournament and a leaderboard entry, and a visible one."""
    hidden = create_rule_set(game_doc(7, name=HIDDEN_NAME), creator)
    visible = create_rule_set(game_doc(8), creator)
    match = start(hidden, creator, creator, human(trainer))
    seen = start(visible, creator, creator, human(trainer))
    plan = tournaments.Plan(
        hidden, default_universe(), HIDDEN_NAME + "-T", [([bot("A").pk, bot("B").pk], 2)]
    )
    tournament = tournaments.create_from_plan(plan, trainer)
    hide_rule_set(hidden, True, site_admin)
    ids = {
        str(x)
        for x in {hidden.pk, visible.pk, match.pk, seen.pk, tournament.pk}
        | {creator.pk, other_creator.pk, creator.player.pk, trainer.player.pk}
    }
    return {"ids": sorted(ids), "people": [None, creator, other_creator]}


@settings(
    max_examples=300 * FUZZ_SCALE,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_no_url_errs_or_shows_a_hidden_game(client, world, no_broker, data):
    route = data.draw(st.sampled_from(ROUTES), label="route")
    ids = world["ids"] + JUNK
    path = "/" + re.sub(r"<[^>]+>", lambda _m: data.draw(st.sampled_from(ids)), route)
    who = data.draw(st.sampled_from(world["people"]), label="who")
    method = data.draw(st.sampled_from(["get", "post"]), label="method")
    keys = ["game", "copy", "players", "add", "player", "universe", "measure", "sort", "page",
            "tab", "action", "name", "rule_set", "seat2", "accept", "q", "next", "phases",
            "stalemate"]  # fmt: skip
    values = st.one_of(
        st.sampled_from(ids),
        st.text(max_size=30),
        st.sampled_from(CONTROL_TEXTS),
        st.sampled_from(DEEP_TEXTS),
    )
    params = data.draw(st.dictionaries(st.sampled_from(keys), values, max_size=4), label="params")
    client.logout()
    if who is not None:
        client.force_login(who)
    response = getattr(client, method)(path, params)
    assert response.status_code < 500, (method, path, params)
    if any(CONTROL.search(v) for v in params.values()):  # one rule at the edge
        assert response.status_code == 400, (method, path, params)
    body = b"".join(response) if response.streaming else response.content
    assert HIDDEN_NAME.encode() not in body, (method, path, who)
