"""The read API (/api/v1/): what it shows and refuses (as the pages), its bounds, and
the offline replay: a match's log from the API, replayed with nothing but the engine
(``gamecore``) from the API's document and seed, ends as the site's match ended."""

from __future__ import annotations

import json

import pytest

from gamecore.engine import compile_game
from leaderboards.models import Tournament, TournamentBatch
from leaderboards.services import default_universe
from play import services
from play.events import game_over_event
from play.models import Match
from play.replay import current_state
from tests.api_helpers import play_out
from tests.leaderboard_helpers import finish
from tests.play_helpers import bot, human, later, rule_set, start
from tests.rule_set_helpers import game_doc
from tournaments import services as tournaments
from variants.services import create_rule_set, hide_rule_set, remove_rule_set

pytestmark = pytest.mark.django_db

FORFEIT = {"resign": "resignation", "timeout": "timeout", "disconnect": "disconnect"}


def get(client, path: str, status: int = 200) -> dict:
    response = client.get("/api/v1/" + path)
    assert response.status_code == status, (path, response.content[:300])
    assert response["Content-Type"] == "application/json"
    return response.json()


def replay_offline(match: dict, document: dict):
    """What a trainer does with the API's answers and the installed engine only."""
    game = compile_game(document)
    state = game.new_initial_state(seed=match["seed"])
    for row in match["moves"]:
        if row["kind"] == "move":
            state.apply(row["seat"], game.parse_move(row["move"]))
        elif row["kind"] == "skip":
            state.skip(row["seat"])
        else:
            state.forfeit(row["seat"], FORFEIT[row["kind"]])
    return state


def outcome_of(state) -> dict:
    event = json.loads(json.dumps(game_over_event(state.outcome)))
    event.pop("type")
    return event


# --- games -------------------------------------------------------------------------------


@pytest.fixture
def games(creator, site_admin):
    shown = create_rule_set(game_doc(1), creator)
    hidden = create_rule_set(game_doc(2), creator)
    removed = create_rule_set(game_doc(3), creator)
    hide_rule_set(hidden, True, site_admin)
    remove_rule_set(removed, site_admin)
    return shown, hidden, removed


def test_games_list_shows_what_the_games_page_shows(client, games, creator, site_admin):
    shown, hidden, removed = games
    for user in (None, creator):
        if user:
            client.force_login(user)
        data = get(client, "games/")
        assert [g["id"] for g in data["results"]] == [shown.pk]
        assert data["count"] == 1 and data["offset"] == 0 and data["limit"] == 20
        assert data["results"][0] == {
            "id": shown.pk,
            "name": shown.name,
            "fingerprint": shown.fingerprint,
            "summary": shown.summary,
            "url": f"/games/{shown.pk}/",
        }
    client.force_login(site_admin)
    ids = [g["id"] for g in get(client, "games/")["results"]]
    assert ids == [shown.pk, hidden.pk, removed.pk]


def test_games_are_paged_within_bounds(client, creator):
    made = [create_rule_set(game_doc(n), creator) for n in range(5)]
    data = get(client, "games/?offset=1&limit=2")
    assert [g["id"] for g in data["results"]] == [g.pk for g in made[1:3]]
    assert data["count"] == 5 and data["limit"] == 2
    assert get(client, "games/?offset=99&limit=100")["results"] == []
    for query, word in [
        ("limit=0", "limit: at least 1"),
        ("limit=101", "limit: at most 100"),
        ("limit=abc", "limit: must be a whole number"),
        ("offset=-1", "offset: at least 0"),
        ("offset=" + "9" * 5000, "offset: at most"),
        ("limit=²", "limit: must be a whole number"),
    ]:
        assert word in get(client, f"games/?{query}", 400)["error"]


def test_a_game_serves_its_document_which_the_engine_compiles(client, games):
    shown = games[0]
    data = get(client, f"games/{shown.pk}/")
    assert data["document"] == shown.document and data["fingerprint"] == shown.fingerprint
    assert data["hidden"] is False and data["removed"] is False
    assert compile_game(data["document"]).name == shown.name


def test_hidden_and_removed_games_are_404_but_to_admins(client, games, creator, site_admin):
    _shown, hidden, removed = games
    for user in (None, creator):
        if user:
            client.force_login(user)
        for game in (hidden, removed):
            assert get(client, f"games/{game.pk}/", 404) == {"error": "No such game."}
            assert get(client, f"games/{game.pk}/leaderboard/", 404)["error"]
    client.force_login(site_admin)
    assert get(client, f"games/{hidden.pk}/")["hidden"] is True
    assert get(client, f"games/{removed.pk}/")["removed"] is True
    assert get(client, f"games/{removed.pk}/leaderboard/")["results"] == []


