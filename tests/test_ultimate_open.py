"""Ultimate's Open (seed 001), in the engine: "moves are allowed on any incomplete small
board, in any unoccupied cell"."""

import random

from gamecore.engine import perft
from tests.engine_helpers import game, play


def empty_cells_of_open_blocks(state):
    geo = state.game.geometry
    return sorted(
        i for i in range(geo.ncells) if state.cell[i] == -1 and state.bown[geo.inner[i]] == -1
    )


def test_open_never_sends_anyone_anywhere():
    g = game("Ultimate-Open")
    s = g.new_initial_state()
    assert perft(s, 1) == 81 and perft(s, 2) == 81 * 80
    play(s, "1/1")  # in Ultimate this sends O to block 1; Open lets O play anywhere
    view = s.view(1)
    assert len(view["legal_moves"]) == 80
    assert view["area_path"] == [] and view["area"] == [[0, 8], [0, 8]]


def test_open_allows_every_unoccupied_cell_of_every_incomplete_block():
    g = game("Ultimate-Open")
    rng = random.Random(11)
    for seed in range(30):
        s = g.new_initial_state(seed=seed)
        while not s.is_terminal():
            seat = s.to_move()[0]
            legal = s.legal_moves(seat)
            assert sorted(m.target for m in legal) == empty_cells_of_open_blocks(s)
            s.apply(seat, rng.choice(legal))


def test_a_complete_block_takes_no_more_moves():
    g = game("Ultimate-Open")
    s = play(g.new_initial_state(), "1/1", "9/9", "1/2", "9/8", "1/3")  # X wins block 1
    assert s.view(None)["blocks"][0][0] == "X"
    legal = s.view(1)["legal_moves"]
    assert not any(m.startswith("1/") for m in legal)  # captured: complete (locked)
    assert len(legal) == 81 - 9 - 2
    cells = s.view(None)["cells"]
    assert [cells[i] for i in (9, 10, 11, 18, 19, 20)] == ["%"] * 6  # block 1's rows 2-3
