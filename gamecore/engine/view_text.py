"""A seat's view (``view.view``) made straight as JSON text, for an own bot's turns: a
worker asks hundreds a second, and building the view's dicts and lists, then encoding
them, was most of a turn's cost on the worker (benchmarks/own_bot_speed.py). The text is
what a compact JSON encoder makes of ``view.view(state, seat)``, key for key
(tests/test_view_text.py holds the two side by side on every catalogue game); the
parts that never change in a game, and each piece on each space, are made once per game.
Only for states whose ``view`` is the flat family's own (``State.view_text`` falls back
for any that filters what a seat sees).
"""

from __future__ import annotations

import json

from .view import LOCKED, _piece, _tables, reserves_of

try:  # orjson where installed (the site's requirements have it): ~20x the encoder's speed
    import orjson

    def dumps(value) -> str:
        """Compact JSON (no spaces, UTF-8 kept)."""
        return orjson.dumps(value).decode()

except ImportError:  # the engine alone: the standard library's, made once, same text
    dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


RESERVES_KEPT = 4096  # reserves' texts a game keeps (a game has a few hundred at most)


class _Texts:
    """A game's text parts, made once: the view's head up to the seat, its fixed fields,
    each board's head, each space's coordinates and each piece on each space."""

    def __init__(self, g):
        self.head = '{"game":' + dumps(g.name) + ',"seat":'
        self.seats = (
            f',"seats":{g.nseats},"chaos_seat":{dumps(g.chaos)},"teams":{dumps(list(g.teams))},'
            f'"seat_colors":{dumps([g.color_names[c] for c in g.seat_color])},"ply":'
        )
        self.per_turn = f',"pieces_per_turn":{dumps(g.pieces_per_turn)},"last_move":'
        geo = g.geometry
        board_type, size = dumps(g.doc.board.type), dumps(list(geo.size))
        self.boards = [
            f'{{"index":{b + 1},"type":{board_type},"size":{size},"pieces":['
            for b in range(geo.boards)
        ]
        at, _kinds = _tables(g)
        self.at = [dumps(list(xyz)) for xyz in at]
        self.pieces: list[dict[int, str]] = [{} for _ in at]  # per space: code -> text
        self.reserves: dict[tuple, str] = {}  # the reserves' text, by their counts
        self.game = g

    def piece(self, i: int, code: int) -> str:
        """The text of the piece ``code`` on space ``i`` (made the first time it is met)."""
        kind = dumps(_piece(self.game, code))  # {"color":...}: "at" goes first
        found = self.pieces[i][code] = '{"at":' + self.at[i] + "," + kind[1:]
        return found


def _texts(g) -> _Texts:
    found = g.__dict__.get("_view_texts")
    if found is None:
        found = g._view_texts = _Texts(g)
    return found


def view_text(state, seat: int | None, legal: list[str] | None = None) -> str:
    """``view.view(state, seat)`` as compact JSON text. ``legal``: the seat's legal moves
    as text, if the caller has them (they are the view's ``legal_moves`` when it is to
    move)."""
    g = state.game
    texts = _texts(g)
    geo = g.geometry
    board = state.board  # (read once: on some states it is made when read)
    cells = geo.cells
    parts = [texts.head, "null" if seat is None else str(seat), texts.seats, str(state.ply)]
    to_move = list(state.to_move())
    parts += [',"to_move":', dumps(to_move), ',"placed_this_turn":', str(state.placed)]
    parts += [texts.per_turn, "null" if state.last is None else dumps(str(state.last))]
    offer = state.offer
    parts += [',"draw_offer":', "null" if offer is None else dumps({"waiting": list(offer)})]
    parts.append(',"boards":[')
    piece, at, made = texts.piece, texts.at, texts.pieces
    for b in range(geo.boards):
        base = b * cells
        row = board[base : base + cells]
        # Comprehensions over the row: a loop's steps space by space were most of the cost.
        pieces = [
            made[base + i].get(code) or piece(base + i, code)
            for i, code in enumerate(row)
            if code and code != LOCKED
        ]
        locked = (
            [at[base + i] for i, code in enumerate(row) if code == LOCKED] if LOCKED in row else []
        )
        decided = state.decided[b]
        results = "null" if decided is None else dumps(list(decided[0]))
        parts += [
            "," if b else "",
            texts.boards[b],
            ",".join(pieces),
            '],"locked":[',
            ",".join(locked),
            '],"results":',
            results,
            "}",
        ]
    if seat in to_move:
        moves = dumps(legal if legal is not None else [str(m) for m in state.legal_moves(seat)])
    else:
        moves = "[]"
    outcome = state.outcome
    counts = tuple(state.reserves)  # (few differ in a game: their text is made once each)
    reserves = texts.reserves.get(counts)
    if reserves is None:
        reserves = dumps(reserves_of(state))
        if len(texts.reserves) < RESERVES_KEPT:
            texts.reserves[counts] = reserves
    parts += ['],"reserves":', reserves, ',"legal_moves":', moves]
    parts.append(',"outcome":')
    parts += ["null" if outcome is None else dumps(outcome.to_dict()), "}"]
    return "".join(parts)
