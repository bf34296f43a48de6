"""Nested boards (seeds 000-002): perft, lines, the allowed area at every depth, free
moves, locking, Kyū, Majority, drawn blocks, Ultimate's options, Strategic's routing and
limits, obstacles and scouts, teams and turn order."""

import json
import random

import pytest

from gamecore.engine import IllegalMove, perft
from gamecore.engine.nested.geometry import block_lines
from gamecore.engine.nested.marks import EMPTY, OBSTACLE, OPEN, TIE
from gamecore.rules.nested import default_route_map
from tests.engine_helpers import game, play


def nested(**opts):
    players = opts.pop("players", "2")
    top = {k: opts.pop(k) for k in ("seconds_per_turn", "timeout") if k in opts}
    return game({"players": players, "board": {"type": "nested"}, "nested": opts, **top})


def cell(g, path):
    return g.parse_move("/".join(map(str, path))).target


def fill(state, block_path, kind=OBSTACLE):
    """Make every empty cell of a block unplayable (a position set-up for a rule test)."""
    geo = state.game.geometry
    b = geo.block_id(tuple(p - 1 for p in block_path))
    for i in range(geo.ncells):
        if geo.anc[i][len(block_path)] == b and state.cell[i] == EMPTY:
            state._block(i, kind)


def random_games(g, n, seed=0):
    rng = random.Random(seed)
    for k in range(n):
        s = g.new_initial_state(seed=k)
        movers = []
        while not s.is_terminal():
            seat = rng.choice(s.to_move())
            move = rng.choice(s.legal_moves(seat))
            movers.append(seat)
            s.apply(seat, move)
        yield s, movers


# -- counts --------------------------------------------------------------------------------
def test_ultimate_perft_to_depth_5():
    s = game("Ultimate-Tic-Tac-Toe").new_initial_state()
    assert [perft(s, d) for d in range(1, 6)] == [81, 720, 6336, 55080, 473256]


@pytest.mark.parametrize("d, lines", [(2, 8), (3, 49), (4, 272)])
def test_winning_lines_match_the_seed(d, lines):
    assert len(block_lines(3, d, 3)) == lines
    g = nested(side=3, depth=1, dimensions=d)
    assert len(g.geometry.lines) == lines


def test_win_length_below_side_gives_more_lines():
    assert len(block_lines(5, 2, 3)) == 48  # rows 15, cols 15, diagonals 9 + 9


# -- the allowed area ----------------------------------------------------------------------
def test_a_cell_sends_the_next_player_to_the_block_of_its_position():
    g = game("Ultimate-Tic-Tac-Toe")
    s = play(g.new_initial_state(), "5/3")  # centre block, top-right cell
    assert s.view(1)["area_path"] == [3]
    assert {m.split("/")[0] for m in s.view(1)["legal_moves"]} == {"3"}
    with pytest.raises(IllegalMove, match="must be in block 3"):
        s.apply(1, g.parse_move("4/1"))


def test_depth_three_routes_two_levels_and_frees_level_by_level():
    g = game("Strategic-Tactical")
    s = g.new_initial_state()
    play(s, "1/5/9")  # -> strategic cell 5, tactical cell 9
    assert s.view(1)["area_path"] == [5, 9]
    s = g.new_initial_state()
    fill(s, (5, 9))  # the tactical cell it would send to is full ...
    play(s, "1/5/9")
    assert s.view(1)["area_path"] == [5]  # ... so only the strategic constraint holds
    s = g.new_initial_state()
    fill(s, (5,))  # the whole strategic cell is full: a free move
    play(s, "1/5/9")
    assert s.view(1)["area_path"] == []
    assert len(s.legal_moves(1)) == 729 - 81 - 1


# X takes cells 1, 2, 3 of block 1 (each O move sends X back there); then O's 3/1
# sends X to the won block 1.
WIN_BLOCK_1 = ("5/5", "5/1", "1/1", "1/5", "5/9", "9/1", "1/2", "2/1", "1/3", "3/1")


def test_lock_captured_blocks_protects_and_frees():
    s = play(game("Ultimate-Tic-Tac-Toe").new_initial_state(), *WIN_BLOCK_1)
    view = s.view(0)
    assert view["blocks"][0][0] == "X"
    block1 = [view["cells"][y * 9 + x] for y in range(3) for x in range(3)]
    assert block1.count("X") == 3 and block1.count("%") == 5 and "_" not in block1
    assert view["area_path"] == []  # sent to a complete block: a free move
    assert not any(m.startswith("1/") for m in view["legal_moves"])


