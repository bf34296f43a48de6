"""Endings as a typed vocabulary (gamecore/rules/endings.py, engine/general/endings.py):
each word on small hand-built positions, how several combine, overachievers, 1 vs Chaos,
validation and the normal form (fingerprints of documents without endings unchanged)."""

import random

import pytest

from gamecore.bots.arena import play_game
from gamecore.bots.base import RandomAgent
from gamecore.engine import compile_game
from gamecore.rules import RulesError, canonical, fingerprint, parse
from gamecore.rules.endings import (
    OFFERED,
    WORDS,
    as_check,
    check_word,
    from_key,
    key,
    label,
    offered,
    words,
)
from gamecore.rules.schema import TurnCheck
from gamecore.rules.vocabulary import (
    PLAYER_LABELS,
    PLAYER_MODES,
    PLAYER_SEATS,
    STALEMATE_LABELS,
    Stalemate,
)
from tests.engine_helpers import game, play
from variants import catalogue

W, D, L = "win", "draw", "loss"
COLORS = ("black", "white", "pink", "yellow")


def position(pieces: dict, endings=(), players="2", size=(6, 4, 1), shapes=("circle",), **kw):
    """A game whose position is ``pieces`` (colour -> list of (x, y) or (x, y, shape)) set up
    at the start; black then places one circle at the first empty space of the top row, and
    the next seat has nothing left to place: the stalemate endings decide. Returns the
    final state."""
    initial = []
    for color, spots in pieces.items():
        for spot in spots:
            x, y, *shape = spot
            initial.append({"at": [x, y, 1], "color": color, "shape": (shape or ["circle"])[0]})
    ncolors = len(PLAYER_MODES[players][2])
    reserves = {c: {"circle": 0} for c in COLORS[:ncolors]}
    reserves["black"] = {"circle": 1}
    doc = {
        "players": players,
        "shapes": list(shapes),
        "board": {"type": "squares", "size": list(size)},
        "reserves": reserves,
        "initial_pieces": initial,
        "turn_checks": [],
        "endings": list(endings),
        **kw,
    }
    g = game(doc)
    taken = {(x, y) for spots in pieces.values() for x, y, *_ in spots}
    top = size[1]
    free = next(x for x in range(1, size[0] + 1) if (x, top) not in taken)
    shape = "circle " if len(shapes) > 1 else ""
    return play(g.new_initial_state(), f"{shape}{free},{top},1")


def results(state):
    assert state.outcome is not None, "the game should be over"
    return state.outcome.results


# -- the old values are words -------------------------------------------------------------
def test_every_stalemate_value_is_a_word_and_keeps_its_label():
    assert set(WORDS) == set(Stalemate.__args__)
    for value, word in WORDS.items():
        assert label(word) == STALEMATE_LABELS[value]
        assert compile_game({"name": "x", "stalemate": value}).family in ("flat", "general")
    assert label(WORDS["most-in-a-row-wins"]) == "Most same-color-in-a-row wins"
    assert label(WORDS["all-lose"]) == "All players lose if stalemate"


def test_every_turn_check_is_a_word():
    for k in range(2, 7):
        for result in ("wins", "loses"):
            for diagonal in (True, False):
                c = TurnCheck(k=k, result=result, diagonal=diagonal)
                assert as_check(check_word(c)) == c
    assert label(check_word(TurnCheck(k=3, diagonal=False))) == (
        "First 3-same-color-in-a-row wins (no diagonal)"
    )


def test_documents_without_endings_keep_their_canonical_form():
    checked = 0
    for name, doc in catalogue.documents().items():
        if doc.get("endings") or doc.get("overachievers"):
            continue  # the dilemma games say their endings
        data = canonical(doc)
        assert "endings" not in data and "overachievers" not in data, name
        checked += 1
    assert checked >= 29  # every game written before the typed endings


