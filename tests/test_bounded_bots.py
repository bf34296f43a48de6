"""Every bot's move and every tournament game keeps a wall-clock limit, inside a rollout
too (issue 39): a game that lasts hundreds of thousands of moves (stationary pieces whose
captives reincarnate two for one) must not hold a bot, a daphne thread or a worker."""

import copy
import random
import time

import pytest

from gamecore.bots import make_agent
from gamecore.bots.common import Budget, rewards, rollout
from gamecore.engine import compile_game
from tests.test_endless_games import ENDLESS

LONG = 400_000  # moves: a second or more of random play, far over any limit below


def long_game():
    """The endless breeder with a move limit far off (a copy: compiled games are shared)."""
    game = copy.copy(compile_game(ENDLESS))
    game.ply_limit = LONG
    return game


def test_a_rollout_stops_at_its_deadline_and_counts_as_a_draw():
    state = long_game().new_initial_state(seed=1)
    clock = time.perf_counter()
    n = rollout(state, random.Random(1), Budget(0.02))
    assert time.perf_counter() - clock < 0.5
    assert state.outcome is None and 0 < n < LONG
    assert rewards(state.outcome, 2) == [0.5, 0.5]


def test_a_rollout_stops_at_a_move_cap():
    state = long_game().new_initial_state(seed=1)
    assert rollout(state, random.Random(1), moves=100) == 100 and state.outcome is None


@pytest.mark.parametrize("spec", ["mcts:1000", "hard", "medium"])
def test_a_bots_move_keeps_its_time_limit_inside_rollouts(spec):
    state = long_game().new_initial_state(seed=2)  # most random games from here go long
    agent = make_agent(spec, seed=1, time_limit=0.05)
    clock = time.perf_counter()
    move = agent.choose(state, state.to_move()[0])
    assert time.perf_counter() - clock < 0.6
    assert move in state.legal_moves(state.to_move()[0])


def test_a_tournament_game_over_its_time_ends_as_a_draw_with_a_reason(settings):
    from tournaments.bot_games import TIME_LIMIT, play_timed

    settings.TOURNAMENT_GAME_SECONDS = 0.2
    beats = []
    agents = [make_agent("random", seed=1), make_agent("random", seed=3)]
    clock = time.perf_counter()
    state, moves = play_timed(long_game(), agents, seed=3, heartbeat=lambda: beats.append(1))
    assert time.perf_counter() - clock < 1.5
    out = state.outcome
    assert out.results == ("draw", "draw") and out.reason == TIME_LIMIT
    assert out.detail == f"Time limit reached (0.2 s for the game, {len(moves):,} moves): draw"
    assert len(beats) == len(moves)  # the batch's runner says it is alive, move by move


def test_the_analysis_difficulty_keeps_its_deadline_inside_a_move():
    from variants.analysis.selfplay import difficulty

    clock = time.perf_counter()
    result = difficulty(long_game(), 10, seed=0, seconds=0.3)
    assert time.perf_counter() - clock < 1.5
    assert result["level"] is None  # no game of a long breeder finishes in 0.3 s


def test_a_game_bound_given_is_the_one_said():
    from tournaments.bot_games import play_timed

    agents = [make_agent("random", seed=1), make_agent("random", seed=3)]
    state, moves = play_timed(long_game(), agents, seed=3, seconds=0.1)
    assert state.outcome.detail.startswith("Time limit reached (0.1 s for the game, ")
