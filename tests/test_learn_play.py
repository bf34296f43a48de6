"""Studying matches and playing them (gamecore/learn/study.py, agent.py): the samples
of a match's log; the AI's move by the plan's score, legal in every family, blind to
hidden pieces, its prediction recorded."""

import math

import numpy as np
import pytest
from learn_helpers import game, play_to_end, trained
from test_learn_features import blotto_twins

from gamecore.bots.common import for_seat
from gamecore.engine import IllegalMove
from gamecore.learn import ALGORITHMS, LABELS, Learner, layout_for
from gamecore.learn.agent import UNSEEN_DAYS, LearnerAgent, scores
from gamecore.learn.model import position_keys
from gamecore.learn.study import random_match, samples_from_match

TTT_WIN = ("1,1,1", "1,2,1", "2,1,1", "2,2,1", "3,1,1")  # black wins on the top row


def test_a_match_becomes_the_movers_views_labelled_with_their_results():
    g = game("Tic-Tac-Toe")
    layout = layout_for(g)
    X, y = samples_from_match(g, list(TTT_WIN), {0: "win", 1: "loss"}, {1: "strategic"}, 0)
    assert list(y) == ["win", "strategic_lose", "win", "strategic_lose", "win"]
    state = g.new_initial_state(seed=0)
    for i, text in enumerate(TTT_WIN):
        mover = state.to_move()[0]
        state.apply(mover, g.parse_move(text))
        assert np.array_equal(X[i], layout.encode(state.view(mover), mover))


def test_seats_left_out_of_results_are_not_studied_and_pairs_name_the_mover():
    g = game("Tic-Tac-Toe")
    moves = [(i % 2, text) for i, text in enumerate(TTT_WIN)]
    X, y = samples_from_match(g, moves, {1: "lose"}, None, 0)
    assert len(X) == 2 and list(y) == ["lose", "lose"]


def test_a_log_that_does_not_replay_is_refused():
    g = game("Tic-Tac-Toe")
    with pytest.raises(IllegalMove):
        samples_from_match(g, ["1,1,1", "1,1,1"], {0: "win", 1: "lose"}, None, 0)


def test_a_random_match_replays_from_its_seed():
    g = game("3Blotto13")  # a cloaked game: the set-up and the fog replay too
    moves, results, seed = random_match(g, 4)
    X, y = samples_from_match(g, moves, results, None, seed)
    assert len(X) == len(moves) and set(y) <= set(LABELS)


def test_the_score_is_the_plans_formula():
    prob = np.array([[0.5, 0.1, 0.2, 0.1, 0.05, 0.05]])  # LABELS order
    assert LABELS == ("win", "unstrategic_win", "lose", "strategic_lose", "draw",
                      "unstrategic_draw")  # fmt: skip
    # tScore = .5·(.5+.1) − .5·(.2+.1) = .15; sScore = (.5+.1) − (.2+.1+.05) = .25
    even = {"offense": 0.5, "tactical": 0.5, "faith": 1.0}
    assert scores(prob, even, [0])[0] == pytest.approx(0.2)
    assert scores(prob, {**even, "tactical": 1.0}, [0])[0] == pytest.approx(0.15)
    assert scores(prob, {**even, "offense": 1.0, "tactical": 1.0}, [0])[0] == pytest.approx(0.6)
    # Faith^(ln(t+20)/3): half faith, studied today / 10 days ago / never (UNSEEN_DAYS)
    half = {**even, "faith": 0.5}
    for t, days in ((0, 0), (10, 10), (UNSEEN_DAYS, None)):
        want = 0.2 * 0.5 ** (math.log(t + 20) / 3)
        assert scores(prob, half, [days])[0] == pytest.approx(want)
    assert scores(prob, {**even, "faith": 0.0}, [0])[0] == 0


@pytest.mark.parametrize("algorithm", list(ALGORITHMS))
def test_each_classifier_plays_legal_moves_to_the_end(algorithm):
    g = game("Tic-Tac-Toe")
    agent = LearnerAgent(trained(g, algorithm, matches=30), seed=1)
    _state, chosen = play_to_end(g, agent, seed=2)
    assert chosen
    p = agent.last_prediction
    assert p["label"] == max(p["probabilities"], key=p["probabilities"].get)
    assert set(p["probabilities"]) == set(LABELS)
    assert sum(p["probabilities"].values()) == pytest.approx(1)


