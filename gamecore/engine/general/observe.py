"""What each viewer has *observed* of a cloaked match's sequence of moves (issue 32).

fog.py cuts one position to what a seat sees. A secret can also be a count (how many
pieces a seat put down in its turn: Shopping9, KBeauty9) or an attempt (a bump into a
hidden piece that gives the same seat another go: 3P-9X-HideSeek), which the *sequence*
of views would give away: a ply counter, a reserve going down, one view per hidden
placement. The rule (engine README, "What a seat may learn"):

- A move of another seat is **silent** for a viewer when the viewer's view, but for its
  counters (ply, last move, other seats' reserves, placements this turn), is the same
  after it as before: a hidden placement or step, or an attempt, after which the same
  seat is still to move. The viewer is shown nothing of it: its ply does not move on,
  its last move stays, and the match layer sends it no event (``unseen_moves``). What
  it learns is that the turn passed, when it does.
- A move the viewer sees only in part is labelled "(hidden move)": it is named only
  when the viewer fully sees every piece it changed, before and after. A pass by a
  seat that could have made a hidden move instead is "(hidden move)" too (nobody
  learns whether the turn was passed or used).
- Other seats' **reserves** are counted as the viewer saw them go: a reserve goes down
  (or up) with the moves the viewer sees named, not with hidden ones, except where the
  rules say what a turn spends (a placement-only phase without a pass, one piece a turn,
  one shape: 3Blotto13's soldiers), where each hidden move that passes the turn counts
  one piece, whether it placed or bumped. The viewer's own reserves are exact. A finished
  game shows everything.

- A pass with nothing left looks like any other: whether a pass could have been a
  hidden move is read from the rules (the phase cloaks a space the seat may enter). A
  forfeit or a skipped turn keeps each viewer's last label.

Viewers are the seats and the spectator (index ``nseats``), who sees what is public
(knowledge.fully_seen). Pure functions of a ``CloakedState`` and its fields ``obs`` (per
viewer, the key of what its view last showed), ``silent`` (moves silent for it), ``corr``
(per reserve entry, what its count differs from the truth), ``labels`` and
``placed_seen``.
"""

from .codes import bits
from .generate import top_space
from .knowledge import cloaked_spaces, current_phase, fully_seen, hidden, obscured
from .moves import ACCEPT, DECLINE, DRAW, PASS, PLACE, STACK, STEP

HIDDEN_MOVE = "(hidden move)"
PIECE = (PLACE, STEP, STACK)
PUBLIC = (PASS, DRAW, ACCEPT, DECLINE)
VOLATILE = ("ply", "last_move", "reserves", "placed_this_turn", "legal_moves")


def viewers(state) -> list:
    return [*range(state.game.nseats), None]


def index(state, viewer) -> int:
    return state.game.nseats if viewer is None else viewer


def start(state) -> None:
    n = state.game.nseats + 1
    state.silent = [0] * n
    state.corr = [[0] * len(state.reserves) for _ in range(n)]
    state.labels = [None] * n
    state.placed_seen = [0] * n
    state.obs = [observable(state, v) for v in viewers(state)]


def before(state, seat: int, move) -> tuple:
    """What ``observe`` needs of the position before ``move``: the board, the reserves,
    what each viewer fully sees, and (for a pass) whether the mover could have made a
    move some viewer would not see named."""
    sight = [fully_seen(state, v) for v in viewers(state)]
    if not isinstance(seat, int) or not 0 <= seat < state.game.nseats:
        return state.board[:], state.reserves[:], sight, None, None  # apply refuses it
    could_hide = None
    if getattr(move, "kind", None) == PASS and state.outcome is None:
        could_hide = [_could_hide(state, seat)] * len(sight)
    return state.board[:], state.reserves[:], sight, could_hide, _one_piece(state, seat)


def _one_piece(state, seat: int):
    """The reserve entry a turn of ``seat`` must spend one piece of, when the rules say
    so (a placement-only phase without a pass, one piece a turn, a colour with pieces of
    one shape): then a hidden move that passes the turn counts one piece down, and every
    seat may count the soldiers out (Blotto). None otherwise."""
    g = state.game
    ph = state.ph
    if g.choose or g.pieces_per_turn != 1 or ph.allow_pass or ph.simultaneous:
        return None
    if g.movers and not ph.placement_only:
        return None
    color = g.seat_color[seat]
    start = g.start[4]
    entries = [ri for ri in range(color * g.nshapes, (color + 1) * g.nshapes) if start[ri]]
    return entries[0] if len(entries) == 1 else None


