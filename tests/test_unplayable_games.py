"""Saveable games that could not be played (issue 39): each engine finding reproduced on
a document, then through the factory and the match layer; Save refuses what cannot be
played and a match over at its start ends at once."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from gamecore import rules
from gamecore.engine import compile_game
from gamecore.rules import endings
from play.models import Match
from tests.play_helpers import human, start
from tests.test_factory import FACTORY, REFRESH, form_fields, post_data
from variants import catalogue, services
from variants.models import RuleSet
from variants.playable import check_playable

GOAL_LAST = {"measure": "goal", "comparison": "last-standing", "when": "turn"}
GOAL_DOC = {
    "name": "Goal-Runner",
    "board": {"type": "squares", "size": [3, 3, 1]},
    "shape_rules": {"circle": {"move": "adjacent"}},
    "turn_checks": [],
    "endings": [GOAL_LAST],
}
# Checked, Inverted, 2x2: the scouts and obstacles leave one cell, which loses at once.
# Checked at depth 1 (where every seed started checkmated) is refused by validation now
# (issue 39: Checked is an Ultimate option); at depth 2 some seeds still start checkmated.
NESTED_CHECKED = {
    "name": "Checked-Scouts",
    "board": {"type": "nested"},
    "nested": {"side": 2, "depth": 2, "checked": True, "random_obstacles": 3, "scouts": 1,
               "symmetric_obstacles": True, "quick": True, "inverted": True},
}  # fmt: skip
NO_PIECES = {"name": "No-Pieces", "reserves": {}, "turn_checks": []}


def legal_or_over(state) -> bool:
    return state.is_terminal() or any(state.legal_moves(s) for s in state.to_move())


# --- the engine ----------------------------------------------------------------------------


def test_a_turn_ending_on_the_goal_measure_starts_and_plays_to_an_end():
    game = compile_game(GOAL_DOC)
    state = game.new_initial_state(seed=1)  # raised AttributeError: 'ph'
    state.playout(random.Random(1))
    assert state.is_terminal()


def test_nested_checked_with_scouts_never_starts_without_a_move():
    game = compile_game(NESTED_CHECKED)
    for seed in range(20):
        state = game.new_initial_state(seed=seed)
        assert legal_or_over(state), seed  # every seed started stuck, "active" for ever
        if state.is_terminal() and state.outcome.reason != "victory":  # Quick: a scout
            assert state.outcome.reason == "checkmate"  # may win a block at set-up
            assert "checkmated" in state.outcome.detail
    assert any(game.new_initial_state(seed=s).is_terminal() for s in range(20))


def test_a_simultaneous_nested_round_never_leaves_a_team_without_a_move():
    doc = {
        "name": "Rounds-Checked",
        "players": "3",
        "board": {"type": "nested"},
        "nested": {"side": 2, "depth": 2, "checked": True, "free_when_decided": True,
                   "turn_order": "simultaneous"},
    }  # fmt: skip
    game = compile_game(doc)
    for seed in range(6):  # seed 3 hung after 11 moves: a team to move had none
        state, rng = game.new_initial_state(seed=seed), random.Random(seed)
        while not state.is_terminal():
            moves = [(t, m) for t in state.to_move() for m in state.legal_moves(t)]
            assert moves, (seed, state.ply)
            state.apply(*rng.choice(moves))


def _nested(players: str = "2", **options):
    doc = {"name": "N", "players": players, "board": {"type": "nested"}, "nested": options}
    return compile_game(doc)


def _play(game, state, *texts):
    for text in texts:
        seat = state.to_move()[0]
        if text == "skip":
            state.skip(seat)
        elif text == "forfeit":
            state.forfeit(seat)
        else:
            state.apply(seat, game.parse_move(text))
    return state


def test_a_skipped_turn_never_leaves_the_next_team_without_a_valid_move():
    """Checked at depth 1 (where a skip once left X to move with no valid move, not over)
    is refused now; at depth 2, random games with random skips never get stuck either."""
    game = _nested(side=2, depth=2, checked=True, inverted=True)
    stuck_free = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            seat = state.to_move()[0]
            if rng.random() < 0.2:
                state.skip(seat)
            else:
                state.apply(seat, rng.choice(state.legal_moves(seat)))
            assert legal_or_over(state), seed
        stuck_free += 1
    assert stuck_free == 40


def test_a_forfeit_that_leaves_the_next_team_no_valid_move_checkmates_it():
    game = _nested(players="3", side=2, depth=2, checked=True)
    moves = ("3/2", "2/2", "2/4", "4/3", "3/3", "3/1", "1/4", "4/4", "4/1", "1/1", "1/2", "2/1")
    state = _play(game, game.new_initial_state(), *moves)
    _play(game, state, "forfeit")
    assert state.is_terminal()
    assert state.outcome.reason == "checkmate"


def test_two_plans_for_a_shared_reserves_last_piece_take_it_once():
    doc = {
        "name": "Shared-Last",
        "colors": "shared",
        "board": {"type": "squares", "size": [3, 3, 1]},
        "reserves": {"black": {"circle": 1}},
        "turn_checks": [],
        "phases": [{"order": "simultaneous"}],
    }
    game = compile_game(doc)
    state = game.new_initial_state(seed=0)
    move = game.parse_move("2,2,1")
    assert move in state.legal_moves(0) and move in state.legal_moves(1)
    state.apply(0, move)
    state.apply(1, move)  # the two collide: the one piece is destroyed, once
    assert state.reserves == [0]  # was -1: placements offered from an empty reserve
    assert state.is_terminal() or not any(state.legal_moves(s) for s in state.to_move())


EN_PASSANT_ROUNDS = {
    "name": "Passing-Rounds",
    "board": {"type": "squares", "size": [3, 3, 1]},
    "reserves": {"black": {"circle": 0}, "white": {"circle": 0}},
    "initial_pieces": [
        {"at": [1, 1, 1], "color": "black", "shape": "circle"},
        {"at": [3, 1, 1], "color": "black", "shape": "circle"},
        {"at": [2, 3, 1], "color": "white", "shape": "circle"},
    ],
    "shape_rules": {
        "circle": {
            "move": "orthogonal",
            "power": "can-capture",
            "condition": "diagonal-en-passant",
        },
    },  # fmt: skip
    "turn_checks": [],
    "phases": [{"order": "simultaneous"}],
}


def test_en_passant_after_the_passing_piece_is_gone_raises_nothing():
    game = compile_game(EN_PASSANT_ROUNDS)
    state = game.new_initial_state(seed=0)
    # Round 1: white slides 2,3 -> 2,1 over 2,2 (en passant may take it on the next move).
    state.apply(0, game.parse_move("1,1,1-1,2,1"))
    state.apply(1, game.parse_move("2,3,1-2,1,1"))
    # Round 2: both move to 2,2 and are destroyed: the piece that passed is gone, and
    # black's 3,1,1 looked at the empty space for an en passant capture: TypeError.
    state.apply(0, game.parse_move("1,2,1-2,2,1"))
    state.apply(1, game.parse_move("2,1,1-2,2,1"))
    assert legal_or_over(state)
    for seat in state.to_move():
        for move in state.legal_moves(seat):
            state.clone().apply(seat, move)


# --- Save refuses what cannot be played ------------------------------------------------------


def test_save_refuses_a_game_with_no_pieces_naming_the_reserves():
    with pytest.raises(rules.RulesError) as caught:
        check_playable(rules.parse(NO_PIECES))
    (error,) = caught.value.errors
    assert error["path"] == "reserves.black.circle"
    assert "no player has a piece" in error["message"].lower()


def test_save_refuses_what_the_engine_cannot_play(monkeypatch):
    from variants import playable

    def broken(_doc):
        raise TypeError("a bug")

    monkeypatch.setattr(playable, "compile_game", broken)
    with pytest.raises(rules.RulesError, match="cannot play these rules"):
        check_playable(rules.parse(GOAL_DOC))


def test_save_refuses_a_position_with_no_move_that_is_not_over(monkeypatch):
    from gamecore.engine.general.state import GeneralState

    monkeypatch.setattr(GeneralState, "legal_moves", lambda self, seat: [])
    with pytest.raises(rules.RulesError, match="no legal move and the game does not end"):
        check_playable(rules.parse(GOAL_DOC))


def test_every_catalogue_game_passes_the_check():
    for name, data in catalogue.documents().items():
        try:
            check_playable(rules.parse(data))
        except rules.RulesError as exc:
            pytest.fail(f"{name}: {exc}")


@pytest.fixture
def ann(db, django_user_model, client):
    user = django_user_model.objects.create_user("ann", password=None)
    user.role = "creator"
    user.save()
    client.force_login(user)
    return user


def test_a_factory_post_without_reserves_is_refused_and_saves_nothing(ann, client):
    response = client.post(FACTORY, {"name": "Bare"})  # no reserves_auto, no reserve fields
    assert response.status_code == 400
    assert "No player has a piece to place" in response.content.decode()
    assert not RuleSet.objects.filter(name="Bare").exists()
    with pytest.raises(rules.RulesError):
        services.create_rule_set(NO_PIECES, ann)


def test_a_goal_turn_ending_refreshes_saves_copies_and_plays_through_the_factory(ann, client):
    fields = form_fields(client.get(FACTORY).content.decode())
    key = endings.key(endings.Ending(**GOAL_LAST))
    changes = {"check": key, "move-1": "adjacent"}
    response = client.post(REFRESH, post_data(fields, **changes))
    assert response.status_code == 200  # was 500: the estimate's games raised
    fields = form_fields(response.content.decode())
    response = client.post(FACTORY, post_data(fields, name="Goal-Runner"))
    assert response.status_code == 302, response.content.decode()[-1500:]
    saved = RuleSet.objects.get(name="Goal-Runner")
    assert saved.rule_doc().endings and saved.rule_doc().shape_rules
    assert client.get(f"{FACTORY}?copy={saved.pk}").status_code == 200
    assert client.get(saved.get_absolute_url()).status_code == 200
    assert client.get(reverse("play:new") + f"?game={saved.pk}").status_code == 200
    match = start(saved, ann, ann, human(ann))
    assert match.status == Match.Status.ACTIVE


# --- a match over at its start ends at once ------------------------------------------------


def test_a_match_of_a_game_over_at_its_start_finishes_at_once(ann):
    from accounts.services import system_user

    saved = services.create_rule_set(NO_PIECES, system_user(), check_play=False)  # an old save
    match = start(saved, ann, ann, human(ann))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED  # was "active" for ever
    assert match.outcome["type"] == "game:over"
    assert sorted(match.seats.values_list("result", flat=True)) == ["draw", "draw"]


def test_a_nested_match_checkmated_by_its_set_up_finishes_at_once(ann):
    depth_one = {**NESTED_CHECKED, "nested": {**NESTED_CHECKED["nested"], "depth": 1}}
    with pytest.raises(rules.RulesError, match="Checked is an Ultimate option"):
        services.create_rule_set(depth_one, ann)  # every seed was checkmated at once
    nested = {"side": 2, "depth": 2, "checked": True, "random_obstacles": 3, "scouts": 1,
              "symmetric_obstacles": True, "quick": True, "inverted": True}  # fmt: skip
    doc = {"name": "Sometimes-Checkmated", "board": {"type": "nested"}, "nested": nested}
    saved = services.create_rule_set(doc, ann)  # most seeds start with a move
    match = start(saved, ann, ann, human(ann), seed=12)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.outcome["reason"] == "checkmate"
