"""Tapatan, Achi and 9-Holes, each with a test of its own rule, and the general family's
rules for moving pieces on small boards of their own (every test fails if its rule is
played wrong)."""

import pytest

from gamecore.engine import IllegalMove, compile_game
from gamecore.engine.general.ending import team_areas
from gamecore.engine.general.tables import Board2
from tests.engine_helpers import game, play
from variants import catalogue


def legal(state) -> set[str]:
    return {str(m) for m in state.legal_moves(state.to_move()[0])}


# Tapatan, after placement: B (1,1) (3,2) (2,3); W (2,1) (1,3) (3,3); empty (1,2) (2,2) (3,1)
TAPATAN_PLACED = ("1,1,1", "2,1,1", "3,2,1", "1,3,1", "2,3,1", "3,3,1")


def test_tapatan_places_first_then_moves_along_the_lines_of_the_board():
    s = game("Tapatan").new_initial_state()
    play(s, *TAPATAN_PLACED[:5])
    assert all("-" not in m for m in legal(s))  # white still holds a piece: it places
    play(s, TAPATAN_PLACED[5])
    # A diagonal step runs along a long diagonal only: (2,3) may not go to (1,2).
    assert legal(s) == {
        "1,1,1-1,2,1", "1,1,1-2,2,1", "3,2,1-3,1,1", "3,2,1-2,2,1", "2,3,1-2,2,1",
    }  # fmt: skip
    with pytest.raises(IllegalMove):
        s.apply(0, s.game.parse_move("2,3,1-1,2,1"))


def test_tapatan_a_step_that_completes_a_line_wins():
    s = play(game("Tapatan").new_initial_state(), *TAPATAN_PLACED)
    play(s, "1,1,1-1,2,1", "2,1,1-1,1,1")  # black (1,2) (3,2) (2,3); white (1,1) (1,3) (3,3)
    assert not s.is_terminal()
    play(s, "2,3,1-2,2,1")  # black (1,2) (2,2) (3,2): the middle row
    assert s.outcome.reason == "victory"
    assert s.outcome.results == ("win", "loss")
    assert s.outcome.lines == (((1, 1, 2, 1), (1, 2, 2, 1), (1, 3, 2, 1)),)


def test_tapatan_a_position_repeated_three_times_is_a_stalemate():
    s = play(game("Tapatan").new_initial_state(), *TAPATAN_PLACED)
    shuffle = ("3,2,1-3,1,1", "1,3,1-1,2,1", "3,1,1-3,2,1", "1,2,1-1,3,1")
    play(s, *shuffle, *shuffle[:3])
    assert not s.is_terminal()  # the start of the shuffle has been seen twice
    play(s, shuffle[3])
    assert s.outcome.reason == "draw"
    assert "three times" in s.outcome.detail


# Achi: B (1,3) (1,2) (3,3) (3,1); W (2,3) (2,2) (3,2) (1,1); the gap at (2,1)
ACHI_PLACED = ("1,3,1", "2,3,1", "1,2,1", "2,2,1", "3,3,1", "3,2,1", "3,1,1", "1,1,1")


def test_achi_fills_eight_points_then_moves_into_the_gap():
    s = play(game("Achi").new_initial_state(), *ACHI_PLACED[:7])
    assert legal(s) == {"1,1,1", "2,1,1"}  # white still holds a piece: it places
    play(s, ACHI_PLACED[7])
    assert legal(s) == {"3,1,1-2,1,1"}  # (1,1) is white's; (2,2) white's
    play(s, "3,1,1-2,1,1")
    assert legal(s) == {"3,2,1-3,1,1", "2,2,1-3,1,1"}  # (2,2)-(3,1) is on a long diagonal


def test_achi_a_seat_that_cannot_move_stalemates():
    # The gap at (3,3), walled in by white: black has no move.
    moves = ("1,3,1", "2,3,1", "1,2,1", "2,2,1", "2,1,1", "3,2,1", "3,1,1", "1,1,1")
    s = play(game("Achi").new_initial_state(), *moves)
    assert s.outcome.reason == "draw" and s.outcome.results == ("draw", "draw")


