"""Engine rules: perft, line counts, and one test per catalogue game's own rule."""

import json

import pytest

from gamecore.engine import IllegalMove, InvalidMoveText, perft
from gamecore.engine.geometry import Geometry
from tests.engine_helpers import game, play


# -- perft against published counts ------------------------------------------------
def test_tic_tac_toe_perft_to_depth_9():
    state = game("Tic-Tac-Toe").new_initial_state()
    expected = [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]
    assert [perft(state, d) for d in range(1, 10)] == expected


def test_connect4_perft_to_depth_7():
    state = game("Connect4").new_initial_state()
    assert [perft(state, d) for d in range(1, 8)] == [7, 49, 343, 2401, 16807, 117649, 823536]


@pytest.mark.parametrize(
    "name, text",
    [
        ("Tic-Tac-Toe", "\u00b2,1,1"),  # str.isdigit() takes "²", int() does not
        ("Tic-Tac-Toe", "b\u00b2:1,1,1"),
        ("Connect4", "4,\u00b9"),
        ("Ultimate-Tic-Tac-Toe", "5/\u00b2"),
        ("Ultimate-Tic-Tac-Toe", "\u00b2,1"),
    ],
)
def test_move_text_with_unicode_digits_is_refused_by_name(name, text):
    with pytest.raises(InvalidMoveText, match="written|numbers|position"):
        game(name).parse_move(text)


# -- lines ---------------------------------------------------------------------------
@pytest.mark.parametrize("n, d", [(3, 2), (3, 3), (4, 3), (4, 2), (5, 3)])
def test_line_count_formula(n, d):
    size = (n, n, n if d == 3 else 1)
    assert len(Geometry(size, 1).lines(n, True)) == ((n + 2) ** d - n**d) // 2


def test_qubic_has_76_winning_lines():
    g = game("Qubic-4")
    through, _wins, _label = g.checks[0]
    assert len({line for lines in through for line in lines}) == 76


def test_connect4_has_69_lines_and_no_diagonal_check_has_fewer():
    assert len(Geometry((7, 1, 6), 1).lines(4, True)) == 69
    assert len(Geometry((3, 3, 1), 1).lines(3, False)) == 6


def test_a_qubic_space_diagonal_wins():
    s = game("Qubic-4").new_initial_state()
    play(s, "1,1,1", "1,2,1", "2,2,2", "1,3,1", "3,3,3", "1,4,2")
    assert not s.is_terminal()
    play(s, "4,4,4")
    assert s.outcome.results == ("win", "loss")
    assert s.outcome.lines == (((1, 1, 1, 1), (1, 2, 2, 2), (1, 3, 3, 3), (1, 4, 4, 4)),)


# -- each catalogue game's own rule -----------------------------------------------------
def test_tic_tac_toe_win_names_reason_and_line():
    s = play(game("Tic-Tac-Toe").new_initial_state(), "1,1,1", "1,2,1", "2,2,1", "1,3,1", "3,3,1")
    assert s.outcome.reason == "victory"
    assert s.outcome.winners == (0,)
    assert s.outcome.lines == (((1, 1, 1, 1), (1, 2, 2, 1), (1, 3, 3, 1)),)


def test_tic_tac_toe_full_board_draws():
    moves = ["1,1,1", "2,1,1", "3,1,1", "2,2,1", "1,2,1", "3,2,1", "2,3,1", "1,3,1", "3,3,1"]
    s = play(game("Tic-Tac-Toe").new_initial_state(), *moves)
    assert s.outcome.reason == "draw"
    assert s.outcome.results == ("draw", "draw")


def test_treblecross_shared_colour_line_wins_for_whoever_completes_it():
    s = play(game("Treblecross15").new_initial_state(), "5,1,1", "6,1,1")
    assert not s.is_terminal()
    play(s, "9,1,1", "7,1,1")  # seat 2 completes 5-6-7 with stones seat 1 placed too
    assert s.outcome.results == ("loss", "win")


def test_notakto_completing_a_line_loses_and_the_others_win():
    s = play(game("3P-Notakto").new_initial_state(), "1,1,1", "2,1,1", "2,2,1")
    assert not s.is_terminal()
    play(s, "3,3,1")  # seat 1 completes the diagonal
    assert s.outcome.results == ("loss", "win", "win")
    assert s.outcome.ranks == (2, 1, 1)


def test_misere_notakto_completing_a_line_wins():
    s = play(game("3P-Misere-Notakto").new_initial_state(), "1,1,1", "2,1,1", "3,1,1")
    assert s.outcome.results == ("loss", "loss", "win")


