"""The flat family's features without building its view: the study loop's speed.

Building ``state.view(seat)`` (a dict of every piece) costs more than everything else a
studied move needs together. The flat family hides nothing — every seat's view is the
whole position (engine/view.py) — so for it alone the same numbers can be read from the
position the view is made of: the board codes, reserves, turn, ply, draw offer, the
boards' and the game's results. ``tests/test_learn_features.py`` checks the two agree on
every position of random games of every flat catalogue game, from every seat. Every
other family (general: cloaking, plans; nested) is always encoded from its view.
"""

import numpy as np

LOCKED = -1


def flat_encoder(layout, game):
    """``encode(state, seat, out)`` equal to ``layout.encode_into(state.view(seat), seat,
    out)`` for a flat-family game, or None for any other family."""
    if getattr(game, "family", None) != "flat":
        return None
    n, C = layout.nseats, layout.channels
    ncodes = 1 + (game.nseats + 1) * game.ncolors * game.nshapes
    tables = []  # per seat: per piece code, the channels it sets
    slots = []  # per seat: per reserve index, its slot (or None)
    for seat in range(n):
        table: list[tuple] = [()]
        for code in range(1, ncodes):
            owner, colour, shape = game.decode(code)
            cname, sname = game.color_names[colour], game.shape_names[shape]
            if owner is None:
                owner = layout.colour_seat.get(cname)
            channels = [layout.ch_unknown if owner is None else (owner - seat) % n]
            if sname in layout.shapes:
                channels.append(layout.ch_shape + layout.shapes[sname])
            if cname in layout.colours:
                channels.append(layout.ch_colour + layout.colours[cname])
            table.append(tuple(channels))
        tables.append(table)
        slots.append(
            [
                layout._reserve_slot(game.color_names[c], game.shape_names[s], seat)
                for c in range(game.ncolors)
                for s in range(game.nshapes)
            ]
        )
    scale = layout.reserve_scale.tolist()
    locked_ch = layout.ch_locked
    ppt = game.pieces_per_turn
    results_at = layout.board_results_at
    words = {"win": 0, "draw": 1, "loss": 2}

    def results(found, seat, at, out):
        for s, word in enumerate(found):
            k = words.get(word)
            if k is not None:
                out[at + ((s - seat) % n) * 3 + k] = 1

    def encode(state, seat: int, out: np.ndarray) -> None:
        table = tables[seat]
        for i, code in enumerate(state.board):
            if code:
                base = i * C
                if code == LOCKED:
                    out[base + locked_ch] = 1
                else:
                    for ch in table[code]:
                        out[base + ch] = 1
        at = layout.reserve_at
        for ri, count in enumerate(state.reserves):
            if count:
                slot = slots[seat][ri]
                if slot is not None:
                    out[at + slot] = min(2.0, count / scale[slot])
        if ppt > 1:
            out[layout.placed_at] = state.placed / ppt
        if results_at is not None:
            for b, decided in enumerate(state.decided):
                if decided is not None:
                    results(decided[0], seat, results_at + 3 * n * b, out)
        out[layout.flags_at + 1] = state.offer is not None
        for s in state.to_move():
            out[layout.to_move_at + (s - seat) % n] = 1
        out[layout.ply_at] = min(2.0, state.ply / max(1, layout.spaces))
        if state.outcome is not None:
            results(state.outcome.results, seat, layout.outcome_at, out)

    return encode
