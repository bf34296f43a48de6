"""Legal moves of one seat in one position: placements, steps of placed pieces, captures
(cover, by rank, diagonal, triagonal, jump, chain jump, en passant, and the steps after
which a surround, approach or adjacent capture follows), with the rules that forbid some:

- a placed piece cannot move while its owner holds an identical piece in reserve;
- a seat cannot enter a space locked to it for entry, nor leave one locked for exit
  (sticky, exclusive, space locks), though a slide passes over and through them;
- a "must capture" piece with a capture in sight leaves the seat only captures;
- in a chain jump, the turn's extra move is a further jump of the same piece (or a pass).

Nothing here changes the state.
"""

from .codes import LOCKED, bits, enemy
from .effects import effect_captures


def moves_of(state, seat: int) -> list:
    """Every non-special legal move of ``seat`` (no pass, draw or answers)."""
    g = state.game
    if state.chain >= 0:
        return jumps_from(state, seat, state.chain)
    out = placements(state, seat)
    if g.movers and not state.ph.placement_only:
        steps, captures, forced = piece_moves(state, seat)
        if forced:
            return captures
        out += steps
        out += captures
    return out


def placements(state, seat: int) -> list:
    g = state.game
    combos = (state.stock & g.seat_stock[seat]) >> g.combo_shift[seat]
    targets = state.free
    if not (combos and targets):
        return []
    if state.ph.locks:
        targets = open_targets(state, seat, targets)
    out = []
    positions = bits(targets)
    for combo in bits(combos):
        table = g.place_moves(combo)
        out += [table[t] for t in positions]
    return out


def open_targets(state, seat: int, targets: int) -> int:
    """``targets`` without those whose landing space ``seat`` may not enter."""
    g = state.game
    banned = state.ph.no_entry[seat]
    if not g.stacks:
        return targets & ~banned
    for t in bits(targets):
        if banned >> landing(state, t) & 1:
            targets &= ~(1 << t)
    return targets


def landing(state, pos: int) -> int:
    """The space a piece moved or placed to position ``pos`` comes to rest in."""
    g = state.game
    return g.stack_base[pos] + state.heights[pos] * g.layer if g.stacks else pos


def movable(state, seat: int) -> list[tuple[int, int, int]]:
    """(space, position, shape) of each piece ``seat`` may move now."""
    g = state.game
    board, stock = state.board, state.stock & g.seat_stock[seat]
    out = []
    for space in bits(state.own[seat] & ~state.ph.no_exit[seat] & ~state.frozen & ~state.closed):
        _owner, _color, shape, ri = g.piece[board[space]]
        if g.reach[shape] is None or stock >> ri & 1:
            continue  # stationary, or an identical piece is still in reserve
        if g.stacks:
            pos, z = g.space_pos[space], g.space_z[space]
            if g.full_stack[shape]:
                if z != g.stack_floor[pos]:
                    continue  # by full stack: only from the bottom of its stack
            elif state.heights[pos] != z + 1 and not g.by_stack[shape]:
                continue  # not the top of its stack
        else:
            pos = space
        out.append((space, pos, shape))
    return out


def piece_moves(state, seat: int) -> tuple[list, list, bool]:
    """(plain steps, captures, whether a must-capture piece has a capture)."""
    g = state.game
    board = state.board
    no_entry = state.ph.no_entry[seat]
    steps, captures = [], []
    forced = False
    for space, pos, shape in movable(state, seat):
        if g.stacks and g.by_stack[shape]:
            plain, taking = _by_stack(state, seat, space, pos, shape)
            steps += plain
            captures += taking
            if taking and g.rules[shape].power == "must-capture":
                forced = True
            continue
        reach = g.reach[shape][seat][pos]
        cover = g.may_cover[shape]
        found = len(captures)
        here = []  # (destination, capture)
        for ray in reach.rays:
            for d in ray:
                if g.stacks:
                    here += _onto_stack(state, seat, shape, d)
                    continue
                code = board[d]
                if code == 0:
                    if not no_entry >> d & 1:
                        here.append((d, False))
                elif code != LOCKED:
                    if cover[g.piece[code][2]] and enemy(g, code, seat) and not no_entry >> d & 1:
                        here.append((d, True))
                    break
        for d in reach.leaps:
            if g.stacks:
                here += _onto_stack(state, seat, shape, d)
                continue
            code = board[d]
            if no_entry >> d & 1 or code == LOCKED:
                continue
            if code == 0:
                here.append((d, False))
            elif cover[g.piece[code][2]] and enemy(g, code, seat):
                here.append((d, True))
        if g.jumps[shape] is not None:
            here += _jumps(state, seat, pos, shape)
        if g.hitting[shape] is not None:
            here += _hits(state, seat, pos, shape)
        effect = g.effect[shape]
        for d, capture in here:
            if effect and not capture:
                capture = bool(effect_captures(state, seat, shape, d, pos))
            (captures if capture else steps).extend(_step(g, seat, shape, pos, d, capture))
        if len(captures) > found and g.rules[shape].power == "must-capture":
            forced = True
    return steps, captures, forced


def top_space(state, pos: int) -> int:
    """The space of the top piece of stack ``pos`` (-1 if it has none)."""
    g = state.game
    h = state.heights[pos]
    return g.stack_base[pos] + (h - 1) * g.layer if h else -1