def test_normal_form_one_rule_one_spelling():
    plain = {"name": "x"}
    spelled = {
        "name": "x",
        "endings": [
            {"measure": "in-a-row", "comparison": "first", "k": 3, "when": "turn"},
            {"measure": "none", "result": "draw"},
        ],
    }
    assert fingerprint(plain) == fingerprint(spelled)
    most = {"name": "x", "endings": [{"comparison": "most"}]}
    assert fingerprint(most) == fingerprint({"name": "x", "stalemate": "most-pieces-wins"})
    needy = [
        {"comparison": "more-than-chaos"},
        {"comparison": "fewer-than-chaos", "result": "loses"},
    ]
    a = {"name": "x", "players": "2-vs-chaos", "endings": needy}
    b = {**a, "endings": list(reversed(a["endings"])) + [a["endings"][0]]}
    assert fingerprint(a) == fingerprint(b)
    assert len(parse(b).endings) == 2
    assert fingerprint(a) != fingerprint({**a, "endings": a["endings"][:1]})


def test_endings_need_the_general_family_and_plain_games_stay_flat():
    assert compile_game({"name": "x"}).family == "flat"
    assert compile_game({"name": "x", "endings": [{"comparison": "least"}]}).family == "general"
    assert compile_game({"name": "x", "players": "1-vs-chaos"}).family == "general"


# -- validation -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("doc", "path", "words_"),
    [
        ({"endings": [{"comparison": "more-than-chaos"}]}, "endings[0].comparison", "Chaos"),
        ({"endings": [{"result": "chaos-wins"}]}, "endings[0].result", "Chaos"),
        ({"endings": [{"shape": "pentagon"}]}, "endings[0].shape", "shapes are circle"),
        ({"endings": [{"measure": "area", "shape": "circle"}]}, "endings[0].shape", "pieces"),
        ({"endings": [{"threshold": 0}]}, "endings[0].threshold", "at least 1"),
        ({"endings": [{"comparison": "most", "threshold": 3}]}, "endings[0].threshold", "only"),
        ({"endings": [{"comparison": "most", "when": "turn"}]}, "endings[0].when", "stalemate"),
        ({"endings": [{"comparison": "last-standing"}]}, "endings[0].when", "turn"),
        ({"endings": [{"comparison": "first", "when": "turn"}]}, "endings[0].comparison", "k"),
        ({"endings": [{"result": "stalemate"}]}, "endings[0].result", "after a move"),
        (
            {"endings": [{"comparison": "total-over", "threshold": 3}]},
            "endings[0].result",
            "one of",
        ),
        ({"endings": [{"measure": "none", "comparison": "most"}]}, "endings[0].measure", "none"),
        ({"endings": [{"measure": "stuck", "when": "turn"}]}, "endings[0].measure", "Stalemate"),
        ({"endings": [{"measure": "pieces", "k": 3}]}, "endings[0].k", "in-a-row"),
        ({"endings": [{"threshold": 5000}]}, "endings[0].threshold", "at most 1536"),
        ({"endings": [{"threshold": 10}]}, "endings[0].threshold", "at most 9 (the spaces"),
        ({"players": "3", "overachievers": True}, "overachievers", "4 Player"),
        ({"boards": 2, "endings": [{"when": "turn"}]}, "endings[0].when", "1 board"),
    ],
)
def test_validation_names_the_field_and_the_problem(doc, path, words_):
    with pytest.raises(RulesError) as info:
        parse({"name": "x", **doc})
    errors = info.value.errors
    assert any(e["path"] == path and words_ in e["message"] for e in errors), errors


def test_nested_boards_refuse_endings():
    with pytest.raises(RulesError) as info:
        parse({"name": "x", "board": {"type": "nested"}, "overachievers": True})
    assert any(e["path"] == "endings" for e in info.value.errors)


# -- each word on a position -------------------------------------------------------------
def test_more_and_fewer_than_chaos_each_seat_by_its_own_comparison():
    needy = [
        {"comparison": "more-than-chaos"},
        {"comparison": "fewer-than-chaos", "result": "loses"},
    ]
    # black 1 + 1 placed = 2, white 1, Chaos (pink) 1: black more, white level -> draws
    s = position({"white": [(1, 1)], "pink": [(2, 1)], "black": [(3, 1)]}, needy, "2-vs-chaos")
    assert results(s) == (W, D, D)
    assert "More pieces than Chaos wins" in s.outcome.detail
    # white fewer than Chaos: loses; black more: wins
    s = position({"pink": [(1, 1), (2, 1)], "black": [(3, 1), (4, 1)]}, needy, "2-vs-chaos")
    assert results(s) == (W, L, D)
    # both fewer: every player lost, so Chaos wins
    s = position({"pink": [(1, 1), (2, 1), (3, 1)]}, needy, "2-vs-chaos")
    assert results(s) == (L, L, W)
    # both more: every player won, so Chaos loses
    s = position({"white": [(1, 1)], "black": [(2, 1)]}, needy, "2-vs-chaos")
    assert results(s) == (W, W, L)
    # all level: nothing matched, the stalemate value decides (a draw)
    level = {"white": [(1, 1), (5, 1)], "pink": [(2, 1), (3, 1)], "black": [(4, 1)]}
    s = position(level, needy, "2-vs-chaos")
    assert results(s) == (D, D, D) and s.outcome.reason == "draw"


