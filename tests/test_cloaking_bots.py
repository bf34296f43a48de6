"""Bots that do not peek (issue 20): a bot in a cloaked game is given its seat's
position, and its choice does not change when only pieces hidden from it change."""

import random

import pytest
from cloak_helpers import blotto_game

from gamecore.bots import make_agent
from gamecore.bots.arena import play_game
from gamecore.bots.common import for_seat, sample_root


def twins():
    """Two Blotto positions that differ only in where white's soldiers stand (hidden
    from black), black to move."""
    game = blotto_game()
    a, b = game.new_initial_state(seed=1), game.new_initial_state(seed=1)
    for s, texts in ((a, ("b1:1,1", "b1:2,1", "b2:1,1", "b1:2,1")),
                     (b, ("b1:1,1", "b3:2,1", "b2:1,1", "b3:2,1"))):  # fmt: skip
        for text in texts:
            s.apply(s.to_move()[0], game.parse_move(text))
    assert a.board != b.board and a.to_move() == b.to_move() == (0,)
    return a, b


@pytest.mark.parametrize("spec", ["random", "easy", "medium", "hard:2", "mcts:300"])
def test_a_bots_choice_does_not_change_when_only_hidden_pieces_change(spec):
    a, b = twins()
    choices = []
    for state in (a, b):
        agent = make_agent(spec, seed=5)
        choices.append(str(agent.choose(for_seat(state, 0), 0)))
    assert choices[0] == choices[1]
    assert choices[0] in [str(m) for m in a.legal_moves(0)]


def test_a_bot_is_given_the_seats_position_not_the_truth():
    a, _b = twins()
    mine = for_seat(a, 0)
    assert mine.board != a.board  # white's soldiers are not in it
    assert sum(c > 0 for c in mine.board) == 2  # black's own two
    root = sample_root(mine, 0, random.Random(1))  # MCTS and alpha-beta search this
    assert sum(c > 0 for c in root.board) == 4  # white's two drawn somewhere


def test_bots_play_cloaked_games_to_the_end():
    state, moves = play_game(blotto_game(), [make_agent("mcts:50", seed=1), make_agent("random")])
    assert state.is_terminal() and moves == 26


def test_the_twins_differ_for_a_bot_that_peeks():
    """The control: given the truth, the same bots choose differently in the twins, so
    the test above would catch a bot that reads hidden pieces."""
    from gamecore.engine.general.state import GeneralState

    a, b = twins()
    for spec in ("hard:2", "mcts:300"):
        peeks = [str(make_agent(spec, seed=5).choose(s.clone(GeneralState), 0)) for s in (a, b)]
        assert peeks[0] != peeks[1], spec


@pytest.mark.parametrize("name", ["3Blotto13", "KBeauty9", "Shopping9"])
def test_bots_play_every_cloaked_catalogue_game_to_the_end(name):
    from gamecore.engine import compile_game
    from variants import catalogue

    game = compile_game(catalogue.get(name))
    players = game.nseats - (game.chaos is not None)
    specs = ["mcts:40", "hard:1", "medium", "random"][:players]
    agents = [make_agent(spec, seed=i) for i, spec in enumerate(specs)]
    state, moves = play_game(game, agents, seed=3)
    assert state.is_terminal() and moves > 0


def test_a_tournament_game_of_a_cloaked_game_gives_bots_their_seats_position(monkeypatch):
    from tournaments.services import play_timed

    given = []
    agent = make_agent("mcts:30", seed=1)
    real = agent.choose
    monkeypatch.setattr(
        agent, "choose", lambda s, seat: given.append(type(s).__name__) or real(s, seat)
    )
    state, moves = play_timed(blotto_game(), [agent, make_agent("random", seed=2)], seed=4)
    assert state.is_terminal() and len(moves) == 26
    assert given and set(given) == {"SeatState"}