# 9-Holes: B (1,1) (2,2) (3,3); W (1,2) (2,1) (3,2)
NINE_PLACED = ("1,1,1", "1,2,1", "2,2,1", "2,1,1", "3,3,1", "3,2,1")


def test_nine_holes_diagonal_is_no_line_and_pieces_slide_or_leap():
    s = play(game("9-Holes").new_initial_state(), *NINE_PLACED[:5])
    assert not s.is_terminal()  # (1,1) (2,2) (3,3): orthogonal lines only
    play(s, NINE_PLACED[5])
    assert legal(s) == {
        "1,1,1-2,3,1",  # a knight's leap over the crowd
        "2,2,1-2,3,1", "2,2,1-1,3,1", "2,2,1-3,1,1",
        "3,3,1-2,3,1", "3,3,1-1,3,1",  # a slide through the empty (2,3)
    }  # fmt: skip
    with pytest.raises(IllegalMove):  # (3,2) blocks the slide down
        s.apply(0, s.game.parse_move("3,3,1-3,1,1"))


def test_nine_holes_wins_by_an_orthogonal_line():
    s = play(game("9-Holes").new_initial_state(), *NINE_PLACED)
    play(s, "1,1,1-2,3,1", "2,1,1-1,1,1")  # black (2,3) (2,2) (3,3)
    assert not s.is_terminal()
    play(s, "2,2,1-1,3,1")  # black (1,3) (2,3) (3,3): the top row
    assert s.outcome.results == ("win", "loss")
    assert s.outcome.lines == (((1, 1, 3, 1), (1, 2, 3, 1), (1, 3, 3, 1)),)


# -- moving pieces on boards of their own -------------------------------------------------
def moving(**rules) -> dict:
    return {
        "name": rules.pop("name", "Test"),
        "board": {"type": "squares", "size": rules.pop("size", [3, 3, 1])},
        "reserves": rules.pop("reserves", {"black": {"circle": 1}, "white": {"circle": 1}}),
        "shape_rules": {"circle": {"move": "adjacent", **rules.pop("circle", {})}},
        **rules,
    }


def test_cover_capture_removes_and_most_pieces_wins_the_stalemate():
    doc = moving(circle={"power": "can-capture"}, stalemate="most-pieces-wins")
    s = play(game(doc).new_initial_state(), "1,1,1", "2,2,1")
    assert "1,1,1x2,2,1" in legal(s) and "1,1,1-1,2,1" in legal(s)
    play(s, "1,1,1x2,2,1")  # white has nothing left to move: stalemate
    assert s.outcome.results == ("win", "loss")
    assert s.view(None)["boards"][0]["pieces"] == [
        {"at": [2, 2, 1], "color": "black", "shape": "circle", "owner": 0}
    ]


def test_must_capture_leaves_only_captures():
    doc = moving(circle={"power": "must-capture"})
    s = play(game(doc).new_initial_state(), "1,1,1", "2,2,1")
    assert legal(s) == {"1,1,1x2,2,1"}
    with pytest.raises(IllegalMove, match="must capture"):
        s.apply(0, s.game.parse_move("1,1,1-1,2,1"))


def test_reincarnated_captive_joins_the_captors_reserve_and_must_be_placed_first():
    doc = moving(
        circle={"power": "can-capture", "result": "reincarnate-x2"},
        reserves={"black": {"circle": 1}, "white": {"circle": 2}},
    )
    s = play(game(doc).new_initial_state(), "1,1,1", "3,3,1", "1,1,1-2,2,1", "3,1,1")
    play(s, "2,2,1x3,3,1")
    assert s.reserves == [2, 0]  # black gained two black circles
    play(s, "3,1,1-3,2,1")
    moves = legal(s)
    assert "3,3,1x3,2,1" not in moves  # black holds black circles: it places first
    assert moves == {"1,1,1", "2,1,1", "3,1,1", "1,2,1", "2,2,1", "1,3,1", "2,3,1"}