def test_more_than_chaos_alone_the_others_lose():
    more = [{"comparison": "more-than-chaos"}]
    s = position({"pink": [(1, 1)]}, more, "2-vs-chaos")
    assert results(s) == (D, D, D)  # black 1 = Chaos 1, white 0: nobody more, a draw
    s = position({"white": [(2, 1), (3, 1)], "pink": [(1, 1)]}, more, "2-vs-chaos")
    assert results(s) == (L, W, D)  # white more; black level: the others lose


def test_least_pieces_loses():
    least = [{"comparison": "least", "result": "loses"}]
    s = position(
        {"white": [(1, 1)], "pink": [(2, 1), (3, 1), (4, 1)], "black": [(5, 1)]}, least, "3"
    )
    assert results(s) == (W, L, W)  # black 2, white 1, pink 3
    s = position({"white": [(1, 1)], "pink": [(2, 1), (3, 1), (4, 1)]}, least, "3")
    assert results(s) == (L, L, W)  # black 1 and white 1 tie for least: both lose


def test_most_circles_wins_counts_only_circles():
    pieces = {
        "white": [(1, 1, "pentagon"), (2, 1, "pentagon"), (3, 1, "pentagon")],
        "black": [(4, 1)],
    }
    endings = [{"comparison": "most", "shape": "circle"}]
    s = position(pieces, endings, shapes=("circle", "pentagon"))
    assert results(s) == (W, L)  # black 2 circles, white 0 (but 3 pentagons)
    s = position(pieces, [{"comparison": "most"}], shapes=("circle", "pentagon"))
    assert results(s) == (L, W)  # most pieces: white's 3 pentagons count


def test_chaos_wins_if_total_circles_over_nine_takes_precedence():
    endings = [
        {"comparison": "total-over", "shape": "circle", "threshold": 9, "result": "chaos-wins"},
        {"comparison": "least", "result": "loses"},
    ]
    many = {"white": [(x, 1) for x in range(1, 7)] + [(1, 2), (2, 2)], "pink": [(3, 2)]}
    s = position(many, endings, "2-vs-chaos")  # 8 + 1 + black's 1 = 10 circles > 9
    assert results(s) == (L, L, W)
    assert s.outcome.detail.endswith("Chaos wins if total circles > 9")
    fewer = {"white": [(x, 1) for x in range(1, 7)] + [(1, 2)], "pink": [(3, 2)]}
    s = position(fewer, endings, "2-vs-chaos")  # 9 circles: least pieces decides
    assert results(s) == (L, W, L)  # black 1, white 7, Chaos 1: black and Chaos least


# Black: a line of 3 (2 pairs across); white: a 2x2 square (2 across, 2 down, 2 diagonal)
ROWS = {"black": [(1, 1), (2, 1), (3, 1)], "white": [(5, 1), (6, 1), (5, 2), (6, 2)]}


def _rows(endings):
    # black places its circle at (1, top): no new line with its others
    return position(ROWS, endings, size=(6, 4, 1))


def test_most_two_in_a_row_counts_lines_of_two_and_most_in_a_row_the_longest():
    assert results(_rows([{"measure": "in-a-row", "k": 2, "comparison": "most"}])) == (L, W)
    assert results(_rows([{"measure": "in-a-row", "comparison": "most"}])) == (W, L)
    least2 = {"measure": "in-a-row", "k": 2, "comparison": "least", "result": "loses"}
    assert results(_rows([least2])) == (L, W)
    most_loses = {"measure": "in-a-row", "comparison": "most", "result": "loses"}
    assert results(_rows([most_loses])) == (L, W)
    least_wins = {"measure": "in-a-row", "comparison": "least"}
    assert results(_rows([least_wins])) == (L, W)


