"""The fast paths agree with the checking ones, over random games of every catalogue game.

- ``state.play`` (the trusted apply for bots and tools) and ``state.apply`` (which checks
  outside input) leave equal positions after every move;
- the flat family's ``FastState`` (its common case) and the general ``State`` give the
  same to_move, legal moves, views and outcomes;
- a legal-move list once handed out never changes (the lists are shared), and
  ``random_move`` returns one of the legal moves.
"""

import random

import pytest

from gamecore.engine.fast import FastState
from gamecore.engine.moves import Move
from gamecore.engine.state import State
from tests.engine_helpers import game
from variants import catalogue

NAMES = catalogue.names()
SLOW = ("Ultimate-Checked",)  # its filter plays every candidate: fewer games


def snapshot(state):
    seats = state.to_move()
    outcome = state.outcome
    return (
        seats,
        [list(state.legal_moves(s)) for s in seats],
        state.view(None),
        None if outcome is None else outcome.to_dict(),
        state.ply,
    )


@pytest.mark.parametrize("name", NAMES)
def test_play_agrees_with_apply(name):
    g = game(name)
    for seed in range(2 if name in SLOW else 8):
        rng = random.Random(seed)
        checked = g.new_initial_state(seed=seed)
        trusted = g.new_initial_state(seed=seed)
        while not checked.is_terminal():
            seat = rng.choice(checked.to_move())
            legal = checked.legal_moves(seat)
            before = list(legal)
            move = rng.choice(legal)
            checked.apply(seat, move)
            trusted.play(seat, move)
            assert list(legal) == before, f"{name}: a handed-out list changed under apply"
            assert snapshot(trusted) == snapshot(checked), f"{name}, seed {seed}"
        assert trusted.outcome == checked.outcome
        if hasattr(checked, "record"):  # nested boards keep the moves played
            assert len(checked.record()) == len(trusted.record()) == checked.ply


@pytest.mark.parametrize("name", [n for n in NAMES if getattr(game(n), "fast", False)])
def test_fast_state_agrees_with_state(name):
    g = game(name)
    for seed in range(8):
        rng = random.Random(seed)
        fast, plain = g.new_initial_state(seed=seed), State(g, seed)
        assert isinstance(fast, FastState)
        while not plain.is_terminal():
            assert snapshot(fast) == snapshot(plain), f"{name}, seed {seed}"
            seat = plain.to_move()[0]
            move = rng.choice(plain.legal_moves(seat))
            clone, twin = fast.clone(), fast.clone()
            fast.apply(seat, move)
            plain.apply(seat, move)
            clone.play(seat, move)
            twin.apply(seat, Move(*move))  # equal, not the game's own: State's checks
            assert snapshot(clone) == snapshot(fast) == snapshot(twin)
        assert snapshot(fast) == snapshot(plain)
        assert fast.outcome == plain.outcome


@pytest.mark.parametrize("name", NAMES)
def test_random_move_is_legal(name):
    g = game(name)
    rng = random.Random(3)
    state = g.new_initial_state(seed=3)
    while not state.is_terminal():
        seat = state.to_move()[0]
        move = state.random_move(rng)
        assert move in state.legal_moves(seat)
        state.play(seat, move)
    assert state.random_move(rng) is None


def test_quick_checked_agrees_with_playing_every_candidate_out():
    """Ultimate-Checked proves most candidates safe by reading threats; the exact filter
    (clone, play, look for a winning reply) must agree on every position."""
    from gamecore.engine.nested.game import NestedGame

    quick = game("Ultimate-Checked")
    assert quick.quick_checked
    exact = NestedGame(quick.doc)
    exact.quick_checked = False
    for seed in range(12):
        rng = random.Random(seed)
        a, b = quick.new_initial_state(seed=seed), exact.new_initial_state(seed=seed)
        while not b.is_terminal():
            seat = b.to_move()[0]
            assert a.legal_moves(seat) == b.legal_moves(seat), f"seed {seed}, ply {b.ply}"
            move = rng.choice(b.legal_moves(seat))
            a.apply(seat, move)
            b.apply(seat, move)
            assert a.outcome == b.outcome


