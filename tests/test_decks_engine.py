"""Dealing at a match's start (issue 34): order, colours, seeding, blanks, cloaking."""

from gamecore.engine import compile_game
from gamecore.engine.general.game import GeneralGame


def _doc(deck, dealt, **extra):
    return {
        "name": "Dealt",
        "board": {"type": "hash", "size": [3, 3, 1]},
        "deck": deck,
        "dealt": dealt,
        **extra,
    }


def _pieces(state, seat=None):
    return {tuple(p["at"]): p for b in state.view(seat)["boards"] for p in b["pieces"]}


# y runs up as the boards are drawn (factory and match page): y=3 is the top row.
TOP_ROW = [{"at": [x, 3, 1]} for x in (3, 1, 2)]  # written out of order on purpose


def test_an_ordered_deck_is_dealt_top_to_bottom_then_left_to_right():
    doc = _doc("[O P X S]", [{"at": [1, 2, 1]}, *TOP_ROW], shapes=["circle", "pentagon", "x"])
    game = compile_game(doc)
    assert isinstance(game, GeneralGame)  # a deck routes to the general family
    got = _pieces(game.new_initial_state(seed=1))
    assert {at: p["shape"] for at, p in got.items()} == {
        (1, 3, 1): "circle",
        (2, 3, 1): "pentagon",
        (3, 3, 1): "x",
    }  # the blank (4th item, the row below) left (1, 2, 1) empty


def test_stacks_deal_the_top_layer_first():
    doc = {
        "name": "Posts",
        "board": {"type": "stacks", "size": [2, 1, 3]},
        "shapes": ["circle", "x"],
        "deck": "[X O]",
        "dealt": [{"at": [1, 1, 1]}, {"at": [1, 1, 2]}],
    }
    got = _pieces(compile_game(doc).new_initial_state(seed=0))
    assert got[(1, 1, 2)]["shape"] == "x" and got[(1, 1, 1)]["shape"] == "circle"


def test_stacks_are_dealt_one_stack_at_a_time():
    """A stack is dealt top-to-bottom before the next stack to its right (TheoryOfMind's
    triples each fill one post), not layer by layer across the board."""
    doc = {
        "name": "Posts",
        "board": {"type": "stacks", "size": [2, 1, 3]},
        "shapes": ["circle", "x"],
        "deck": "[X X O O]",
        "dealt": [{"at": [x, 1, z]} for x in (1, 2) for z in (1, 2)],
    }
    got = _pieces(compile_game(doc).new_initial_state(seed=0))
    assert [got[(1, 1, z)]["shape"] for z in (1, 2)] == ["x", "x"]
    assert [got[(2, 1, z)]["shape"] for z in (1, 2)] == ["circle", "circle"]


def test_a_seats_dealt_piece_takes_its_colour_and_is_its_own():
    dealt = [{"at": [1, 1, 1], "seat": 2}, {"at": [2, 1, 1], "seat": 1}, {"at": [3, 1, 1]}]
    doc = _doc("[O O O2]", dealt)
    got = _pieces(compile_game(doc).new_initial_state(seed=5))
    assert got[(1, 1, 1)]["color"] == "white" and got[(1, 1, 1)]["owner"] == 1  # 0-based
    assert got[(2, 1, 1)]["color"] == "black" and got[(2, 1, 1)]["owner"] == 0
    assert got[(3, 1, 1)]["color"] == "white" and got[(3, 1, 1)]["owner"] is None


def test_same_seed_same_deal_and_seeds_differ():
    doc = _doc("[{ O1 O2 S S S S }]", [{"at": [x, y, 1]} for x in (1, 2, 3) for y in (1, 2)])
    game = compile_game(doc)
    deals = {seed: _pieces(game.new_initial_state(seed=seed)) for seed in range(20)}
    assert _pieces(game.new_initial_state(seed=7)) == deals[7]
    assert len({tuple(sorted((at, p["color"]) for at, p in d.items())) for d in deals.values()}) > 5
    for d in deals.values():  # every deal: one black, one white, four blanks
        assert sorted(p["color"] for p in d.values()) == ["black", "white"]


def test_cloaked_dealt_pieces_are_hidden_from_seats_that_may_not_see_them():
    row = [{"at": [x, 1, 1]} for x in (1, 2, 3)]
    doc = _doc(
        "[O1 O2 O2]",
        [{**row[0], "seat": 1}, {**row[1], "seat": 2}, row[2]],
        cloaking="hides",
        phases=[{"cloaked": row}],
    )
    state = compile_game(doc).new_initial_state(seed=0)
    assert state.outcome is None
    assert set(_pieces(state, 0)) == {(1, 1, 1)}  # its own card only
    assert set(_pieces(state, 1)) == {(2, 1, 1)}
    assert set(_pieces(state, None)) == set()  # spectators: nothing dealt on cloaked spaces
    for seat in (0, 1):
        shown = state.seat_state(seat).board
        assert sum(1 for c in shown if c > 0) == 1


def test_uncloaked_dealt_pieces_are_public():
    doc = _doc("[O1]", [{"at": [2, 2, 1]}])
    state = compile_game(doc).new_initial_state(seed=0)
    assert set(_pieces(state, 1)) == {(2, 2, 1)}
    state.apply(0, state.legal_moves(0)[0])  # and the game plays on
    assert state.ply == 1