def _could_hide(state, seat: int) -> bool:
    """Whether a pass of ``seat`` could have been a hidden move instead, from the rules
    alone (its position would tell: a seat with nothing left passes "pass"): the phase
    cloaks a space the seat may enter."""
    g = state.game
    cloaked = cloaked_spaces(g, current_phase(state))
    return bool(cloaked & ~g.no_entry[seat])


def chain_space(state) -> int:
    """The space of the piece that is chain-jumping (on stacks, the top of its stack)."""
    return max(top_space(state, state.chain), 0) if state.game.stacks else state.chain


def observable(state, viewer) -> tuple:
    """What of the position the viewer's view shows, but its counters, as a compact key:
    a move that leaves it unchanged is silent. It holds everything ``observable_view``
    (the view itself) holds; tests/test_cloaking_inference.py checks that the two agree
    on every silent move of random games."""
    g = state.game
    i = index(state, viewer)
    seen = fully_seen(state, viewer)
    vague = obscured(state, viewer)
    board = state.board
    pieces = tuple((j, board[j]) for j in bits(seen))
    colours = tuple((j, g.piece[board[j]][1]) for j in bits(vague & ~seen))
    own = -1 if viewer is None or g.choose else g.seat_color[viewer]
    reserves = tuple(state.reserves[own * g.nshapes : (own + 1) * g.nshapes]) if own >= 0 else ()
    attempt = state.attempts[viewer] if viewer is not None else None
    chain = (
        state.chain
        if state.chain >= 0 and not hidden(state, viewer) >> chain_space(state) & 1
        else -1
    )
    plans = state.plans_view(viewer)
    return (
        state.to_move(), state.phase, state.folded, state.dq, state.round, state.outcome is None,
        None if state.offer is None else tuple(state.offer), tuple(map(repr, state.decided)),
        pieces, colours, state.frozen & (seen | vague), reserves, attempt, chain,
        repr(plans), repr(state.last_round), state.known[i] & seen if i < g.nseats else 0,
    )  # fmt: skip


def observable_view(state, viewer) -> dict:
    """The viewer's view without its counters: what a silent move leaves unchanged (the
    reference ``observable`` is checked against)."""
    data = state.raw_view(viewer)
    own = _own_colors(state, viewer)
    for key in VOLATILE:
        data.pop(key, None)
    reserves = state.raw_reserves()
    data["own_reserves"] = {c: r for c, r in reserves.items() if c in own}
    return data


def _own_colors(state, viewer) -> set:
    g = state.game
    if viewer is None or g.choose:
        return set()
    return {g.color_names[g.seat_color[viewer]]}


def observe(state, mover, move, pre, round_move: bool = False) -> None:
    """After a change of the position (a move, a skip, a forfeit; ``mover`` None for a
    forfeit): which viewers saw it, and how it is labelled to each."""
    board0, reserves0, sight0, could_hide, one = pre if pre is not None else (None,) * 5
    kind = getattr(move, "kind", None)
    piece = kind in PIECE and not round_move
    over = state.outcome is not None
    for v in viewers(state):
        i = index(state, v)
        key = observable(state, v)
        if piece and v != mover and not over and key == state.obs[i]:
            state.silent[i] += 1  # nothing the viewer sees changed: it is shown nothing
            _absorb(state, i, reserves0)
            continue
        state.obs[i] = key
        state.placed_seen[i] = state.placed
        if over:
            state.labels[i] = _text(state)
            continue
        if v == mover and move is not None:
            state.labels[i] = _text(state)  # its own move, as played (a capture: "x")
            continue
        if round_move:  # a plan or a round resolved: as the raw view says (rounds.py)
            state.labels[i] = state.raw_view(v)["last_move"]
            if HIDDEN_MOVE in str(state.raw_view(v).get("last_round")):
                _absorb(state, i, reserves0)
            continue
        if mover is None or move is None:  # a forfeit, a skip: no move to name, the last
            continue  # label stays (the true last move may be one the viewer never saw)
        if kind in PUBLIC:
            hide = could_hide is not None and could_hide[i]
            state.labels[i] = HIDDEN_MOVE if hide and kind == PASS else str(move)
            continue
        if board0 is not None and _named(state, v, board0, sight0[i]):
            state.labels[i] = _text(state)
        elif board0 is not None and _seen_step(state, v, move, sight0[i]):
            # the piece was seen going from one space to another, what it took was not
            state.labels[i] = _text(state).replace("x", "-", 1)
            _absorb(state, i, reserves0)
        else:
            state.labels[i] = HIDDEN_MOVE
            _absorb(state, i, reserves0)
            # the rules say a piece was spent: count it (even a bump), but never in the
            # viewer's own colour, which it knows exactly (partners share one reserve)
            g = state.game
            own = i < g.nseats and not g.choose and one is not None
            own = own and one // g.nshapes == g.seat_color[i]
            if one is not None and not own:
                corr, truth = state.corr[i], state.reserves[one]
                corr[one] = max(truth + corr[one] - 1, 0) - truth


