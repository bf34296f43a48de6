"""Stacks as pots and the other rules the social-dilemma games need (issue 19; engine:
gamecore/engine/general/pots.py; READINGS.md, "Social-dilemma games", "Stacks are
pots"). One rule per test, each on a small game of its own, so a test fails if its rule
is played wrong:

1. set-up pieces of a colour that is one seat's are that seat's (shared or chosen
   colours: nobody's), in both families;
2. guarded stacks: a chip landing on another team's stationary capturing piece is taken
   with every chip on that stack;
3. whole pots: a plain cover on stacks takes every piece of the other teams there;
4. converting covers on stacks (validation and duels);
5. split pots: tied guards share the pot round-robin from a seeded random start;
6. several boards with typed stalemate endings: measured over all boards, "least area"
   compares only teams with a piece.
"""

import pytest

from gamecore import rules
from gamecore.engine import compile_game
from gamecore.engine.outcome import DRAW, LOSS, WIN
from tests.engine_helpers import game, play
from tests.test_general_stacks import legal, reserve, stack
from variants import catalogue

GUARD = {"move": "stationary", "power": "can-capture", "condition": "cover"}


def stacks(size=(3, 1, 4), **doc) -> dict:
    return {"board": {"type": "stacks", "size": list(size)}, "turn_checks": [], **doc}


def owners(state) -> list:
    return [p["owner"] for b in state.view(None)["boards"] for p in b["pieces"]]


# -- 1. set-up pieces ----------------------------------------------------------------------
def test_a_set_up_piece_of_a_seats_colour_is_that_seats_and_moves():
    doc = {
        "board": {"type": "squares", "size": [3, 1, 1]},
        "shapes": ["circle"],
        "initial_pieces": [{"at": [1, 1, 1], "color": "black"}],
        "reserves": {"black": {"circle": 0}, "white": {"circle": 1}},
        "shape_rules": {"circle": {"move": "adjacent"}},
        "turn_checks": [],
    }
    s = game(doc).new_initial_state()
    assert owners(s) == [0] and s.own[0] == 1  # black's, in its index of pieces too
    assert legal(s) == {"1,1,1-2,1,1"}  # black moves it (it has nothing to place)
    play(s, "1,1,1-2,1,1")
    assert owners(s) == [0]


@pytest.mark.parametrize(
    "colors, players",
    [("shared", "2"), ("choose", "2"), ("partners-share", "partners")],
)
def test_set_up_pieces_of_a_shared_or_chosen_colour_are_nobodys(colors, players):
    doc = {
        "players": players,
        "colors": colors,
        "board": {"type": "squares", "size": [3, 3, 1]},
        "initial_pieces": [{"at": [2, 2, 1], "color": "black"}],
    }
    doc = {"name": "T", **doc}
    general = compile_game(doc, "general").new_initial_state()
    assert owners(general) == owners(compile_game(doc, "flat").new_initial_state()) == [None]
    assert not any(general.own)


def test_both_families_own_connect6s_first_stone_alike():
    doc = catalogue.get("Connect6-19x19")
    flat = compile_game(doc, "flat").new_initial_state()
    general = compile_game(doc, "general").new_initial_state()
    color = flat.view(None)["boards"][0]["pieces"][0]["color"]
    assert owners(flat) == owners(general) == [("black", "white").index(color)]


# -- 2. guarded stacks ---------------------------------------------------------------------
def guarded(result="reincarnate", mover=None) -> dict:
    """Stack 2 holds white's stationary pentagon (a guard); black and white place
    circles (chips), which may move when ``mover`` says how."""
    return stacks(
        shapes=["circle", "pentagon"],
        initial_pieces=[{"at": [2, 1, 1], "color": "white", "shape": "pentagon"}],
        reserves={"black": {"circle": 2}, "white": {"circle": 2}},
        shape_rules={
            "pentagon": {**GUARD, "result": result},
            **({"circle": {"move": mover}} if mover else {}),
        },
    )


def test_a_chip_placed_on_a_guarded_stack_is_taken_with_every_chip_there():
    s = play(game(guarded()).new_initial_state(), "circle 1,1", "circle 2,1")
    # white's own chip lands on its guard; black's chip then lands and the guard takes
    # both (reincarnated into white's reserve, white's own chip too: it is in the pot)
    assert stack(s, 2) == [(1, "pentagon"), (1, "circle")]
    play(s, "circle 2,1")
    assert stack(s, 2) == [(1, "pentagon")]
    assert reserve(s, "white", "circle") == 1 + 2 and reserve(s, "black", "circle") == 0


def test_a_chip_on_its_own_teams_guard_just_lands():
    s = play(game(guarded()).new_initial_state(), "circle 1,1", "circle 2,1", "circle 3,1")
    assert stack(s, 2) == [(1, "pentagon"), (1, "circle")]
    assert reserve(s, "white", "circle") == 1


