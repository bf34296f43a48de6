"""Dealing (release 1.7): at a match's start the deck is assembled with the match's seed
and its items replace the dealt markers in dealing order (rules/decks.py, game.py's
``dealt``). A seat's dealt piece is that seat's, in its colour; a common one is nobody's,
in the colour the item names (seat n's), else the game's first colour. A blank leaves the
space empty. Same seed, same deal: the RNG is seeded from the seed alone."""

import random

from gamecore.rules.decks import assemble

from .codes import LOCKED
from .knowledge import reindex


def deck_rng(seed) -> random.Random:
    # a string seed is hashed the same way on every run and machine (unlike hash())
    return random.Random(f"deck:{0 if seed is None else seed}")


def dealt_pieces(game, seed) -> list[tuple[int, int]]:
    """(space, piece code) for each dealt space that gets a piece."""
    deck = assemble(game.doc.deck, deck_rng(seed))
    out = []
    for (space, seat), item in zip(game.dealt, deck, strict=False):
        if item.shape is None:
            continue
        shape = game.shape_names.index(item.shape)
        if seat is not None:
            ri = game.seat_color[seat] * game.nshapes + shape
            out.append((space, game.code[seat][ri]))
        else:
            color = game.seat_color[item.seat - 1] if item.seat else 0
            out.append((space, game.unowned[color * game.nshapes + shape]))
    return out


def deal(state, seed) -> None:
    """Put the dealt pieces on a fresh state's board and rebuild its indexes."""
    g = state.game
    board = state.board
    for space, code in dealt_pieces(g, seed):
        board[space] = code
        owner = g.piece[code][0]
        if owner is not None:
            state.own[owner] |= 1 << space
    if g.stacks:  # a blank under a dealt piece would leave it floating: let it fall
        for t in range(g.npos):
            base = g.stack_base[t]
            codes = [board[base + z * g.layer] for z in range(g.height)]
            if LOCKED in codes:
                continue  # walls keep their places; pieces above them stay put
            pieces = [c for c in codes if c > 0]
            for z, c in enumerate(pieces + [0] * (g.height - len(pieces))):
                board[base + z * g.layer] = c
    reindex(state)