def _onto_stack(state, seat: int, shape: int, pos: int) -> list[tuple[int, bool]]:
    """A step of a piece (not moving by stack) to stack ``pos``: onto its top, or, for a
    piece that captures by cover, covering an opponent's top piece (which it takes and
    whose space it lands in: a full stack may be entered so)."""
    g = state.game
    no_entry = state.ph.no_entry[seat]
    if g.stack_cover[shape]:
        top = top_space(state, pos)
        full = state.heights[pos] >= g.height
        if not g.ranked_rule[shape]:  # a plain cover takes every other team's piece
            if any(enemy(g, state.board[s], seat) for s in stack_pieces(state, pos)):
                if not (full and g.converts[shape]) and not no_entry >> top & 1:
                    return [(pos, True)]
        elif top >= 0 and (code := state.board[top]) > 0 and enemy(g, code, seat):
            defender = g.piece[code][2]
            converting = g.converts[shape] or g.converts[defender]  # nothing leaves
            if g.may_cover[shape][defender] and not no_entry >> top & 1:
                if not (full and converting):
                    return [(pos, True)]
    if state.heights[pos] < g.height and not no_entry >> landing(state, pos) & 1:
        return [(pos, False)]
    return []


def stack_pieces(state, pos: int) -> list[int]:
    """The spaces of the pieces of stack ``pos``, bottom up (locked spaces left out)."""
    g = state.game
    base, board = g.stack_base[pos], state.board
    spaces = range(base, base + state.heights[pos] * g.layer, g.layer)
    return [s for s in spaces if board[s] > 0]


def _by_stack(state, seat: int, space: int, pos: int, shape: int) -> tuple[list, list]:
    """(steps, showdowns) of a piece that carries the pieces above it: to any stack its
    move reaches that has room for all of them. Where the piece's shape captures, a step
    after which the destination stack holds an opponent's (or nobody's) piece is a
    capture: a showdown of poker hands (showdown.py)."""
    g = state.game
    board = state.board
    carry = state.heights[pos] - g.space_z[space]
    steps, captures = [], []
    showdown = g.showdown[shape]
    carried = showdown and any(
        enemy(g, board[s], seat) for s in stack_pieces(state, pos) if s >= space
    )
    for ray in g.reach[shape][seat][pos].rays:
        for d in ray:
            if state.heights[d] + carry <= g.height and not (
                state.ph.no_entry[seat] >> landing(state, d) & 1
            ):
                if showdown and (
                    carried or any(enemy(g, board[s], seat) for s in stack_pieces(state, d))
                ):
                    captures.append(g.stack_move(space, d, True))
                else:
                    steps.append(g.stack_move(space, d))
    return steps, captures


def _step(g, seat: int, shape: int, origin: int, target: int, capture: bool) -> list:
    """The move(s) of a step: one per replacing shape when a piece that cannot move
    backwards reaches its goal."""
    if g.forward_only[shape] and g.goal_mask[seat] >> target & 1:
        return [g.step_move(origin, target, capture, r) for r in g.promote_to]
    return [g.step_move(origin, target, capture)]


def _hits(state, seat: int, pos: int, shape: int) -> list[tuple[int, bool]]:
    """Captures by a diagonal (or triagonal) step onto an opponent's piece, and en
    passant: onto the space an opponent's piece passed over on the move just played."""
    g = state.game
    board, no_entry = state.board, state.ph.no_entry[seat]
    passed, passer = state.en_passant()
    out = []
    for d in g.hitting[shape][seat][pos]:
        if no_entry >> d & 1:
            continue
        code = board[d]
        if code > 0 and enemy(g, code, seat):
            out.append((d, True))
        elif code == 0 and passed >> d & 1 and g.en_passant[shape]:
            # the piece that passed may be gone already: in a simultaneous round the
            # moves before this one may have taken it or moved it on
            if board[passer] > 0 and enemy(g, board[passer], seat):
                out.append((d, True))
    return out


def _jumps(state, seat: int, pos: int, shape: int) -> list[tuple[int, bool]]:
    """Jump captures of the piece at ``pos`` as (landing, True): over an enemy piece (the
    first piece on the line, for a sliding piece) to the empty space just beyond it."""
    g = state.game
    board, no_entry = state.board, state.ph.no_entry[seat]
    out = []
    for line in g.jumps[shape][seat][pos]:
        for i, over in enumerate(line[:-1]):
            code = board[over]
            if code == 0:
                continue  # a sliding piece's line runs on to the first piece
            if code != LOCKED and enemy(g, code, seat):
                if g.paralyses[shape] and state.frozen >> over & 1:
                    break  # already paralysed: jumping it takes nothing
                land = line[i + 1]
                if board[land] == 0 and not no_entry >> land & 1:
                    out.append((land, True))
            break
    return out


def jumps_from(state, seat: int, pos: int) -> list:
    """A chain's further jumps: the same piece, jumping again."""
    g = state.game
    shape = g.piece[state.board[pos]][2]
    if g.jumps[shape] is None:
        return []
    return [
        m for d, _c in _jumps(state, seat, pos, shape) for m in _step(g, seat, shape, pos, d, True)
    ]


def captive_of(state, seat: int, move, shape: int) -> int:
    """The space of the piece ``move`` (a capture) takes."""
    g = state.game
    if state.board[move.target] > 0:
        return move.target  # cover
    passed, passer = state.en_passant()
    if passed >> move.target & 1 and g.en_passant[shape]:
        return passer  # en passant
    for line in g.jumps[shape][seat][move.origin]:
        if move.target in line:
            return line[line.index(move.target) - 1]
    raise AssertionError(f"{move}: no captive")