def test_jump_captures_the_piece_jumped():
    doc = moving(size=[5, 1, 1], circle={"power": "can-capture", "condition": "jump"})
    s = play(game(doc).new_initial_state(), "1,1,1", "2,1,1")
    assert "1,1,1x3,1,1" in legal(s)
    play(s, "1,1,1x3,1,1")
    assert s.board[1] == 0 and s.board[2] > 0


def test_chain_jump_goes_on_with_the_same_piece_or_passes():
    doc = moving(
        size=[7, 1, 1],
        circle={"power": "can-capture", "condition": "chain-jump"},
        initial_pieces=[{"at": [2, 1, 1], "color": "white"}, {"at": [4, 1, 1], "color": "white"}],
    )
    s = play(game(doc).new_initial_state(), "1,1,1", "7,1,1")
    play(s, "1,1,1x3,1,1")
    assert s.to_move() == (0,)  # the chain: black again
    assert legal(s) == {"3,1,1x5,1,1", "pass"}
    play(s, "3,1,1x5,1,1")
    assert s.to_move() == (1,) and s.board[1] == s.board[3] == 0


def test_sticky_exclusive_and_locked_spaces():
    doc = moving(
        reserves={"black": {"circle": 2}, "white": {"circle": 2}},
        sticky=[{"at": [2, 2, 1]}],
        exclusive=[{"at": [1, 1, 1], "seats": [2]}],
        space_locks=[{"at": [3, 3, 1], "seats": [1], "exit": False}],
    )
    s = game(doc).new_initial_state()
    assert "1,1,1" not in legal(s) and "3,3,1" not in legal(s)  # black may not enter
    play(s, "2,2,1", "1,1,1", "3,1,1", "3,3,1")
    moves = legal(s)
    assert not any(m.startswith("2,2,1-") for m in moves)  # sticky: no exit
    assert "3,1,1-2,1,1" in moves and "3,1,1-3,2,1" in moves


def test_most_area_counts_what_a_team_can_reach_orthogonally():
    # (set-up pieces of white's colour are white's: stationary, so nobody can move)
    doc = moving(
        circle={"move": "stationary"},
        reserves={"black": {"circle": 1}, "white": {"circle": 0}},
        initial_pieces=[{"at": [2, 1, 1], "color": "white"}, {"at": [1, 2, 1], "color": "white"}],
        stalemate="most-area-wins",
    )
    s = play(game(doc).new_initial_state(), "1,1,1")
    assert team_areas(s) == {0: 1, 1: 8}
    assert s.outcome.results == ("loss", "win") and s.outcome.detail == "Most area wins"


def test_stacks_move_from_top_to_top():
    doc = {
        "board": {"type": "stacks", "size": [3, 1, 3]},
        "reserves": {"black": {"circle": 2}, "white": {"circle": 1}},
        "shape_rules": {"circle": {"move": "adjacent-orthogonal"}},
        "turn_checks": [{"k": 3, "result": "wins", "diagonal": False}],
    }
    s = play(game(doc).new_initial_state(), "1,1", "1,1", "3,1")
    assert legal(s) == {"1,1-2,1"}  # white's piece, on top of black's
    play(s, "1,1-2,1")
    assert s.heights == [1, 1, 1]
    assert legal(s) == {"1,1-2,1", "3,1-2,1"}
    play(s, "3,1-2,1")  # onto white's piece, which is now covered and cannot move
    assert s.heights == [1, 2, 0]
    assert s.outcome.reason == "draw"


@pytest.mark.parametrize(
    "move, size, at, count",
    [
        ("linear", (3, 3, 3), (0, 0, 0), 3 * 2 + 3 * 2 + 2),  # axes, face and space diagonals
        ("knight", (3, 3, 3), (0, 0, 0), 6),
        ("knight-3d", (3, 3, 3), (0, 0, 0), 3),
        ("adjacent", (3, 3, 3), (1, 1, 1), 26),
        ("adjacent-diagonal", (3, 3, 1), (1, 1, 0), 4),
        ("orthogonal", (5, 1, 1), (0, 0, 0), 4),
        ("diagonal", (4, 4, 1), (0, 0, 0), 3),
    ],
)
def test_reach_in_one_two_and_three_dimensions(move, size, at, count):
    board = Board2(size, stacks=False, hash_board=False)
    reach = board.reach(move, board.pos(*at))
    assert sum(map(len, reach.rays)) + len(reach.leaps) == count


