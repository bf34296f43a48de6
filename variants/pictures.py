"""Small drawings of a game's starting board (SVG), for the game lists and the rules tab.

Drawn from the rule document alone: the board's shape (hash, squares, stacks, slices of a
3-D board, several boards, nested blocks), locked spaces and starting pieces. Pure
functions, cached by the document; the caller marks the string safe (it holds no text
from the document but numbers and known colour names).
"""

from __future__ import annotations

import json
import math
from functools import lru_cache

from gamecore import rules

CELL = 10  # one space, in SVG units
GAP = 6  # between slices or boards
FILL = {"black": "#1b1b1b", "white": "#ffffff", "pink": "#f06292", "yellow": "#fdd835"}
STROKE = {"white": "#222", "yellow": "#6d5400", "pink": "#8c1b48", "black": "#000"}
MAX_SLICES = 4


def board_picture(doc: dict, label: str = "") -> str:
    """An <svg> of the starting board ("" if the document cannot be read)."""
    return _picture(json.dumps(doc, sort_keys=True), label)


@lru_cache(maxsize=512)
def _picture(doc_json: str, label: str) -> str:
    doc = json.loads(doc_json)
    doc["name"] = doc.get("name") or "picture"
    try:
        rd = rules.parse(doc)
    except Exception:
        return ""
    if rd.board.type == "nested":
        body, width, height, words = _nested(rd)
    else:
        body, width, height, words = _flat(rd)
    aria = f"{label}: {words}" if label else words
    return (
        f'<svg class="game-pic" viewBox="-2 -2 {width + 4} {height + 4}" role="img" '
        f'aria-label="{aria}" data-testid="game-picture" preserveAspectRatio="xMidYMid meet">'
        f"{body}</svg>"
    )