def test_connect6_opening_stone_and_two_moves_a_turn():
    s = game("Connect6-19x19").new_initial_state()
    centre = s.view(0)["boards"][0]["pieces"]
    # the set-up stone is white's colour, so white's (seat 2: owner 1)
    assert centre == [{"at": [10, 10, 1], "color": "white", "shape": "circle", "owner": 1}]
    with pytest.raises(IllegalMove):
        s.apply(0, s.game.parse_move("10,10,1"))
    play(s, "1,1,1")
    assert s.to_move() == (0,)  # black's second stone
    play(s, "2,1,1")
    assert s.to_move() == (1,)
    play(s, "11,11,1", "12,12,1")
    play(s, "3,1,1", "4,1,1", "13,13,1", "9,9,1")
    assert not s.is_terminal()
    play(s, "5,1,1", "6,1,1")  # black's second stone of the turn makes six
    assert s.outcome.winners == (0,)
    assert len(s.outcome.lines[0]) == 6


def test_connect4_pieces_fall_and_full_stacks_refuse():
    s = game("Connect4").new_initial_state()
    play(s, "4,1", "4,1")
    pieces = {tuple(p["at"]): p["color"] for p in s.view(0)["boards"][0]["pieces"]}
    assert pieces == {(4, 1, 1): "black", (4, 1, 2): "white"}
    play(s, "4,1", "4,1", "4,1", "4,1")
    assert "4,1" not in [str(m) for m in s.legal_moves(s.to_move()[0])]
    with pytest.raises(IllegalMove, match="stack is full"):
        s.apply(s.to_move()[0], s.game.parse_move("4,1"))


def test_stacks_rest_on_locked_spaces_and_set_up_pieces():
    g = game({"board": {"type": "stacks", "size": [2, 1, 3]}, "turn_checks": [{"k": 2}],
              "locked": [{"at": [1, 1, 1]}],
              "initial_pieces": [{"at": [2, 1, 1], "color": "white"}]})  # fmt: skip
    s = play(g.new_initial_state(), "1,1")
    pieces = {tuple(p["at"]): p["color"] for p in s.view(0)["boards"][0]["pieces"]}
    assert pieces == {(1, 1, 2): "black", (2, 1, 1): "white"}
    play(s, "2,1")  # white lands on its own set-up piece: two in a column
    assert s.outcome.winners == (1,)


def test_connect4_vertical_and_diagonal_wins():
    s = play(game("Connect4").new_initial_state(), "1,1", "2,1", "1,1", "2,1", "1,1", "2,1")
    play(s, "1,1")
    assert s.outcome.winners == (0,)
    diag = ["1,1", "2,1", "2,1", "3,1", "3,1", "4,1", "3,1", "4,1", "4,1", "7,1", "4,1"]
    s = play(game("Connect4").new_initial_state(), *diag)
    assert s.outcome.winners == (0,)
    assert s.outcome.lines[0] == ((1, 1, 1, 1), (1, 2, 1, 2), (1, 3, 1, 3), (1, 4, 1, 4))


def test_wild_ttt_locked_spaces_and_chosen_colours():
    g = game("Wild-TTT-6sq3143")
    s = g.new_initial_state()
    texts = {str(m) for m in s.legal_moves(0)}
    assert "black 3,1,1" not in texts and "white 4,3,1" not in texts
    assert {"black 1,1,1", "white 1,1,1"} <= texts and len(texts) == 2 * 34
    with pytest.raises(InvalidMoveText, match="name the color"):
        g.parse_move("1,1,1")
    # Seat 1 builds white stones; seat 2 completes the white line and wins.
    play(s, "white 1,1,1", "black 6,6,1", "white 2,1,1", "white 1,2,1")
    assert not s.is_terminal()
    s = play(g.new_initial_state(), "white 1,2,1", "black 6,6,1", "white 2,2,1", "white 3,2,1")
    assert s.outcome.results == ("loss", "win")


def _fill_3x4(name, moves):
    return play(game(name).new_initial_state(), *moves)


# Fills the 3x4 board with no 3-in-a-row; longest same-colour runs: black 2, white 2, pink 1.
FILL_3X4 = [
    "1,2,1", "2,4,1", "1,1,1",   # black, white, pink, ...
    "3,3,1", "2,3,1", "3,2,1",
    "2,1,1", "1,4,1", "3,4,1",
    "2,2,1", "3,1,1", "1,3,1",
]  # fmt: skip