# -- cannot move backwards: goals and promotion ------------------------------------------
PAWNS = {
    "shapes": ["circle", "pentagon"],
    "board": {"type": "squares", "size": [3, 3, 1]},
    "reserves": {"black": {"circle": 1}, "white": {"circle": 1}},
    "shape_rules": {"circle": {"move": "forward-orthogonal"}, "pentagon": {"move": "adjacent"}},
}


def test_a_piece_that_cannot_move_backwards_goes_to_its_goal_and_becomes_another_shape():
    s = play(game(PAWNS).new_initial_state(), "circle 1,1,1", "circle 3,3,1")
    assert legal(s) == {"1,1,1-1,2,1"}  # black's goal is y = max: forward is up
    play(s, "1,1,1-1,2,1")
    assert legal(s) == {"3,3,1-3,2,1"}  # white's goal is y = 1: forward is down
    play(s, "3,3,1-3,2,1")
    assert legal(s) == {"1,2,1-1,3,1=pentagon"}  # reaching the goal names the new shape
    play(s, "1,2,1-1,3,1=pentagon")
    play(s, "3,2,1-3,1,1=pentagon")
    assert s.view(None)["boards"][0]["pieces"][1]["shape"] == "pentagon"
    assert "1,3,1-1,2,1" in legal(s)  # a pentagon may move backwards
    with pytest.raises(IllegalMove):
        s.apply(0, s.game.parse_move("1,3,1-1,2,1=circle"))


def test_goals_go_round_the_board_counter_clockwise():
    from gamecore.engine.general.tables import goals

    assert [f for f, _a, _at in goals((3, 3, 1), 4)] == [
        (0, 1, 0),
        (-1, 0, 0),
        (0, -1, 0),
        (1, 0, 0),
    ]
    assert [f for f, _a, _at in goals((3, 3, 1), 2)] == [(0, 1, 0), (0, -1, 0)]
    assert goals((5, 1, 1), 2) == [((-1, 0, 0), 0, 0), ((1, 0, 0), 0, 4)]  # x = 1, x = max


@pytest.mark.parametrize(
    "move, count",
    [
        ("forward-orthogonal", 1),
        ("forward-diagonal", 2),
        ("adjacent-no-back-side", 3),
        ("adjacent-no-back", 5),
        ("orthogonal-no-back", 3),
    ],
)
def test_forward_moves_never_go_back(move, count):
    board = Board2((3, 3, 1), stacks=False, hash_board=False)
    reach = board.reach(move, board.pos(1, 1, 0), forward=(0, 1, 0))
    dests = [d for ray in reach.rays for d in ray]
    assert len(dests) == count
    assert all(board.coord(d)[1] >= 1 for d in dests)  # never down, away from y = max


# -- captures by where a piece comes to rest; conversion -----------------------------------
def pieces(state) -> dict[tuple, str]:
    return {tuple(p["at"]): p["color"] for p in state.view(None)["boards"][0]["pieces"]}


def test_surround_line_converts_the_run_between_like_reversi():
    doc = moving(
        size=[4, 4, 1],
        reserves={"black": {"circle": 2}, "white": {"circle": 2}},
        circle={"move": "stationary", "power": "can-capture", "condition": "surround-line",
                "result": "convert"},
        turn_checks=[{"k": 4, "result": "wins"}],
    )  # fmt: skip
    s = play(game(doc).new_initial_state(), "1,1,1", "2,1,1")
    assert pieces(s) == {(1, 1, 1): "black", (2, 1, 1): "white"}
    play(s, "3,1,1")
    assert pieces(s) == {(1, 1, 1): "black", (2, 1, 1): "black", (3, 1, 1): "black"}
    assert s.view(None)["boards"][0]["pieces"][1]["owner"] == 0


