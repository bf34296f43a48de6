"""Issue 35, "The named games": each named dilemma has the structure its name promises,
checked on the outcome table as the ENGINE plays it (tests/dilemma_lines.py: every line
of play through the public API, Chaos's random moves enumerated exactly): who prefers
what, dominant choices, pure equilibria. READINGS.md ("Social-dilemma games") says which
reading each rests on."""

from fractions import Fraction

import pytest

from gamecore.engine import compile_game
from tests.dilemma_lines import engine_table
from variants import catalogue


def played(name):
    return engine_table(name, catalogue.get(name))


def chance(value, seat) -> Fraction:
    """A player's chance to win from a table value (a result tuple or {results: p})."""
    if isinstance(value, tuple):
        return Fraction(value[seat] == "win")
    return sum((Fraction(p) for o, p in value.items() if o[seat] == "win"), Fraction(0))


def losers(value) -> Fraction:
    """Expected number of players who lose."""
    if isinstance(value, tuple):
        return Fraction(value.count("loss"))
    return sum((Fraction(p) * o.count("loss") for o, p in value.items()), Fraction(0))


# -- 3P-TrolleyDilemma / 4P-TrolleyDilemma -----------------------------------------------
def test_3p_trolley_plays_the_seeds_third_phase_for_chaos():
    """Phase 3: "Option to pass, only chaos unlocked": Chaos places or passes."""
    game = compile_game(catalogue.get("3P-TrolleyDilemma"))
    state = game.new_initial_state(seed=1)
    state.apply(0, game.parse_move("pass"))  # white then has nothing to place
    assert not state.is_terminal() and state.to_move() == (game.chaos,)
    moves = state.legal_moves(game.chaos)
    assert len(moves) == 4  # a circle on stack 4, 5 or 6, or a pass
    state.apply(game.chaos, game.parse_move("circle 4,1"))
    assert not state.is_terminal() and state.to_move() == (game.chaos,)


@pytest.mark.parametrize("name", ["3P-TrolleyDilemma", "4P-TrolleyDilemma"])
def test_the_lever_moves_the_loss_from_the_many_to_the_one(name):
    table = played(name)
    pink = 2
    # Black, at the lever, is a bystander: it wins whatever it does.
    assert chance(table[False], 0) == chance(table[True], 0) == 1
    # Not pulling: the track of three (pink, and yellow in 4P) loses; pulling: white does.
    assert chance(table[False], pink) < Fraction(1, 10) < chance(table[False], 1)
    assert chance(table[True], 1) < Fraction(1, 10) < chance(table[True], pink)
    if name == "4P-TrolleyDilemma":  # five on the track: two losers become one
        assert losers(table[True]) == 1 < losers(table[False]) == 2
    else:  # 3P: one loser for another (pink's three circles or white's two)
        assert abs(losers(table[True]) - losers(table[False])) < Fraction(1, 20)


# -- NeedyDictator / RichDictator ---------------------------------------------------------
@pytest.mark.parametrize("name", ["NeedyDictator", "RichDictator"])
def test_the_dictator_trades_its_own_chance_for_the_recipients(name):
    """Keys: circles black keeps (of 3); the rest are given to white. Giving costs the
    dictator and helps the recipient, and each side's chance moves with the split."""
    table = played(name)
    black = [chance(table[k], 0) for k in range(4)]
    white = [chance(table[k], 1) for k in range(4)]
    assert black == sorted(black) and black[3] > black[0]  # keeping more never hurts
    assert white == sorted(white, reverse=True) and white[0] > white[3]  # giving helps
    assert any(black) and any(white)  # nobody scores 0 in every row
    # Keeping everything is (weakly) dominant: the selfish dictator's choice.
    assert max(black) == black[3]