@pytest.mark.parametrize(
    "path",
    ["games/0/", "games/99999999999999999999/", "games/abc/", "matches/-1/", "nothing/",
     "tournaments/" + "9" * 19 + "/", "games/%C2%B2/"],
)  # fmt: skip
def test_junk_and_unknown_paths_are_json_404s(client, path):
    assert "error" in get(client, path, 404)


@pytest.mark.parametrize(
    "path, error",
    [
        ("games/?universe=a%00b", "universe: holds a control character (U+0000)"),
        ("games/?limit=1%7F", "limit: holds a control character (U+007F)"),
        ("games/%01/", "address: holds a control character (U+0001)"),
        ("games/1/leaderboard/?x%1B=1", "x?: holds a control character (U+001B)"),
    ],
)
def test_control_characters_are_refused_in_json(client, path, error):
    assert get(client, path, 400) == {"error": error}


def test_the_api_only_reads(client, games):
    response = client.post(f"/api/v1/games/{games[0].pk}/")
    assert response.status_code == 405 and response.json()["error"]
    assert response["Allow"] == "GET, HEAD"


# --- leaderboards ------------------------------------------------------------------------


def test_leaderboard_rows_best_first_and_universes_as_the_page(client, creator):
    rules = rule_set("Tic-Tac-Toe")
    a, b, c = bot("A"), bot("B"), bot("C")
    for _ in range(3):
        finish(rules, [a, b], ("win", "loss"))
    finish(rules, [b, c], ("win", "loss"))
    data = get(client, f"games/{rules.pk}/leaderboard/")
    assert data["universe"] == "main" and data["count"] == 3
    names = [row["player"]["name"] for row in data["results"]]
    assert names[0] == "A" and sorted(names) == ["A", "B", "C"]
    assert [row["position"] for row in data["results"]] == [1, 2, 3]
    scores = [row["score"] for row in data["results"]]
    assert scores == sorted(scores, reverse=True)
    assert data["results"][0]["matches"] == 3
    second = get(client, f"games/{rules.pk}/leaderboard/?offset=1&limit=1")["results"]
    assert [(r["position"], r["player"]["name"]) for r in second] == [(2, names[1])]
    assert get(client, f"games/{rules.pk}/leaderboard/?universe=main")["count"] == 3
    # A universe the visitor has no persona in is not theirs to read (the page falls back).
    from leaderboards.models import Universe

    Universe.objects.create(slug="private", name="Private")
    for slug in ("private", "nope"):
        error = get(client, f"games/{rules.pk}/leaderboard/?universe={slug}", 404)["error"]
        assert error == "No such universe among those you may see."
    error = get(client, f"games/{rules.pk}/leaderboard/?universe={'x' * 41}", 400)["error"]
    assert error == "universe: at most 40 characters"
    assert "limit" in get(client, f"games/{rules.pk}/leaderboard/?limit=500", 400)["error"]


# --- matches -----------------------------------------------------------------------------


def test_a_finished_match_of_a_hidden_game_is_404_but_to_admins(client, creator, site_admin):
    rules = create_rule_set(game_doc(4), creator)
    match = play_out(start(rules, creator, bot("A", "random"), bot("B", "random")))
    start(rules, creator, creator, bot("C", "random"))  # live: not listed
    assert get(client, f"matches/{match.pk}/")["status"] == "finished"
    listed = get(client, f"games/{rules.pk}/matches/")
    assert [(m["id"], m["moves"]) for m in listed["results"]] == [(match.pk, match.ply)]
    assert listed["results"][0]["results"] == match.outcome["results"]
    hide_rule_set(rules, True, site_admin)
    client.force_login(creator)
    assert get(client, f"matches/{match.pk}/", 404) == {"error": "No such match."}
    assert get(client, f"games/{rules.pk}/matches/", 404) == {"error": "No such game."}
    client.force_login(site_admin)
    assert get(client, f"matches/{match.pk}/")["id"] == match.pk
    assert get(client, f"games/{rules.pk}/matches/")["count"] == 1


