"""A finished match as labelled samples: what a curriculum feeds ``Learner.partial_fit``.

``samples_from_match`` replays the match's move log from its seed (the set-up is seeded)
through the public API (``parse_move`` + ``apply``: the log is data from storage, so the
checked apply) and yields, for each move, the features of the position the move led to
**as its mover sees it** (``view(mover)`` after the move), labelled with the mover's
``label_for(result, strategic)``. Seats missing from ``results`` (Chaos, or a seat the
curriculum leaves out) are replayed but not studied.
"""

import weakref

import numpy as np

from .fastpath import flat_encoder
from .features import layout_for
from .labels import label_for

_ENCODERS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_PARSED: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_PARSED_KEEP = 4096  # move texts kept parsed per game (Moves are immutable: shared)


def _encoder(game, layout):
    """encode(state, seat, out): the flat family's fast path (fastpath.py), else the view."""
    found = _ENCODERS.get(game)
    if found is None:
        fast = flat_encoder(layout, game)
        found = _ENCODERS[game] = fast or (
            lambda state, seat, out: layout.encode_into(state.view(seat), seat, out)
        )
    return found


def _parse(game, text: str):
    cache = _PARSED.get(game)
    if cache is None:
        cache = _PARSED[game] = {}
    move = cache.get(text)
    if move is None:
        move = game.parse_move(text)
        if len(cache) < _PARSED_KEEP:
            cache[text] = move
    return move


def samples_from_match(game, moves, results: dict, strategic: dict | None = None, seed: int = 0):
    """(X, y): float32 rows of ``layout_for(game)`` and their LABELS.

    ``moves``: the log, oldest first, each a move's text (its mover is then the first
    seat ``to_move()`` names, which is the order ``play_game`` and the tournaments play a
    simultaneous round in) or a ``(seat, text)`` pair (0-based seat: the match layer's
    log, where a round's plans come in any order). ``results``: seat -> "win", "lose"
    (or the engine's "loss") or "draw"; ``strategic``: seat -> None, "strategic" or
    "unstrategic" (missing: None). A move the rules refuse raises the engine's
    IllegalMove naming it: a log that does not replay is not studied in part."""
    layout = layout_for(game)
    strategic = strategic or {}
    labels = {seat: label_for(result, strategic.get(seat)) for seat, result in results.items()}
    state = game.new_initial_state(seed=seed)
    X = np.zeros((len(moves), layout.size), dtype=np.float32)
    y: list[str] = []
    rows = 0
    encode = _encoder(game, layout)
    for entry in moves:
        if isinstance(entry, str):
            seat, text = state.to_move()[0], entry
        else:
            seat, text = entry
        if not isinstance(text, str):
            raise ValueError(f"moves: a move's text, not {text!r}")
        state.apply(seat, _parse(game, text))
        label = labels.get(seat)
        if label is not None:
            encode(state, seat, X[rows])
            y.append(label)
            rows += 1
    return X[:rows], np.array(y, dtype=object)


def outcome_results(outcome) -> dict[int, str]:
    """seat -> "win"/"lose"/"draw" from an engine Outcome (every seat)."""
    return {seat: result for seat, result in enumerate(outcome.results)}


def random_match(game, seed: int):
    """A Random-vs-Random match as a curriculum would store it: (moves as (seat, text)
    pairs, results per seat, the set-up seed). Every seat (Chaos too) plays uniformly at
    random with the engine's own random moves."""
    import random

    rng = random.Random(seed)
    setup = rng.randrange(2**32)
    state = game.new_initial_state(seed=setup)
    moves = []
    while not state.is_terminal():
        seat = state.to_move()[0]
        move = rng.choice(state.legal_moves(seat))
        state.apply(seat, move)
        moves.append((seat, str(move)))
    return moves, outcome_results(state.outcome), setup