def test_without_lock_a_won_block_stays_playable():
    s = play(game("TacticToy").new_initial_state(), *WIN_BLOCK_1)
    view = s.view(0)
    assert view["blocks"][0][0] == "X"
    assert view["area_path"] == [1]
    assert sorted(view["legal_moves"]) == ["1/4", "1/6", "1/7", "1/8", "1/9"]


def test_free_when_decided_limit():
    s = play(nested(free_when_decided=True).new_initial_state(), *WIN_BLOCK_1)
    assert s.view(0)["area_path"] == []


# -- Kyū -------------------------------------------------------------------------------------
def test_kyu_forbids_a_third_send_to_the_same_block():
    g = nested(kyu=True)
    s = play(g.new_initial_state(), "1/5", "5/2", "2/5", "5/3")  # O sent to 5 twice
    assert "3/5" not in s.view(0)["legal_moves"]
    with pytest.raises(IllegalMove, match="Kyū"):
        s.apply(0, g.parse_move("3/5"))
    play(s, "3/1")  # any other destination is fine


def test_kyu_is_soft_without_two_alternatives():
    g = nested(kyu=True)
    s = play(g.new_initial_state(), "1/5", "5/2", "2/5", "5/3")
    for text in ("3/1", "3/2", "3/4", "3/6", "3/7", "3/8", "3/9"):
        s._block(g.parse_move(text).target, OBSTACLE)  # leave only 3/3 and 3/5
    # only one alternative destination (block 3): the rule gives way
    assert sorted(s.view(0)["legal_moves"]) == ["3/3", "3/5"]


def test_kyu_history_resets_on_a_free_move():
    g = nested(kyu=True)
    s = g.new_initial_state()
    fill(s, (7,))
    play(s, "1/5", "5/2", "2/5", "5/7")  # X is sent to the full block 7: a free move
    assert s.hist[0] == ()


# -- winning: Highest Sign, Majority, drawn blocks, Inverted, Quick, Checked ---------------------
def _peak_line(view, team_symbol, counts_draws=False):
    peak = view["blocks"][0]
    lines = block_lines(3, 2, 3)
    for line in lines:
        cells = [peak[p] for p in range(9) if line >> p & 1]
        mine = [c == team_symbol or (counts_draws and c == "*") for c in cells]
        if all(mine) and team_symbol in cells:
            return True
    return False


def test_highest_sign_winner_has_a_line_of_blocks():
    for s, _movers in random_games(game("TacticToy"), 30):
        out = s.outcome
        if out.reason == "victory":
            winner = out.winners[0]
            assert _peak_line(s.view(None), s.game.symbols[winner])
        else:
            assert out.reason == "draw" and set(s.view(None)["cells"]) <= {"X", "O"}


def test_majority_needs_more_than_half_of_the_blocks():
    g = nested(win_condition="majority")
    seen = 0
    for s, _movers in random_games(g, 30):
        assert s.outcome.reason in ("majority", "draw")
        if s.outcome.reason == "majority":
            seen += 1
            winner = g.symbols[s.outcome.winners[0]]
            assert s.view(None)["blocks"][0].count(winner) == 5
    assert seen > 10


def test_drawn_blocks_show_as_ties_and_count_for_all_in_strategic():
    found_tie = 0
    for s, _m in random_games(game("Strategic-Tactical"), 6):
        view = s.view(None)
        found_tie += "".join(view["blocks"]).count("*")
        if s.outcome.reason == "victory":
            symbol = s.game.symbols[s.outcome.winners[0]]
            assert _peak_line(view, symbol, counts_draws=True)
    assert found_tie > 0


def test_a_line_of_ties_wins_nobody():
    g = game("Strategic-Tactical")
    s = g.new_initial_state()
    geo = g.geometry
    for top in (1, 2):
        fill(s, (top,))  # obstacles: drawn strategic cells
    assert s.bown[geo.block_id((0,))] == TIE and s.bown[geo.block_id((1,))] == TIE
    fill(s, (3,))
    assert s.bown[0] == OPEN and not s.is_terminal()


