"""Cloaking (issue 20, seed 004) in the engine: what each seat knows, sees and may attempt.

A row of four squares, spaces 3 and 4 cloaked; circles and pentagons move to an adjacent
space, pentagons capture by cover."""

import random

import pytest
from cloak_helpers import blotto_game, cloak_game

from gamecore.engine import IllegalMove
from gamecore.engine.general.fog import HIDDEN_MOVE, CloakedState


def row_data(cloaking="hides", black=None, white=None) -> dict:
    return {
        "name": "Row",
        "players": "2",
        "shapes": ["circle", "pentagon"],
        "board": {"type": "squares", "size": [4, 1, 1]},
        "reserves": {
            "black": black or {"circle": 1, "pentagon": 1},
            "white": white or {"circle": 1, "pentagon": 1},
        },
        "turn_checks": [],
        "shape_rules": {
            "circle": {"move": "adjacent"},
            "pentagon": {"move": "adjacent", "power": "can-capture", "condition": "cover"},
        },
        "allow_pass": True,
        "cloaking": cloaking,
    }


CLOAKED = [[(1, 3, 1, 1), (1, 4, 1, 1)]]


def row(cloaking="hides", **reserves):
    return cloak_game(row_data(cloaking, **reserves), CLOAKED).new_initial_state(seed=1)


def play(state, *texts):
    for text in texts:
        state.apply(state.to_move()[0], state.game.parse_move(text))
    return state


def pieces(view) -> dict:
    return {tuple(p["at"]): p for b in view["boards"] for p in b["pieces"]}


def test_a_cloaked_game_is_a_cloaked_state_and_one_without_cloaked_spaces_is_not():
    assert isinstance(row(), CloakedState)
    plain = cloak_game(row_data(), [[]]).new_initial_state()
    assert not isinstance(plain, CloakedState)


def test_a_piece_on_a_cloaked_space_is_seen_by_its_placer_only():
    s = play(row(), "circle 1,1,1", "circle 4,1,1")
    assert (4, 1, 1) in pieces(s.view(1))  # white placed it
    assert (4, 1, 1) not in pieces(s.view(0))
    assert (4, 1, 1) not in pieces(s.view(None))
    assert (1, 1, 1) in pieces(s.view(1)) and (1, 1, 1) in pieces(s.view(None))  # not cloaked
    assert s.view(0)["last_move"] == HIDDEN_MOVE and s.view(1)["last_move"] == "circle 4,1,1"


def test_legal_moves_are_what_the_seat_may_attempt_and_name_nothing_hidden():
    a = play(row(), "circle 1,1,1", "circle 4,1,1")
    b = play(row(), "circle 1,1,1", "circle 3,1,1")
    assert [str(m) for m in a.legal_moves(0)] == [str(m) for m in b.legal_moves(0)]
    assert "pentagon 4,1,1" in [str(m) for m in a.legal_moves(0)]  # looks empty
    # refused moves get the same words whatever hides where
    for text in ("circle 2,1,1", "1,1,1-4,1,1", "2,1,1-3,1,1", "1,1,1-3,1,1"):
        errors = []
        for s in (a, b):
            with pytest.raises(IllegalMove) as exc:
                s.clone().apply(0, s.game.parse_move(text))
            errors.append(str(exc.value))
        assert errors[0] == errors[1], text
        assert "white" not in errors[0] and "taken" not in errors[0]


def test_an_attempt_blocked_by_a_hidden_piece_only_reveals_it_and_ends_the_turn():
    s = play(row(), "circle 1,1,1", "circle 4,1,1")
    board, reserves = s.board[:], s.reserves[:]
    play(s, "pentagon 4,1,1")
    assert s.board == board and s.reserves == reserves  # nothing moved
    assert s.to_move() == (1,) and s.ply == 3
    seen = pieces(s.view(0))
    assert seen[(4, 1, 1)]["color"] == "white"
    assert s.view(0)["attempt"] == {"ply": 3, "move": "pentagon 4,1,1", "revealed": [[1, 4, 1, 1]]}
    assert s.view(1)["attempt"] is None and s.view(1)["last_move"] == HIDDEN_MOVE
    # both seats know it now, but that black found it is black's secret: a spectator who
    # saw it would learn of the bump (issue 32: spectators see what is public)
    assert (4, 1, 1) not in pieces(s.view(None))


