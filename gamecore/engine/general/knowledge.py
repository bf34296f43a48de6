"""What each seat knows of the pieces in a cloaked game (issue 20, seed 004's cloaking).

Everything is a bit mask over the spaces of the geometry, like the state's indexes.

- ``cloaked_spaces(game, phase)``: the spaces cloaked in a phase. The one place that reads
  where cloaked spaces come from (``Phase.cloaked``, compiled by phases.py).
- A seat *fully sees* a piece it placed (``state.own``; the only pieces a seat can ever
  move are those), a piece on a space that is not cloaked now, a piece it has fully seen
  before (``known``, carried along when the piece moves), a piece it attempted to cover,
  and, when cloaking obscures, every piece of its own colour(s). Under obscurity every
  other piece shows its colour but not its shape; when cloaking hides, it is invisible.
- Walls (locked spaces) and the pieces the game starts with come from the rule document,
  which every seat may read: walls are never hidden, and every seat knows the starting
  pieces, as pieces it has fully seen (READINGS.md, "Cloaking").
- Spectators see what is public: the pieces every seat was shown by the rules (set up,
  or seen on a space not cloaked, followed as they move). Not what every seat happens to
  know: a piece one seat found by bumping into it is its finder's knowledge, and a
  spectator seeing it would learn of the bump (issue 32).

Pure functions of a state; fog.py keeps ``known`` up to date and builds the seat's
apparent position from them.
"""

from .codes import LOCKED, bits

NONE, HIDES, OBSCURES = "none", "hides", "obscures"


def cloaking(game) -> str:
    return getattr(game.doc, "cloaking", NONE)


def cloaked_spaces(game, phase: int) -> int:
    """The spaces cloaked in ``phase`` (0-based), as a mask (0 without cloaking): the
    phase's ``cloaked`` as compiled by phases.py (validation has already turned a whole
    stack, z = 0, into its spaces)."""
    phases = getattr(game, "phases", None)
    if not phases or cloaking(game) == NONE:
        return 0
    return phases[min(phase, len(phases) - 1)].cloaked


def fogged(game) -> bool:
    """Whether any seat may ever miss a piece in this game."""
    found = game.__dict__.get("_fogged")
    if found is None:
        found = cloaking(game) != NONE and any(
            cloaked_spaces(game, p) for p in range(len(getattr(game, "phases", ())))
        )
        game.__dict__["_fogged"] = found
    return found


def current_phase(state) -> int:
    """The phase in play (0-based); the phases lane keeps it on the state."""
    return getattr(state, "phase", 0) or 0


def occupied(state) -> int:
    mask = 0
    for cm in state.cmask:
        mask |= cm
    return mask


def seat_colors_mask(state, seat: int) -> int:
    """The pieces of ``seat``'s assigned colour(s) (none where players choose colours)."""
    g = state.game
    if g.choose:
        return 0
    mask = state.cmask[g.seat_color[seat]]
    if g.dealt:  # a common dealt card in the seat's colour is nobody's: not seen for it
        owned = 0
        for own in state.own:
            owned |= own
        mask &= owned
    return mask


def plainly_seen(state, seat: int, cloaked: int | None = None) -> int:
    """Pieces ``seat`` fully sees now without remembering: placed, uncloaked, own colour
    (obscurity)."""
    if cloaked is None:
        cloaked = cloaked_spaces(state.game, current_phase(state))
    mask = occupied(state) & (state.own[seat] | ~cloaked)
    if cloaking(state.game) == OBSCURES:
        mask |= seat_colors_mask(state, seat)
    return mask


def fully_seen(state, seat: int | None) -> int:
    """The pieces ``seat`` fully sees (None: a spectator, who sees what all seats see)."""
    if state.outcome is not None:
        return occupied(state)  # a finished game shows everything (PROTOCOL.md)
    if seat is None:  # what is public: no seat's secret, and no bump either (issue 32)
        occ = occupied(state)
        return occ & (state.known[-1] | ~cloaked_spaces(state.game, current_phase(state)))
    return occupied(state) & (state.known[seat] | plainly_seen(state, seat))


def obscured(state, seat: int | None) -> int:
    """Pieces ``seat`` sees as a colour without a shape (only when cloaking obscures)."""
    if cloaking(state.game) != OBSCURES:
        return 0
    return occupied(state) & ~fully_seen(state, seat)


def hidden(state, seat: int | None) -> int:
    """Pieces invisible to ``seat`` (only when cloaking hides)."""
    if cloaking(state.game) != HIDES:
        return 0
    return occupied(state) & ~fully_seen(state, seat)