def test_a_conversion_that_completes_a_line_wins():
    doc = moving(
        reserves={"black": {"circle": 2}, "white": {"circle": 2}},
        circle={"move": "stationary", "power": "can-capture", "condition": "surround-line",
                "result": "convert"},
    )  # fmt: skip
    s = play(game(doc).new_initial_state(), "1,1,1", "2,1,1", "3,1,1")
    assert s.outcome.results == ("win", "loss")


def test_surround_orthogonal_takes_a_piece_closed_on_every_side():
    doc = moving(
        reserves={"black": {"circle": 2}, "white": {"circle": 1}},
        circle={"move": "stationary", "power": "can-capture", "condition": "surround-orthogonal"},
    )
    s = play(game(doc).new_initial_state(), "2,1,1", "1,1,1")
    assert (1, 1, 1) in pieces(s)  # one side is still open
    play(s, "1,2,1")
    assert (1, 1, 1) not in pieces(s)


def test_approach_takes_the_run_ahead_of_the_move():
    doc = moving(
        size=[5, 1, 1],
        reserves={"black": {"circle": 1}, "white": {"circle": 2}},
        circle={"power": "must-capture", "condition": "approach"},
    )
    s = play(game(doc).new_initial_state(), "1,1,1", "4,1,1", "1,1,1-2,1,1", "5,1,1")
    assert legal(s) == {"2,1,1x3,1,1"}  # must capture: the approach is the only move
    play(s, "2,1,1-3,1,1")  # written as a plain step, played as the capture it is
    assert pieces(s) == {(3, 1, 1): "black"}


def test_adjacent_takes_every_opponent_next_to_the_piece():
    doc = moving(circle={"move": "stationary", "power": "can-capture", "condition": "adjacent"},
                 reserves={"black": {"circle": 2}, "white": {"circle": 2}})  # fmt: skip
    s = play(game(doc).new_initial_state(), "2,2,1", "1,1,1")
    assert pieces(s) == {(1, 1, 1): "white"}


def test_a_jump_may_convert_its_captive():
    jump = {"power": "can-capture", "condition": "jump", "result": "convert"}
    doc = moving(size=[5, 1, 1], circle=jump)
    s = play(game(doc).new_initial_state(), "1,1,1", "2,1,1", "1,1,1x3,1,1")
    assert pieces(s) == {(2, 1, 1): "black", (3, 1, 1): "black"}


# -- cover by rank -----------------------------------------------------------------------
def test_the_seeds_hierarchy_of_shapes():
    from gamecore.engine.general.ranks import outranks

    order = ["circle", "triangle", "x", "cross", "star", "pentagon"]
    for low, high in zip(order, order[1:], strict=False):
        assert outranks(high, low) and not outranks(low, high)
    assert outranks("circle", "pentagon") and not outranks("pentagon", "circle")
    assert not outranks("circle", "star")  # circle outranks pentagon, and only pentagon


def ranked(black: str, white: str, rules: dict) -> dict:
    return {
        "shapes": sorted({black, white, "circle"}, key=SHAPE_ORDER.index),
        "board": {"type": "squares", "size": [3, 3, 1]},
        "reserves": {"black": {black: 1}, "white": {white: 1}},
        "shape_rules": rules,
    }


SHAPE_ORDER = ["circle", "triangle", "x", "cross", "star", "pentagon"]
BY_RANK = {"move": "adjacent", "power": "can-capture", "condition": "cover-by-rank"}


