"""An independent model of the social-dilemma games of issue 19, as read in
variants/catalogue/READINGS.md ("Social-dilemma games (issue 19)").

It is NOT the engine: it is a small second implementation of the readings, written
before the engine played them, to compute the outcome tables of
``variants/catalogue/tables.py`` (the games themselves: ``dilemma_games_model.py``).
``tests/test_dilemma_games.py`` checks that the
written tables are what this model computes (so no number there is a typo) and that
the engine plays the same tables.

Boards of stacks are lists of stacks (bottom first) of pieces ``(seat, colour,
shape)``; ``"L"`` is a locked space standing in its stack. Chaos's random moves and the
random start of a split pot are enumerated, each branch with its probability
(``Fraction``), so a table is exact.
"""

from fractions import Fraction

COLOURS = ("black", "white", "pink", "yellow")
RANK = ("circle", "triangle", "x", "cross", "star", "pentagon")  # ascending
LOCKED = "L"


def outranks(a, b):
    if (a, b) == ("circle", "pentagon"):
        return True
    if (a, b) == ("pentagon", "circle"):
        return False
    return RANK.index(a) > RANK.index(b)


class Game:
    """A stacks game: ``rules[shape] = (capture, result)`` with capture None, "cover" or
    "rank" and result "remove", "convert", "reincarnate" or "reincarnate-x2"."""

    def __init__(self, stacks, height, exclusive, rules, nseats, chaos=None):
        self.start = [list(s) for s in stacks]
        self.height = height
        self.exclusive = exclusive  # per stack: set of seats (0-based) or None (all)
        self.rules = rules
        self.nseats = nseats
        self.chaos = chaos

    def may_enter(self, seat, x, locked=()):
        ex = self.exclusive[x]
        return x not in locked and (ex is None or seat in ex)


def capture(game, shape):
    return game.rules.get(shape, (None, "remove"))[0]


def result(game, shape):
    return game.rules.get(shape, (None, "remove"))[1]


def land(game, board, reserves, seat, colour, shape, x):
    """Distribution [(p, board, reserves)] after ``seat`` lands a piece on stack ``x``."""
    board = [list(s) for s in board]
    reserves = {k: dict(v) for k, v in reserves.items()}
    stack = board[x]
    piece = (seat, colour, shape)
    kind = capture(game, shape)
    others = [p for p in stack if p != LOCKED and p[0] != seat]
    if kind == "cover" and others:
        # A capturing piece covering a stack takes every piece of the other teams on it.
        return [(Fraction(1), *_take_all(game, board, reserves, x, seat, colour, shape))]
    if kind == "rank":
        top = next((p for p in reversed(stack) if p != LOCKED), None)
        if top is not None and top[0] != seat and capture(game, top[2]) is not None:
            return [(Fraction(1), *_duel(game, board, reserves, x, piece, top))]
        if top is not None and top[0] != seat:
            stack.append(piece)  # a ranked piece over a piece that cannot capture
            return [(Fraction(1), board, reserves)]
    guards = [p for p in stack if p != LOCKED and capture(game, p[2]) is not None]
    if kind is None and any(g[0] != seat for g in guards):
        stack.append(piece)
        return _guarded(game, board, reserves, x, guards)
    stack.append(piece)
    return [(Fraction(1), board, reserves)]


def _take_all(game, board, reserves, x, seat, colour, shape):
    stack = board[x]
    taken = [p for p in stack if p != LOCKED and p[0] != seat]
    res = result(game, shape)
    if res == "convert":
        board[x] = [p if p == LOCKED or p[0] == seat else (seat, colour, p[2]) for p in stack]
    else:
        board[x] = [p for p in stack if p == LOCKED or p[0] == seat]
        gain = {"reincarnate": 1, "reincarnate-x2": 2}.get(res, 0)
        for p in taken:
            reserves[seat][p[2]] = reserves[seat].get(p[2], 0) + gain
    board[x].append((seat, colour, shape))
    return board, reserves


def _duel(game, board, reserves, x, attacker, defender):
    stack = board[x]
    a, d = attacker[2], defender[2]
    i = max(i for i, p in enumerate(stack) if p == defender)
    if a == d:
        del stack[i]
        return board, reserves
    if outranks(a, d):
        winner, loser, on_board = attacker, defender, False
    else:
        winner, loser, on_board = defender, attacker, True
    res = result(game, winner[2])
    if on_board:  # the defender wins: the attacker never lands (or stays converted)
        if res == "convert":
            stack.append((winner[0], winner[1], loser[2]))
        else:
            _gain(reserves, winner, loser, res)
        return board, reserves
    if res == "convert":
        stack[i] = (winner[0], winner[1], loser[2])
    else:
        del stack[i]
        _gain(reserves, winner, loser, res)
    stack.append(winner)
    return board, reserves


def _gain(reserves, winner, loser, res):
    gain = {"reincarnate": 1, "reincarnate-x2": 2}.get(res, 0)
    if gain:
        reserves[winner[0]][loser[2]] = reserves[winner[0]].get(loser[2], 0) + gain


def collide(game, shapes):
    """Plans landing on one stack in a simultaneous round (the seed's collision): the
    index of the piece that beats every other by rank (pieces capturing by rank), or
    None: every piece moved there is destroyed."""
    for i, a in enumerate(shapes):
        if all(j == i or _beats(game, a, b) for j, b in enumerate(shapes)):
            return i
    return None


def _beats(game, a, b):
    if capture(game, a) != "rank" and capture(game, b) != "rank":
        return False
    return a != b and outranks(a, b) and capture(game, a) is not None