def test_any_three_in_a_row_wins_at_stalemate():
    any3 = [{"measure": "in-a-row", "k": 3}]
    assert results(_rows(any3)) == (W, L)
    s = position({"white": [(1, 1), (2, 1)]}, any3)
    assert results(s) == (D, D) and s.outcome.reason == "draw"  # nobody has 3: a draw


def test_least_area_wins():
    # a white wall across the middle: black holds (1,1) and places at (1,3), reaching
    # (2,1), (3,1), (2,3), (3,3): 6; white holds 3 and reaches those 4 too: 7
    wall = {"white": [(1, 2), (2, 2), (3, 2)], "black": [(1, 1)]}
    least = [{"measure": "area", "comparison": "least"}]
    s = position(wall, least, size=(3, 3, 1))
    from gamecore.engine.general.ending import team_areas

    assert team_areas(s) == {0: 6, 1: 7}
    assert results(s) == (W, L) and s.outcome.detail == "Least area wins"
    s = position(wall, [{"measure": "area", "comparison": "most"}], size=(3, 3, 1))
    assert results(s) == (L, W)


def test_stalemate_loses_and_stalemate_wins_for_the_seat_that_cannot_move():
    s = position({}, [{"measure": "stuck", "result": "loses"}])
    assert results(s) == (W, L)  # white cannot move
    s = position({}, [{"measure": "stuck", "result": "wins"}])
    assert results(s) == (L, W)


def test_last_three_in_a_row_wins_the_most_recent_one():
    doc = {
        "board": {"type": "squares", "size": [4, 2, 1]},
        "reserves": {"black": {"circle": 4}, "white": {"circle": 4}},
        "turn_checks": [],
        "endings": [{"measure": "in-a-row", "k": 3, "comparison": "last"}],
    }
    # white completes row 2 first, black row 1 after it: black was last
    s = play(game(doc).new_initial_state(), "1,1,1", "1,2,1", "2,1,1", "2,2,1", "4,1,1", "3,2,1")
    assert s.outcome is None
    play(s, "3,1,1", "4,2,1")
    assert results(s) == (W, L)
    # black first, then white: white was last
    s = play(game(doc).new_initial_state(), "1,1,1", "1,2,1", "2,1,1", "2,2,1", "3,1,1", "4,1,1")
    assert s.outcome is None
    play(s, "4,2,1", "3,2,1")
    assert results(s) == (L, W)


def test_any_piece_wins_and_loses_after_a_move():
    doc = {"board": {"type": "squares", "size": [3, 1, 1]}, "turn_checks": []}
    s = play(game({**doc, "endings": [{"when": "turn"}]}).new_initial_state(), "2,1,1")
    assert results(s) == (W, L) and s.outcome.detail == "Any piece wins"
    loses = game({**doc, "endings": [{"when": "turn", "result": "loses"}]})
    s = play(loses.new_initial_state(), "2,1,1")
    assert results(s) == (L, W)


def test_all_players_lose_if_any_three_in_a_row():
    doc = {
        "players": "2-vs-chaos",
        "board": {"type": "squares", "size": [3, 3, 1]},
        "turn_checks": [],
        "endings": [{"measure": "in-a-row", "k": 3, "when": "turn", "result": "all-lose"}],
    }
    s = play(game(doc).new_initial_state(), "1,1,1", "1,2,1", "1,3,1", "2,1,1", "2,2,1")
    assert s.outcome is None
    play(s, "2,3,1", "3,1,1")  # black's row y=1 is complete
    assert results(s) == (L, L, W)
    assert s.outcome.detail == "All players lose if any 3-same-color-in-a-row"