def test_a_live_cloaked_match_is_refused_until_it_is_over(client, creator, other_creator):
    match = start(rule_set("3Blotto13"), creator, creator, bot("B", "random"))
    state = current_state(Match.objects.get(pk=match.pk))
    services.play(match.pk, creator, str(state.legal_moves(0)[0]))
    for user in (None, creator, other_creator):  # the seated player too: the log is the site's
        if user:
            client.force_login(user)
        error = get(client, f"matches/{match.pk}/", 403)["error"]
        assert "once the match is over" in error
    while Match.objects.get(pk=match.pk).status == Match.Status.ACTIVE:
        if not services.server_move(match.pk, now=later(5)):
            state = current_state(Match.objects.get(pk=match.pk))
            services.play(match.pk, creator, str(state.legal_moves(0)[0]))
    data = get(client, f"matches/{match.pk}/")
    assert data["seed"] is not None and data["outcome"] is not None
    assert all(row["move"] and "hidden" not in row["move"] for row in data["moves"])


def test_a_live_match_serves_no_seed_and_no_unresolved_plan(client, creator):
    match = start(rule_set("RockPaperScissors"), creator, creator, bot("B", "random"))
    state = current_state(Match.objects.get(pk=match.pk))
    services.play(match.pk, creator, str(state.legal_moves(0)[0]))  # a plan; no bot plan yet
    assert Match.objects.get(pk=match.pk).ply == 1
    data = get(client, f"matches/{match.pk}/")
    assert data["status"] == "active" and data["seed"] is None and data["outcome"] is None
    assert data["moves"] == []  # the plan stays secret until the round resolves
    assert [(s["index"], s["name"]) for s in data["seats"]] == [(0, "carla"), (1, "B")]


def test_a_live_tic_tac_toe_match_serves_its_moves_so_far(client, creator, other_creator):
    match = start(rule_set("Tic-Tac-Toe"), creator, creator, human(other_creator))
    services.answer_invitation(match.pk, other_creator, accept=True)
    services.play(match.pk, creator, "2,2,1")
    data = get(client, f"matches/{match.pk}/")
    assert data["moves"] == [{"ply": 1, "seat": 0, "kind": "move", "move": "2,2,1"}]
    assert data["seed"] is None and data["url"] == f"/matches/{match.pk}/replay/"


# --- offline replay, every family --------------------------------------------------------


@pytest.mark.parametrize(
    "name, family",
    [
        ("Tic-Tac-Toe", "flat"),
        ("Ultimate-Tic-Tac-Toe", "nested"),
        ("Tapatan", "general"),  # pieces move
        ("RockPaperScissors", "general"),  # simultaneous rounds
        ("3Blotto13", "general"),  # cloaked, simultaneous
    ],
)
def test_a_finished_match_replays_offline_to_the_same_outcome(client, creator, name, family):
    rules = rule_set(name)
    match = play_out(start(rules, creator, bot("A", "random"), bot("B", "random"), seed=7))
    game = get(client, f"games/{rules.pk}/")
    assert compile_game(game["document"]).family == family
    data = get(client, f"matches/{match.pk}/")
    assert data["game"] == rules.pk and data["fingerprint"] == game["fingerprint"]
    assert len(data["moves"]) == match.ply > 0 and data["seed"] == 7
    state = replay_offline(data, game["document"])
    assert state.is_terminal()
    assert (
        outcome_of(state)
        == data["outcome"]
        == {k: v for k, v in match.outcome.items() if k != "type"}
    )
    assert [s["result"] for s in data["seats"]] == list(state.outcome.results)


def test_a_resignation_replays_offline(client, creator):
    rules = rule_set("Tic-Tac-Toe")
    match = start(rules, creator, creator, bot("B", "random"))
    services.play(match.pk, creator, "1,1,1")
    services.resign(match.pk, creator)
    data = get(client, f"matches/{match.pk}/")
    assert data["moves"][-1]["kind"] == "resign"
    state = replay_offline(data, get(client, f"games/{rules.pk}/")["document"])
    assert outcome_of(state) == data["outcome"] and data["outcome"]["winners"] == [1]


# --- tournaments -------------------------------------------------------------------------