def test_most_in_a_row_wins_at_stalemate():
    s = _fill_3x4("3P-MostWins-3x4", FILL_3X4)
    assert s.outcome.reason == "stalemate"
    assert s.outcome.results == ("win", "win", "loss")


def test_least_in_a_row_loses_at_stalemate():
    s = _fill_3x4("3P-LeastLoses-3x4", FILL_3X4)
    assert s.outcome.reason == "stalemate"
    assert s.outcome.results == ("win", "win", "loss")


def test_most_pieces_wins_counts_pieces():
    g = game({"players": "3", "stalemate": "most-pieces-wins", "turn_checks": [],
              "board": {"type": "squares", "size": [4, 1, 1]}})  # fmt: skip
    s = play(g.new_initial_state(), "1,1,1", "2,1,1", "3,1,1", "4,1,1")
    assert s.outcome.results == ("win", "loss", "loss")  # black placed 2 (pink ran out)


def test_longest_run_counts_straight_runs_only():
    geo = Geometry((3, 4, 1), 1)
    idx = lambda x, y: geo.index(0, x - 1, y - 1, 0)  # noqa: E731
    assert geo.longest_run({idx(1, 1), idx(2, 2), idx(3, 3)}) == 3
    assert geo.longest_run({idx(1, 1), idx(2, 1), idx(3, 2)}) == 2
    assert geo.longest_run(set()) == 0


# -- options: draw offers, pass, partners, chaos, several boards ---------------------------
def test_agreed_draw_needs_every_other_player():
    s = game("4on7sq").new_initial_state()
    play(s, "draw")
    assert s.to_move() == (1,)
    assert [str(m) for m in s.legal_moves(1)] == ["accept", "decline"]
    play(s, "decline")
    assert s.to_move() == (0,)
    assert "draw" not in [str(m) for m in s.legal_moves(0)]
    with pytest.raises(IllegalMove, match="declined"):
        s.apply(0, s.game.parse_move("draw"))
    play(s, "4,4,1", "draw", "accept")
    assert s.outcome.reason == "agreed-draw"
    assert s.outcome.results == ("draw", "draw")


def test_draw_offer_in_a_three_player_game_waits_for_both():
    g = game({"players": "3", "agree_draw": True, "board": {"type": "squares", "size": [5, 5, 1]}})
    s = play(g.new_initial_state(), "draw")
    assert s.to_move() == (1, 2)
    s.apply(2, g.parse_move("accept"))
    assert s.to_move() == (1,) and not s.is_terminal()
    with pytest.raises(IllegalMove):
        s.apply(2, g.parse_move("accept"))
    s.apply(1, g.parse_move("accept"))
    assert s.outcome.reason == "agreed-draw"


def test_everyone_passing_is_stalemate():
    g = game({"allow_pass": True, "stalemate": "all-lose"})
    s = play(g.new_initial_state(), "pass")
    assert s.to_move() == (1,)
    play(s, "pass")
    assert s.outcome.reason == "stalemate"
    assert s.outcome.results == ("loss", "loss")


def test_no_pass_without_the_option():
    s = game("Tic-Tac-Toe").new_initial_state()
    with pytest.raises(IllegalMove, match="no option to pass"):
        s.apply(0, s.game.parse_move("pass"))


def test_partners_share_an_outcome():
    g = game({"players": "partners", "board": {"type": "squares", "size": [4, 4, 1]}})
    s = play(g.new_initial_state(), "1,1,1", "4,1,1", "1,4,1", "4,4,1")
    play(s, "2,1,1", "4,2,1", "2,4,1", "3,4,1")
    play(s, "3,1,1")  # seat 1 completes 1-2-3 on y=1
    assert s.outcome.results == ("win", "loss", "win", "loss")


def test_partners_share_colour():
    g = game({"players": "partners", "colors": "partners-share",
              "board": {"type": "squares", "size": [4, 4, 1]}})  # fmt: skip
    s = play(g.new_initial_state(), "1,1,1", "4,4,1", "2,2,1", "4,3,1", "1,4,1", "4,1,1")
    assert not s.is_terminal()
    play(s, "3,3,1")  # seat 3 plays black, like seat 1: 1,1 2,2 3,3 wins for both
    assert s.outcome.results == ("win", "loss", "win", "loss")


