"""Shared by the tests of gamecore/learn: small curricula and a game to the end."""

import numpy as np

from gamecore.bots import RandomAgent
from gamecore.bots.arena import play_game
from gamecore.engine import compile_game
from gamecore.learn import Learner
from gamecore.learn.study import random_match, samples_from_match
from variants import catalogue


def game(name: str):
    return compile_game(catalogue.get(name))


def curriculum(g, matches: int, start: int = 0):
    """(X, y) of ``matches`` Random-vs-Random matches of ``g``."""
    xs, ys = [], []
    for i in range(start, start + matches):
        moves, results, seed = random_match(g, i)
        X, y = samples_from_match(g, moves, results, None, seed)
        xs.append(X)
        ys.append(y)
    return np.concatenate(xs), np.concatenate(ys)


def trained(g, algorithm: str = "logistic_regression", matches: int = 40, seed: int = 1):
    learner = Learner.new(algorithm, {}, {}, seed=seed)
    X, y = curriculum(g, matches)
    learner.partial_fit(X, y, game=g)
    return learner


def play_to_end(g, agent, seed: int = 0):
    """``agent`` in seat 0 against Random; every move it chose was legal (play_game
    would replace an illegal one: ``checked``), so check that here too."""
    chosen = []
    real = agent.choose

    def spy(state, seat):
        move = real(state, seat)
        assert move in state.legal_moves(seat), (str(move), seat)
        chosen.append(move)
        return move

    agent.choose = spy
    players = g.nseats - (g.chaos is not None)
    others = [RandomAgent(seed=seed + i) for i in range(1, players)]
    state, moves = play_game(g, [agent, *others], seed=seed)
    assert state.is_terminal()
    return state, chosen