def _both_lines_through_a_drawn_block(mover):
    """A peak where X holds blocks 2 and 3 (the top row) and O blocks 4 and 7 (the left
    column); block 1 is one cell from a draw, and ``mover`` fills it: the drawn block
    completes X's row and O's column at once."""
    g = nested(side=3, depth=2, draws_count_for_all=True)
    s = g.new_initial_state()
    for block, team in ((2, 0), (3, 0), (4, 1), (7, 1)):
        for p in (1, 2, 3):  # a row of three: the block is the team's
            s._mark(cell(g, (block, p)), team)
    # Block 1:  X O X / X O O / O X .  (no line for anyone, cell 9 left)
    for p, team in zip(range(1, 9), (0, 1, 0, 0, 1, 1, 1, 0), strict=True):
        s._mark(cell(g, (1, p)), team)
    geo = g.geometry
    assert s.bown[geo.block_id((1,))] == 0 and s.bown[geo.block_id((3,))] == 1
    assert s.bown[0] == OPEN
    s.turn, s.area = mover, geo.block_id((0,))
    s.apply(mover, g.parse_move("1/9"))
    assert s.bown[geo.block_id((0,))] == TIE
    return s


@pytest.mark.parametrize("mover", [0, 1])
def test_a_drawn_block_that_completes_lines_for_both_goes_to_the_mover(mover):
    """Strategic ("a Draw counts for both X and O"): when the block the mover drew
    completes a line for both teams at once, the mover's team takes it (READINGS.md,
    "A drawn block that completes lines for both")."""
    s = _both_lines_through_a_drawn_block(mover)
    assert s.is_terminal() and s.outcome.winners == (mover,)


def test_inverted_swaps_winner_and_loser():
    for s, movers in random_games(game("Ultimate-Inverted"), 20):
        if s.outcome.reason == "victory":
            assert s.outcome.results[movers[-1]] == "loss"


def test_quick_one_block_wins():
    for s, movers in random_games(game("Ultimate-Quick"), 10):
        assert s.outcome.reason == "victory"
        blocks = s.view(None)["blocks"][0]
        assert sum(c in "XO" for c in blocks) == 1
        assert s.outcome.winners == (movers[-1],)


def test_checked_never_leaves_a_win_in_one_and_checkmate_loses():
    g = game("Ultimate-Checked")
    outcomes = set()
    for s, movers in random_games(g, 4, seed=3):
        outcomes.add(s.outcome.reason)
        if s.outcome.reason == "checkmate":
            mated = s.outcome.results.index("loss")
            assert mated != movers[-1]
    rng = random.Random(1)
    s = g.new_initial_state()
    while not s.is_terminal():
        seat = s.to_move()[0]
        s.apply(seat, rng.choice(s.legal_moves(seat)))
        if not s.is_terminal():
            assert not s._can_win_now(s.to_move()[0])
    assert outcomes <= {"victory", "draw", "checkmate"}


# -- Strategic routing ---------------------------------------------------------------------------
def test_map_routing_reads_the_number_left_of_the_row():
    g = game("Strategic-Map")
    numbers = default_route_map(g.opts)
    s = play(g.new_initial_state(), "4/8/2")
    i = g.parse_move("4/8/2").target
    x, y = g.geometry.coords[i]
    top = numbers[3 * 9 + y % 9]
    assert s.view(1)["area_path"] == [top, 2]


def test_hypermap_routing_reads_the_number_in_the_cell():
    g = game("Strategic-Hypermap")
    i = g.parse_move("4/8/2").target
    x, y = g.geometry.coords[i]
    s = play(g.new_initial_state(), "4/8/2")
    assert s.view(1)["area_path"] == [default_route_map(g.opts)[x + 27 * y], 2]


def test_no_send_back_limit():
    # O plays in tactical cell (1,5) and sends X to (5,1); X's 5/1/5 would send O back
    # to (1,5), the block of O's previous move.
    moves = ("1/1/5", "1/5/1")
    free = play(nested(depth=3).new_initial_state(), *moves)
    assert "5/1/5" in free.view(0)["legal_moves"]
    g = nested(depth=3, no_send_back=True)
    s = play(g.new_initial_state(), *moves)
    legal = s.view(0)["legal_moves"]
    assert "5/1/5" not in legal and len(legal) == 8
    with pytest.raises(IllegalMove, match="no sending back"):
        s.apply(0, g.parse_move("5/1/5"))


