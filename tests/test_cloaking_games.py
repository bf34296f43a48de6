"""The cloaked games of seed 004 in the catalogue (issue 20), each by its own rule.

3Blotto13 is tested pair by pair in test_cloaking_blotto.py."""

import random

import pytest

from gamecore.engine import compile_game
from variants import catalogue

BLACK, WHITE = "black", "white"


def pieces(view) -> list[dict]:
    return [p for b in view["boards"] for p in b["pieces"]]


@pytest.mark.parametrize("name", ["3Blotto13", "KBeauty9", "Shopping9"])
def test_the_game_is_in_the_catalogue_and_cloaked(name):
    assert name in catalogue.names()
    game = compile_game(catalogue.get(name))
    state = game.new_initial_state(seed=1)
    assert type(state).__name__ == "CloakedState"
    assert state.view(0)["cloaking"]["type"] == "hides"
    assert state.view(0)["cloaking"]["cloaked"]


# -- KBeauty9: a Keynesian beauty contest. Each seat in turn (one phase each) stacks 0-9
# circles on its own stack, unseen; the most in a row would win, but the first winners are
# disqualified (overachievers), so the second-highest stack wins. --------------------------
KBEAUTY = compile_game(catalogue.get("KBeauty9"))


def kbeauty(heights) -> tuple[str, ...]:
    """The rule, straight from the seed: the highest stacks are disqualified; the highest
    of the rest win; if every stack is as high, everyone is disqualified and loses."""
    top = max(heights)
    rest = [h for h in heights if h != top]
    if not rest:
        return ("loss",) * 4
    second = max(rest)
    return tuple("win" if h == second else "loss" for h in heights)


def play_kbeauty(heights):
    state = KBEAUTY.new_initial_state(seed=1)
    for seat, height in enumerate(heights):
        for _ in range(height):
            assert state.to_move() == (seat,)  # phase seat+1: only this seat moves
            for other in range(4):  # nobody sees another's stack
                shown = {p["color"] for p in pieces(state.view(other))}
                assert shown <= {KBEAUTY.color_names[other]}
            state.apply(seat, KBEAUTY.parse_move(f"{seat + 1},1"))
        if height < 9:
            state.apply(seat, KBEAUTY.parse_move("pass"))
    assert state.is_terminal()
    return state.outcome.results


@pytest.mark.parametrize(
    "heights", [(5, 3, 1, 0), (4, 4, 2, 0), (9, 9, 9, 9), (0, 0, 0, 0), (1, 2, 3, 4), (2, 0, 0, 0)]
)
def test_kbeauty_the_second_highest_stack_wins(heights):
    assert play_kbeauty(heights) == kbeauty(heights)


def test_kbeauty_random_stacks():
    rng = random.Random(9)
    for _ in range(40):
        heights = tuple(rng.randint(0, 9) for _ in range(4))
        assert play_kbeauty(heights) == kbeauty(heights), heights


# -- Shopping9: black buys 0-9 circles, then white 0-7 (white starts with 2 pentagons),
# each unseen by the other, then Chaos 0-8 pentagons; the fewest pieces lose; more than 9
# circles bought in all and Chaos wins. ------------------------------------------------------
SHOPPING = compile_game(catalogue.get("Shopping9"))


def shopping(black, white, chaos) -> tuple[str, ...]:
    if black + white > 9:
        return ("loss", "loss", "win")
    counts = (black, white + 2, chaos)
    least = min(counts)
    return tuple("loss" if c == least else "win" for c in counts)


def play_shopping(black, white, chaos):
    state = SHOPPING.new_initial_state(seed=1)
    buys = [(black, 9, "circle 1,1"), (white, 7, "circle 2,1"), (chaos, 8, "pentagon 3,1")]
    for seat, (n, most, text) in enumerate(buys):
        for _ in range(n):
            assert state.to_move() == (seat,)
            if seat == 1:  # white shops without seeing black's basket
                assert {p["color"] for p in pieces(state.view(1))} == {WHITE}
            state.apply(seat, SHOPPING.parse_move(text))
        if n < most and not state.is_terminal():
            state.apply(seat, SHOPPING.parse_move("pass"))
    assert state.is_terminal()
    return state.outcome.results


def test_shopping_every_basket():
    for black in range(10):
        for white in range(8):
            for chaos in (0, 3, 8):
                expected = shopping(black, white, chaos)
                assert play_shopping(black, white, chaos) == expected, (black, white, chaos)


def test_shopping_white_sees_its_own_starting_pentagons():
    state = SHOPPING.new_initial_state(seed=1)
    for seat in (0, 1, 2, None):
        shown = [(p["at"], p["shape"]) for p in pieces(state.view(seat))]
        assert shown == [([2, 1, 1], "pentagon"), ([2, 1, 2], "pentagon")]