@pytest.mark.parametrize(
    "black, white, rules, left",
    [
        # white's circle takes black's pentagon (circle outranks pentagon)
        ("pentagon", "circle", {"pentagon": BY_RANK, "circle": BY_RANK}, {"white"}),
        # white's triangle attacks black's star and is taken by it
        ("star", "triangle", {"triangle": BY_RANK, "star": BY_RANK}, {"black"}),
        # equal ranks destroy each other
        ("x", "x", {"x": BY_RANK}, set()),
        # a piece that captures by cover outranks any by-rank piece
        ("star", "circle", {"star": BY_RANK, "circle": {**BY_RANK, "condition": "cover"}},
         {"white"}),
        # a piece that cannot capture may cover a by-rank piece, and is taken
        ("pentagon", "circle", {"pentagon": BY_RANK, "circle": {"move": "adjacent"}},
         {"black"}),
    ],
)  # fmt: skip
def test_cover_by_rank(black, white, rules, left):
    s = play(game(ranked(black, white, rules)).new_initial_state())
    if len(s.game.shape_names) > 1:
        play(s, f"{black} 1,1,1", f"{white} 3,3,1", "1,1,1-2,2,1")
    else:
        play(s, "1,1,1", "3,3,1", "1,1,1-2,2,1")
    assert "3,3,1x2,2,1" in legal(s)
    play(s, "3,3,1x2,2,1")
    assert set(pieces(s).values()) == left
    assert set(pieces(s)) <= {(2, 2, 1)}  # the winner stands where the fight was


def test_pieces_that_cannot_capture_cannot_cover_each_other():
    doc = ranked("circle", "circle", {"circle": {"move": "adjacent"}, "pentagon": BY_RANK})
    doc["shapes"] = ["circle", "pentagon"]
    s = play(game(doc).new_initial_state(), "circle 1,1,1", "circle 2,2,1")
    assert not any("x" in m for m in legal(s))


def test_a_paralysed_piece_stays_but_never_moves_again():
    jump = {"power": "can-capture", "condition": "jump", "result": "paralyse"}
    doc = moving(size=[5, 1, 1], circle=jump,
                 reserves={"black": {"circle": 1}, "white": {"circle": 2}})  # fmt: skip
    s = play(game(doc).new_initial_state(), "1,1,1", "2,1,1", "1,1,1x3,1,1", "5,1,1")
    assert pieces(s) == {(2, 1, 1): "white", (3, 1, 1): "black", (5, 1, 1): "white"}
    assert s.view(None)["boards"][0]["pieces"][0]["paralysed"] is True
    assert "3,1,1x1,1,1" not in legal(s)  # jumping a paralysed piece takes nothing
    play(s, "3,1,1-4,1,1")
    moves = legal(s)
    assert "5,1,1x3,1,1" in moves
    assert not any(m.startswith("2,1,1") for m in moves)  # (1,1,1) is empty, yet it stays


def test_chain_jump_back_also_jumps_away_from_the_goal():
    board = Board2((5, 5, 1), stacks=False, hash_board=False)
    centre = board.pos(2, 2, 0)
    assert len(board.jump_lines("forward-orthogonal", centre, (0, 1, 0))) == 1
    assert len(board.jump_lines("forward-orthogonal", centre, (0, 1, 0), back=True)) == 2
    assert len(board.jump_lines("forward-diagonal", centre, (0, 1, 0), back=True)) == 4


def test_fifty_moves_each_without_progress_is_a_stalemate_where_pieces_move():
    doc = moving(size=[5, 5, 1], circle={"power": "can-capture"}, name="Quiet")
    g = game(doc)
    assert g.quiet_limit == 100  # fifty moves by each of the two seats
    assert game("Tapatan").quiet_limit == 100  # moving without captures: the same
    ttt = compile_game(catalogue.get("Tic-Tac-Toe"), family="general")
    assert ttt.quiet_limit > 10**9  # nothing moves: no such limit
    s = play(g.new_initial_state(), "1,1,1", "5,5,1")
    # Black walks to and fro along the bottom rows (every 18 moves), white round a loop
    # of five up top: no position comes back within fifty moves each.
    tour = [(x, y) for y in (1, 2) for x in (range(1, 6) if y == 1 else range(5, 0, -1))]
    black = (tour + tour[-2:0:-1]) * 3
    white = [(5, 5), (4, 5), (3, 5), (3, 4), (4, 4)] * 11
    for i in range(1, 51):
        assert not s.is_terminal(), i
        (bx, by), (nx, ny) = black[i - 1], black[i]
        play(s, f"{bx},{by},1-{nx},{ny},1")
        (wx, wy), (mx, my) = white[i - 1], white[i]
        play(s, f"{wx},{wy},1-{mx},{my},1")
    assert s.outcome.reason == "draw" and "50 moves by each seat" in s.outcome.detail
    assert "without a placement or capture" in s.outcome.detail