def _flat(rd) -> tuple[str, int, int, str]:
    x_size, y_size, z_size = rd.board.size
    kind = rd.board.type
    locked = {(s.board, *s.at) for s in rd.locked}
    pieces = {(p.board, *p.at): p.color for p in rd.initial_pieces}
    parts: list[str] = []
    if kind == "stacks":
        words = f"{x_size} columns, {z_size} high, pieces fall"
        slices = [(1, y) for y in range(1, min(y_size, MAX_SLICES) + 1)]
    else:
        words = (
            "a 3×3 grid"
            if kind == "hash"
            else f"{x_size}×{y_size} squares" + (f", {z_size} layers" if z_size > 1 else "")
        )
        slices = [(z, None) for z in range(1, min(z_size, MAX_SLICES) + 1)]
    drawn = []
    for board in range(1, rd.boards + 1):
        for z, y in slices:
            if kind == "stacks":
                drawn.append(_stacks(board, x_size, y, z_size, locked, pieces))
            else:
                drawn.append(_squares(board, kind, x_size, y_size, z, locked, pieces))
    # Slices and boards in a square-ish grid (four layers of Qubic as 2×2).
    per_row = max(1, math.ceil(math.sqrt(len(drawn))))
    cell_w = max(w for _svg, w, _h in drawn) + GAP
    cell_h = max(h for _svg, _w, h in drawn) + GAP
    for i, (svg, _w, _h) in enumerate(drawn):
        x0, y0 = (i % per_row) * cell_w, (i // per_row) * cell_h
        parts.append(f'<g transform="translate({x0} {y0})">{svg}</g>')
    width = min(len(drawn), per_row) * cell_w - GAP
    height = math.ceil(len(drawn) / per_row) * cell_h - GAP
    if rd.boards > 1:
        words = f"{rd.boards} boards of {words}"
    return "".join(parts), width, height, words


def _piece(cx: float, cy: float, color: str) -> str:
    fill, stroke = FILL.get(color, "#777"), STROKE.get(color, "none")
    return f'<circle cx="{cx}" cy="{cy}" r="{CELL * 0.36}" fill="{fill}" stroke="{stroke}"/>'


def _squares(board, kind, xs, ys, z, locked, pieces) -> tuple[str, int, int]:
    w, h = xs * CELL, ys * CELL
    out = []
    if kind == "hash":
        for i in (1, 2):
            out.append(
                f'<path d="M{i * CELL} 0V{h}M0 {i * CELL}H{w}" stroke="#6c757d" '
                'stroke-width="3" stroke-linecap="round"/>'
            )
    else:
        out.append(f'<rect width="{w}" height="{h}" fill="#fff" stroke="#6c757d"/>')
        lines = "".join(f"M{i * CELL} 0V{h}" for i in range(1, xs))
        lines += "".join(f"M0 {j * CELL}H{w}" for j in range(1, ys))
        if lines:
            width = 0.6 if max(xs, ys) > 10 else 1
            out.append(f'<path d="{lines}" stroke="#adb5bd" stroke-width="{width}"/>')
    for x in range(1, xs + 1):
        for y in range(1, ys + 1):
            cx, cy = (x - 0.5) * CELL, (ys - y + 0.5) * CELL  # the largest y at the top
            key = (board, x, y, z)
            if key in locked:
                out.append(
                    f'<rect x="{cx - CELL * 0.4}" y="{cy - CELL * 0.4}" width="{CELL * 0.8}" '
                    f'height="{CELL * 0.8}" fill="#90a4ae"/>'
                )
            elif key in pieces:
                out.append(_piece(cx, cy, pieces[key]))
    return "".join(out), w, h


def _stacks(board, xs, y, zs, locked, pieces) -> tuple[str, int, int]:
    w, h = xs * CELL, zs * CELL
    out = [f'<rect width="{w}" height="{h}" fill="#f8f9fb" stroke="#6c757d"/>']
    out.append(f'<path d="M-1 {h + 1}H{w + 1}" stroke="#343a40" stroke-width="2"/>')
    for x in range(1, xs + 1):
        for z in range(1, zs + 1):
            cx, cy = (x - 0.5) * CELL, (zs - z + 0.5) * CELL
            key = (board, x, y, z)
            if key in pieces:
                out.append(_piece(cx, cy, pieces[key]))
            elif key in locked:
                out.append(
                    f'<rect x="{cx - CELL * 0.4}" y="{cy - CELL * 0.4}" width="{CELL * 0.8}" '
                    f'height="{CELL * 0.8}" fill="#90a4ae"/>'
                )
            else:
                out.append(f'<circle cx="{cx}" cy="{cy}" r="{CELL * 0.33}" fill="#c9d1da"/>')
    return "".join(out), w, h


def _nested(rd) -> tuple[str, int, int, str]:
    nested = rd.nested
    side, depth, dims = nested.side, nested.depth, nested.dimensions
    if depth == 1 and dims in (3, 4):
        return _slices(side, dims)
    edge = side**depth
    cell = max(2.0, min(CELL, 90 / edge))
    w = edge * cell
    h = w if dims >= 2 else cell
    out = [f'<rect width="{w}" height="{h}" fill="#fff" stroke="#343a40" stroke-width="1.5"/>']
    for level in range(depth, 0, -1):  # the finest lines first, the block borders on top
        step = side ** (depth - level)
        width, color = (0.75, "#ced4da") if level == depth else (1.6, "#495057")
        path = "".join(f"M{i * cell} 0V{h}" for i in range(step, edge, step))
        if dims >= 2:
            path += "".join(f"M0 {i * cell}H{w}" for i in range(step, edge, step))
        if path:
            out.append(f'<path d="{path}" stroke="{color}" stroke-width="{width}"/>')
    words = f"boards inside boards, {edge}×{edge} cells" if depth > 1 else f"{edge} a side"
    if dims > 2:
        words += f" in {dims} dimensions (one slice shown)"
    return "".join(out), round(w), round(h), words


def _slices(side: int, dims: int) -> tuple[str, int, int, str]:
    """A one-level board of 3 or 4 dimensions as its 2-D slices, the way such boards are
    drawn on paper: a row of ``side`` slices (3-D), or a ``side``×``side`` grid of them (4-D)."""
    across, down = side, (1 if dims == 3 else side)
    gap = 4.0
    cell = max(2.0, min(CELL, (90 - gap * (across - 1)) / (side * across)))
    board = side * cell
    out = []
    for j in range(down):
        for i in range(across):
            x, y = i * (board + gap), j * (board + gap)
            out.append(
                f'<rect x="{x}" y="{y}" width="{board}" height="{board}" fill="#fff" '
                'stroke="#343a40" stroke-width="1.2"/>'
            )
            path = "".join(f"M{x + k * cell} {y}V{y + board}" for k in range(1, side))
            path += "".join(f"M{x} {y + k * cell}H{x + board}" for k in range(1, side))
            out.append(f'<path d="{path}" stroke="#ced4da" stroke-width="0.75"/>')
    w, h = across * board + gap * (across - 1), down * board + gap * (down - 1)
    slices = across * down
    words = f"{side} a side in {dims} dimensions, drawn as {slices} slices of {side}×{side}"
    return "".join(out), round(w), round(h), words
