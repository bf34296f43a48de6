"""What a seat may see in the general family, as JSON-able data: the flat family's view
(every piece: nothing is cloaked yet) plus the family, a chain jump in progress and
which pieces are paralysed."""

from ..view import view as flat_view


def view(state, seat: int | None) -> dict:
    g = state.game
    data = flat_view(state, seat)
    data["family"] = "general"
    data["chain"] = None if state.chain < 0 else g.pos_text(state.chain)
    # phases and simultaneous rounds (issue 19): public, except a plan, which only its
    # own seat sees (rounds.py)
    data["phase"] = state.phase_view()
    plans = state.plans_view(seat)
    if plans is not None:
        data["plans"] = plans
    data["round"] = state.round
    data["last_round"] = (
        None if state.last_round is None else [[s + 1, str(m)] for s, m in state.last_round]
    )
    if state.frozen:
        for b, board in enumerate(data["boards"]):
            for piece in board["pieces"]:
                x, y, z = (v - 1 for v in piece["at"])
                if state.frozen >> g.geometry.index(b, x, y, z) & 1:
                    piece["paralysed"] = True
    return data
