"""A newcomer's first visit (issue 22): bots ready from the first migrate, Play one click
away everywhere a game is shown, a saved game confirmed, warnings about games nobody can
win, a favicon."""

from __future__ import annotations

import pytest

from accounts.models import Player
from accounts.services import DEFAULT_OPPONENT, STANDARD_BOTS, SYSTEM_USERNAME, standard_bots
from tests.play_helpers import rule_set
from tests.test_factory import FACTORY, form_fields, post_data
from variants import services
from variants.catalogue import names as catalogue_names
from variants.factory.warnings import warnings_for

pytestmark = pytest.mark.django_db

STANDARD_NAMES = [name for name, _spec, _blurb in STANDARD_BOTS]


def html_of(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def test_the_standard_bots_exist_from_the_first_migrate():
    # The test database was made by the migrations alone: nothing has called
    # standard_bots() yet, so these rows come from the data migration.
    bots = Player.objects.filter(kind=Player.Kind.BOT, owner__username=SYSTEM_USERNAME)
    assert sorted(b.name for b in bots) == sorted(STANDARD_NAMES)
    specs = {b.name: b.bot_spec for b in bots}
    assert specs["Easy bot"] == {"kind": "easy"} and specs["Hard bot"] == {"kind": "hard"}
    assert specs["MCTS bot"] == {"kind": "mcts", "simulations": 1000}
    assert [b.name for b in standard_bots()] == STANDARD_NAMES  # and nothing new made
    assert Player.objects.filter(kind=Player.Kind.BOT).count() == len(STANDARD_NAMES)


def test_standard_bots_come_back_after_a_flush():
    Player.objects.filter(kind=Player.Kind.BOT).delete()
    assert [b.name for b in standard_bots()] == STANDARD_NAMES


def test_start_form_offers_the_bots_first_and_defaults_to_one(client, creator):
    ttt = rule_set("Tic-Tac-Toe")
    client.force_login(creator)
    html = html_of(client, f"/play/?game={ttt.pk}")
    medium = next(b for b in standard_bots() if b.name == DEFAULT_OPPONENT)
    seat2 = html[html.index('data-testid="seat-2"') :]
    seat2 = seat2[: seat2.index("</select>")]
    assert f'<option value="player:{medium.pk}" selected>' in seat2
    options = [line.split(">", 1)[1] for line in seat2.split("<option")[1:]]
    assert options[0].startswith("Me<")
    assert [o.split(" (")[0] for o in options[1:5]] == STANDARD_NAMES
    assert any(o.startswith("Next available human") for o in options)  # one choice away


def test_default_start_form_plays_a_bot_at_once(client, creator):
    from play.models import Match

    ttt = rule_set("Tic-Tac-Toe")
    client.force_login(creator)
    html = html_of(client, f"/play/?game={ttt.pk}")
    fields = form_fields(html[html.index('data-testid="start-form"') :])
    response = client.post("/play/", post_data(fields))
    assert response.status_code == 302, response.content[:600]
    match = Match.objects.get()
    assert match.status == Match.Status.ACTIVE
    seated = [s.player.name for s in match.seats.order_by("index")]
    assert seated[1] == DEFAULT_OPPONENT


def test_play_is_in_the_navbar_for_everyone(client, creator):
    assert 'data-testid="nav-play"' in html_of(client, "/")
    client.force_login(creator)
    html = html_of(client, "/games/")
    assert 'data-testid="nav-play"' in html and 'href="/play/"' in html


def test_every_place_that_shows_a_game_offers_to_play_it(client, creator):
    ttt = rule_set("Tic-Tac-Toe")
    play = f'href="/play/?game={ttt.pk}"'
    for who in (None, creator):
        if who:
            client.force_login(who)
        for url in ("/", "/games/", f"/games/{ttt.pk}/", f"/games/{ttt.pk}/leaderboard/"):
            html = html_of(client, url)
            assert play in html and 'data-testid="play-game"' in html, (who, url)


def test_sign_up_lands_on_the_play_form(client):
    response = client.post(
        "/accounts/signup/",
        {"username": "newbie", "password1": "a-Long-pass-4321", "password2": "a-Long-pass-4321"},
        follow=True,
    )
    assert response.redirect_chain[-1][0] == "/"
    html = response.content.decode()
    assert 'data-testid="start-form"' in html and "a bot answers at once" in html


def test_saving_a_game_says_so_with_a_play_link(client, creator):
    client.force_login(creator)
    fields = form_fields(html_of(client, FACTORY))
    data = post_data(fields, name="Line7", board_type="squares", size_x="7", size_y="1")
    data.update({"reserve-black-1": "4", "reserve-white-1": "3", "check": "4-wins-d"})
    response = client.post(FACTORY, data, follow=True)
    saved = services.visible_rule_sets(creator).get(name="Line7")
    html = response.content.decode()
    assert f'Saved Line7 — <a href="/play/?game={saved.pk}">play it now</a>.' in html
    assert 'class="alert alert-success' in html


def test_warnings_name_games_nobody_can_win():
    assert warnings_for({"name": "Tic-Tac-Toe"}) == []
    (draw,) = warnings_for({"name": "x", "turn_checks": []})
    assert "every match is a draw" in draw
    tiny = warnings_for(
        {
            "name": "x",
            "board": {"type": "squares", "size": [1, 1, 1]},
            "reserves": {"black": {"circle": 1}, "white": {"circle": 0}},
        }
    )
    assert any("No line of 3 fits on a 1×1×1 board" in w for w in tiny)
    assert any("Player 2 (white) has 0 pieces" in w for w in tiny)
    (big,) = warnings_for({"name": "x", "board": {"type": "squares", "size": [19, 19, 1]}})
    assert "whoever moves first can force a win" in big
    # A full board decided by the longest line is a game someone wins.
    assert warnings_for({"name": "x", "turn_checks": [], "stalemate": "most-in-a-row-wins"}) == []


def test_factory_warns_before_saving_and_the_saved_page_says_it(client, creator):
    client.force_login(creator)
    fields = form_fields(html_of(client, FACTORY))
    data = post_data(fields, name="AllDraws")
    data.pop("check", None)  # every win check deleted
    refreshed = client.post("/games/new/refresh/", data).content.decode()
    assert 'data-testid="game-warnings"' in refreshed and "every match is a draw" in refreshed
    assert "You may save this game, but:" in refreshed
    response = client.post(FACTORY, data, follow=True)
    html = response.content.decode()
    assert response.redirect_chain, html[:800]
    assert "This game is allowed, but:" in html and "every match is a draw" in html


def test_favicon(client):
    html = html_of(client, "/")
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in html
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"] == "/static/favicon.svg"


def test_games_list_shows_pictures_families_and_the_best_known_first(client, catalogue):
    import re

    html = html_of(client, "/games/")
    names = re.findall(r'class="fw-semibold game-name" href="[^"]+">([^<]+)</a>', html)
    assert len(names) == len(catalogue_names())  # the whole catalogue on one page
    assert names[:3] == ["Tic-Tac-Toe", "Connect4", "Ultimate-Tic-Tac-Toe"]
    assert html.count('data-testid="game-picture"') == len(catalogue_names())
    assert 'aria-label="Connect4: 7 columns, 6 high, pieces fall"' in html
    assert ">Gravity</span>" in html and ">Boards in boards</span>" in html
    assert 'data-testid="families"' in html and 'href="/games/?board=nested"' in html
    home = html_of(client, "/")
    assert home.index(">Tic-Tac-Toe<") < home.index(">Connect4<") < home.index(">Qubic-4<")


def test_pictures_draw_the_starting_board():
    from variants.pictures import board_picture

    wild = board_picture(
        {
            "name": "W",
            "board": {"type": "squares", "size": [6, 6, 1]},
            "locked": [{"at": [3, 1, 1]}],
        },
        "W",
    )
    assert wild.startswith('<svg class="game-pic"') and 'fill="#90a4ae"' in wild  # locked
    c6 = board_picture(
        {
            "name": "C6",
            "board": {"type": "squares", "size": [19, 19, 1]},
            "initial_pieces": [{"at": [10, 10, 1], "color": "white"}],
        }
    )
    assert c6.count("<circle") == 1 and 'fill="#ffffff"' in c6
    nested = board_picture({"name": "U", "board": {"type": "nested"}})
    assert "boards inside boards, 9×9 cells" in nested
    assert board_picture({"name": "bad", "players": "9"}) == ""


def test_a_games_rules_tab_reads_as_a_list_with_a_picture(client, catalogue):
    from variants.models import RuleSet

    c4 = RuleSet.objects.get(name="Connect4")
    html = html_of(client, c4.get_absolute_url())
    rules_at = html.index('data-testid="rules-in-words"')
    factory_at = html.index('data-testid="factory-view"')
    assert rules_at < factory_at and "Show as factory" in html
    for words in (
        "<dt>Board</dt><dd>7 columns, 6 spaces high; a piece dropped in a column falls",
        "<dt>Players</dt><dd>2 players: Player 1 plays black, Player 2 plays white.</dd>",
        "<dd>21 black and 21 white pieces to place.</dd>",
        "<dt>How you win</dt><dd>The first to make 4 of their colour in a row",
        "<dt>Full board</dt><dd>When the board is full or nobody can move, the game is a draw.",
        "<dt>Timer</dt><dd>No time limit per turn.</dd>",
    ):
        assert words in html, words
    ultimate = RuleSet.objects.get(name="Ultimate-Tic-Tac-Toe")
    html = html_of(client, ultimate.get_absolute_url())
    assert "sends the next player to the matching small board" in html
    assert "15 seconds a turn; when they run out, a random move is played for you." in html


def test_every_catalogue_game_has_rules_in_words():
    import json
    from pathlib import Path

    from variants.rule_words import rule_list

    for path in sorted(Path("variants/catalogue/games").glob("*.json")):
        topics = [topic for topic, _ in rule_list(json.loads(path.read_text()))]
        assert "Board" in topics and "How you win" in topics and "Timer" in topics, path.name


def test_the_start_form_is_one_click_from_a_game(client, creator, catalogue):
    """Nothing to choose: the best-known game and a bot are already set; the bots are
    explained in words under the seats."""
    client.force_login(creator)
    html = html_of(client, "/")
    ttt = catalogue_pk("Tic-Tac-Toe")
    assert f'<option value="{ttt}" data-seats="2" selected>Tic-Tac-Toe</option>' in html
    assert 'data-testid="bot-help"' in html and "<strong>Medium bot</strong> wins or blocks" in html
    fields = form_fields(html[html.index('data-testid="start-form"') :])
    response = client.post("/play/", post_data(fields))
    assert response.status_code == 302  # played as it stands


def catalogue_pk(name: str) -> int:
    from variants.models import RuleSet

    return RuleSet.objects.get(name=name).pk


@pytest.mark.parametrize("workers", ["0", "2"])  # make test: pytest-xdist's workers
def test_without_chromium_the_last_line_says_how_many_were_skipped_and_how_to_fix_it(workers):
    import subprocess
    import sys

    from tests.conftest import BASE_DIR, child_env

    env = child_env(CHROMIUM_PATH="/nonexistent/chromium")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", workers,
         "tests/browser/test_newcomer_browser.py"],
        cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    last = run.stdout.strip().splitlines()[-1]
    assert run.returncode == 0, run.stdout[-2000:]
    assert last.startswith("SKIPPED ") and " BROWSER TESTS: Chromium is not installed." in last
    assert last.endswith("Install it with: sudo apt-get install -y chromium")
    assert int(last.split()[1]) >= 8


def test_a_board_of_four_dimensions_is_drawn_as_its_slices():
    """TacticToy-4D's picture was one 3×3 grid: a 4-D board is a 3×3 grid of 3×3 slices
    (3-D: a row of three), as such boards are drawn on paper."""
    from variants import catalogue
    from variants.pictures import board_picture

    four = board_picture(catalogue.get("TacticToy-4D"), "TacticToy-4D")
    assert four.count("<rect") == 9 and "drawn as 9 slices of 3×3" in four
    three = {"name": "t", "board": {"type": "nested"},
             "nested": {"side": 3, "depth": 1, "dimensions": 3}}  # fmt: skip
    assert board_picture(three).count("<rect") == 3
    flat = board_picture({"name": "u", "board": {"type": "nested"}})
    assert flat.count("<rect") == 1  # two dimensions: one board, as before
