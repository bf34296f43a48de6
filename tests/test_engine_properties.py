"""Property tests over every catalogue game: random legal play always ends with an
outcome; an illegal move raises IllegalMove and changes nothing; views are JSON."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gamecore.engine import IllegalMove
from gamecore.engine.moves import PLACE, SPECIAL, Move
from tests.engine_helpers import game
from variants import catalogue

NAMES = catalogue.names()
BIG = ("5on15sq", "Connect6-19x19", "Ultimate-Checked", "Strategic-Tactical",
       "Strategic-Map", "Strategic-Hypermap", "TacticToy-3D")  # fmt: skip
SMALL = [n for n in NAMES if n not in BIG]


def random_game(name, seed, stop_after=None):
    g = game(name)
    rng = random.Random(seed)
    s = g.new_initial_state(seed=seed)
    moves = 0
    while not s.is_terminal() and (stop_after is None or moves < stop_after):
        seat = rng.choice(s.to_move())
        legal = s.legal_moves(seat)
        assert legal, f"seat {seat} is to move in {name} but has no legal move"
        s.apply(seat, rng.choice(legal))
        moves += 1
    return g, s, rng


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(SMALL), seed=st.integers(0, 2**32))
def test_random_play_ends_with_an_outcome(name, seed):
    _g, s, _rng = random_game(name, seed)
    out = s.outcome
    assert out is not None and s.to_move() == ()
    assert len(out.results) == s.game.nseats
    reasons = {"victory", "draw", "stalemate", "agreed-draw", "boards", "majority", "checkmate"}
    assert out.reason in reasons
    if out.reason == "victory" and not s.game.doc.endings:  # typed endings draw no line
        assert out.lines and all(len(line) >= 2 for line in out.lines)


@settings(max_examples=8, deadline=None)
@given(name=st.sampled_from(BIG), seed=st.integers(0, 2**32))
def test_random_play_ends_on_big_boards(name, seed):
    assert random_game(name, seed)[1].is_terminal()


@settings(max_examples=80, deadline=None)
@given(name=st.sampled_from(SMALL), seed=st.integers(0, 2**32), stop=st.integers(0, 30))
def test_illegal_moves_raise_and_change_nothing(name, seed, stop):
    g, s, rng = random_game(name, seed, stop_after=stop)
    before = json.dumps([s.view(None), s.to_move(), s.ply])
    awaited = set(s.to_move())
    candidates = [Move(PLACE, t, c, "?") for t in range(-1, g.ntargets + 1) for c in (0, 9)]
    candidates += list(SPECIAL.values())  # pass, draw, accept, decline
    for seat in range(g.nseats):
        legal = set(s.legal_moves(seat))
        for move in rng.sample(candidates, min(40, len(candidates))):
            if seat in awaited and move in legal:
                continue
            try:
                s.apply(seat, move)
            except IllegalMove:
                pass
            else:
                raise AssertionError(f"{move!r} by seat {seat} was accepted in {name}")
            assert json.dumps([s.view(None), s.to_move(), s.ply]) == before


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 2**32), stop=st.integers(0, 40))
def test_views_are_json_for_every_seat(name, seed, stop):
    g, s, _rng = random_game(name, seed, stop_after=stop)
    for seat in [None, *range(g.nseats)]:
        data = s.view(seat)
        assert json.loads(json.dumps(data)) == data
        if seat in s.to_move():
            assert sorted(data["legal_moves"]) == sorted(str(m) for m in s.legal_moves(seat))