def test_chaos_moves_last_and_loses_when_all_players_win():
    g = game({"players": "2-vs-chaos", "stalemate": "all-win", "turn_checks": []})
    assert g.chaos == 2
    s = g.new_initial_state()
    order = []
    while not s.is_terminal():
        seat = s.to_move()[0]
        order.append(seat)
        s.apply(seat, s.legal_moves(seat)[0])
    assert order == [0, 1, 2, 0, 1, 2, 0, 1, 2]
    assert s.outcome.results == ("win", "win", "loss")


def test_chaos_can_win_with_a_line():
    g = game({"players": "2-vs-chaos", "board": {"type": "squares", "size": [4, 4, 1]}})
    s = play(g.new_initial_state(), "1,1,1", "1,2,1", "1,3,1", "2,1,1", "4,2,1", "2,3,1")
    play(s, "4,4,1", "4,1,1", "3,3,1")  # Chaos (pink) completes 1,3 2,3 3,3
    assert s.outcome.results == ("loss", "loss", "win")


def test_most_boards_wins():
    g = game({"boards": 2, "board": {"type": "squares", "size": [3, 1, 1]},
              "turn_checks": [{"k": 2}]})  # fmt: skip
    s = play(g.new_initial_state(), "b1:1,1,1", "b2:1,1,1", "b1:2,1,1")
    assert s.view(0)["boards"][0]["results"] == ["win", "loss"]
    assert not s.is_terminal()
    with pytest.raises(IllegalMove):
        s.apply(1, g.parse_move("b1:3,1,1"))  # a decided board is locked
    play(s, "b2:2,1,1")
    assert s.outcome.reason == "boards"
    assert s.outcome.results == ("draw", "draw")


# -- the API's guarantees --------------------------------------------------------------
def test_wrong_seat_and_taken_space_leave_the_state_untouched():
    s = play(game("Tic-Tac-Toe").new_initial_state(), "2,2,1")
    before = json.dumps(s.view(None))
    with pytest.raises(IllegalMove, match="seat 2's turn"):
        s.apply(0, s.game.parse_move("1,1,1"))
    with pytest.raises(IllegalMove, match="taken"):
        s.apply(1, s.game.parse_move("2,2,1"))
    assert json.dumps(s.view(None)) == before


@pytest.mark.parametrize("text", ["", "0,1,1", "4,1,1", "1,1", "a,b,c", "x" * 200, "b2:1,1,1"])
def test_bad_move_text_is_refused(text):
    with pytest.raises(InvalidMoveText):
        game("Tic-Tac-Toe").parse_move(text)


def test_notation_round_trips():
    for name in ("Tic-Tac-Toe", "Connect4", "Wild-TTT-6sq3143", "4on7sq"):
        g = game(name)
        s = g.new_initial_state()
        for m in s.legal_moves(0):
            assert g.parse_move(str(m)) == m


def test_clone_is_independent():
    s = play(game("Connect4").new_initial_state(), "1,1")
    c = s.clone()
    play(c, "2,1", "1,1")
    assert s.ply == 1 and c.ply == 3
    assert len(s.view(None)["boards"][0]["pieces"]) == 1


# -- leaving the game: forfeit and skip (used by the match layer) --------------------------
def test_forfeit_in_two_player_game_ends_it():
    s = play(game("Tic-Tac-Toe").new_initial_state(), "2,2,1")
    s.forfeit(1, "timeout")
    assert s.outcome.reason == "timeout" and s.outcome.results == ("win", "loss")
    with pytest.raises(IllegalMove):
        s.forfeit(0)


def test_forfeit_in_three_player_game_skips_the_seat():
    g = game({"players": "3", "board": {"type": "squares", "size": [5, 5, 1]}})
    s = play(g.new_initial_state(), "1,1,1")
    s.forfeit(1)  # seat 2 was to move
    assert s.to_move() == (2,) and not s.is_terminal()
    play(s, "2,2,1")
    assert s.to_move() == (0,)
    play(s, "5,5,1", "3,3,1")
    assert s.to_move() == (0,)
    s.forfeit(2)
    assert s.outcome.results == ("win", "loss", "loss")


def test_partners_forfeit_as_a_team():
    g = game({"players": "partners", "board": {"type": "squares", "size": [4, 4, 1]}})
    s = g.new_initial_state()
    s.forfeit(2)
    assert s.outcome.results == ("loss", "win", "loss", "win")


def test_skip_passes_the_turn():
    s = game("Connect4").new_initial_state()
    s.skip(0)
    assert s.to_move() == (1,) and s.ply == 0
    with pytest.raises(IllegalMove):
        s.skip(0)