def _text(state):
    return None if state.last is None else str(state.last)


def _absorb(state, i: int, reserves0) -> None:
    """Keep the reserves a hidden move changed as viewer ``i`` last saw them (its own
    reserves are never kept back: it always knows them)."""
    g = state.game
    if reserves0 is None or g.choose:  # chosen colours: every seat holds every reserve
        return
    own = -1 if i >= g.nseats else g.seat_color[i]
    corr = state.corr[i]
    for ri, (was, now) in enumerate(zip(reserves0, state.reserves, strict=True)):
        if ri // g.nshapes != own:
            corr[ri] += was - now


def _named(state, viewer, board0: list, sight0: int) -> bool:
    """Whether the viewer fully saw every piece the move changed, before and after (an
    attempt changes nothing, and is never named to another seat)."""
    board = state.board
    changed = [i for i, (a, b) in enumerate(zip(board0, board, strict=True)) if a != b]
    if not changed:
        return False
    sight = fully_seen(state, viewer)
    for i in changed:
        if board0[i] > 0 and not sight0 >> i & 1:
            return False
        if board[i] > 0 and not sight >> i & 1:
            return False
    return True


def _seen_step(state, viewer, move, sight0: int) -> bool:
    """A step (not by stack) whose piece the viewer saw before and sees after."""
    g = state.game
    last = state.last
    if getattr(last, "kind", None) != STEP or g.stacks:
        return False
    origin, target = getattr(last, "origin", -1), getattr(last, "target", -1)
    if not (0 <= origin < g.npos and 0 <= target < g.npos):
        return False
    return bool(sight0 >> origin & 1 and fully_seen(state, viewer) >> target & 1)


def patch(state, data: dict, viewer) -> dict:
    """The view with the viewer's counters as it observed them (while the game is on)."""
    if state.outcome is not None:
        return data
    i = index(state, viewer)
    data["ply"] = state.ply - state.silent[i]
    data["last_move"] = state.labels[i]
    data["placed_this_turn"] = state.placed_seen[i]
    data["reserves"] = reserves_view(state, counted(state, viewer))
    if "cloaking" in data:  # the colours whose count is as the viewer saw them go
        data["cloaking"]["counted"] = as_seen_colors(state.game, viewer)
    return data


def as_seen_colors(g, viewer) -> list[str]:
    """The colours whose reserve ``viewer`` is shown as it saw it (possibly more than
    there is): every other seat's, but where the rules say what each turn spends in every
    phase (3Blotto13). From the rules alone, so it tells nothing of the play."""
    if g.choose:
        return []
    found = g.__dict__.setdefault("_as_seen", {})
    if viewer not in found:
        exact = g.pieces_per_turn == 1 and all(
            not ph.allow_pass and not ph.simultaneous and (not g.movers or ph.placement_only)
            for ph in g.phases
        )
        out = set()
        for seat in range(g.nseats):
            color = g.seat_color[seat]
            if viewer is not None and color == g.seat_color[viewer]:
                continue
            entries = [ri for ri in range(color * g.nshapes, (color + 1) * g.nshapes)
                       if g.start[4][ri]]  # fmt: skip
            if not (exact and len(entries) <= 1):
                out.add(g.color_names[color])
        found[viewer] = sorted(out)
    return list(found[viewer])


def counted(state, viewer) -> list[int]:
    """The reserves as ``viewer`` counts them (its own exact)."""
    corr = state.corr[index(state, viewer)]
    return [n + c for n, c in zip(state.reserves, corr, strict=True)]


def reserves_view(state, reserves: list[int]) -> dict:
    g = state.game
    out: dict = {}
    for ri, n in enumerate(reserves):
        color, shape = divmod(ri, g.nshapes)
        if n:
            out.setdefault(g.color_names[color], {})[g.shape_names[shape]] = n
    return out


def unseen_moves(state, viewer) -> int:
    """How many moves were silent for ``viewer`` (None: a spectator): the match layer
    sends no event for them and counts its ply without them."""
    return state.silent[index(state, viewer)]


__all__ = ["HIDDEN_MOVE", "bits", "counted", "observe", "patch", "start", "unseen_moves"]
