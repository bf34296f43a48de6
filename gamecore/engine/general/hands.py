"""Poker-hand ranks of stacks (the factory seed): a player's rank in a move "by stack" or
"by full stack" comes from the pieces of the destination stack (after the move) that it
owns or that nobody owns, chips (pieces of the lowest rank: shapes that cannot capture)
ignored, by the seed's hierarchy:

five of a shape > four of a shape > 5-straight > full house > 4-straight > three of a
shape > two pair > 3-straight > pair > 2-straight > singleton.

Shapes are ordered pentagon > star > cross > x > triangle > circle; "highest" compares
the shapes that make the hand (a full house by its three, then its pair; two pair by the
higher pair, then the lower), and a straight is that many consecutive shapes of this
order, named by its highest (circle does not follow pentagon: the circle-over-pentagon
exception is for duels of single pieces only). Only the pieces that make a hand count
(no kickers): equal hands tie. See catalogue/READINGS.md, "Captures on stacks".

Shapes are given as their rank, 0 (circle) to 5 (pentagon), as ``SHAPES`` orders them.
"""

FIVE, FOUR, STRAIGHT5, FULL_HOUSE, STRAIGHT4, THREE, TWO_PAIR, STRAIGHT3, PAIR, STRAIGHT2, ONE = (
    range(10, -1, -1)
)
NAMES = {
    FIVE: "five of a shape",
    FOUR: "four of a shape",
    STRAIGHT5: "5-straight",
    FULL_HOUSE: "full house",
    STRAIGHT4: "4-straight",
    THREE: "three of a shape",
    TWO_PAIR: "two pair",
    STRAIGHT3: "3-straight",
    PAIR: "pair",
    STRAIGHT2: "2-straight",
    ONE: "singleton",
}
RANKS = 6


def best_hand(ranks: list[int]) -> tuple[tuple, list[int]]:
    """(key, shapes used) of the best hand among ``ranks`` (shape ranks, repeats allowed).

    Keys compare with ``>``: the higher key is the higher hand. An empty list has the key
    ``()``, below every hand, and uses nothing."""
    count = [0] * RANKS
    for r in ranks:
        count[r] += 1
    down = range(RANKS - 1, -1, -1)

    def of_a_kind(n: int, skip: int = -1) -> int:
        return next((r for r in down if r != skip and count[r] >= n), -1)

    def straight(n: int) -> int:
        return next((t for t in down if t >= n - 1 and all(count[t - i] for i in range(n))), -1)

    if (r := of_a_kind(5)) >= 0:
        return (FIVE, r), [r] * 5
    if (r := of_a_kind(4)) >= 0:
        return (FOUR, r), [r] * 4
    if (t := straight(5)) >= 0:
        return (STRAIGHT5, t), list(range(t, t - 5, -1))
    three = of_a_kind(3)
    if three >= 0 and (pair := of_a_kind(2, three)) >= 0:
        return (FULL_HOUSE, three, pair), [three] * 3 + [pair] * 2
    if (t := straight(4)) >= 0:
        return (STRAIGHT4, t), list(range(t, t - 4, -1))
    if three >= 0:
        return (THREE, three), [three] * 3
    high = of_a_kind(2)
    if high >= 0 and (low := of_a_kind(2, high)) >= 0:
        return (TWO_PAIR, high, low), [high] * 2 + [low] * 2
    if (t := straight(3)) >= 0:
        return (STRAIGHT3, t), list(range(t, t - 3, -1))
    if high >= 0:
        return (PAIR, high), [high] * 2
    if (t := straight(2)) >= 0:
        return (STRAIGHT2, t), [t, t - 1]
    if (r := of_a_kind(1)) >= 0:
        return (ONE, r), [r]
    return (), []
