"""The rules card says what the engine does (issue 35): simultaneous rounds, phases, locked
seats, pieces that move and captures; Majority is more than half; a won board with room
still receives the next player unless won boards are closed."""

import json
from pathlib import Path

import pytest

from variants.rule_words import rule_list

GAMES = Path(__file__).resolve().parent.parent / "variants" / "catalogue" / "games"


def words(name: str) -> dict:
    return dict(rule_list(json.loads((GAMES / f"{name}.json").read_text())))


def test_a_simultaneous_game_does_not_say_players_take_turns():
    moves = words("RockPaperScissors")["Moves"]
    assert "take turns" not in moves
    assert "in secret" in moves and "revealed together" in moves


def test_phases_and_locked_seats_are_named_chaos_by_its_name():
    moves = words("StagHunt")["Moves"]
    assert "2 phases" in moves
    assert "phase 1: every round, all players choose their move in secret" in moves
    assert "Chaos may not move" in moves and "Player 1 and Player 2 may not move" in moves


@pytest.mark.parametrize(
    "name, topic, expected",
    [
        ("StagHunt", "Captures", "Pentagons capture by being placed onto an opponent's piece"),
        ("3P-9X-HideSeek", "Captures", "Pentagons must capture by moving onto"),
        ("3P-9X-HideSeek", "Pieces that move", "Circles move one step or as a knight"),
        ("3P-9X-HideSeek", "Pieces", "yellow pentagon at (4,6)"),
    ],
)
def test_moving_pieces_captures_and_starting_shapes_are_said(name, topic, expected):
    assert expected in words(name)[topic]


def test_placement_games_say_nothing_of_moving_or_capturing():
    card = words("Tic-Tac-Toe")
    assert card["Moves"] == "Players take turns; a move places one piece."
    assert "Pieces that move" not in card and "Captures" not in card


def test_majority_is_more_than_half_and_tactical_routing_enters_won_boards():
    doc = json.loads((GAMES / "TacticToy.json").read_text())
    card = dict(rule_list(doc))
    assert "if that board is full, they may play anywhere" in card["Where you may play"]
    doc["nested"] = {"win_condition": "majority"}
    assert "more than half" in dict(rule_list(doc))["How you win"]
    doc["nested"]["lock_captured"] = True
    assert "is full or closed" in dict(rule_list(doc))["Where you may play"]


@pytest.mark.parametrize("family", ["flat", "general"])
def test_a_line_in_a_game_of_chosen_colours_names_the_seat_once(family):
    """Wild-TTT said "seat 2 (seat 2) completed a line" (issue 35)."""
    import random

    from gamecore.engine import compile_game

    game = compile_game(json.loads((GAMES / "Wild-TTT-6sq3143.json").read_text()), family=family)
    details = set()
    for seed in range(30):
        state = game.new_initial_state(seed=seed)
        state.playout(random.Random(seed))
        if "completed a line" in state.outcome.detail:
            details.add(state.outcome.detail)
    assert details
    assert not any("(seat" in d for d in details), details


def test_one_column_is_said_in_the_singular():
    assert words("RockPaperScissors")["Board"].startswith("1 column, 2 spaces high")