def test_last_pentagon_wins_when_the_others_are_captured():
    doc = {
        "shapes": ["pentagon"],
        "board": {"type": "squares", "size": [3, 1, 1]},
        "reserves": {"black": {"pentagon": 1}, "white": {"pentagon": 1}},
        "shape_rules": {"pentagon": {"move": "adjacent", "power": "can-capture"}},
        "turn_checks": [],
        "endings": [{"shape": "pentagon", "comparison": "last-standing", "when": "turn"}],
    }
    s = play(game(doc).new_initial_state(), "1,1,1", "3,1,1")
    assert s.outcome is None
    play(s, "1,1,1-2,1,1")
    assert s.outcome is None  # both still have their pentagon
    play(s, "3,1,1x2,1,1")  # white captures black's last pentagon
    assert results(s) == (L, W) and s.outcome.detail == "Last pentagon wins"


def test_stalemate_if_goal_is_reached_then_the_stalemate_endings_decide():
    doc = {
        "board": {"type": "squares", "size": [3, 3, 1]},
        "turn_checks": [],
        "stalemate": "most-pieces-wins",
        "endings": [{"measure": "goal", "when": "turn", "result": "stalemate"}],
    }
    s = play(game(doc).new_initial_state(), "2,2,1", "3,2,1")
    assert s.outcome is None
    play(s, "1,3,1")  # black's goal is the row y = 3 (the seed: Player 1 at y = max)
    assert s.outcome.reason == "stalemate" and results(s) == (W, L)
    assert "Stalemate if goal is reached" in s.outcome.detail


# -- several endings ------------------------------------------------------------------------
def test_a_loss_outweighs_a_win_for_the_same_seat():
    endings = [{"comparison": "most"}, {"measure": "in-a-row", "k": 3, "result": "loses"}]
    assert results(_rows(endings)) == (L, W)  # both 4 pieces (most), but black has 3 in a row
    assert results(_rows(endings[:1])) == (W, W)


def test_a_turn_ending_that_does_not_match_lets_play_go_on():
    doc = {
        "board": {"type": "squares", "size": [3, 1, 1]},
        "turn_checks": [],
        "endings": [{"when": "turn", "threshold": 2}],
    }
    s = play(game(doc).new_initial_state(), "1,1,1", "2,1,1")
    assert s.outcome is None
    play(s, "3,1,1")  # black has 2 pieces
    assert results(s) == (W, L)


# -- overachievers --------------------------------------------------------------------------
def four(**kw):
    return {
        "players": "4",
        "board": {"type": "squares", "size": [5, 4, 1]},
        "turn_checks": [{"k": 3, "result": "wins", "diagonal": False}],
        "overachievers": True,
        **kw,
    }


ROUNDS = [f"{x},{y},1" for x in (1, 2) for y in (1, 2, 3, 4)]


def test_overachievers_the_first_winner_is_disqualified_and_the_second_wins():
    s = play(game(four()).new_initial_state(), *ROUNDS, "3,1,1")
    assert s.outcome is None and s.dq == 0b0001  # black made 3: disqualified, play goes on
    assert s.view(0)["disqualified"] == [1]
    play(s, "3,2,1")
    assert results(s) == (L, W, L, L)
    assert "white (seat 2) completed a line" in s.outcome.detail
    assert "disqualified as overachievers: seat 1" in s.outcome.detail


def test_overachievers_a_disqualified_seat_cannot_win_again():
    s = play(game(four()).new_initial_state(), *ROUNDS, "3,1,1", "5,2,1", "5,3,1", "5,4,1")
    play(s, "4,1,1")  # black's second line: does not count
    assert s.outcome is None
    play(s, "3,2,1")  # white: 3 in a row (1..3, 2)
    assert results(s) == (L, W, L, L)


def test_overachievers_without_the_rule_the_first_line_wins():
    s = play(game(four(overachievers=False)).new_initial_state(), *ROUNDS, "3,1,1")
    assert results(s) == (W, L, L, L)


def test_overachievers_second_most_pieces_wins_at_stalemate():
    doc = four(
        turn_checks=[],
        stalemate="most-pieces-wins",
        reserves={
            "black": {"circle": 1},
            "white": {"circle": 0},
            "pink": {"circle": 0},
            "yellow": {"circle": 0},
        },  # fmt: skip
        initial_pieces=[
            *({"at": [x, 1, 1], "color": "black"} for x in (1, 2)),
            *({"at": [x, 2, 1], "color": "white"} for x in (1, 2)),
            *({"at": [x, 3, 1], "color": "pink"} for x in (1, 2)),
            {"at": [1, 4, 1], "color": "yellow"},
        ],
    )
    s = play(game(doc).new_initial_state(), "5,4,1")  # black: 3 pieces, the most
    assert results(s) == (L, W, W, L)  # black disqualified; white and pink second most
    assert s.dq == 0b0001


