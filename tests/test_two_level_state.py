"""TwoLevelState (Ultimate's shape at full speed) against NestedState, the code it
shortens: the same positions move by move — every internal mask, count and cell, the
views, legal moves and outcomes — over random games of the catalogue games it plays and of
documents off the catalogue that take its other branches (Quick, majority, drawn blocks
counting for all, obstacles and scouts, map routing, 2x2x2 blocks)."""

import random

import pytest

from gamecore.engine.errors import IllegalMove
from gamecore.engine.moves import Move
from gamecore.engine.nested.state import NestedState
from gamecore.engine.nested.two_level import TwoLevelState
from tests.engine_helpers import game

FIELDS = ("cell", "bown", "tmask", "dmask", "emask", "avail", "area", "turn", "ply", "last")

ULTIMATE = {
    "board": {"type": "nested"},
    "nested": {"side": 3, "depth": 2, "dimensions": 2, "lock_captured": True},
}
OFF_CATALOGUE = {
    "majority": {"win_condition": "majority"},
    "draws-for-all": {"draws_count_for_all": True},
    "obstacles": {"random_obstacles": 3},
    "scouts": {"scouts": 1},
    "map": {"routing": "map"},
    "cube": {"side": 2, "dimensions": 3, "win_length": 2},
    "quick-inverted": {"quick": True, "inverted": True},
}  # fmt: skip


def doc(name: str) -> dict:
    return {**ULTIMATE, "name": f"two-level-{name}",
            "nested": {**ULTIMATE["nested"], **OFF_CATALOGUE[name]}}  # fmt: skip


def position(state) -> tuple:
    if type(state) is TwoLevelState:
        state._sync()  # its avail lags while it plays (two_level.py)
    seats = state.to_move()
    outcome = state.outcome
    return (
        tuple(getattr(state, f) for f in FIELDS),
        seats,
        [list(state.legal_moves(s)) for s in seats],
        state.view(None),
        None if outcome is None else outcome.to_dict(),
        state.record(),
    )


def agree(g, seeds: int) -> None:
    assert g.two_level
    for seed in range(seeds):
        rng = random.Random(seed)
        fast, plain = g.new_initial_state(seed=seed), NestedState(g, seed)
        assert type(fast) is TwoLevelState and type(plain) is NestedState
        while not plain.is_terminal():
            assert position(fast) == position(plain), f"seed {seed}, ply {plain.ply}"
            seat = plain.to_move()[0]
            move = rng.choice(plain.legal_moves(seat))
            # A move elsewhere (often not allowed) or by the wrong seat: refused alike,
            # nothing changed.
            for who, other in ((seat, rng.choice(g.moves)), (1 - seat, move)):
                errors = []
                for s in (fast, plain):
                    try:
                        s.clone().apply(who, other)
                        errors.append(None)
                    except IllegalMove as e:
                        errors.append(str(e))
                assert errors[0] == errors[1]
            copy = Move(*move)  # equal, not the game's own: the checking path
            twin = fast.clone()
            assert type(twin) is TwoLevelState
            fast.apply(seat, move)
            plain.apply(seat, move)
            twin.apply(seat, copy)
            assert position(twin) == position(fast)
        assert position(fast) == position(plain)


@pytest.mark.parametrize("name", ["Ultimate-Tic-Tac-Toe", "Ultimate-Inverted", "Ultimate-Quick"])
def test_two_level_agrees_with_nested_state(name):
    agree(game(name), 40)


@pytest.mark.parametrize("name", OFF_CATALOGUE)
def test_two_level_agrees_off_the_catalogue(name):
    agree(game(doc(name)), 25)


def test_two_level_takes_only_its_shape():
    """Ultimate-Checked filters moves and Ultimate-Open does not lock captures: both stay
    NestedState."""
    for name in ("Ultimate-Checked", "Ultimate-Open", "Strategic-Tactical"):
        g = game(name)
        assert not g.two_level
        assert type(g.new_initial_state()) is NestedState


def test_odd_moves_are_refused_as_nested_state_refuses_them():
    """The identity check reads ``move[1]`` of anything: what is not the game's own Move
    takes NestedState's checks, with its words (and its error for a non-Move)."""
    from gamecore.engine.moves import PLACE

    g = game("Ultimate-Tic-Tac-Toe")
    odd = [None, "a1", 5, (0, 3, 0, "x")]
    odd += [Move(PLACE, t, c, "x") for t, c in ((-1, 0), (-5, 0), (10**6, 0), (3, 1), (True, 0))]
    for bad in odd:
        said = []
        for s in (g.new_initial_state(), NestedState(g)):
            try:
                s.apply(0, bad)
                said.append(("played", s.ply))
            except Exception as e:  # noqa: BLE001 - compared below
                said.append((type(e).__name__, str(e)))
        assert said[0] == said[1], bad
