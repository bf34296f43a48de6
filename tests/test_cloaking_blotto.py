"""3Blotto13 (seed 004) is Colonel Blotto: 13 soldiers each on 3 fields; a field goes to
whoever put more there (a tie to nobody); whoever wins more fields wins."""

import itertools
import random

from cloak_helpers import blotto_cloaked, blotto_data, blotto_game, cloak_game

SOLDIERS = 13
ALLOCATIONS = [
    (a, b, SOLDIERS - a - b) for a in range(SOLDIERS + 1) for b in range(SOLDIERS + 1 - a)
]


def blotto(black, white) -> tuple[str, str]:
    """Colonel Blotto's outcome, straight from its definition."""
    pairs = list(zip(black, white, strict=True))
    won = [sum(b > w for b, w in pairs), sum(w > b for b, w in pairs)]
    if won[0] == won[1]:
        return ("draw", "draw")
    return ("win", "loss") if won[0] > won[1] else ("loss", "win")


def order(allocation, rng=None) -> list[int]:
    fields = [f for f, n in enumerate(allocation) for _ in range(n)]
    if rng is not None:
        rng.shuffle(fields)
    return fields


def play(game, black, white, rng=None):
    state = game.new_initial_state(seed=1)
    for b, w in zip(order(black, rng), order(white, rng), strict=True):
        state.apply(0, game.parse_move(f"b{b + 1}:1,1"))
        state.apply(1, game.parse_move(f"b{w + 1}:2,1"))
    assert state.is_terminal()
    return state.outcome.results


def test_every_pair_of_allocations_ends_as_blotto_says():
    """All 105 x 105 pairs, on the same rules without the fog (the fog changes what is
    seen, never the outcome: the next test plays a sample through it)."""
    assert len(ALLOCATIONS) == 105
    game = cloak_game(blotto_data(), [[]])
    for black, white in itertools.product(ALLOCATIONS, ALLOCATIONS):
        assert play(game, black, white) == blotto(black, white), (black, white)


def test_a_sample_of_allocations_ends_as_blotto_says_through_the_fog():
    game = blotto_game()
    rng = random.Random(13)
    for _ in range(150):
        black, white = rng.choice(ALLOCATIONS), rng.choice(ALLOCATIONS)
        assert play(game, black, white, rng) == blotto(black, white), (black, white)


def test_all_spaces_are_cloaked():
    assert blotto_cloaked() == [[(b, x, 1, 0) for b in (1, 2, 3) for x in (1, 2)]]
    state = blotto_game().new_initial_state()
    assert len(state.view(0)["cloaking"]["cloaked"]) == 3 * 2 * SOLDIERS