def test_a_tournament_serves_its_results_and_its_games_replay(
    client, creator, trainer, site_admin, no_broker
):
    rules = rule_set("Tic-Tac-Toe")
    a, b = bot("A", "random"), bot("B", "random")
    plan = tournaments.Plan(rules, default_universe(), "Cup", [([a.pk, b.pk], 4)])
    t = tournaments.create_from_plan(plan, trainer)
    data = get(client, f"tournaments/{t.pk}/")
    assert data["status"] == "running" and data["results"] is None and data["written"] == 0
    for batch in TournamentBatch.objects.filter(tournament=t):
        tournaments.run_batch(batch.pk)
    assert tournaments.finalise(t.pk) is True
    data = get(client, f"tournaments/{t.pk}/")
    assert data["status"] == "done" and data["written"] == data["total_games"] == 4
    assert data["results"]["games"] == 4
    assert {p["name"] for p in data["results"]["players"]} == {"A", "B"}
    assert data["sets"] == [{"players": ["A", "B"], "games": 4, "written": 4}]
    document = get(client, f"games/{rules.pk}/")["document"]
    listed = get(client, f"tournaments/{t.pk}/matches/?limit=3")
    assert listed["count"] == 4 and len(listed["results"]) == 3
    rest = get(client, f"tournaments/{t.pk}/matches/?offset=3")["results"]
    ids = [row["id"] for row in listed["results"] + rest]
    assert ids == sorted(Match.objects.filter(tournament=t).values_list("id", flat=True))[::-1]
    for row in listed["results"] + rest:
        served = get(client, row["url"].removeprefix("/api/v1/"))
        assert served["tournament"] == t.pk and len(served["moves"]) == row["moves"]
        assert outcome_of(replay_offline(served, document)) == served["outcome"]
    hide_rule_set(rules, True, site_admin)
    assert get(client, f"tournaments/{t.pk}/", 404) == {"error": "No such tournament."}
    assert get(client, f"tournaments/{t.pk}/matches/", 404) == {"error": "No such tournament."}
    assert Tournament.objects.filter(pk=t.pk).exists()


def test_a_tournament_game_with_a_random_set_up_replays_offline(
    client, creator, trainer, no_broker
):
    """The seed served is the one the position was set up from (random obstacles)."""
    doc = {"board": {"type": "nested"}, "nested": {"random_obstacles": 4}}
    rules = rule_set("Obstacles", **doc)
    a, b = bot("A", "random"), bot("B", "random")
    plan = tournaments.Plan(rules, default_universe(), "Rocks", [([a.pk, b.pk], 2)])
    t = tournaments.create_from_plan(plan, trainer)
    for batch in TournamentBatch.objects.filter(tournament=t):
        tournaments.run_batch(batch.pk)
    document = get(client, f"games/{rules.pk}/")["document"]
    for row in get(client, f"tournaments/{t.pk}/matches/")["results"]:
        served = get(client, f"matches/{row['id']}/")
        assert outcome_of(replay_offline(served, document)) == served["outcome"]
    # Games written before kept the game's seed: the migration gives them the position's.
    import importlib

    from django.apps import apps

    name = "play.migrations.0007_tournament_games_keep_their_position_seed"
    for match in Match.objects.filter(tournament=t):
        Match.objects.filter(pk=match.pk).update(seed=tournaments.game_seed(t, match.game_number))
    live = start(rules, creator, bot("C", "random"), bot("D", "random"), seed=11)
    importlib.import_module(name).forward(apps, None)
    assert Match.objects.get(pk=live.pk).seed == 11  # not a tournament's: kept
    for match in Match.objects.filter(tournament=t):
        served = get(client, f"matches/{match.pk}/")
        assert outcome_of(replay_offline(served, document)) == served["outcome"]


def test_the_readmes_replay_example_runs(client, creator, monkeypatch, capsys):
    """api/README.md's example, run as written against this site (requests.get answered
    by the test client)."""
    import re
    from pathlib import Path

    import requests

    match = play_out(start(rule_set("Tic-Tac-Toe"), creator, bot("A"), bot("B"), seed=3))
    readme = (Path(__file__).parent.parent / "api" / "README.md").read_text()
    code = re.search(r"```python\n(.*?)```", readme, re.S).group(1)
    site = "https://foundry.example"

    class Answer:
        def __init__(self, url):
            self.response = client.get(url.removeprefix(site))

        def json(self):
            return self.response.json()

    monkeypatch.setattr(requests, "get", Answer)
    exec(code.replace("/matches/123/", f"/matches/{match.pk}/"), {})
    results = list(match.outcome["results"])
    assert capsys.readouterr().out.strip() == f"{tuple(results)} {results}"
