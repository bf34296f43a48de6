"""What a seat may see in the general family, as JSON-able data: the flat family's view
(every piece: nothing is cloaked yet) plus the family, a chain jump in progress and
which pieces are paralysed."""

from ..view import view as flat_view


def view(state, seat: int | None) -> dict:
    g = state.game
    data = flat_view(_Adapter(state), seat)
    data["family"] = "general"
    data["chain"] = None if state.chain < 0 else g.pos_text(state.chain)
    if state.frozen:
        for piece in data["boards"][0]["pieces"]:
            x, y, z = (v - 1 for v in piece["at"])
            if state.frozen >> g.geometry.index(0, x, y, z) & 1:
                piece["paralysed"] = True
    return data


class _Adapter:
    """The flat view reads ``decided`` (one board, never decided early here) and the
    rest under the same names."""

    def __init__(self, state):
        self._state = state
        self.decided = [None]

    def __getattr__(self, name):
        return getattr(self._state, name)