def _guarded(game, board, reserves, x, guards):
    """A piece that cannot capture landed on a stack guarded by other teams' capturing
    pieces: the guards with the highest shape are captors and take every piece on the
    stack that cannot capture (the pot), by their result; a split pot is dealt
    round-robin over the captors in seat order from a random start."""
    top = max((g[2] for g in guards), key=RANK.index)
    captors = sorted({g[0] for g in guards if g[2] == top})
    colour_of = {g[0]: g[1] for g in guards}
    stack = board[x]
    pot = [p for p in stack if p != LOCKED and capture(game, p[2]) is None]
    res = result(game, top)
    if res == "convert":
        c = captors[0]
        board[x] = [
            (c, colour_of[c], p[2]) if p != LOCKED and capture(game, p[2]) is None else p
            for p in stack
        ]
        return [(Fraction(1), board, reserves)]
    board[x] = [p for p in stack if p == LOCKED or capture(game, p[2]) is not None]
    gain = {"reincarnate": 1, "reincarnate-x2": 2}.get(res, 0)
    if not gain:
        return [(Fraction(1), board, reserves)]
    out = []
    n = len(captors)
    for start in range(n):
        r = {k: dict(v) for k, v in reserves.items()}
        turn = start
        for p in pot:
            for _ in range(gain):
                c = captors[turn % n]
                r[c][p[2]] = r[c].get(p[2], 0) + 1
                turn += 1
        out.append((Fraction(1, n), [list(s) for s in board], r))
    return out


# -- measures on a stacks board (one row of stacks: coordinates x, z) ----------------

DIRS = ((1, 0), (0, 1), (1, 1), (1, -1))


def _cells(board):
    return {(x, z): p[1] for x, s in enumerate(board) for z, p in enumerate(s) if p != LOCKED}


def pieces(board, colour):
    return sum(1 for c in _cells(board).values() if c == colour)


def pairs(board, colour):
    """How many 2-same-colour-in-a-row (adjacent pairs of that colour, every direction)."""
    cells = _cells(board)
    return sum(
        1
        for (x, z), c in cells.items()
        for dx, dz in DIRS
        if c == colour and cells.get((x + dx, z + dz)) == colour
    )


def longest(board, colour):
    cells = _cells(board)
    best = 0
    for (x, z), c in cells.items():
        if c != colour:
            continue
        for dx, dz in DIRS:
            if cells.get((x - dx, z - dz)) == colour:
                continue
            n = 1
            while cells.get((x + n * dx, z + n * dz)) == colour:
                n += 1
            best = max(best, n)
    return best


# -- Chaos: every random move enumerated --------------------------------------------


def chaos_moves(game, board, reserves, seat, colour, locked=(), can_pass=True):
    """Legal moves of Chaos (placements of its shapes on stacks it may enter; pass)."""
    moves = []
    for shape, n in sorted(reserves[seat].items()):
        if n <= 0:
            continue
        for x in range(len(board)):
            if game.may_enter(seat, x, locked) and len(board[x]) < game.height:
                moves.append((shape, x))
    if moves and can_pass:
        moves.append(None)
    return moves


def chaos_plays(game, board, reserves, seat, colour, locked=(), can_pass=True):
    """Distribution of (board, reserves) after Chaos's phase: it moves uniformly at random
    until it passes (a pass by the only seat to move ends the phase) or cannot move."""
    out = []
    todo = [(Fraction(1), board, reserves)]
    while todo:
        p, b, r = todo.pop()
        moves = chaos_moves(game, b, r, seat, colour, locked, can_pass)
        if not moves:
            out.append((p, b, r))
            continue
        q = p / len(moves)
        for m in moves:
            if m is None:
                out.append((q, b, r))
                continue
            shape, x = m
            r2 = {k: dict(v) for k, v in r.items()}
            r2[seat][shape] -= 1
            for p2, b2, r3 in land(game, b, r2, seat, colour, shape, x):
                todo.append((q * p2, b2, r3))
    return out


def merge(dist):
    """[(p, outcome)] -> {outcome: p} with outcomes summed."""
    total = {}
    for p, o in dist:
        total[o] = total.get(o, 0) + p
    return total


def fmt(dist):
    """{results tuple: probability} -> sorted list of [results, "p"] (JSON-able)."""
    return sorted([list(o), str(p)] for o, p in dist.items())


# -- endings ---------------------------------------------------------------------

W, D, L = "win", "draw", "loss"


def versus_chaos(values, chaos, more_wins=True, less_loses=True):
    """'More pieces than chaos wins' / 'Less pieces than chaos loses', per player; the
    players' results only (Chaos's follows: it wins if every player loses, loses if every
    player wins)."""
    out = []
    for i, v in enumerate(values):
        if i == chaos:
            continue
        if v > values[chaos] and more_wins:
            out.append(W)
        elif v < values[chaos] and less_loses:
            out.append(L)
        elif not more_wins:
            out.append(W)  # not losing is winning where only "loses" is written
        else:
            out.append(D)
    return tuple(out)


def most_wins(values, chaos=None):
    best = max(values)
    res = [W if v == best else L for v in values]
    return _players(res, chaos)


def most_loses(values, chaos=None):
    best = max(values)
    res = [L if v == best else W for v in values]
    return _players(res, chaos)


def least_loses(values, chaos=None):
    worst = min(values)
    res = [L if v == worst else W for v in values]
    return _players(res, chaos)


def _players(res, chaos):
    return tuple(r for i, r in enumerate(res) if i != chaos)