@pytest.mark.parametrize("name", NAMES)
def test_playout_is_random_move_and_apply(name):
    g = game(name)
    for seed in range(3):
        fast, slow = g.new_initial_state(seed=seed), g.new_initial_state(seed=seed)
        n = fast.playout(random.Random(seed))
        rng, m = random.Random(seed), 0
        while not slow.is_terminal():
            slow.apply(slow.to_move()[0], slow.random_move(rng))
            m += 1
        # (a plan of a simultaneous round is a ply only once it is played: rounds.py)
        assert n == m and fast.ply == slow.ply <= n
        assert snapshot(fast) == snapshot(slow)


# Documents off the catalogue that take FastState's other branches: reserves that run
# out (the stalemate rule decides), a losing line, two turn checks, set-up pieces, one
# colour for both seats, stacks with more than 24 targets (the kept list, cut when a
# stack fills), few stacks with plenty of pieces (StacksFastState, as Connect4), big
# boards with plenty (BigFastState: a losing line; set-up pieces, so lines not runs), a
# 4x4 board (legal lists memoised as positions come), and stalemate rules that read the
# board where SmallFastState and StacksFastState draw it from the masks when read.
FAST_DOCS = {
    "scarce": {"reserves": {"black": {"circle": 3}, "white": {"circle": 2}},
               "stalemate": "most-pieces-wins"},
    "loses": {"board": {"type": "squares", "size": [4, 4, 1]},
              "turn_checks": [{"k": 3, "result": "loses"}]},
    "two-checks": {"board": {"type": "squares", "size": [5, 5, 1]},
                   "turn_checks": [{"k": 4, "result": "wins"},
                                   {"k": 3, "result": "loses", "diagonal": False}]},
    "set-up": {"board": {"type": "squares", "size": [4, 3, 1]},
               "initial_pieces": [{"at": [1, 1, 1], "color": "white"},
                                  {"at": [2, 2, 1], "color": "black"}]},
    "shared": {"colors": "shared", "reserves": {"black": {"circle": 9}},
               "turn_checks": [{"k": 3, "result": "loses"}]},
    "big-stacks": {"board": {"type": "stacks", "size": [6, 5, 2]},
                   "reserves": {"black": {"circle": 30}, "white": {"circle": 30}},
                   "turn_checks": [{"k": 4, "result": "wins"}]},
    "small-stacks": {"board": {"type": "stacks", "size": [5, 2, 3]},
                     "reserves": {"black": {"circle": 15}, "white": {"circle": 15}},
                     "turn_checks": [{"k": 3, "result": "loses"}]},
    "big-loses": {"board": {"type": "squares", "size": [6, 5, 1]},
                  "reserves": {"black": {"circle": 15}, "white": {"circle": 15}},
                  "turn_checks": [{"k": 4, "result": "loses"}]},
    "big-set-up": {"board": {"type": "squares", "size": [7, 4, 1]},
                   "reserves": {"black": {"circle": 14}, "white": {"circle": 14}},
                   "initial_pieces": [{"at": [4, 2, 1], "color": "white"}],
                   "turn_checks": [{"k": 4, "result": "wins"}]},
    "scarce-stacks": {"board": {"type": "stacks", "size": [4, 1, 3]},
                      "reserves": {"black": {"circle": 4}, "white": {"circle": 3}},
                      "turn_checks": [{"k": 3, "result": "wins"}]},
    "small-in-a-row": {"board": {"type": "squares", "size": [3, 4, 1]},
                   "reserves": {"black": {"circle": 6}, "white": {"circle": 6}},
                   "turn_checks": [{"k": 4, "result": "wins", "diagonal": False}],
                   "stalemate": "least-in-a-row-loses"},
    "stacks-in-a-row": {"board": {"type": "stacks", "size": [4, 1, 3]},
                        "reserves": {"black": {"circle": 6}, "white": {"circle": 6}},
                        "turn_checks": [{"k": 4, "result": "wins"}],
                        "stalemate": "most-in-a-row-wins"},
}  # fmt: skip