# -- set-up, teams, order ------------------------------------------------------------------
def test_symmetric_obstacles_one_per_block():
    g = nested(symmetric_obstacles=True)
    cells = g.new_initial_state().view(None)["cells"]
    assert cells.count("#") == 9
    assert cells[0] == "#" and cells[4] == "#" and cells[80] == "#"  # (1,1), (5,1), (9,9)


def test_random_obstacles_and_scouts_follow_the_seed():
    g = nested(random_obstacles=4, scouts=2)
    a, b, c = (g.new_initial_state(seed=k).view(None)["cells"] for k in (1, 1, 2))
    assert a == b and a != c
    assert a.count("#") == 18  # 4/2 per block
    assert a.count("X") == a.count("O") == 9  # 2/2 per team per block


def test_four_teams_take_turns_with_their_symbols():
    g = game("TacticToy-4Teams")
    s = g.new_initial_state()
    order = []
    for _ in range(8):
        seat = s.to_move()[0]
        order.append(seat)
        s.apply(seat, s.legal_moves(seat)[0])
    assert order == [0, 1, 2, 3, 0, 1, 2, 3]
    assert set(s.view(None)["cells"]) == {"_", "X", "O", "Δ", "▢"}


def test_simultaneous_rounds():
    g = nested(turn_order="simultaneous", players="3")
    s = g.new_initial_state()
    assert s.to_move() == (0, 1, 2)
    s.apply(2, s.legal_moves(2)[0])
    assert s.to_move() == (0, 1)
    with pytest.raises(IllegalMove):
        s.apply(2, s.legal_moves(0)[0])
    s.apply(0, s.legal_moves(0)[0])
    s.apply(1, s.legal_moves(1)[0])
    assert s.to_move() == (0, 1, 2)


def test_three_and_four_d_games_end():
    for name in ("TacticToy-3D", "TacticToy-4D"):
        for s, _m in random_games(game(name), 3):
            assert s.outcome is not None


# -- notation and API guarantees ------------------------------------------------------------
def test_moves_are_written_level_by_level():
    g = game("Strategic-Tactical")
    m = g.parse_move("5/3/7")
    assert str(m) == "5/3/7"
    x, y = g.geometry.coords[m.target]
    assert g.parse_move(f"{x + 1},{y + 1}") == m
    assert (x, y) == (9 + 6 + 0, 9 + 0 + 2)


@pytest.mark.parametrize(
    "text", ["", "10/1", "0/1", "1", "1/1/1", "a/b", "10,1", "1,2,3", "resign"]
)
def test_bad_nested_move_text(text):
    with pytest.raises(IllegalMove):
        game("Ultimate-Tic-Tac-Toe").parse_move(text)


def test_refused_moves_leave_the_state_untouched_and_views_are_json():
    g = game("Ultimate-Tic-Tac-Toe")
    s = play(g.new_initial_state(), "5/3")
    before = json.dumps(s.view(None))
    for seat, text in ((0, "3/1"), (1, "4/1"), (1, "5/3"), (1, "pass"), (1, "draw")):
        with pytest.raises(IllegalMove):
            s.apply(seat, g.parse_move(text))
    assert json.dumps(s.view(None)) == before
    for name in ("Ultimate-Tic-Tac-Toe", "TacticToy-4D", "Strategic-Map"):
        for st, _m in random_games(game(name), 1):
            for seat in (None, 0, 1):
                assert json.loads(json.dumps(st.view(seat))) == st.view(seat)


def test_nested_forfeit_and_skip():
    g = game("TacticToy-4Teams")
    s = g.new_initial_state()
    s.skip(0)
    assert s.to_move() == (1,)
    s.forfeit(2)
    s.apply(1, s.legal_moves(1)[0])
    assert s.to_move() == (3,)  # team 2's turns are skipped
    s.forfeit(3)
    s.forfeit(1)
    assert s.outcome.results == ("win", "loss", "loss", "loss")
    t = nested(turn_order="simultaneous", players="3").new_initial_state()
    t.forfeit(1)
    assert t.to_move() == (0, 2)