def test_a_piece_moving_by_stack_carries_the_pieces_above_it():
    doc = {
        "board": {"type": "stacks", "size": [3, 1, 2]},
        "reserves": {"black": {"circle": 2}, "white": {"circle": 1}},
        "shape_rules": {"circle": {"move": "orthogonal-by-stack"}},
    }
    s = play(game(doc).new_initial_state(), "1,1", "1,1", "3,1")
    assert legal(s) == {"1,1,2-2,1", "1,1,2-3,1"}  # white's piece: the top of stack 1
    play(s, "1,1,2-3,1")  # stack 3 is now full
    # black's piece under white's carries it; stack 1 has room for one only
    assert legal(s) == {"1,1,1-2,1", "3,1,1-2,1"}
    play(s, "3,1,1-2,1")
    assert s.heights == [1, 2, 0]
    assert pieces(s) == {(1, 1, 1): "black", (2, 1, 1): "black", (2, 1, 2): "white"}
    assert legal(s) == {"2,1,2-1,1", "2,1,2-3,1"}  # white's piece came along, still white's


def test_tapatan_placement_is_tic_tac_toes_to_depth_6():
    """Until every piece is placed Tapatan is tic-tac-toe: the same perft counts."""
    from gamecore.engine import perft

    state = game("Tapatan").new_initial_state()
    assert [perft(state, d) for d in range(1, 7)] == [9, 72, 504, 3024, 15120, 54720]


# -- captures by a diagonal or triagonal step; en passant --------------------------------
PAWN_EP = {
    "shapes": ["circle", "pentagon"],
    "board": {"type": "squares", "size": [3, 5, 1]},
    "reserves": {"black": {"circle": 2}, "white": {"circle": 1}},
    "shape_rules": {
        "circle": {"move": "orthogonal-no-back", "power": "can-capture",
                   "condition": "diagonal-en-passant"},
        "pentagon": {"move": "adjacent"},
    },
}  # fmt: skip


def test_en_passant_takes_the_piece_that_passed_on_the_next_move_only():
    doc = {**PAWN_EP, "reserves": {"black": {"circle": 2}, "white": {"circle": 2}}}
    start = ("circle 2,3,1", "circle 1,5,1", "circle 3,1,1", "circle 3,5,1", "3,1,1-3,2,1")
    s = play(game(doc).new_initial_state(), *start, "1,5,1-1,3,1")
    assert "2,3,1x1,4,1" in legal(s)  # white's piece passed (1,4,1), next to black's
    assert "2,3,1x1,3,1" not in legal(s)  # no capture sideways: diagonally forward only
    play(s, "2,3,1x1,4,1")
    assert pieces(s) == {(1, 4, 1): "black", (3, 2, 1): "black", (3, 5, 1): "white"}
    later = play(game(doc).new_initial_state(), *start, "1,5,1-1,3,1", "3,2,1-3,3,1")
    play(later, "3,5,1-3,4,1")
    assert "2,3,1x3,4,1" in legal(later)  # a plain diagonal capture
    assert "2,3,1x1,4,1" not in legal(later)  # the chance to take en passant is gone


def test_a_triagonal_step_captures():
    doc = moving(size=[2, 2, 2], circle={"move": "adjacent-orthogonal", "power": "can-capture",
                                         "condition": "triagonal"}, turn_checks=[])  # fmt: skip
    s = play(game(doc).new_initial_state(), "1,1,1", "2,2,2")
    assert legal(s) == {"1,1,1-2,1,1", "1,1,1-1,2,1", "1,1,1-1,1,2", "1,1,1x2,2,2"}