def test_a_chip_moved_onto_a_guarded_stack_is_taken():
    doc = guarded(result="remove", mover="adjacent-orthogonal")
    s = play(game(doc).new_initial_state(), "circle 1,1", "circle 3,1", "circle 1,1")
    play(s, "circle 3,1")  # both placed all; black moves its top piece from 1,1 to 2,1
    assert "1,1-2,1" in legal(s)
    play(s, "1,1-2,1")
    assert stack(s, 2) == [(1, "pentagon")] and stack(s, 1) == [(0, "circle")]
    assert reserve(s, "white", "circle") == 0  # removed: nobody gains


def test_a_converting_guard_makes_the_chip_its_owners_where_it_stands():
    s = play(game(guarded(result="convert")).new_initial_state(), "circle 2,1")
    assert stack(s, 2) == [(1, "pentagon"), (1, "circle")]
    assert [p["color"] for p in s.view(None)["boards"][0]["pieces"]] == ["white", "white"]


def test_a_capturing_piece_that_moves_guards_nothing():
    doc = guarded()
    doc["shape_rules"]["pentagon"] = {"move": "adjacent", "power": "can-capture"}
    s = play(game(doc).new_initial_state(), "circle 2,1")
    assert stack(s, 2) == [(1, "pentagon"), (0, "circle")]  # it just lands


# -- 3. whole pots -------------------------------------------------------------------------
def pot(result="remove", move="stationary") -> dict:
    """Black's X captures by plain cover; stack 1 holds black's and white's circles."""
    return stacks(
        size=(3, 1, 5),
        shapes=["circle", "x"],
        initial_pieces=[
            {"at": [1, 1, 1], "color": "white"},
            {"at": [1, 1, 2], "color": "black"},
            {"at": [1, 1, 3], "color": "white"},
        ],
        reserves={"black": {"x": 1}, "white": {"circle": 1}},
        shape_rules={"x": {"move": move, "power": "can-capture", "result": result}},
    )


def test_a_placed_cover_takes_every_piece_of_the_other_teams_on_the_stack():
    s = play(game(pot()).new_initial_state(), "x 1,1")
    assert stack(s, 1) == [(0, "circle"), (0, "x")]  # black's circle fell; X on top


def test_a_reincarnating_cover_gains_each_piece_of_the_pot():
    s = play(game(pot("reincarnate-x2")).new_initial_state(), "x 1,1")
    assert stack(s, 1) == [(0, "circle"), (0, "x")]
    assert reserve(s, "black", "circle") == 4  # two white circles, twice each


def test_a_converting_cover_converts_the_pot_where_it_stands():
    s = play(game(pot("convert")).new_initial_state(), "x 1,1")
    assert stack(s, 1) == [(0, "circle"), (0, "circle"), (0, "circle"), (0, "x")]


def test_a_moving_cover_takes_the_whole_pot_even_of_a_full_stack():
    doc = pot(move="adjacent-orthogonal")
    doc["board"]["size"] = [3, 1, 3]  # stack 1 is full
    s = play(game(doc).new_initial_state(), "x 2,1", "circle 3,1")
    assert "2,1x1,1" in legal(s)
    play(s, "2,1x1,1")
    assert stack(s, 1) == [(0, "circle"), (0, "x")] and stack(s, 2) == []


def test_a_converting_cover_cannot_enter_a_full_stack():
    doc = pot("convert", move="adjacent-orthogonal")
    doc["board"]["size"] = [3, 1, 3]
    s = play(game(doc).new_initial_state(), "x 2,1", "circle 3,1")
    assert not any(m.endswith("1,1") for m in legal(s))  # nothing leaves: no room


# -- 4. converting covers ------------------------------------------------------------------
def ranked(**extra) -> dict:
    rank = {"power": "can-capture", "condition": "cover-by-rank", "result": "convert"}
    return stacks(
        shapes=["circle", "x", "pentagon"],
        reserves={"black": {"x": 1, "pentagon": 1}, "white": {"x": 1, "pentagon": 1}},
        shape_rules={s: {"move": "stationary", **rank} for s in ("circle", "x", "pentagon")},
        **extra,
    )


def test_converting_covers_validate_on_stacks_and_not_elsewhere():
    assert rules.parse({"name": "T", **ranked()})
    plain = {"move": "adjacent", "power": "can-capture", "result": "convert"}
    assert rules.parse({"name": "T", **stacks(shape_rules={"circle": plain})})
    for doc in ({"shape_rules": {"circle": plain}}, {**ranked(), "board": {"type": "squares"}}):
        with pytest.raises(rules.RulesError, match="convert: only on stacks"):
            rules.parse({"name": "T", **doc})


def test_a_winning_attacker_converts_the_covered_piece_in_place():
    s = play(game(ranked()).new_initial_state(), "x 1,1", "pentagon 1,1")
    assert stack(s, 1) == [(1, "x"), (1, "pentagon")]  # black's X is white's now


def test_a_losing_attacker_lands_as_the_defenders():
    s = play(game(ranked()).new_initial_state(), "pentagon 1,1", "x 1,1")
    assert stack(s, 1) == [(0, "pentagon"), (0, "x")]  # white's X became black's
    assert reserve(s, "white", "x") == 0


