"""What a seat sees of a nested board (nothing is hidden in this family), and a text
drawing for the command line."""

from .marks import EMPTY, OBSTACLE, PROTECTED, TIE

CELL_SYMBOLS = {EMPTY: "_", OBSTACLE: "#", PROTECTED: "%"}


def cell_symbols(state) -> str:
    symbols = state.game.symbols
    return "".join(symbols[v] if v >= 0 else CELL_SYMBOLS[v] for v in state.cell)


def block_symbol(state, b: int) -> str:
    v = state.bown[b]
    return state.game.symbols[v] if v >= 0 else ("*" if v == TIE else "_")


def view(state, seat):
    game = state.game
    geo, opts = game.geometry, game.opts
    to_move = list(state.to_move())
    legal = state.legal_moves(seat) if seat in to_move else []
    over = state.outcome is not None
    return {
        "game": game.name,
        "family": "nested",
        "seat": seat,
        "seats": game.nseats,
        "chaos_seat": None,
        "teams": list(game.teams),
        "symbols": list(game.symbols),
        "seat_colors": list(game.color_names),
        "side": geo.S,
        "depth": geo.N,
        "dimensions": geo.D,
        "edge": geo.edge,
        "cells": cell_symbols(state),  # x fastest, row 1 at the top
        # Block symbols per level 1..N-1, each level in path order; "_" open, "*" drawn.
        "blocks": [
            "".join(block_symbol(state, b) for b in range(geo.offset[lv], geo.offset[lv + 1]))
            for lv in range(1, geo.N)
        ],
        "peak": block_symbol(state, 0),
        # Where the next move must go: 0-based inclusive ranges per dimension (none once over).
        "area": None if over else [list(r) for r in geo.block_box(state.area)],
        "area_path": [] if over else [p + 1 for p in geo.block_path(state.area)],
        "ply": state.ply,
        "to_move": to_move,
        "last_move": None if state.last is None else str(state.last),
        "last_cell": None if state.last is None else [c + 1 for c in geo.coords[state.last.target]],
        "legal_moves": [str(m) for m in legal],
        "legal_cells": [m.target for m in legal],
        "options": {
            "lock_captured": opts.lock_captured,
            "kyu": opts.kyu,
            "win_condition": opts.win_condition,
            "routing": opts.routing,
        },  # fmt: skip
        "outcome": None if state.outcome is None else state.outcome.to_dict(),
        # The paper game's fields (seed 002, drawn by static/js/board_paper.js on request):
        # how each routed level is found, with its numbers (map: per block and row, in
        # path order; hypermap: per ground cell), and the move record (team, notation),
        # oldest first.
        "routes": [
            {"level": lv, "kind": kind, "numbers": list(numbers)}
            for lv, (kind, numbers) in enumerate(game.levels, start=1)
        ],
        "record": [[team, text] for team, text in state.record()],
    }


def ascii_board(state) -> str:
    """2-D boards as a grid with block borders; higher dimensions as slices."""
    geo = state.game.geometry
    symbols = cell_symbols(state)
    per_slice = geo.edge * geo.edge
    out = []
    for s in range(len(symbols) // per_slice):
        if s:
            out.append("")
        for y in range(geo.edge):
            row = symbols[s * per_slice + y * geo.edge : s * per_slice + (y + 1) * geo.edge]
            out.append(" ".join(row[x : x + geo.S] for x in range(0, geo.edge, geo.S)))
    return "\n".join(out)
