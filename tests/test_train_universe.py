"""Every legal move of random rule documents (moving pieces, stacks, phases and
simultaneous rounds, generated as the engine's own fuzz tests make them) has its own
action number in the game's fixed move universe (gamecore/train/actions.py)."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamecore.engine import RulesError, compile_game
from gamecore.train.actions import universe_for
from tests.test_general_fuzz import moving_docs
from tests.test_general_stacks_fuzz import stack_docs
from tests.test_simultaneous import phased_docs


def check_universe(doc, seed: int) -> bool:
    try:
        game = compile_game(doc)
    except RulesError:
        return False
    universe = universe_for(game)
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    while not state.is_terminal() and state.ply < 300:
        for seat in state.to_move():
            legal = state.legal_moves(seat)
            numbers = {universe.index(m) for m in legal}
            assert len(numbers) == len(legal), "two moves share an action"
            assert all(0 <= n < universe.size for n in numbers)
        seat = rng.choice(state.to_move())
        state.apply(seat, rng.choice(state.legal_moves(seat)))
    return True


SETTINGS = dict(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)


PLAYED = []


@settings(**SETTINGS)
@given(doc=st.one_of(moving_docs(), stack_docs(), phased_docs()), seed=st.integers(0, 2**16))
def test_every_legal_move_of_generated_documents_has_its_own_action(doc, seed):
    PLAYED.append(check_universe(doc, seed))


def test_most_generated_documents_were_played():
    if not PLAYED:  # run alone: play them here
        test_every_legal_move_of_generated_documents_has_its_own_action()
    assert sum(PLAYED) >= 75, f"only {sum(PLAYED)} of {len(PLAYED)} documents compiled"