@pytest.mark.parametrize("name", FAST_DOCS)
def test_fast_state_agrees_with_state_off_the_catalogue(name):
    g = game({**FAST_DOCS[name], "name": f"fast-{name}"})
    assert g.fast, name
    for seed in range(30):
        rng = random.Random(seed)
        fast, plain = g.new_initial_state(seed=seed), State(g, seed)
        while not plain.is_terminal():
            assert snapshot(fast) == snapshot(plain), f"{name}, seed {seed}"
            seat = plain.to_move()[0]
            move = rng.choice(plain.legal_moves(seat))
            other = rng.choice(g.moves_for(0))  # often taken: refused alike, state untouched
            errors = []
            for s in (fast, plain):
                try:
                    s.clone().apply(1 - seat, other)
                except Exception as e:  # noqa: BLE001 - compared below
                    errors.append(str(e))
            assert len(errors) == 2 and errors[0] == errors[1]
            clone = fast.clone()
            fast.apply(seat, move)
            plain.apply(seat, move)
            clone.play(seat, move)
            assert snapshot(clone) == snapshot(fast)
        assert snapshot(fast) == snapshot(plain)
        assert fast.outcome == plain.outcome


@pytest.mark.parametrize("name", ["small-in-a-row", "stacks-in-a-row"])
def test_a_drawn_board_decides_stalemates_as_state_does(name):
    """Where the board is drawn from the masks when read, a stalemate rule that reads it
    decides as State does, and some games are decided so (not all ties)."""
    g = game({**FAST_DOCS[name], "name": f"fast-{name}"})
    decided = 0
    for seed in range(40):
        rng = random.Random(seed)
        fast, plain = g.new_initial_state(seed=seed), State(g, seed)
        while not plain.is_terminal():
            seat = plain.to_move()[0]
            move = rng.choice(plain.legal_moves(seat))
            fast.apply(seat, move)
            plain.apply(seat, move)
        assert fast.outcome == plain.outcome and fast.board == plain.board, f"seed {seed}"
        results = set(plain.outcome.results)
        decided += plain.outcome.reason == "stalemate" and len(results) > 1
    assert decided >= 4


def test_each_fast_state_takes_its_shape():
    from gamecore.engine.fast_shapes import BigFastState, SmallFastState, StacksFastState

    shapes = {
        "Tic-Tac-Toe": SmallFastState,
        "Connect4": StacksFastState,
        "5on15sq": BigFastState,
        "Qubic-4": BigFastState,
    }
    for name, cls in shapes.items():
        assert type(game(name).new_initial_state()) is cls, name
    assert type(game({**FAST_DOCS["small-stacks"], "name": "s"}).new_initial_state()) is (
        StacksFastState
    )
    assert type(game({**FAST_DOCS["scarce-stacks"], "name": "s"}).new_initial_state()) is (
        FastState
    )
    for name in ("big-loses", "big-set-up"):
        assert type(game({**FAST_DOCS[name], "name": "s"}).new_initial_state()) is BigFastState
    # The board is drawn from the colour masks only where each seat has a colour of its own.
    assert type(game({**FAST_DOCS["shared"], "name": "s"}).new_initial_state()) is FastState
    assert type(game({**FAST_DOCS["small-in-a-row"], "name": "s"}).new_initial_state()) is (
        SmallFastState
    )
    assert type(game({**FAST_DOCS["stacks-in-a-row"], "name": "s"}).new_initial_state()) is (
        StacksFastState
    )


@pytest.mark.parametrize("name", ["Tic-Tac-Toe", "Connect4", "5on15sq"])
def test_odd_moves_are_refused_as_state_refuses_them(name):
    """The identity check reads ``move[1]`` of anything: what is not the game's own Move
    takes State's checks, with its words (and its error for a non-Move)."""
    from gamecore.engine.moves import PLACE

    g = game(name)
    odd = [None, "a1", 5, (0, 3, 0, "x"), Move(PLACE, 2, 0, "x")]
    odd += [Move(PLACE, t, c, "x") for t, c in ((-1, 0), (-5, 0), (10**6, 0), (3, 1), (True, 0))]
    for bad in odd:
        said = []
        for s in (g.new_initial_state(), State(g, None)):
            try:
                s.apply(0, bad)
                said.append(("played", s.ply, s.view(None)))
            except Exception as e:  # noqa: BLE001 - compared below
                said.append((type(e).__name__, str(e)))
        assert said[0] == said[1], bad
