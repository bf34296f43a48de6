"""The Games page: list, search, filters read from the stored document, pagination, bad
queries, moderation badges, and the navigation bar for each role."""

import re

import pytest

from gamecore.rules.vocabulary import BOARD_LABELS, PLAYER_LABELS
from tests.rule_set_helpers import create_games, game_doc
from variants.models import RuleSet
from variants.services import create_rule_set, filter_rule_sets, hide_rule_set, remove_rule_set

pytestmark = pytest.mark.django_db


def names_on(response) -> list[str]:
    assert response.status_code == 200, response.content.decode()[:500]
    return re.findall(
        r'class="fw-semibold game-name" href="[^"]+">([^<]+)</a>', response.content.decode()
    )


def all_names(client, query: str) -> set[str]:
    """Every name the filter finds, across all pages."""
    found, page = set(), 1
    while True:
        response = client.get(f"/games/?{query}&page={page}")
        found |= set(names_on(response))
        if 'rel="next"' not in response.content.decode():
            return found
        page += 1


@pytest.fixture
def variety(catalogue, creator):
    """The catalogue plus one game for each players option, on squares."""
    for n, players in enumerate(PLAYER_LABELS):
        create_rule_set(game_doc(n, players=players, name=f"Mode-{players}"), creator)


def test_each_game_shows_its_name_summary_and_creator(client, creator):
    rule_set = create_rule_set(game_doc(1), creator)
    html = client.get("/games/").content.decode()
    assert f'href="{rule_set.get_absolute_url()}">Game-1</a>' in html
    assert rule_set.summary in html
    assert (
        f'Created by <a href="{creator.player.get_absolute_url()}?tab=creations">carla</a>' in html
    )


@pytest.mark.parametrize("players", list(PLAYER_LABELS))
def test_players_filter_matches_the_parsed_rules(client, variety, players):
    expected = {r.name for r in RuleSet.objects.all() if r.rule_doc().players == players}
    assert expected  # every option has a game to find
    assert all_names(client, f"players={players}") == expected


@pytest.mark.parametrize("board", list(BOARD_LABELS))
def test_board_filter_matches_the_parsed_rules(client, variety, board):
    expected = {r.name for r in RuleSet.objects.all() if r.rule_doc().board.type == board}
    assert all_names(client, f"board={board}") == expected


def test_defaults_left_out_of_the_document_are_found(client, catalogue):
    assert "players" not in RuleSet.objects.get(name="Tic-Tac-Toe").document
    assert "Tic-Tac-Toe" in all_names(client, "players=2&board=hash")
    assert "Connect4" in all_names(client, "players=2&board=stacks")
    assert "Connect4" not in all_names(client, "board=hash")


def test_search_by_name_ignores_case(client, catalogue):
    assert all_names(client, "q=CONNECT") == {"Connect4", "Connect6-19x19"}
    assert all_names(client, "q=connect&board=stacks") == {"Connect4"}
    response = client.get("/games/?q=no-such-game")
    assert names_on(response) == [] and "No game matches" in response.content.decode()


def test_pages_keep_the_filters(client, trainer):
    from variants.views import GAMES_PER_PAGE

    create_games(trainer, GAMES_PER_PAGE + 5)
    first = client.get("/games/?q=game-&board=squares")
    assert len(names_on(first)) == GAMES_PER_PAGE and "Page 1 of 2" in first.content.decode()
    assert "?q=game-&amp;board=squares&amp;page=2" in first.content.decode()
    second = client.get("/games/?q=game-&board=squares&page=2")
    assert len(names_on(second)) == 5
    assert names_on(client.get("/games/?q=game-&page=999")) == names_on(second)
    assert names_on(client.get("/games/?q=game-&page=junk")) == names_on(first)


@pytest.mark.parametrize(
    "query, message",
    [
        ("players=5", "Unknown number of players"),
        ("board=hexagons", "Unknown board"),
        ("q=" + "x" * 65, "at most 64 characters"),
        ("players=2&players=<script>", "Unknown number of players"),
    ],
)
def test_a_bad_query_gets_a_clear_message(client, catalogue, query, message):
    response = client.get("/games/?" + query)
    html = response.content.decode()
    assert response.status_code == 400 and message in html
    assert "<script>" not in html


def test_hidden_and_removed_games_only_for_admins(client, creator, site_admin):
    shown, hidden, removed = create_games(creator, 3)
    hide_rule_set(hidden, True, by=site_admin)
    remove_rule_set(removed, by=site_admin)
    for user in (None, creator):
        if user:
            client.force_login(user)
        assert set(names_on(client.get("/games/"))) == {shown.name}
        assert hidden.name not in client.get("/").content.decode()
    client.force_login(site_admin)
    html = client.get("/games/").content.decode()
    assert set(names_on(client.get("/games/"))) == {shown.name, hidden.name, removed.name}
    assert "Hidden" in html and "Removed" in html and f"/games/{hidden.pk}/manage/" in html


def test_home_page_links_to_the_games_page(client, catalogue):
    response = client.get("/")
    assert response.status_code == 200 and 'href="/games/"' in response.content.decode()


def test_the_filter_function_composes_with_any_queryset(creator):
    create_rule_set(game_doc(1, players="3"), creator)
    create_rule_set(game_doc(2), creator)
    base = RuleSet.objects.filter(creator=creator)
    assert [r.name for r in filter_rule_sets(base, players="3")] == ["Game-1"]
    assert [r.name for r in filter_rule_sets(base, players="2", board="squares")] == ["Game-2"]
    assert list(filter_rule_sets(base, board="hash")) == []


# --- Navigation ------------------------------------------------------------------------------


def nav(client) -> str:
    html = client.get("/games/").content.decode()
    return html[html.index("<header") : html.index("</header>")]


def test_navigation_for_anonymous_visitors(client):
    bar = nav(client)
    assert 'href="/games/"' in bar and "Log in" in bar and "Sign up" in bar
    assert "/games/new/" not in bar and "/users/" not in bar


def test_navigation_for_a_creator_follows_the_quota(client, creator):
    client.force_login(creator)
    bar = nav(client)
    assert "/games/new/" in bar and "carla" in bar and "Creator" in bar and "Log out" in bar
    assert "/users/" not in bar
    create_games(creator, 15)
    assert "/games/new/" not in nav(client)
    assert "as many games as a Creator may (15)" in client.get("/games/").content.decode()


@pytest.mark.parametrize("who, role", [("trainer", "Trainer"), ("admin", "Admin")])
def test_navigation_for_trainers_and_admins(client, people, who, role):
    client.force_login(people[who])
    bar = nav(client)
    assert "/games/new/" in bar and role in bar
    assert ("/users/" in bar) == (who == "admin")
