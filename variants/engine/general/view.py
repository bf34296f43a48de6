"""What a seat may see in the general family, as JSON-able data: the flat family's view
(every piece: nothing is cloaked yet) plus the family, a chain jump in progress and
which pieces are paralysed."""

from ..view import view as flat_view


def view(state, seat: int | None) -> dict:
    g = state.game
    data = flat_view(state, seat)
    data["family"] = "general"
    data["chain"] = None if state.chain < 0 else g.pos_text(state.chain)
    if state.frozen:
        for b, board in enumerate(data["boards"]):
            for piece in board["pieces"]:
                x, y, z = (v - 1 for v in piece["at"])
                if state.frozen >> g.geometry.index(b, x, y, z) & 1:
                    piece["paralysed"] = True
    if g.ends.overachievers:  # "Overachiever(s) disqualified": 1-based seats
        data["disqualified"] = [s + 1 for s in range(g.nseats) if state.dq >> s & 1]
    return data