def learn(state, before: list | None = None, move=None, mover: int | None = None) -> None:
    """Bring every seat's ``known`` up to date after a change of the position.

    ``before`` (the board before a move) lets a known piece that moved stay known where
    it landed; the mover also learns the piece(s) it covered."""
    g = state.game
    occ = occupied(state)
    known = state.known
    if before is not None:
        board = state.board
        changed = [i for i, (a, b) in enumerate(zip(before, board, strict=True)) if a != b]
        if changed:
            known[:] = [_carry(k, changed, before, board) for k in known]
        if mover is not None and move is not None:
            known[mover] |= _covered(state, before, move) & occ
    cloaked = cloaked_spaces(g, current_phase(state))
    for s in range(g.nseats):
        known[s] = (known[s] & occ) | plainly_seen(state, s, cloaked)
    if len(known) > g.nseats:  # the public's: what stood on a space not cloaked, carried
        known[g.nseats] = (known[g.nseats] & occ) | (occ & ~cloaked)


def _carry(known: int, changed: list[int], before: list, board: list) -> int:
    """``known`` after the pieces on ``changed`` spaces changed: a piece that arrived
    from another changed space (the same code left it) is known if it was known there; a
    piece changed in place (converted) stays known."""
    left = {j for j in changed if before[j] > 0}
    was = {j for j in left if known >> j & 1}
    for i in changed:
        known &= ~(1 << i)
    for i in changed:
        code = board[i]
        if code <= 0:
            continue
        source = next((j for j in sorted(left) if j != i and before[j] == code), None)
        if source is None and i in left:
            source = i  # converted in place
        if source is not None:
            left.discard(source)
            if source in was:
                known |= 1 << i
    return known


def _covered(state, before: list, move) -> int:
    """The spaces of the pieces a move covered (or tried to): on stacks the top piece of
    the target stack, else the target space."""
    g = state.game
    target = getattr(move, "target", -1)
    if not 0 <= target < g.npos:
        return 0
    if not g.stacks:
        return 1 << target if before[target] > 0 else 0
    base = g.stack_base[target]
    for z in range(g.height - 1, -1, -1):
        space = base + z * g.layer
        if before[space] > 0:
            return 1 << space
    return 0


def stack_mask(game, pos: int) -> int:
    base = game.stack_base[pos]
    return sum(1 << (base + z * game.layer) for z in range(game.height))


def in_the_way(state, seat: int, move) -> int:
    """Spaces whose pieces decide whether ``move`` can be made: its target (on stacks,
    the target stack) and, for a slide or a jump, the spaces it passes."""
    g = state.game
    target = getattr(move, "target", -1)
    if not 0 <= target < g.npos:
        return 0
    positions = [target]
    origin = getattr(move, "origin", -1)
    if not g.stacks and 0 <= origin < g.npos and state.board[origin] > 0:
        shape = g.piece[state.board[origin]][2]
        if g.reach[shape] is not None:
            for ray in g.reach[shape][seat][origin].rays:
                if target in ray:
                    positions += ray[: ray.index(target)]
        if g.jumps[shape] is not None:
            for line in g.jumps[shape][seat][origin]:
                if target in line:
                    positions += line[: line.index(target)]
    if not g.stacks:
        return sum(1 << p for p in set(positions))
    return sum(stack_mask(g, p) for p in set(positions))


def reindex(state) -> None:
    """Rebuild a state's indexes (colour masks, own, heights, open targets, reserves in
    stock, the Zobrist sum) from its board, reserves and paralysed pieces: for positions
    made by editing the board (a seat's apparent position, a determinisation)."""
    g = state.game
    board = state.board
    state.cmask = [0] * g.ncolors
    occ = 0
    for i, code in enumerate(board):
        if code > 0:
            state.cmask[g.piece[code][1]] |= 1 << i
            occ |= 1 << i
    state.own = [m & occ for m in state.own]
    for i in bits(occ):
        owner = g.piece[board[i]][0]
        if owner is not None and not any(m >> i & 1 for m in state.own):
            state.own[owner] |= 1 << i
    state.frozen &= occ
    state.free = 0
    if g.stacks:
        state.heights = []
        for t in range(g.npos):
            base, h = g.stack_base[t], 0
            for z in range(g.height):
                if board[base + z * g.layer] > 0:
                    h = z + 1
            while h < g.height and board[base + h * g.layer] == LOCKED:
                h += 1
            state.heights.append(h)
            if h < g.height:
                state.free |= 1 << t
    else:
        for i, code in enumerate(board):
            if not code:
                state.free |= 1 << i
        state.free &= sum(g.board_targets)
    state.free &= ~sum(g.board_targets[b] for b, d in enumerate(state.decided) if d is not None)
    state.stock = sum(1 << ri for ri, n in enumerate(state.reserves) if n)
    h = sum(g.z_piece[i][c] for i, c in enumerate(board) if c > 0)
    h += sum(n * z for n, z in zip(state.reserves, g.z_reserve, strict=True))
    h += sum(g.z_frozen[i] for i in bits(state.frozen))
    state.hash = h
    state.seen = {}
