"""What a seat may see, as JSON-able data, and a text drawing for the command line.

Flat games of this family hide nothing, so every seat sees the whole position; cloaked
spaces (a later family) will filter here, per seat, before anything leaves the server.
"""

LOCKED = -1


def _piece(g, code: int) -> dict:
    owner, color, shape = g.decode(code)
    return {"color": g.color_names[color], "shape": g.shape_names[shape], "owner": owner}


def _tables(g) -> tuple:
    """Per game, made once: each space's 1-based coordinates, and each piece code's
    colour, shape and owner as met (a view is made for every turn a bot is asked)."""
    found = g.__dict__.get("_view_tables")
    if found is None:
        found = g._view_tables = ([(x + 1, y + 1, z + 1) for _b, x, y, z in g.geometry.coords], {})
    return found


def reserves_of(state) -> dict:
    """The pieces left to place: {colour: {shape: count}}, those with any."""
    g = state.game
    reserves = {}
    for ri, n in enumerate(state.reserves):
        if n:
            color, shape = divmod(ri, g.nshapes)
            reserves.setdefault(g.color_names[color], {})[g.shape_names[shape]] = n
    return reserves


def view(state, seat: int | None) -> dict:
    g = state.game
    geo = g.geometry
    at, kinds = _tables(g)
    board = state.board  # (read once: on some states it is made when read)
    boards = []
    for b in range(geo.boards):
        pieces, locked = [], []
        for i in range(b * geo.cells, (b + 1) * geo.cells):
            code = board[i]
            if code == LOCKED:
                locked.append(list(at[i]))
            elif code:
                piece = {"at": list(at[i])}
                kind = kinds.get(code)
                if kind is None:
                    kind = kinds[code] = tuple(_piece(g, code).items())
                piece.update(kind)
                pieces.append(piece)
        decided = state.decided[b]
        boards.append(
            {
                "index": b + 1,
                "type": g.doc.board.type,
                "size": list(geo.size),
                "pieces": pieces,
                "locked": locked,
                "results": None if decided is None else list(decided[0]),
            }
        )
    reserves = reserves_of(state)
    to_move = list(state.to_move())
    return {
        "game": g.name,
        "seat": seat,
        "seats": g.nseats,
        "chaos_seat": g.chaos,
        "teams": list(g.teams),
        "seat_colors": [g.color_names[c] for c in g.seat_color],
        "ply": state.ply,
        "to_move": to_move,
        "placed_this_turn": state.placed,
        "pieces_per_turn": g.pieces_per_turn,
        "last_move": None if state.last is None else str(state.last),
        "draw_offer": None if state.offer is None else {"waiting": list(state.offer)},
        "boards": boards,
        "reserves": reserves,
        "legal_moves": [str(m) for m in state.legal_moves(seat)] if seat in to_move else [],
        "outcome": None if state.outcome is None else state.outcome.to_dict(),
    }


SYMBOLS = "XO+*"


def ascii_board(state) -> str:
    """Rows from y=max down to y=1 (y grows upwards); z slices side by side."""
    g = state.game
    geo = g.geometry
    board = state.board
    lines = []
    for b in range(geo.boards):
        if geo.boards > 1:
            lines.append(f"board {b + 1}")
        rows = range(geo.Y - 1, -1, -1) if not g.stacks else range(geo.Z - 1, -1, -1)
        for r in rows:
            row = []
            for z in range(geo.Z) if not g.stacks else [r]:
                cells = []
                for x in range(geo.X):
                    for y in [r] if not g.stacks else range(geo.Y):
                        code = board[geo.index(b, x, y, z)]
                        cells.append(
                            "#"
                            if code == LOCKED
                            else "."
                            if not code
                            else SYMBOLS[g.decode(code)[1]]
                        )
                row.append("".join(cells))
            lines.append("  ".join(row))
    return "\n".join(lines)
