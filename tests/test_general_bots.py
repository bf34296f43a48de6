"""Bots in the general family: every bot plays Tapatan, Achi and 9-Holes to a legal end;
MCTS beats random at Tapatan and Achi (100 games each in benchmarks/general_family.py;
a bounded version here)."""

import pytest

from gamecore.bots import make_agent, play_games
from gamecore.bots.common import traits
from gamecore.engine import compile_game
from tests.test_bots import KINDS, play_checked, tally
from variants import catalogue

NEW = ["Tapatan", "Achi", "9-Holes"]


def game(name: str):
    return compile_game(catalogue.get(name))


@pytest.mark.parametrize("name", NEW)
@pytest.mark.parametrize("kind", KINDS, ids=str)
def test_every_bot_plays_legal_finished_games(name, kind):
    g = game(name)
    for seed in range(2):
        agents = [make_agent(kind, seed=seed * 10 + s) for s in range(g.nseats)]
        state, moves = play_checked(g, agents, seed)
        assert state.is_terminal() and moves
        assert any("-" in m for m in moves) or state.outcome.reason == "victory"


def test_bots_know_pieces_move_here():
    """Rollouts must not keep a stale pool of moves: in the general family moves come back."""
    assert not traits(game("Tapatan")).flat
    assert traits(compile_game(catalogue.get("Tic-Tac-Toe"))).flat


@pytest.mark.parametrize("name", ["Tapatan", "Achi"])
def test_mcts_beats_random(name):
    # Measured: 1000 simulations win 100 of 100 (benchmarks/general_family.py); 100 here.
    result = tally(game(name), "mcts:100", "random", 20, seed=3)
    assert result["wins"] >= 18, result


def test_hard_beats_random_at_tapatan():
    result = play_games(game("Tapatan"), [{"kind": "hard", "effort": 3000}, "random"], 6, seed=2)
    assert result["seats"][0]["wins"] >= 5, result


@pytest.mark.django_db
def test_variant_bench_plays_a_family():
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command(
        "variant", "bench", "--seconds", "0.05", "--only", "Tapatan,Tic-Tac-Toe,TacticToy",
        "--family", "general", stdout=out, stderr=StringIO(),
    )  # fmt: skip
    lines = out.getvalue().splitlines()
    assert any(line.split()[0] == "Tapatan" and line.endswith("general") for line in lines)
    assert any(line.split()[0] == "Tic-Tac-Toe" and line.endswith("general") for line in lines)
    assert not any("TacticToy" in line for line in lines)  # not a general-family game


@pytest.mark.parametrize("name", ["chain", "ranks", "by-stack", "reversi", "locks", "forward"])
def test_every_bot_plays_captures_locks_and_stacks(name):
    from tests.test_general_properties import game_of

    g = game_of(name)
    for kind in ["random", "medium", {"kind": "hard", "effort": 1000}, "mcts:30"]:
        agents = [make_agent(kind, seed=s) for s in range(g.nseats)]
        state, _moves = play_checked(g, agents, 1)
        assert state.is_terminal()