def test_overachievers_all_disqualified_chaos_wins_everyone_loses():
    doc = four(
        turn_checks=[],
        stalemate="most-pieces-wins",
        board={"type": "squares", "size": [2, 2, 1]},
        reserves={c: {"circle": 1} for c in COLORS},
    )
    s = play(game(doc).new_initial_state(), "1,1,1", "2,1,1", "1,2,1", "2,2,1")
    assert results(s) == (L, L, L, L) and s.dq == 0b1111


def test_overachievers_first_line_loses_makes_every_other_seat_a_winner():
    doc = four(turn_checks=[{"k": 3, "result": "loses", "diagonal": False}])
    s = play(game(doc).new_initial_state(), *ROUNDS, "3,1,1")
    # black loses; the others "win", are disqualified: every player is out, Chaos wins
    assert results(s) == (L, L, L, L) and s.dq == 0b1110


# -- 1 vs Chaos --------------------------------------------------------------------------
def test_one_vs_chaos_is_a_player_mode_everywhere():
    assert PLAYER_MODES["1-vs-chaos"] == (2, 1, (0, 1))
    assert PLAYER_LABELS["1-vs-chaos"] == "1 vs Chaos"
    assert PLAYER_SEATS["1-vs-chaos"] == 1
    from play.forms import seats_needed
    from variants.templatetags.games import PLAYER_WORDS

    assert seats_needed({"players": "1-vs-chaos"}) == 1
    assert "1-vs-chaos" in PLAYER_WORDS


@pytest.mark.parametrize(
    "doc",
    [
        {"players": "1-vs-chaos"},
        {
            "players": "1-vs-chaos",
            "board": {"type": "stacks", "size": [7, 1, 6]},
            "turn_checks": [{"k": 4}],
        },  # fmt: skip
        {
            "players": "1-vs-chaos",
            "turn_checks": [],
            "endings": [{"measure": "in-a-row", "k": 2, "comparison": "more-than-chaos"}],
            "board": {"type": "squares", "size": [4, 4, 1]},
        },  # fmt: skip
    ],
)
def test_one_vs_chaos_plays_to_the_end_by_random_play(doc):
    g = game(doc)
    assert g.nseats == 2 and g.chaos == 1
    seen = set()
    for seed in range(20):
        state, moves = play_game(g, [RandomAgent(seed=seed)], seed=seed)
        assert state.is_terminal() and moves > 0
        r = state.outcome.results
        if r[0] == W:
            assert r[1] == L  # if all players win, Chaos loses
        seen.add(r)
    assert len(seen) >= 2  # the game is not decided before it is played


def test_one_vs_chaos_rates_the_player_against_a_beginner_chaos():
    from leaderboards.rating import BEGINNER, SeatResult, rate_match

    new = rate_match([SeatResult("p", 0, 1), SeatResult(None, 1, 2)], {})
    assert set(new) == {"p"} and new["p"].mu > BEGINNER.mu


# -- labels and what the factory offers ---------------------------------------------------------
ISSUE_LABELS = [
    "Any piece wins", "Any piece loses", "Most 2-same-color-in-a-row wins",
    "Least 2-same-color-in-a-row loses", "Most same-color-in-a-row wins",
    "Most same-color-in-a-row loses", "More pieces than Chaos wins",
    "Less pieces than Chaos loses", "Least pieces loses", "Chaos wins if total circles > 9",
    "Most circles wins", "Stalemate if goal is reached", "Least area wins",
    "Any 3-same-color-in-a-row wins", "Last 3-same-color-in-a-row wins", "Stalemate loses",
    "Stalemate wins", "All players lose if any 3-same-color-in-a-row", "Last pentagon wins",
    "First 2-same-color-in-a-row loses",
]  # fmt: skip


def test_the_factory_offers_every_ending_the_issue_lists_each_with_a_key_that_reads_back():
    labels = {lab for _k, lab in offered()}
    assert set(ISSUE_LABELS) <= labels
    for e in OFFERED:
        assert from_key(key(e)) == e
    assert len({label(e) for e in OFFERED}) == len(OFFERED)  # no two read alike


