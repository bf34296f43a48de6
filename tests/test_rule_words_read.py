"""Every catalogue game's rules card and summary read as a person would (issue 35): shape
names in good English, no rule for a shape the game never has, whose spaces are whose,
ending labels inside a sentence, a one-board nested game without blocks, and the summary's
starting pieces with their shape."""

import json
from pathlib import Path

import pytest

from gamecore import rules
from variants.rule_words import rule_list

GAMES = Path(__file__).resolve().parent.parent / "variants" / "catalogue" / "games"
ALL = sorted(p.stem for p in GAMES.glob("*.json"))


def doc(name: str) -> dict:
    return json.loads((GAMES / f"{name}.json").read_text())


def words(name: str) -> dict:
    return dict(rule_list(doc(name)))


@pytest.mark.parametrize("name", ALL)
def test_no_card_misspells_a_shape_or_names_a_lowercase_x(name):
    text = " ".join(words(name).values())
    assert "crosss" not in text and " xs " not in text and " x at" not in text
    assert "1 pentagon pieces" not in text and " circle pieces" not in text


def test_several_shapes_are_counted_in_plural():
    pieces = words("Centipede9")["Pieces"]
    assert "black 4 circles and 1 pentagon" in pieces
    assert "pink 5 circles" in pieces


def test_captures_name_only_shapes_the_game_has():
    # NeedyDictator has no X anywhere (reserves, starting pieces, no deck)
    assert "Xs" not in words("NeedyDictator")["Captures"]
    assert words("NeedyTrust")["Captures"].startswith("Xs capture")  # white's X at the start
    # a deck deals every shape: the poker games keep every shape's rule
    assert "crosses capture" in words("KPoker")["Captures"]


def test_whose_spaces_are_on_the_card():
    own = words("3P-PublicGoods")["Whose spaces"]
    assert "Player 1 only: column 1" in own and "Chaos only: column 4" in own
    assert "Player 1, Player 2 and Player 3 only: column 5" in own
    assert "Player 1 only: column 1 of board 1" in words("3Blotto13")["Whose spaces"]
    assert "Whose spaces" not in words("Tic-Tac-Toe")


def test_ending_labels_inside_a_sentence_are_not_capitalised():
    end = words("NeedyDictator")["Full board"]
    assert "move, less pieces than Chaos loses; more pieces than Chaos wins" in end
    assert "Chaos wins if total circles" in words("Shopping9")["Full board"]  # a name stays


def test_a_row_of_squares_does_not_speak_of_down_or_diagonals():
    assert words("Treblecross15")["How you win"] == "The first to make 3 in a row wins."
    assert "(across or down, not diagonally)" in words("9-Holes")["How you win"]


def test_one_nested_board_has_no_small_boards_to_win_or_be_sent_to():
    card = words("TacticToy-4D")
    assert "Winning a board" not in card
    assert card["Where you may play"] == "Any empty cell."
    assert card["How you win"] == "3 of your marks in a line win the game."


def test_summary_keeps_the_shape_of_starting_pieces():
    summary = rules.summary(rules.parse(doc("3P-9X-HideSeek")))
    assert "yellow pentagon at (4,6,1)" in summary
    assert "pink circle (nobody's) at (1,1,1)" in summary  # the ring: scenery
    # one shape in the game: no shape word, as the seed writes it
    assert "white at (10,10,1)" in rules.summary(rules.parse(doc("Connect6-19x19")))


def test_several_boards_are_decided_one_by_one_as_the_engine_does():
    # engine/general/finish.py: each open board by the stalemate rule, most boards won wins
    end = words("3Blotto13")["Full board"]
    assert "each board not yet decided is decided on its own" in end
    assert "Whoever wins the most boards wins the game" in end
    assert "a tied board is won by nobody" in end
    # typed endings (BoS's "Less area than Chaos wins") count over all boards: unchanged
    assert "decided on its own" not in words("BoS")["Full board"]


def test_a_dealt_deck_is_on_the_card():
    blind = words("4P-Blind-TTT")["Dealt pieces"]
    assert "a deck of 1 black circle, 1 white circle, and 7 blanks (shuffled)" in blind
    assert "dealt into 9 marked spaces (nobody's)" in blind
    assert "A blank leaves its space empty" in blind
    poker = words("KPoker")["Dealt pieces"]
    assert "dealt into 2 marked spaces (1 for Player 1, 1 for Player 2)" in poker
    assert "Dealt pieces" not in words("Tic-Tac-Toe")


def test_hidden_pieces_say_what_a_bump_does():
    bump = "a move onto a hidden piece shows it to you and uses up your move"
    assert bump in words("4P-Blind-TTT")["Moves"]
    assert bump not in words("KPoker")["Moves"]  # obscured pieces are seen: no bump


def test_a_stalemate_ending_is_said_in_words():
    win = words("3P-9X-HideSeek")["How you win"]
    assert "Stalemate if" not in win
    assert "if a goal is reached, the game stops at once and is scored as when nobody" in win


def test_any_piece_says_whose():
    assert words("4P-Conformist")["How you win"] == (
        "After every move: whoever has a piece on the board loses."
    )
