"""A game's analysis: the figures against known results, the card on a game's page, and
the task through a real Celery worker on its own queue."""

from __future__ import annotations

import math
import time

import pytest

from gamecore.engine import compile_game
from tests.play_helpers import rule_set
from variants import catalogue
from variants.analysis import ANALYSIS_VERSION, analyse, related
from variants.analysis.sampling import random_games, wilson
from variants.analysis.selfplay import difficulty
from variants.analysis.solve import solve


def game(name: str):
    return compile_game(catalogue.get(name))


def within(rate: float, expected: float, n: int, sigmas: float = 4.0) -> bool:
    return abs(rate - expected) <= sigmas * math.sqrt(expected * (1 - expected) / n)


# --- checked against known results -----------------------------------------------------------


def test_random_tic_tac_toe_matches_the_exact_probabilities():
    """Exact, from the probability-weighted tree of all 255,168 games: X 58.49%, O 28.81%,
    draws 12.70%."""
    n = 20_000
    tally = random_games(game("Tic-Tac-Toe"), n, seed=3).summary()
    x, o = (w["rate"] for w in tally["wins"])
    assert tally["games"] == n
    assert within(x, 0.5849, n) and within(o, 0.2881, n), (x, o)
    assert within(tally["draws"]["rate"], 0.1270, n)
    assert 5 <= tally["length"]["min"] and tally["length"]["max"] == 9


def test_the_deadline_holds_inside_a_game():
    """The factory's estimate runs in the request: a game whose random games run to the
    ply limit (pieces that move, nothing ends them) must not hold it past its deadline, so
    a deadline already passed plays no whole game (it used to play the first to its end)."""
    tapatan_forever = game("Tapatan").doc.model_copy(update={"turn_checks": ()})
    from gamecore.engine import compile_game

    long_game = compile_game(tapatan_forever)
    assert random_games(long_game, 5, seed=1, seconds=0.0).games == 0
    assert random_games(game("Tic-Tac-Toe"), 5, seed=1).games == 5  # no deadline: all


def test_random_connect4_first_player_wins_more():
    """Under random play: first 55.8%, second 44.0%, draws 0.3% (100,000 games)."""
    n = 3_000
    tally = random_games(game("Connect4"), n, seed=5).summary()
    first, second = (w["rate"] for w in tally["wins"])
    assert within(first, 0.558, n) and within(second, 0.440, n), (first, second)


def test_tic_tac_toe_is_solved_a_draw_and_connect4_is_not_guessed():
    solved = solve(game("Tic-Tac-Toe"))
    assert solved["solved"] and solved["value"] == 0 and solved["words"] == "draw"
    out_of_reach = solve(game("Connect4"), budget=2_000)
    assert out_of_reach == {"solved": False, "why": "more than 2,000 positions"}
    assert solve(game("3P-Notakto"))["solved"] is False  # three players: no minimax value


def test_a_first_player_win_is_found():
    """1×3 board, 2 in a row wins: X takes the centre and wins next move."""
    doc = {"name": "Tiny", "board": {"type": "squares", "size": [3, 1, 1]},
           "turn_checks": [{"k": 2, "result": "wins"}]}  # fmt: skip
    assert solve(compile_game(doc))["value"] == 1


def test_difficulty_is_bounded_and_says_when_it_cannot_tell():
    skill = difficulty(game("Tic-Tac-Toe"), 12, seed=1, seconds=20)
    assert skill["games"] == 12 and 0 <= skill["level"] <= 100
    assert skill["level"] == round(max(0.0, skill["share"] - 0.5) * 200)
    thin = difficulty(game("Tic-Tac-Toe"), 3, seed=1)
    assert thin["level"] is None


def test_wilson_interval():
    low, high = wilson(50, 100)
    assert low < 0.5 < high and round(high - low, 2) == 0.19
    assert wilson(0, 10)[0] == 0.0


def test_analyse_keeps_to_its_budget():
    started = time.perf_counter()
    report = analyse(game("Connect6-19x19"), seconds=4)
    assert time.perf_counter() - started < 12  # a game in progress may finish its move
    assert report["random"]["games"] >= 1 and report["solved"]["solved"] is False


def test_related_games_say_the_difference_in_words():
    base = {"board": {"type": "stacks", "size": [7, 1, 6]}}
    close = {"board": {"type": "stacks", "size": [7, 1, 6]}, "pieces_per_turn": 2}
    far = {"board": {"type": "squares", "size": [9, 9, 1]}, "players": "3"}
    near = related.nearest(
        close,
        "Played on 7x6 stacks; 2 pieces/turn; First 4-in-a-row wins",
        [(1, "Connect4", base, "Played on 7x6 stacks; First 4-in-a-row wins"),
         (2, "Far", far, "Played on 9x9 squares; 3 Player; First 4-in-a-row wins")],
    )  # fmt: skip
    assert near[0]["name"] == "Connect4" and near[0]["words"] == (
        "Like Connect4, but 2 pieces a turn instead of 1"
    )