def test_offered_for_a_document_leaves_out_what_it_cannot_have():
    two = parse({"name": "x"})
    labels = {lab for _k, lab in offered(two)}
    assert "More pieces than Chaos wins" not in labels and "Last pentagon wins" not in labels
    chaos = parse({"name": "x", "players": "2-vs-chaos", "shapes": ["circle", "pentagon"]})
    labels = {lab for _k, lab in offered(chaos, when="stalemate")}
    assert "More pieces than Chaos wins" in labels and "Any piece wins" not in labels
    # every offered ending is valid in a document that can have it
    for k, _lab in offered(chaos):
        parse({"name": "x", "players": "2-vs-chaos", "shapes": ["circle", "pentagon"],
               "endings": [from_key(k).model_dump()]})  # fmt: skip


def test_words_of_a_document_in_order():
    doc = parse({"name": "x", "stalemate": "most-area-wins", "endings": [{"comparison": "least"}]})
    assert [label(e) for e in words(doc)] == [
        "First 3-same-color-in-a-row wins",
        "Most area wins",
        "Least pieces wins",
    ]


def test_random_games_with_endings_end_and_agree_with_their_results():
    docs = [
        {
            "players": "2-vs-chaos",
            "endings": [
                {"comparison": "more-than-chaos"},
                {"comparison": "fewer-than-chaos", "result": "loses"},
            ],
        },  # fmt: skip
        {"players": "3", "endings": [{"measure": "in-a-row", "k": 2, "comparison": "most"}]},
        {"players": "4", "overachievers": True, "board": {"type": "squares", "size": [4, 4, 1]}},
        {"endings": [{"measure": "in-a-row", "k": 3, "comparison": "last"}], "turn_checks": []},
    ]
    for doc in docs:
        g = game(doc)
        for seed in range(10):
            s = g.new_initial_state()
            s.playout(random.Random(seed))
            assert len(s.outcome.results) == g.nseats
            c = s.clone()
            assert c.outcome == s.outcome and c.dq == s.dq


def test_the_factory_offers_one_vs_chaos_with_one_goal_and_a_chaos_seat():
    from variants.factory import layout as page
    from variants.factory.state import adjust, default_state, to_document

    state = default_state()
    assert "1 vs Chaos" in [o.label for o in page.build(adjust(state)).players.options]
    state.players = "1-vs-chaos"
    state = adjust(state)
    goals = {side: labels for side, labels in page.draw_boards(state)[0].goals.items() if labels}
    assert goals == {"top": ["(Player 1 Goal)"]}  # Chaos has no goal
    assert page.build(state).phase_locks == ["Player 1", "Chaos"]
    doc = parse({**to_document(state), "name": "OneVsChaos"})
    assert doc.players == "1-vs-chaos" and doc.reserves == {
        "black": {"circle": 5},
        "white": {"circle": 4},
    }


def test_every_offered_ending_plays_random_games_on_every_kind_of_board():
    """Each offered ending, alone and with a neighbour, in games of each player mode it
    fits, on squares, stacks and two boards: every game ends, with one result a seat."""
    shapes = ["circle", "pentagon"]
    boards = [
        {"board": {"type": "squares", "size": [3, 3, 1]}},
        {"board": {"type": "stacks", "size": [3, 1, 3]}},
        {"board": {"type": "squares", "size": [2, 2, 1]}, "boards": 2},
    ]
    rng = random.Random(7)
    played = 0
    for i, e in enumerate(OFFERED):
        for players in ("2", "4", "2-vs-chaos", "1-vs-chaos"):
            for where in boards:
                endings = [e.model_dump(), OFFERED[(i + 1) % len(OFFERED)].model_dump()]
                doc = {"name": "x", "players": players, "shapes": shapes, "endings": endings,
                       "turn_checks": [], **where}  # fmt: skip
                try:
                    g = compile_game(doc)
                except RulesError:
                    continue  # an ending this game cannot have (validation says why)
                s = g.new_initial_state()
                s.playout(rng)
                assert len(s.outcome.results) == g.nseats
                played += 1
    assert played > 300
