"""What a seat may see in the general family, as JSON-able data: the flat family's view
(every piece: nothing is cloaked yet) plus the family, the pieces each seat may move and
a chain jump in progress."""

from ..view import view as flat_view


def view(state, seat: int | None) -> dict:
    g = state.game
    data = flat_view(_Adapter(state), seat)
    data["family"] = "general"
    data["chain"] = None if state.chain < 0 else g.pos_text(state.chain)
    return data


class _Adapter:
    """The flat view reads ``decided`` (one board, never decided early here) and the
    rest under the same names."""

    def __init__(self, state):
        self._state = state
        self.decided = [None]

    def __getattr__(self, name):
        return getattr(self._state, name)