# --- on the site ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_card_on_a_games_page(client, settings):
    from variants.analysis_jobs import run_analysis
    from variants.models import GameAnalysis

    ttt = rule_set("Tic-Tac-Toe")
    html = client.get(f"/games/{ttt.pk}/").content.decode()
    assert 'data-testid="analysis-progress"' in html  # queued: the workers will make it
    assert client.get(f"/games/{ttt.pk}/analysis/").json()["status"] == "queued"
    assert run_analysis(ttt.pk, seconds=3)
    row = GameAnalysis.objects.get(rule_set=ttt)
    assert row.status == "done" and row.result["solved"]["value"] == 0
    html = client.get(f"/games/{ttt.pk}/").content.decode()
    assert "Yes: with perfect play, draw" in html and "Player 1 wins" in html
    assert 'data-chart-kind="bar"' in html and "analysis-balance-data" in html
    assert client.get(f"/games/{ttt.pk}/analysis/").json()["status"] == "done"


@pytest.mark.django_db(transaction=True)
def test_the_task_runs_on_a_real_worker_of_its_queue(tmp_path, catalogue):
    from tests.conftest import running_worker
    from variants.analysis_jobs import request_analysis
    from variants.models import GameAnalysis

    ttt = rule_set("Tic-Tac-Toe")
    with running_worker(tmp_path, "analysis", ANALYSIS_SECONDS="6"):
        request_analysis(ttt)
        deadline = time.monotonic() + 60
        while GameAnalysis.objects.get(rule_set=ttt).status != "done":
            assert time.monotonic() < deadline, GameAnalysis.objects.get(rule_set=ttt).status
            time.sleep(0.2)
    result = GameAnalysis.objects.get(rule_set=ttt).result
    assert result["random"]["games"] > 100 and result["version"] == ANALYSIS_VERSION
    assert result["solved"].get("words", "draw") == "draw"  # a busy machine may run out


@pytest.mark.django_db
def test_the_factory_estimates_before_saving(client, creator):
    client.force_login(creator)
    form = {"family": "flat", "name": "Est", "board_type": "squares", "size_x": "3",
            "size_y": "3", "size_z": "1", "check": "3-wins-d", "shape": "circle",
            "reserve-black-1": "5", "reserve-white-1": "4"}  # fmt: skip
    html = client.post("/games/new/refresh/", form).content.decode()
    line = html[html.index('data-testid="quick-estimate"') :][:300]
    assert "random games, Player 1 wins" in line and "nobody wins" in line
    html = client.post("/games/new/refresh/", {**form, "check": []}).content.decode()
    assert "Nobody won any of 300 random games" in html


@pytest.mark.django_db
def test_the_games_list_sorts_by_the_analysis(client):
    from variants.analysis_jobs import run_analysis

    ttt, c4, notakto = rule_set("Tic-Tac-Toe"), rule_set("Connect4"), rule_set("3P-Notakto")
    for game in (ttt, c4):
        assert run_analysis(game.pk, seconds=2)

    def names(sort: str) -> list[str]:
        html = client.get("/games/", {"sort": sort}).content.decode()
        found = [n for n in ("Tic-Tac-Toe", "Connect4", "3P-Notakto") if f">{n}</a>" in html]
        return sorted(found, key=lambda n: html.index(f">{n}</a>"))

    assert names("long") == ["Connect4", "Tic-Tac-Toe", "3P-Notakto"]  # unanalysed last
    assert names("short") == ["Tic-Tac-Toe", "Connect4", "3P-Notakto"]
    assert names("drawish")[0] == "Tic-Tac-Toe"
    assert names("balanced")[0] == "Connect4"  # 55/44 under random play, against 58/29
    html = client.get("/games/", {"sort": "long"}).content.decode()
    assert 'data-testid="game-figures"' in html and "moves" in html
    assert client.get("/games/", {"sort": "sideways"}).status_code == 400
    assert notakto.pk  # listed, with no figures yet


@pytest.mark.django_db
def test_an_analysis_by_other_engine_code_is_made_again(client):
    from variants.analysis_jobs import run_analysis
    from variants.models import GameAnalysis

    ttt = rule_set("Tic-Tac-Toe")
    assert run_analysis(ttt.pk, seconds=1)
    assert GameAnalysis.objects.get(rule_set=ttt).version == ANALYSIS_VERSION
    GameAnalysis.objects.filter(rule_set=ttt).update(version="1-an0ldengine")
    client.get(f"/games/{ttt.pk}/")  # the page asks for a current one
    assert GameAnalysis.objects.get(rule_set=ttt).status == "queued"


@pytest.mark.django_db
def test_the_games_list_filters_by_the_analysis(client):
    from variants.analysis_jobs import run_analysis

    ttt, c4 = rule_set("Tic-Tac-Toe"), rule_set("Connect4")
    for game in (ttt, c4):
        assert run_analysis(game.pk, seconds=2)

    def shown(show: str) -> set[str]:
        html = client.get("/games/", {"show": show}).content.decode()
        return {n for n in ("Tic-Tac-Toe", "Connect4", "Qubic-4") if f">{n}</a>" in html}

    assert shown("") == {"Tic-Tac-Toe", "Connect4", "Qubic-4"}
    assert shown("quick") == {"Tic-Tac-Toe"}  # 7.7 moves; Connect4 21; Qubic not analysed
    assert shown("drawish") == set()  # Tic-Tac-Toe's random games: 13% drawn
    assert client.get("/games/", {"show": "weird"}).status_code == 400
