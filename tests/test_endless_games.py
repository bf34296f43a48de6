"""Every game ends within a bound (issue 39): stationary pieces that capture adjacent and
whose captives reincarnate two for one, with no turn check, place and capture for ever
unless the move limit applies whether or not pieces move."""

import random

import pytest

from gamecore.engine import compile_game

ENDLESS = {
    "name": "Endless",
    "board": {"type": "squares", "size": [3, 3, 1]},
    "reserves": {"black": {"circle": 2}, "white": {"circle": 2}},
    "shape_rules": {
        "circle": {
            "move": "stationary",
            "power": "can-capture",
            "condition": "adjacent",
            "result": "reincarnate-x2",
        }
    },
    "turn_checks": [],
}

FAMILY = [
    ENDLESS,
    {**ENDLESS, "players": "3"},
    {**ENDLESS, "boards": 2},
    {**ENDLESS, "pieces_per_turn": 2},
    {**ENDLESS, "phases": [{"order": "simultaneous"}]},
    {**ENDLESS, "phases": [{"placement_only": True}, {"allow_pass": True}]},
    {**ENDLESS, "board": {"type": "squares", "size": [4, 4, 1]}, "players": "4"},
]


def play_out(state, rng, cap):
    n = 0
    while not state.is_terminal() and n < cap:
        seat = state.to_move()[0]
        state.apply(seat, state.random_move(rng))
        n += 1
    return n


@pytest.mark.parametrize("doc", FAMILY, ids=range(len(FAMILY)))
def test_random_games_of_endless_breeders_end_within_the_move_limit(doc):
    game = compile_game(doc)
    assert game.movers is False  # no shape moves: the rules for moving pieces never run
    for seed in range(4):
        state = game.new_initial_state(seed=seed)
        n = play_out(state, random.Random(seed), 3 * game.ply_limit)
        assert state.is_terminal(), f"no end after {n} moves"
        assert state.ply <= game.ply_limit + game.nseats
        out = state.outcome
        if "Move limit reached" in out.detail:  # the usual end: a sentence for people
            assert f"{game.ply_limit:,} moves" in out.detail


def test_the_move_limit_is_a_draw_by_the_stalemate_rule_and_says_so():
    game = compile_game(ENDLESS)
    state = game.new_initial_state(seed=1)
    play_out(state, random.Random(1), 3 * game.ply_limit)
    assert state.outcome.reason == "draw"
    assert state.outcome.detail.startswith("Move limit reached (1,800 moves)")


def test_the_solver_says_not_solved_for_lines_deeper_than_the_stack():
    from variants.analysis import solve

    game = compile_game({**ENDLESS, "board": {"type": "squares", "size": [8, 8, 1]}})
    result = solve.solve(game, budget=100_000, seconds=5.0)  # was a RecursionError
    assert result == {"solved": False, "why": f"lines longer than {solve.MAX_DEPTH:,} moves"}


# -- the family, generated: stationary breeders of every shape -------------------------
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from gamecore.engine import RulesError  # noqa: E402

PHASES = [None, [{"order": "simultaneous"}], [{"allow_pass": True}]]
COLOURS = {"2": 2, "3": 3, "4": 4, "partners": 4, "2-vs-chaos": 3}


@st.composite
def breeders(draw) -> dict:
    players = draw(st.sampled_from(sorted(COLOURS)))
    n = draw(st.integers(2, 6))
    colours = ("black", "white", "pink", "yellow")[: COLOURS[players]]
    return {
        "board": {"type": "squares", "size": [draw(st.integers(2, 4)), draw(st.integers(2, 4)), 1]},
        "players": players,
        "pieces_per_turn": draw(st.sampled_from([1, 1, 2])),
        "boards": draw(st.sampled_from([1, 1, 2])),
        "reserves": {c: {"circle": n} for c in colours},
        # mostly the breeders that never end without the move limit
        "condition": draw(
            st.sampled_from(["adjacent"] * 4 + ["surround-line", "surround-orthogonal"])
        ),
        "result": draw(st.sampled_from(["reincarnate-x2"] * 3 + ["reincarnate", "convert"])),
        "phases": draw(
            st.sampled_from([None, [{"order": "simultaneous"}], [{"allow_pass": True}]])
        ),
    }


BREEDERS = breeders()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(BREEDERS, st.integers(0, 10**6))
def test_every_generated_stationary_breeder_ends_within_its_move_limit(spec, seed):
    rule = {"move": "stationary", "power": "can-capture", "condition": spec.pop("condition"),
            "result": spec.pop("result")}  # fmt: skip
    phases = spec.pop("phases")
    doc = {"name": "Breeder", "turn_checks": [], "shape_rules": {"circle": rule}, **spec}
    if phases:
        doc["phases"] = phases
    try:
        game = compile_game(doc)
    except RulesError:
        return  # (colours for the seats, a condition the board cannot hold: not a game)
    state = game.new_initial_state(seed=seed)
    n = play_out(state, random.Random(seed), 3 * game.ply_limit)
    assert state.is_terminal(), f"no end after {n} moves"
    assert state.ply <= game.ply_limit + game.nseats
