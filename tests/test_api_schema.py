"""The read API against its own OpenAPI schema: schemathesis, in process (Django's WSGI
handler, the test database), generates requests from the schema, valid and invalid, for
every operation, on real ids (a visible game, a hidden one, finished and live matches, a
tournament) and random ones, and checks each answer: no server error, a status and a
body the schema describes."""

from __future__ import annotations

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode

from api.schema import SCHEMA
from play.models import Match
from tests.api_helpers import play_out
from tests.leaderboard_helpers import finish
from tests.play_helpers import bot, rule_set, start
from tests.rule_set_helpers import game_doc
from variants.services import create_rule_set, hide_rule_set

pytestmark = pytest.mark.django_db

EXAMPLES = 12  # per operation and mode: the whole file stays within a few seconds


@pytest.fixture
def app():
    """Django's WSGI handler on the test database: like Django's test client, it must
    not close the connection (the test's transaction) when a request ends."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield WSGIHandler()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def world(creator, site_admin, trainer, no_broker):
    """Ids of every kind of object the API serves or refuses."""
    from leaderboards.models import TournamentBatch
    from leaderboards.services import default_universe
    from tournaments import services as tournaments

    ttt = rule_set("Tic-Tac-Toe")
    a, b = bot("A", "random"), bot("B", "random")
    finish(ttt, [a, b], ("win", "loss"))
    hidden = create_rule_set(game_doc(5), creator)
    hidden_match = play_out(start(hidden, creator, a, b))
    hide_rule_set(hidden, True, site_admin)
    finished = play_out(start(rule_set("3Blotto13"), creator, a, b))
    live = start(rule_set("3Blotto13"), creator, creator, b)
    open_match = start(ttt, creator, creator, b)  # live, a game that hides nothing
    plan = tournaments.Plan(ttt, default_universe(), "Cup", [([a.pk, b.pk], 2)])
    cup = tournaments.create_from_plan(plan, trainer)
    for batch in TournamentBatch.objects.filter(tournament=cup):
        tournaments.run_batch(batch.pk)
    tournaments.finalise(cup.pk)
    running = tournaments.create_from_plan(plan, trainer)
    assert Match.objects.get(pk=live.pk).status == Match.Status.ACTIVE
    matches = [hidden_match.pk, finished.pk, live.pk, open_match.pk]
    return [ttt.pk, hidden.pk, *matches, cup.pk, running.pk, 1]


def test_the_served_schema_is_the_one_in_the_code(client):
    assert client.get("/api/v1/openapi.json").json() == SCHEMA
    assert SCHEMA["openapi"].startswith("3.0")


def test_schemathesis_finds_no_server_error_and_no_answer_off_the_schema(app, world):
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert {op.path for op in operations} == set(SCHEMA["paths"])
    seen: set[tuple[str, int]] = set()
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            _check(operation, mode, world, seen)
    # The examples reached real objects, not only 404s (each path answered 200 at least once).
    assert {path for path, status in seen if status == 200} == set(SCHEMA["paths"])
    assert ("/matches/{pk}/", 403) in seen  # the live cloaked match
    assert any(status == 400 for _path, status in seen)


def _check(operation, mode, ids, seen) -> None:
    has_id = any(p["in"] == "path" for p in operation.definition.raw.get("parameters", []))
    if has_id and mode == GenerationMode.POSITIVE:
        cases = st.sampled_from(ids).flatmap(
            lambda pk: operation.as_strategy(mode, path_parameters={"pk": pk})
        )
        # Every real id once, then random ones: the examples below are drawn from both.
        for pk in ids:
            _call(operation.Case(path_parameters={"pk": pk}), seen)
    else:
        cases = operation.as_strategy(mode)

    @given(case=cases)
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    def run(case):
        _call(case, seen)

    run()


def _call(case, seen) -> None:
    response = case.call_and_validate()
    seen.add((case.operation.path, response.status_code))
