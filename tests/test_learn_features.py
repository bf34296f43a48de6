"""Features (gamecore/learn/features.py): a fixed vector per rule document, from the
seat's view only, seat-relative, for every catalogue game."""

import random

import numpy as np
import pytest
from cloak_helpers import blotto_game
from learn_helpers import game

from gamecore.bots.common import for_seat
from gamecore.engine.general.state import GeneralState
from gamecore.learn import layout_for
from gamecore.learn.fastpath import flat_encoder
from variants import catalogue


@pytest.mark.parametrize("name", catalogue.names())
def test_every_catalogue_game_encodes_to_one_fixed_length(name):
    g = game(name)
    layout = layout_for(g)
    assert layout_for(g) is layout  # computed once
    rng = random.Random(1)
    state = g.new_initial_state(seed=2)
    seen = set()
    for _ply in range(30):
        for seat in range(g.nseats):
            x = layout.encode(state.view(seat), seat)
            assert x.shape == (layout.size,) and x.dtype == np.float32
            assert np.isfinite(x).all() and (x >= 0).all()
            seen.add(x.tobytes())
        if state.is_terminal():
            break
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_moves(seat)))
    assert len(seen) > 2  # positions differ, and so do their vectors


def test_a_layout_belongs_to_a_rule_document():
    a, b = layout_for(game("Tic-Tac-Toe")), layout_for(game("3on5sq"))
    assert a.fingerprint != b.fingerprint and a.size != b.size


def test_features_are_seat_relative():
    """The viewer's own pieces are channel 0 from either seat: one model plays both."""
    g = game("Tic-Tac-Toe")
    layout = layout_for(g)
    state = g.new_initial_state(seed=0)
    for text in ("1,1,1", "2,2,1", "3,1,1"):
        state.apply(state.to_move()[0], g.parse_move(text))
    C = layout.channels
    for seat, own in ((0, {(1, 1), (3, 1)}), (1, {(2, 2)})):
        x = layout.encode(state.view(seat), seat)
        mine = {(i % 3 + 1, i // 3 + 1) for i in range(9) if x[i * C] == 1}
        theirs = {(i % 3 + 1, i // 3 + 1) for i in range(9) if x[i * C + 1] == 1}
        assert mine == own and theirs == {(1, 1), (3, 1), (2, 2)} - own
        assert x[layout.to_move_at + (1 - seat)] == 1  # seat 1 (white) is to move


def test_a_won_game_says_so_from_the_winners_side():
    g = game("Tic-Tac-Toe")
    layout = layout_for(g)
    state = g.new_initial_state(seed=0)
    for text in ("1,1,1", "1,2,1", "2,1,1", "2,2,1", "3,1,1"):
        state.apply(state.to_move()[0], g.parse_move(text))
    win, loss = (layout.encode(state.view(s), s) for s in (0, 1))
    assert win[layout.outcome_at + 0] == 1 and win[layout.outcome_at + 3 + 2] == 1
    assert loss[layout.outcome_at + 2] == 1 and loss[layout.outcome_at + 3 + 0] == 1


@pytest.mark.parametrize("name", [n for n in catalogue.names() if game(n).family == "flat"])
def test_the_flat_fast_path_equals_the_view(name):
    """study.py reads flat positions without building the view: the same numbers."""
    g = game(name)
    layout = layout_for(g)
    encode = flat_encoder(layout, g)
    for s in range(2):
        rng = random.Random(s)
        state = g.new_initial_state(seed=s)
        while True:
            for seat in range(g.nseats):
                fast = np.zeros(layout.size, dtype=np.float32)
                encode(state, seat, fast)
                assert np.array_equal(fast, layout.encode(state.view(seat), seat))
            if state.is_terminal():
                break
            seat = state.to_move()[0]
            state.apply(seat, rng.choice(state.legal_moves(seat)))


def test_no_fast_path_off_the_flat_family():
    for name in ("Tapatan", "Ultimate-Tic-Tac-Toe", "3Blotto13"):
        g = game(name)
        assert flat_encoder(layout_for(g), g) is None


def blotto_twins():
    """Two 3Blotto13 positions that differ only in where white's soldiers stand (hidden
    from black), black to move (as tests/test_cloaking_bots.py)."""
    g = blotto_game()
    a, b = g.new_initial_state(seed=1), g.new_initial_state(seed=1)
    for s, texts in ((a, ("b1:1,1", "b1:2,1", "b2:1,1", "b1:2,1")),
                     (b, ("b1:1,1", "b3:2,1", "b2:1,1", "b3:2,1"))):  # fmt: skip
        for text in texts:
            s.apply(s.to_move()[0], g.parse_move(text))
    assert a.board != b.board and a.to_move() == b.to_move() == (0,)
    return g, a, b


def test_hidden_pieces_change_no_feature():
    g, a, b = blotto_twins()
    layout = layout_for(g)
    assert np.array_equal(layout.encode(a.view(0), 0), layout.encode(b.view(0), 0))
    mine = [for_seat(s, 0) for s in (a, b)]
    assert np.array_equal(layout.encode(mine[0].view(0), 0), layout.encode(mine[1].view(0), 0))
    # the control: the truth (every piece) tells the twins apart, and white sees them differ
    truth = [layout.encode(s.clone(GeneralState).view(0), 0) for s in (a, b)]
    assert not np.array_equal(*truth)
    assert not np.array_equal(layout.encode(a.view(1), 1), layout.encode(b.view(1), 1))


@pytest.mark.parametrize("name", ["3Blotto13", "KBeauty9", "Shopping9", "3P-9X-HideSeek"])
def test_studied_and_played_positions_read_alike_in_cloaked_games(name):
    """A match is studied from the cloaked state's view(seat); the agent plays forward
    from the seat's own position (seat_state): the two give the same vector."""
    g = game(name)
    layout = layout_for(g)
    rng = random.Random(0)
    state = g.new_initial_state(seed=1)
    while not state.is_terminal():
        for seat in range(g.nseats):
            mine = state.seat_state(seat).view(seat)
            assert np.array_equal(layout.encode(state.view(seat), seat), layout.encode(mine, seat))
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_moves(seat)))
