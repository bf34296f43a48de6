"""What a seat may see in the general family, as JSON-able data: the flat family's view
(every piece: nothing is cloaked yet) plus the family, a chain jump in progress and
which pieces are paralysed."""

from ..view import view as flat_view


def view(state, seat: int | None) -> dict:
    g = state.game
    data = flat_view(state, seat)
    data["family"] = "general"
    data["chain"] = None if state.chain < 0 else g.pos_text(state.chain)
    for board in data["boards"]:
        # Only where there are some: a placement game's view stays the flat family's.
        marks = _marks(g, board["index"], state.phase)
        if marks:
            board["marks"] = marks
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
    if g.ends.overachievers:  # "Overachiever(s) disqualified": 1-based seats
        data["disqualified"] = [s + 1 for s in range(g.nseats) if state.dq >> s & 1]
    return data


def _marks(g, board: int, phase: int) -> list[dict]:
    """``space_marks`` of the game's document, made once per board and phase (a cloaked
    game makes every viewer's view after every move: observe.py); each view gets its
    own copy of the marks."""
    cache = g.__dict__.setdefault("_space_marks", {})
    marks = cache.get((board, phase))
    if marks is None:
        marks = cache[(board, phase)] = space_marks(g.doc, board, phase)
    return [dict(m) for m in marks]


def space_marks(doc, board: int, phase: int = 0) -> list[dict]:
    """The rules' marked spaces of one board, for the board's badges and legend (public:
    they are rules, not position): sticky, exclusive to 1-based seats, locked to seats
    (entry and/or exit), locked to everyone this phase. On stacks z = 0 names the whole
    stack: its mark is on the stack's bottom space (the board draws it for the stack)."""
    marks: dict[tuple, dict] = {}

    def mark(at) -> dict:
        at = (at[0], at[1], at[2] or 1)
        return marks.setdefault(tuple(at), {"at": list(at)})

    if doc.phases and phase < len(doc.phases):
        for s in doc.phases[phase].locked:
            if s.board == board:
                mark(s.at)["phase_locked"] = True

    for s in doc.sticky:
        if s.board == board:
            mark(s.at)["sticky"] = True
    for e in doc.exclusive:
        if e.board == board:
            mark(e.at)["exclusive"] = sorted(set(mark(e.at).get("exclusive", [])) | set(e.seats))
    for k in doc.space_locks:
        if k.board == board:
            entry = "entry" if k.entry and not k.exit else "exit" if k.exit and not k.entry else ""
            mark(k.at).setdefault("locked_to", []).append({"seats": list(k.seats), "only": entry})
    return [marks[at] for at in sorted(marks)]