def test_a_step_blocked_by_a_hidden_piece_reveals_it_and_nothing_moves():
    s = play(row(), "circle 2,1,1", "circle 3,1,1", "pentagon 1,1,1", "pass")
    assert "2,1,1-3,1,1" in [str(m) for m in s.legal_moves(0)]  # looks like a free step
    board = s.board[:]
    play(s, "2,1,1-3,1,1")  # a circle cannot cover
    assert s.board == board and s.to_move() == (1,)
    assert (3, 1, 1) in pieces(s.view(0))


def test_a_pentagon_covers_a_hidden_piece_it_took_for_an_empty_space():
    s = play(row(), "pentagon 2,1,1", "pentagon 3,1,1", "circle 1,1,1", "pass")
    assert "2,1,1-3,1,1" in [str(m) for m in s.legal_moves(0)]  # not "x": nothing in sight
    play(s, "2,1,1-3,1,1")
    v = pieces(s.view(0))
    assert v[(3, 1, 1)]["color"] == "black" and s.reserves == [0, 0, 1, 0]
    assert s.view(0)["last_move"] == "2,1,1x3,1,1"  # the mover learns it captured
    # white saw the pentagon on 2 (not cloaked): it still sees it on 3
    assert pieces(s.view(1))[(3, 1, 1)]["color"] == "black"


def test_a_piece_seen_before_stays_seen_when_it_moves_into_the_fog():
    s = play(row(), "pentagon 1,1,1", "circle 2,1,1", "circle 4,1,1", "2,1,1-3,1,1")
    assert pieces(s.view(0))[(3, 1, 1)]["color"] == "white"
    assert pieces(s.view(None))[(3, 1, 1)]["color"] == "white"  # every seat saw it


def test_obscurity_shows_the_colour_without_the_shape():
    s = play(row("obscures"), "circle 1,1,1", "pentagon 4,1,1")
    hidden = pieces(s.view(0))[(4, 1, 1)]
    assert hidden == {"at": [4, 1, 1], "color": "white", "obscured": True}
    assert pieces(s.view(1))[(4, 1, 1)]["shape"] == "pentagon"
    others = [p for p in pieces(s.view(0)).values() if p["color"] == "white"]
    assert all("shape" not in p and "owner" not in p for p in others)


def test_knowledge_survives_clone_and_replay():
    texts = ["circle 1,1,1", "circle 4,1,1", "pentagon 4,1,1", "pentagon 3,1,1"]
    s = play(row(), *texts)
    again = play(row(), *texts)
    copy = s.clone()
    for seat in (0, 1, None):
        assert copy.view(seat) == s.view(seat) == again.view(seat)
    assert copy.known == s.known == again.known


def test_a_finished_game_shows_everything():
    s = play(row(), "circle 1,1,1", "circle 4,1,1", "pass", "pass")
    assert s.is_terminal()
    assert (4, 1, 1) in pieces(s.view(0)) and (4, 1, 1) in pieces(s.view(None))


def test_determinise_reads_only_what_the_seat_knows():
    a = play(blotto_game().new_initial_state(), "b1:1,1", "b1:2,1", "b2:1,1", "b1:2,1")
    b = play(blotto_game().new_initial_state(), "b1:1,1", "b3:2,1", "b2:1,1", "b2:2,1")
    assert a.board != b.board  # the truths differ ...
    assert a.seat_state(0).board == b.seat_state(0).board  # ... black cannot tell
    worlds = set()
    for seed in range(20):
        wa = a.determinise(0, random.Random(seed))
        wb = b.determinise(0, random.Random(seed))
        assert wa.board == wb.board and wa.reserves == wb.reserves
        assert sum(c > 0 for c in wa.board) == 4  # two white soldiers drawn somewhere
        worlds.add(tuple(wa.board))
    assert len(worlds) > 1  # and it is a draw, not a copy


def test_blotto_each_seat_sees_only_its_own_stacks_until_the_end():
    rng = random.Random(4)
    s = blotto_game().new_initial_state(seed=2)
    while not s.is_terminal():
        seat = s.to_move()[0]
        s.apply(seat, rng.choice(s.legal_moves(seat)))
        if s.is_terminal():
            break
        color = ("black", "white")
        for viewer in (0, 1):
            assert {p["color"] for p in pieces(s.view(viewer)).values()} <= {color[viewer]}
        assert pieces(s.view(None)) == {}
    assert {p["color"] for p in pieces(s.view(None)).values()} == {"black", "white"}
