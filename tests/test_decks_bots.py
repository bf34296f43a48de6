"""Bots and dealt pieces (issue 34): a bot sees what its seat sees. The one path that
fills in hidden information, ``sample_root`` -> ``determinise`` (cloaked games), draws
from what the seat knows only, never from the deal: two deals the seat cannot tell
apart give every bot the same position to search and the same move."""

import random

import pytest

from gamecore.bots import make_agent
from gamecore.bots.common import for_seat, sample_root
from gamecore.engine import compile_game

EVERY_SPACE = [{"at": [x, y, 1]} for y in (1, 2, 3) for x in (1, 2, 3)]


def _game(deck, dealt):
    return compile_game(
        {
            "name": "BlindDeal",
            "board": {"type": "hash", "size": [3, 3, 1]},
            "cloaking": "hides",
            "phases": [{"cloaked": EVERY_SPACE}],
            "deck": deck,
            "dealt": dealt,
        }
    )


def _dealt(state):
    assert state.outcome is None  # (a finished game shows everything)
    g = state.game
    return tuple(state.board[space] for space, _seat in g.dealt)


def _twins(game, same_for_seat: int):
    """Two matches whose deals differ but look the same to ``same_for_seat``."""
    first = game.new_initial_state(seed=0)
    for seed in range(1, 200):
        other = game.new_initial_state(seed=seed)
        if _dealt(other) != _dealt(first) and (
            other.seat_state(same_for_seat).board == first.seat_state(same_for_seat).board
        ):
            return first, other
    raise AssertionError("no two such deals in 200 seeds")


COMMON = ("[{ O1 O2 S S }]", EVERY_SPACE[:4])
# Seat 2 is dealt two cards face down; seat 1 sees none of them.
SEAT_TWO = (
    "[{ O O S S }]",
    [{"at": [x, 1, 1], "seat": 2} for x in (1, 2, 3)] + [{"at": [1, 2, 1]}],
)


@pytest.mark.parametrize("deck, dealt", [COMMON, SEAT_TWO], ids=["common", "seat-2"])
def test_a_bot_searches_only_what_its_seat_sees(deck, dealt):
    first, other = _twins(_game(deck, dealt), same_for_seat=0)
    assert any(c > 0 for c in _dealt(first) + _dealt(other))  # something was dealt
    assert for_seat(first, 0).board == for_seat(other, 0).board
    for seed in range(5):
        a = sample_root(first, 0, random.Random(seed))
        b = sample_root(other, 0, random.Random(seed))
        assert a.board == b.board  # the sampled world does not depend on the hidden deal


@pytest.mark.parametrize("spec", ["random", "easy", "medium", "hard:2", "mcts:200"])
def test_every_bot_moves_the_same_on_deals_its_seat_cannot_tell_apart(spec):
    first, other = _twins(_game(*COMMON), same_for_seat=0)
    moves = [make_agent(spec, seed=7).choose(s, 0) for s in (first, other)]
    assert str(moves[0]) == str(moves[1])


def test_a_seat_sees_its_own_dealt_cards():
    """The control for the tests above: what a seat may see does reach its bot."""
    game = _game(*SEAT_TWO)
    views = {game.new_initial_state(seed=s).seat_state(1).board.count(0) for s in range(30)}
    assert len(views) > 1  # seat 2's own cards (0, 1 or 2 of them) show in its view