def test_rock_paper_scissors_plays_the_cycle():
    g = game("RockPaperScissors")
    for black, white, winner in [("circle", "pentagon", 0), ("x", "pentagon", 1)]:
        s = g.new_initial_state(seed=1)
        s.apply(0, g.parse_move(f"{black} 1,1"))
        s.apply(1, g.parse_move(f"{white} 1,1"))
        assert s.outcome.results[winner] == WIN and s.outcome.results[1 - winner] == LOSS


# -- 5. split pots -------------------------------------------------------------------------
def split() -> dict:
    """Three seats' stationary pentagons (reincarnate x2) guard stack 3; black's two
    circles on stack 1 move by stack."""
    guard = {**GUARD, "result": "reincarnate-x2"}
    return stacks(
        size=(3, 1, 6),
        players="3",
        shapes=["circle", "pentagon"],
        initial_pieces=[
            {"at": [1, 1, 1], "color": "black"},
            {"at": [1, 1, 2], "color": "black"},
            *(
                {"at": [3, 1, z], "color": c, "shape": "pentagon"}
                for z, c in ((1, "black"), (2, "white"), (3, "pink"))
            ),
        ],  # fmt: skip
        shape_rules={"pentagon": guard, "circle": {"move": "orthogonal-by-stack"}},
        reserves={c: {"circle": 0} for c in ("black", "white", "pink")},
        allow_pass=True,
    )


def test_tied_guards_split_a_moved_pot_round_robin_from_a_seeded_start():
    g = game(split())
    seen = set()
    for seed in range(12):
        s = play(g.new_initial_state(seed=seed), "1,1,1-3,1")
        assert stack(s, 3) == [(0, "pentagon"), (1, "pentagon"), (2, "pentagon")]
        got = tuple(reserve(s, c, "circle") for c in ("black", "white", "pink"))
        # two circles, twice each: four dealt over three captors, black among them
        assert sorted(got) == [1, 1, 2], got
        seen.add(got)
        again = play(g.new_initial_state(seed=seed), "1,1,1-3,1")
        assert again.reserves == s.reserves  # a replay deals the same
    assert len(seen) == 3  # every captor may start


# -- 6. several boards, typed stalemate endings ----------------------------------------
def two_boards(black_board: int, white_board: int) -> dict:
    return {
        "boards": 2,
        "board": {"type": "squares", "size": [2, 2, 1]},
        "reserves": {"black": {"circle": 1}, "white": {"circle": 1}},
        "exclusive": [
            {"board": b, "at": at, "seats": [seat]}
            for b in (1, 2)
            for seat, at in ((1, [1, 1, 1]), (2, [2, 2, 1]))
            if (black_board, white_board)[seat - 1] != b
        ],
        "endings": [{"measure": "area", "comparison": "least", "result": "wins"}],
        "turn_checks": [],
    }


def test_least_area_counts_every_board_and_only_teams_with_a_piece():
    # black alone on board 1 (area 4), white alone on board 2 (area 4): both least
    s = play(game(two_boards(1, 2)).new_initial_state(), "b1:1,1,1", "b2:2,2,1")
    assert s.outcome.results == (WIN, WIN)
    # both on board 1: two each (walled by the other); board 2 empty, no board decided alone
    s = play(game(two_boards(1, 1)).new_initial_state(), "b1:1,1,1", "b1:2,2,1")
    assert s.outcome.results == (WIN, WIN) and s.outcome.reason != "boards"


def test_a_team_with_no_piece_has_no_area_to_compare():
    doc = two_boards(1, 1)
    doc["reserves"] = {"black": {"circle": 1}, "white": {"circle": 0}}
    s = play(game(doc).new_initial_state(), "b1:1,1,1")
    assert s.outcome.results == (WIN, LOSS)  # white, with area 0, is not "least"


# -- what the dilemma games need besides -----------------------------------------------
def test_only_less_than_chaos_loses_and_nobody_fewer_every_player_wins():
    doc = stacks(
        players="2-vs-chaos",
        reserves={"black": {"circle": 1}, "white": {"circle": 1}, "pink": {"circle": 0}},
        endings=[{"measure": "pieces", "comparison": "fewer-than-chaos", "result": "loses"}],
    )
    s = play(game(doc).new_initial_state(), "1,1", "2,1")
    assert s.outcome.results == (WIN, WIN, LOSS)
    doc["endings"] = [{"measure": "pieces", "comparison": "more-than-chaos"}]
    doc["reserves"]["black"] = doc["reserves"]["white"] = {"circle": 0}
    s = game(doc).new_initial_state()  # nobody more than Chaos: the stalemate value
    assert s.outcome.results == (DRAW, DRAW, DRAW)


def test_before_the_last_phase_a_seat_that_cannot_move_is_skipped():
    doc = stacks(
        reserves={"black": {"circle": 1}, "white": {"circle": 3}},
        phases=[{}, {}],
    )
    s = play(game(doc).new_initial_state(), "1,1", "2,1")
    assert s.view(None)["phase"]["number"] == 1 and s.to_move() == (1,)  # black skipped
    play(s, "2,1", "2,1")  # white places all it has: the phase ends
    assert s.view(None)["phase"]["number"] == 2 or s.is_terminal()