@pytest.mark.parametrize(
    "name", ["Tapatan", "Ultimate-Tic-Tac-Toe", "RockPaperScissors", "3Blotto13", "3P-Notakto"]
)
def test_it_plays_every_family(name):
    """Moving pieces, nested boards, simultaneous rounds, cloaking, three players."""
    g = game(name)
    play_to_end(g, LearnerAgent(trained(g, matches=8), seed=1), seed=3)


def test_it_takes_a_win_in_one():
    g = game("Tic-Tac-Toe")
    agent = LearnerAgent(trained(g, matches=300), seed=1)
    state = g.new_initial_state(seed=0)
    for text in ("1,1,1", "1,2,1", "2,1,1", "2,2,1"):
        state.apply(state.to_move()[0], g.parse_move(text))
    assert str(agent.choose(state, 0)) == "3,1,1"
    assert agent.last_prediction["label"] == "win"


def test_ties_fall_at_random_by_the_seed():
    """Faith 0 zeroes every score: the choice is the seeded tie-break alone."""
    g = game("3on5sq")
    learner = Learner.new("perceptron", {}, {"faith": 0.0}, seed=1)
    state = g.new_initial_state(seed=0)
    picks = {seed: str(LearnerAgent(learner, seed=seed).choose(state, 0)) for seed in range(6)}
    assert len(set(picks.values())) > 1
    assert str(LearnerAgent(learner, seed=3).choose(state, 0)) == picks[3]


def test_its_choice_ignores_hidden_pieces():
    g, a, b = blotto_twins()
    learner = trained(g, matches=30)
    for given in (lambda s: for_seat(s, 0), lambda s: s):  # its seat's position, or the truth
        agents = [LearnerAgent(learner, seed=5) for _ in (a, b)]
        moves = [str(agent.choose(given(s), 0)) for agent, s in zip(agents, (a, b), strict=True)]
        assert moves[0] == moves[1]
        assert moves[0] in [str(m) for m in a.legal_moves(0)]
        assert agents[0].last_prediction == agents[1].last_prediction
        # everything it scored was the same, move for move
        (m1, x1), (m2, x2) = (LearnerAgent(learner, seed=5).candidates(given(s), 0) for s in (a, b))
        assert m1 == m2 and np.array_equal(x1, x2)


def test_the_hidden_information_test_would_catch_a_peek():
    """The control: an agent that searched from the truth would score different positions
    in the twins (a trained model may still happen to pick the same move)."""
    from gamecore.engine.general.state import GeneralState

    class Peeking(LearnerAgent):
        def _root(self, state, seat):
            return state.clone(GeneralState)

    g, a, b = blotto_twins()
    (_, x1), (_, x2) = (Peeking(trained(g, matches=3)).candidates(s, 0) for s in (a, b))
    assert not np.array_equal(x1, x2)


def test_days_since_study_come_from_the_learners_map_or_recent():
    g = game("Tic-Tac-Toe")
    learner = Learner.new("logistic_regression", {}, {}, seed=1)
    X, y = samples_from_match(g, list(TTT_WIN), {0: "win", 1: "lose"}, None, 0)
    learner.partial_fit(X, y, day=1000, game=g)
    keys = position_keys(X)
    assert learner.days_since(keys, day=1010) == [10] * len(keys)
    assert learner.days_since(position_keys(np.zeros((1, X.shape[1]))), 1010) == [None]
    agent = LearnerAgent(learner, recent={int(keys[0]): 1005}, day=1010)
    assert agent._days(keys[:2]) == [5, None]


def test_a_model_of_one_game_refuses_another():
    learner = trained(game("Tic-Tac-Toe"), matches=3)
    c4 = game("Connect4")
    with pytest.raises(ValueError, match="Tic-Tac-Toe"):
        LearnerAgent(learner).choose(c4.new_initial_state(seed=0), 0)
