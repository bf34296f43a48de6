"""TacticToy (seed 000): random obstacles spread per block, and the depth-3 worked
example of the allowed area as the engine reads it (READINGS.md)."""

import pytest

from gamecore.engine.nested.state import OBSTACLE
from tests.engine_helpers import game, play


def tactictoy(**nested):
    return game({"board": {"type": "nested"}, "nested": nested})


def per_block(state):
    geo = state.game.geometry
    return [sum(state.cell[i] == OBSTACLE for i in geo.cells_of[ib]) for ib in geo.inner_ids]


@pytest.mark.parametrize("value", [2, 4, 6, 8])
def test_an_even_value_puts_exactly_half_of_it_in_every_block(value):
    g = tactictoy(random_obstacles=value)
    for seed in range(20):
        assert per_block(g.new_initial_state(seed=seed)) == [value // 2] * 9


@pytest.mark.parametrize("value", [1, 3, 5, 7, 9])
def test_an_odd_value_gives_each_block_half_of_it_rounded_either_way(value):
    g = tactictoy(random_obstacles=value)
    counts = []
    for seed in range(40):
        counts += per_block(g.new_initial_state(seed=seed))
    assert set(counts) == {value // 2, value // 2 + 1}  # both happen, nothing else
    mean = sum(counts) / len(counts)
    assert abs(mean - value / 2) < 0.15  # "roughly value/2 per block"


def test_obstacles_spread_over_every_block_at_depth_three_and_in_3d():
    g = tactictoy(side=3, depth=3, random_obstacles=2)
    assert per_block(g.new_initial_state(seed=5)) == [1] * 81
    cube = tactictoy(side=2, depth=2, dimensions=3, random_obstacles=4)
    assert per_block(cube.new_initial_state(seed=5)) == [2] * 8


def test_a_block_always_keeps_a_playable_cell():
    g = tactictoy(side=2, random_obstacles=9)  # 4.5 per block of 4 cells
    for seed in range(10):
        assert set(per_block(g.new_initial_state(seed=seed))) == {3}


def test_the_set_up_is_the_seeds_and_replays():
    g = tactictoy(random_obstacles=5)
    a, b, c = (g.new_initial_state(seed=k).view(None)["cells"] for k in (7, 7, 8))
    assert a == b and a != c


# -- the depth-3 worked example (S=2, N=3) ------------------------------------------------------
def area_after(x, y):
    g = tactictoy(side=2, depth=3)
    s = play(g.new_initial_state(), f"{x + 1},{y + 1}")  # the seed's 0-based (x, y)
    return s.view(1)["area"]


def test_depth_three_example_the_written_positions_and_bracket_are_those_of_cell_6_1():
    # Innermost position (0,1), mid-level position (1,0): the cell (6,1). The opponent
    # goes to top-level block (1,0), mid-level block (0,1): the bracket at x 4-5, y 2-3.
    assert area_after(6, 1) == [[4, 5], [2, 3]]


def test_depth_three_example_the_drawn_x_at_5_1_sends_by_the_rule():
    # (5,1): top-level (1,0), mid-level (0,0), innermost (1,1) -> top-level block (0,0),
    # mid-level block (1,1): x 2-3, y 2-3 (not the drawing's bracket).
    assert area_after(5, 1) == [[2, 3], [2, 3]]
