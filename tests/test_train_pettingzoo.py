"""Every catalogue game as a PettingZoo AEC environment (gamecore/train): PettingZoo's own
api_test, seeded resets, the action mask equal to the engine's legal moves, and every
legal move of random games numbered in the game's fixed move universe."""

import json
import random
from pathlib import Path

import pytest

try:
    import pettingzoo  # noqa: F401
    from pettingzoo.test import api_test
except ImportError:  # pragma: no cover - make test installs it
    pytest.skip(
        "PETTINGZOO IS NOT INSTALLED: THE PETTINGZOO ENVIRONMENT TESTS WERE SKIPPED "
        "(pip install -r requirements.txt)",
        allow_module_level=True,
    )

from gamecore.engine import compile_game
from gamecore.train.actions import universe_for
from gamecore.train.pettingzoo_env import env

GAMES = Path(__file__).resolve().parent.parent / "variants" / "catalogue" / "games"
NAMES = sorted(p.stem for p in GAMES.glob("*.json"))


def doc(name: str) -> dict:
    return json.loads((GAMES / f"{name}.json").read_text())


def test_the_catalogue_is_there():
    assert len(NAMES) >= 50 and "Tic-Tac-Toe" in NAMES


@pytest.mark.parametrize("name", NAMES)
def test_pettingzoo_api_test_passes(name):
    api_test(env(doc(name), seed=3), num_cycles=12)


def play_random(e, seed: int, check_mask: bool, limit: int = 10_000):
    """Plays a random legal action each step; the trace of (agent, action, reward)."""
    rng = random.Random(seed)
    trace = []
    for agent in e.agent_iter(max_iter=limit):
        obs, reward, terminated, truncated, _info = e.last()
        if terminated or truncated:
            trace.append((agent, None, reward))
            e.step(None)
            continue
        mask = obs["action_mask"]
        seat = int(agent.split("_")[1])
        if check_mask:
            legal = e.state.legal_moves(seat)
            expected = sorted(e.moves.index(m) for m in legal)
            assert sorted(int(i) for i in mask.nonzero()[0]) == expected
            assert len(set(expected)) == len(legal)  # one number per move
            assert seat in e.state.to_move()
        action = rng.choice(mask.nonzero()[0].tolist())
        trace.append((agent, action, reward))
        e.step(action)
    return trace


@pytest.mark.parametrize(
    "name", ["Tic-Tac-Toe", "Achi", "3P-PublicGoods", "RockPaperScissors", "3P-9X-HideSeek"]
)
def test_the_action_mask_is_the_legal_moves_and_games_end_with_outcome_rewards(name):
    e = env(doc(name))
    for seed in range(3):
        e.reset(seed=seed)
        trace = play_random(e, seed, check_mask=True)
        assert not e.agents, "the game ended and every agent was stepped out"
        finals = {a: r for a, act, r in trace if act is None}
        results = e.state.outcome.results
        assert finals == {
            f"player_{s}": {"win": 1.0, "loss": -1.0, "draw": 0.0}[results[s]]
            for s in range(e.game.nseats)
            if s != e.game.chaos
        }


def test_a_seat_not_to_move_has_an_empty_mask_and_sees_only_its_view():
    e = env(doc("Tic-Tac-Toe"))
    e.reset(seed=0)
    assert e.agent_selection == "player_0"
    assert e.observe("player_1")["action_mask"].sum() == 0
    assert e.observe("player_0")["action_mask"].sum() == 9
    e.step(e.action_of("2,2,1"))
    assert e.state.view(0)["last_move"] == "2,2,1"
    assert e.agent_selection == "player_1"
    assert e.move_text(e.action_of("1,1,1")) == "1,1,1"
    with pytest.raises(ValueError):
        e.step(e.action_of("2,2,1"))  # taken: not legal


def test_simultaneous_plans_stay_hidden_until_the_round_resolves():
    e = env(doc("RockPaperScissors"))
    e.reset(seed=0)
    seen = set()
    choices = e.observe("player_0")["action_mask"].nonzero()[0].tolist()
    assert len(choices) == 3
    for action in choices:  # whatever player_0 plans, player_1 observes the same
        e.reset(seed=0)
        assert e.agent_selection == "player_0"
        e.step(action)
        assert e.agent_selection == "player_1"  # still to plan: its turn in AEC order
        assert e.state.pending_plans(), "the round has not resolved"
        seen.add(e.observe("player_1")["observation"].tobytes())
    assert len(seen) == 1


@pytest.mark.parametrize("name", ["Tic-Tac-Toe", "3P-Volunteer", "Ultimate-Open", "3P-BoS"])
def test_seeded_reset_is_reproducible(name):
    e = env(doc(name))
    traces = []
    for _ in range(2):
        e.reset(seed=11)
        traces.append(play_random(e, 5, check_mask=False))
    assert traces[0] == traces[1]
    e.reset(seed=11)
    first = e.observe(e.agent_selection)["observation"]
    e.reset(seed=11)
    assert (e.observe(e.agent_selection)["observation"] == first).all()


@pytest.mark.parametrize("name", NAMES)
def test_every_legal_move_of_random_games_has_its_own_action(name):
    game = compile_game(doc(name))
    universe = universe_for(game)
    rng = random.Random(name)
    for seed in range(2):
        state = game.new_initial_state(seed=seed)
        plies = 0
        while not state.is_terminal() and plies < 400:
            for seat in state.to_move():
                legal = state.legal_moves(seat)
                numbers = [universe.index(m) for m in legal]
                assert all(0 <= n < universe.size for n in numbers)
                assert len(set(numbers)) == len(legal)
            seat = state.to_move()[0]
            state.apply(seat, rng.choice(state.legal_moves(seat)))
            plies += 1


SIMULTANEOUS = ["4P-Conformist", "4P-TrendSetter", "RockPaperScissors"]


@pytest.mark.parametrize("name", SIMULTANEOUS)
def test_pettingzoo_parallel_api_test_passes_on_the_simultaneous_games(name):
    from pettingzoo.test import parallel_api_test

    from gamecore.train.pettingzoo_parallel import parallel_env

    parallel_api_test(parallel_env(doc(name), seed=2), num_cycles=20)


def test_the_parallel_env_is_only_for_games_simultaneous_throughout():
    from gamecore.train.pettingzoo_parallel import parallel_env, simultaneous_throughout

    assert [n for n in NAMES if simultaneous_throughout(compile_game(doc(n)))] == SIMULTANEOUS
    with pytest.raises(ValueError, match="AEC"):
        parallel_env(doc("Tic-Tac-Toe"))
