"""Every catalogue game as an OpenSpiel game (gamecore/train/openspiel_game.py): OpenSpiel's
own random-simulation consistency test, its state enumeration against its own
Tic-Tac-Toe, its MCTS bot, and the seat's view as the information state."""

import json
from pathlib import Path

import pytest

try:
    import pyspiel
    from open_spiel.python.algorithms import get_all_states, mcts
except ImportError:  # pragma: no cover - make test installs it
    pytest.skip(
        "OPEN_SPIEL IS NOT INSTALLED: THE OPENSPIEL GAME TESTS WERE SKIPPED "
        "(pip install -r requirements.txt)",
        allow_module_level=True,
    )

import numpy as np

from gamecore.train.openspiel_game import load_variant

GAMES = Path(__file__).resolve().parent.parent / "variants" / "catalogue" / "games"
NAMES = sorted(p.stem for p in GAMES.glob("*.json"))
# Played out by random_sim_test in benchmarks only: one simulation takes 1-15 s here
# (hundreds of plies, each with OpenSpiel's checks of every observation).
BIG = {
    "5on15sq",
    "Connect6-19x19",
    "Strategic-Hypermap",
    "Strategic-Map",
    "Strategic-Tactical",
    "TacticToy-3D",
    "TacticToy-4Teams",
}


def game(name: str, **kwargs):
    return load_variant(json.loads((GAMES / f"{name}.json").read_text()), **kwargs)


@pytest.mark.parametrize("name", [n for n in NAMES if n not in BIG])
def test_openspiel_random_simulation_checks_pass(name):
    pyspiel.random_sim_test(game(name), num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("name", sorted(BIG))
def test_big_games_load_and_play_a_few_plies(name):
    g = game(name)
    state = g.new_initial_state()
    rng = np.random.RandomState(0)
    for _ in range(6):
        state.apply_action(rng.choice(state.legal_actions()))
        assert state.clone().history() == state.history()


def test_tic_tac_toe_has_the_same_states_as_openspiels_own():
    ours = get_all_states.get_all_states(game("Tic-Tac-Toe"), depth_limit=4)
    theirs = get_all_states.get_all_states(pyspiel.load_game("tic_tac_toe"), depth_limit=4)
    assert len(ours) == len(theirs) == 5050
    legal_counts = sorted(len(s.legal_actions()) for s in ours.values())
    assert legal_counts == sorted(len(s.legal_actions()) for s in theirs.values())


@pytest.mark.parametrize("name", ["RockPaperScissors", "BoS", "PrisonerDilemma", "NeedyDictator"])
def test_small_games_enumerate_completely(name):
    states = get_all_states.get_all_states(game(name), include_chance_states=True)
    assert any(s.is_terminal() for s in states.values())
    for s in states.values():
        if s.is_terminal():
            assert all(r in (-1.0, 0.0, 1.0) for r in s.returns())


def test_openspiel_mcts_beats_random_at_tic_tac_toe():
    g = game("Tic-Tac-Toe")
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(g, 2, 60, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    points = 0.0
    for i in range(6):
        state = g.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == i % 2:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        points += state.returns()[i % 2]
    assert points >= 3, points  # most games won, none lost at that


def test_the_game_types_say_what_the_rules_do():
    t = game("Tic-Tac-Toe").get_type()
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    t = game("RockPaperScissors").get_type()
    assert t.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    t = game("3P-9X-HideSeek").get_type()
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC  # Chaos
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game("3P-9X-HideSeek").num_players() == 3


def test_a_chaos_seat_is_the_chance_player():
    g = game("3P-9X-HideSeek")
    state = g.new_initial_state()
    rng = np.random.RandomState(1)
    seen_chance = False
    while not state.is_terminal() and not seen_chance:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _a, p in outcomes) - 1.0) < 1e-9
            seen_chance = True
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert seen_chance


def test_a_simultaneous_round_is_one_joint_action_and_resolves_at_once():
    g = game("RockPaperScissors")
    state = g.new_initial_state()
    assert state.is_simultaneous_node()
    start = state.information_state_string(1)
    state.apply_actions([state.legal_actions(0)[0], state.legal_actions(1)[1]])
    assert state.information_state_string(1) != start  # it saw the round's moves
    assert not state.is_simultaneous_node() or state.legal_actions(0)


def test_a_cloaked_seat_information_state_is_its_own_views():
    g = game("3Blotto13")
    texts = set()
    for action in g.new_initial_state().legal_actions():  # player 0's hidden first choice
        s = g.new_initial_state()
        s.apply_action(action)
        texts.add(s.information_state_string(1))
    assert len(texts) == 1, "player 1's information state shows player 0's hidden move"


def test_random_setups_are_a_parameter():
    assert game("Tic-Tac-Toe", seed=3).get_parameters()["seed"] == 3


def test_openspiel_solvers_run_alpha_beta_on_tic_tac_toe_and_cfr_on_rock_paper_scissors():
    from open_spiel.python.algorithms import cfr, exploitability, minimax

    value, _action = minimax.alpha_beta_search(game("Tic-Tac-Toe"))
    assert value == 0.0  # Tic-Tac-Toe is a draw
    turn_based = pyspiel.convert_to_turn_based(game("RockPaperScissors"))
    solver = cfr.CFRSolver(turn_based)
    gaps = []
    for i in range(40):
        solver.evaluate_and_update_policy()
        if i in (4, 39):
            gaps.append(exploitability.nash_conv(turn_based, solver.average_policy()))
    assert gaps[1] < gaps[0] and gaps[1] < 0.4, gaps


@pytest.mark.parametrize("name", NAMES)
def test_a_game_said_zero_sum_ends_zero_sum(name):
    from gamecore.engine import compile_game

    g = game(name)
    if g.get_type().utility != pyspiel.GameType.Utility.ZERO_SUM:
        return
    engine = compile_game(json.loads((GAMES / f"{name}.json").read_text()))
    rng = np.random.RandomState(3)
    for seed in range(3 if name in BIG else 30):
        state = engine.new_initial_state(seed=seed)
        while not state.is_terminal():
            seat = state.to_move()[0]
            moves = state.legal_moves(seat)
            state.apply(seat, moves[rng.randint(len(moves))])
        values = {"win": 1, "loss": -1, "draw": 0}
        assert sum(values[r] for r in state.outcome.results) == 0, state.outcome.results


def test_a_game_and_its_states_pickle():
    import pickle

    g = game("Tic-Tac-Toe", seed=2)
    again = pickle.loads(pickle.dumps(g))
    assert again.get_parameters()["seed"] == 2 and str(again) == str(g)
    state = g.new_initial_state()
    state.apply_action(state.legal_actions()[4])
    copy = pickle.loads(pickle.dumps(state))
    assert copy.history() == state.history() and str(copy) == str(state)
