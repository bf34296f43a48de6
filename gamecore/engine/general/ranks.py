"""Ranks, for "cover by rank" (the seed's Stratego-like capture): when a piece covers an
opponent's, the higher-ranked of the two captures the other.

- Shapes rank pentagon > star > cross > x > triangle > circle, except that circle
  outranks pentagon (and only pentagon).
- Pieces that cannot capture have the lowest rank, and cannot cover each other (they may
  cover a higher-ranked piece, and are captured doing so).
- Pieces that capture other than by rank have the highest rank, and a conflict between
  two of them goes to the attacker.
- Otherwise equal ranks destroy each other.
"""

from gamecore.rules.vocabulary import SHAPES

NONE, BY_RANK, OTHER = 0, 1, 2
ATTACKER, DEFENDER, BOTH = 1, -1, 0


def category(rules) -> int:
    if rules.power == "none":
        return NONE
    return BY_RANK if rules.condition == "cover-by-rank" else OTHER


def outranks(a: str, b: str) -> bool:
    """Shape a outranks shape b (the seed's hierarchy, circle over pentagon)."""
    if a == "circle" and b == "pentagon":
        return True
    if a == "pentagon" and b == "circle":
        return False
    return SHAPES.index(a) > SHAPES.index(b)


def duel(game, attacker: int, defender: int) -> int:
    """Who captures when a piece of shape index ``attacker`` covers one of ``defender``."""
    a, d = game.rules[attacker], game.rules[defender]
    ca, cd = category(a), category(d)
    if ca != cd:
        return ATTACKER if ca > cd else DEFENDER
    if ca == OTHER:
        return ATTACKER
    sa, sd = game.shape_names[attacker], game.shape_names[defender]
    if sa == sd:
        return BOTH
    return ATTACKER if outranks(sa, sd) else DEFENDER if outranks(sd, sa) else BOTH


def may_cover(game, attacker: int, defender: int) -> bool:
    """Whether a piece may move onto an opponent's piece at all."""
    a = game.rules[attacker]
    if a.power != "none":
        return a.condition in ("cover", "cover-by-rank")
    return game.ranked and category(game.rules[defender]) != NONE
