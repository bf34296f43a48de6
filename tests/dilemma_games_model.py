"""The games of issue 19 in the reading model (tests/dilemma_reference.py: the
mechanics), and every outcome table as variants/catalogue/tables.py writes it."""

from fractions import Fraction
from itertools import product

from tests.dilemma_reference import (
    COLOURS,
    LOCKED,
    D,
    Game,
    L,
    W,
    _guarded,
    capture,
    chaos_plays,
    collide,
    land,
    least_loses,
    longest,
    merge,
    most_loses,
    most_wins,
    pairs,
    pieces,
    versus_chaos,
)

# -- the games --------------------------------------------------------------------


def rock_paper_scissors():
    """Round table: (black shape, white shape) -> results, or 'again' (both destroyed)."""
    shapes = ("circle", "x", "pentagon")
    game = Game([[]], 2, [None], {s: ("rank", "convert") for s in shapes}, 2)
    table = {}
    for a, b in product(shapes, shapes):
        win = collide(game, (a, b))  # both plans land on the one stack
        board = [[]]
        if win is not None:  # the winner converts the loser: put under it in the stack
            seat, colour = win, COLOURS[win]
            board = [[(seat, colour, (a, b)[1 - win]), (seat, colour, (a, b)[win])]]
        counts = [pieces(board, "black"), pieces(board, "white")]
        table[(a, b)] = "again" if counts == [0, 0] else most_wins(counts)
    return table


def trend(any_piece_wins=True):
    """4 players, 3 squares, one simultaneous round: pieces alone on a square survive."""
    table = {}
    for choice in product((1, 2, 3), repeat=4):
        alone = [choice.count(c) == 1 for c in choice]
        if not any(alone):
            res = (L,) * 4 if any_piece_wins else (W,) * 4  # stalemate rule
        elif any_piece_wins:
            res = tuple(W if a else L for a in alone)
        else:
            res = tuple(L if a else W for a in alone)
        table[choice] = res
    return table


def public_goods():
    """(black, white, pink contributions) -> {players' results: p}."""
    rules = {"pentagon": ("cover", "reincarnate-x2")}
    ex = [{0}, {1}, {2}, {3}, {0, 1, 2}]
    start = [
        [(0, "black", "circle")],
        [(1, "white", "circle")] * 2,
        [(2, "pink", "circle")] * 3,
        [],
        [(0, "black", "pentagon"), (1, "white", "pentagon"), (2, "pink", "pentagon")],
    ]
    game = Game(start, 8, ex, rules, 4, chaos=3)
    colours = COLOURS
    table = {}
    for give in product(range(2), range(3), range(4)):
        dist = [(Fraction(1), [list(s) for s in start], {i: {} for i in range(4)})]
        dist[0][2][3] = {"circle": 5}
        # Contributions (chips only) pile up on stack 5 in seat order (issue 35): each
        # lands and is taken by the guards, its split dealt from its own random start.
        for seat in (seat for seat, k in enumerate(give) if k):
            after = []
            for p, b, r in dist:
                b = [list(s) for s in b]
                moving = b[seat][-give[seat] :]
                del b[seat][-give[seat] :]
                after += [
                    (p * p2, b2, r2) for p2, b2, r2 in _land_stack(game, b, r, seat, moving, 4)
                ]
            dist = after
        out = []
        for p, b, r in dist:
            b = [list(s) for s in b]
            for seat in range(3):  # phase 2: reincarnated circles go on the own stack
                b[seat] += [(seat, colours[seat], "circle")] * r[seat].get("circle", 0)
            r = {i: ({} if i < 3 else r[i]) for i in range(4)}
            for p2, b2, _r2 in chaos_plays(game, b, r, 3, "yellow"):
                values = [pieces(b2, c) for c in colours]
                out.append((p * p2, versus_chaos(values, 3, more_wins=False)))
        table[give] = merge(out)
    return table


def _land_stack(game, board, reserves, seat, moving, x):
    """A move by stack: the pieces land in order (the first one is the mover), then the
    destination stack, if guarded by other teams' capturing pieces, has one showdown."""
    board = [list(s) for s in board]
    board[x] += moving
    guards = [p for p in board[x] if p != LOCKED and capture(game, p[2]) is not None]
    if any(g[0] != seat for g in guards):
        return _guarded(game, board, reserves, x, guards)
    return [(Fraction(1), board, reserves)]


def trust(rich):
    """(circles black sends, circles white returns) -> {(black, white): p}."""
    rules = {"pentagon": ("cover", "convert"), "x": ("cover", "reincarnate-x2")}
    ex = [{0}, {0, 1}, {1}, {2}]
    mine = [] if rich else [(0, "black", "circle")] * 2
    chaos = [(2, "pink", "circle")] * (3 if rich else 4)
    start = [mine, [(1, "white", "x")], [(0, "black", "pentagon")], chaos]
    game = Game(start, 9, ex, rules, 3, chaos=2)
    have = 4 if rich else 2
    table = {}
    for send in range(have + 1):
        for back in range(2 * send + 1):
            b = [list(s) for s in start]
            r = {0: {}, 1: {}, 2: {"circle": 2}}
            for i in range(have):  # phase 1: black places every circle
                x = 1 if i < send else 0
                ((_, b, r),) = land(game, b, r, 0, "black", "circle", x)
            assert r[1].get("circle", 0) == 2 * send
            for i in range(2 * send):  # phase 2: white places every circle it gained
                x = 2 if i < back else 1
                ((_, b, r),) = land(game, b, r, 1, "white", "circle", x)
            out = []
            for p, b2, _r in chaos_plays(game, b, r, 2, "pink"):
                values = [pieces(b2, c) for c in COLOURS[:3]]
                out.append((p, versus_chaos(values, 2)))
            table[(send, back)] = merge(out)
    return table


def ultimatum(rich, dictator):
    """(circles black keeps on stack 2, white's answer) -> {(black, white): p}; white's
    answer is "accept" (its X on stack 3), "reject" (on stack 2) or None (no X)."""
    rules = {"pentagon": ("cover", "convert"), "x": ("cover", "remove")}
    ex = [{0}, {0, 1}, {1}, {2}]
    first = [(1, "white", "circle")] * (0 if rich else 3) + [(1, "white", "pentagon")]
    second = [(0, "black", "circle")] * (4 if rich else 0)
    # A dictator game starts where the ultimatum's acceptance leaves it: no X to remove
    # Chaos's five circles on stack 3, so none stand there (READINGS, issue 35).
    start = [first, second, [(2, "pink", "circle")] * (0 if dictator else 5)]
    start.append([(2, "pink", "circle")] * 2)
    game = Game(start, 9, ex, rules, 3, chaos=2)
    table = {}
    for keep in range(4):
        for answer in (None,) if dictator else ("accept", "reject"):
            b = [list(s) for s in start]
            r = {0: {}, 1: {}, 2: {"circle": 3}}
            for i in range(3):
                x = 1 if i < keep else 0
                ((_, b, r),) = land(game, b, r, 0, "black", "circle", x)
            if answer:
                x = 2 if answer == "accept" else 1
                ((_, b, r),) = land(game, b, r, 1, "white", "x", x)
            out = []
            for p, b2, _r in chaos_plays(game, b, r, 2, "pink"):
                values = [pieces(b2, c) for c in COLOURS[:3]]
                out.append((p, versus_chaos(values, 2)))
            table[(keep, answer)] = merge(out)
    return table


def hunt_board(contract):
    """ContractHunt's and StagHunt's start: (game, stacks)."""
    rules = {"pentagon": ("cover", "remove")}
    if contract:
        ex = [{0, 1}, {1}, {0, 2}, {1, 2}]
        start = [[(0, "black", "pentagon")], [], [], []]
    else:
        ex = [{0}, {1}, {0, 2}, {1, 2}]
        start = [[(0, "black", "pentagon")], [(1, "white", "pentagon")], [], []]
    return Game(start, 3, ex, rules, 3, chaos=2), start


def hunt_end(game, b, r):
    out = []
    for p, b2, _r in chaos_plays(game, b, r, 2, "pink"):
        values = [pairs(b2, c) for c in COLOURS[:3]]
        out.append((p, most_wins(values, chaos=2)))
    return merge(out)


def stag_hunt():
    """(black's stack, white's stack) -> {(black, white): p}: stack 1/2 is the hare
    (a pair on one's own stack), 3/4 the stag (guarding Chaos's stack)."""
    game, start = hunt_board(False)
    table = {}
    for bx, wx in product((1, 3), (2, 4)):
        b = [list(s) for s in start]
        r = {0: {}, 1: {}, 2: {"circle": 6}}
        ((_, b, r),) = land(game, b, r, 0, "black", "pentagon", bx - 1)
        ((_, b, r),) = land(game, b, r, 1, "white", "pentagon", wx - 1)
        table[(bx, wx)] = hunt_end(game, b, r)
    return table


def contract_hunt():
    """(white's first stack, black's stack, white's second stack) -> {(black, white): p}."""
    game, start = hunt_board(True)
    table = {}
    for first, bx, wx in product((1, 2), (1, 3), (1, 2, 4)):
        b = [list(s) for s in start]
        r = {0: {}, 1: {}, 2: {"circle": 6}}
        ((_, b, r),) = land(game, b, r, 1, "white", "pentagon", first - 1)
        if bx == wx:  # plain covers collide: both pentagons are destroyed
            table[(first, bx, wx)] = hunt_end(game, b, r)
            continue
        ((_, b, r),) = land(game, b, r, 0, "black", "pentagon", bx - 1)
        ((_, b, r),) = land(game, b, r, 1, "white", "pentagon", wx - 1)
        table[(first, bx, wx)] = hunt_end(game, b, r)
    return table


def pd_board(contract):
    rules = {"pentagon": ("rank", "remove"), "x": ("rank", "remove")}
    ex = [{0}, set(), {1}, {2}, None]
    white = [] if contract else [(1, "white", "pentagon")]
    start = [[(0, "black", "x")], [LOCKED, LOCKED], white, [], []]
    return Game(start, 2, ex, rules, 3, chaos=2), start


def prisoners(contract):
    """PrisonerDilemma: (black's stack, white's stack) -> {(black, white): p}; stack 1/3
    is defection (a pair on one's own stack), stack 5 cooperation (guarding the open
    stack against Chaos). ContractPD: keys (white's first stack, black's, white's)."""
    game, start = pd_board(contract)
    table = {}
    firsts = (3, 5) if contract else (None,)
    for first, bx, wx in product(firsts, (1, 5), (3, 5)):
        b = [list(s) for s in start]
        r = {0: {}, 1: {}, 2: {"circle": 6}}
        if first:
            ((_, b, r),) = land(game, b, r, 1, "white", "pentagon", first - 1)
        ((_, b, r),) = land(game, b, r, 0, "black", "x", bx - 1)
        ((_, b, r),) = land(game, b, r, 1, "white", "pentagon", wx - 1)
        out = []
        for p, b2, _r in chaos_plays(game, b, r, 2, "pink"):
            values = [pairs(b2, c) for c in COLOURS[:3]]
            out.append((p, most_wins(values, chaos=2)))
        table[(first, bx, wx) if contract else (bx, wx)] = merge(out)
    return table


def volunteer():
    """(black's, white's, pink's stack) -> {(black, white, pink): p}: the own stack keeps
    (two pairs), stack 5 or 6 volunteers (guards it against Chaos)."""
    rules = {s: ("rank", "remove") for s in ("pentagon", "x", "cross")}
    ex = [{0}, {1}, {2}, {3}, None, None]
    start = [
        [(0, "black", "pentagon")] * 2,
        [(1, "white", "x")] * 2,
        [(2, "pink", "cross")] * 2,
        [],
        [LOCKED],
        [LOCKED],
    ]
    shapes = ("pentagon", "x", "cross")
    game = Game(start, 3, ex, rules, 4, chaos=3)
    table = {}
    for choice in product((1, 5, 6), (2, 5, 6), (3, 5, 6)):
        b = [list(s) for s in start]
        r = {0: {}, 1: {}, 2: {}, 3: {"circle": 8}}
        for seat, x in enumerate(choice):
            ((_, b, r),) = land(game, b, r, seat, COLOURS[seat], shapes[seat], x - 1)
        out = []
        for p, b2, _r in chaos_plays(game, b, r, 3, "yellow"):
            values = [pairs(b2, c) for c in COLOURS]
            out.append((p, least_loses(values, chaos=3)))
        table[choice] = merge(out)
    return table


def trolley(players):
    """(black acts?) -> players' results: acting puts black's circle on the white
    pentagon (captured: white gains two circles it must place on its own stack)."""
    rules = {"pentagon": ("rank", "reincarnate-x2")}
    if players == 4:
        ex = [{0}, {1}, {2}, {3}]
        extra, chaos, height = [[(3, "yellow", "circle")] * 3], None, 4
    else:
        ex = [{0}, {1}, {2}, {3}, {3}, {3}]
        extra, chaos, height = [[], [], []], 3, 5
    start = [
        [(1, "white", "pentagon")],
        [(1, "white", "circle")] * 2,
        [(2, "pink", "circle")] * 3,
        *extra,
    ]
    game = Game(start, height, ex, rules, 4, chaos=chaos)
    table = {}
    for act in (False, True):
        b = [list(s) for s in start]
        r = {i: {} for i in range(4)}
        if act:
            ((_, b, r),) = land(game, b, r, 0, "black", "circle", 0)
        for _ in range(r[1].get("circle", 0)):
            ((_, b, r),) = land(game, b, r, 1, "white", "circle", 1)
        if chaos is None:
            table[act] = most_loses([longest(b, c) for c in COLOURS])
            continue
        # 3P's phase 3: Chaos places up to five circles on its stacks, or passes.
        r[3] = {"circle": 5}
        out = [
            (p, most_loses([longest(b2, c) for c in COLOURS], chaos=chaos))
            for p, b2, _r in chaos_plays(game, b, r, 3, "yellow")
        ]
        table[act] = _dist(merge(out))
    return table


def centipede(needy):
    """Lines of play -> {(black, white): p}. ``take`` is the move (1-based, counting
    both players' placements on stack 1) at which the player to move places its
    pentagon on stack 1 instead of a circle (None: nobody takes, the circles run out);
    afterwards each banks what it holds on its own stack and both pass."""
    rules = {"circle": ("cover", "convert"), "pentagon": ("cover", "reincarnate")}
    ex = [{0, 1}, {0}, {1}, {2}]
    chaos_start, chaos_reserve = (4, 6) if needy else (3, 5)
    start = [[], [], [], [(2, "pink", "circle")] * chaos_start]
    game = Game(start, 9, ex, rules, 3, chaos=2)
    table = {}
    for take in (*range(1, 10), None):
        b = [list(s) for s in start]
        r = {0: {"circle": 4, "pentagon": 1}, 1: {"circle": 4, "pentagon": 1}, 2: {}}
        r[2] = {"circle": chaos_reserve}
        seat, move = 0, 1
        while True:
            colour = COLOURS[seat]
            if take == move and r[seat]["pentagon"]:
                r[seat]["pentagon"] -= 1
                ((_, b, r),) = land(game, b, r, seat, colour, "pentagon", 0)
                break
            if not r[seat]["circle"]:
                break
            r[seat]["circle"] -= 1
            ((_, b, r),) = land(game, b, r, seat, colour, "circle", 0)
            seat, move = 1 - seat, move + 1
        for s in (0, 1):  # then each banks all it holds on its own stack
            for shape, n in list(r[s].items()):
                for _ in range(n):
                    ((_, b, r),) = land(game, b, r, s, COLOURS[s], shape, s + 1)
                r[s][shape] = 0
        out = []
        for p, b2, _r in chaos_plays(game, b, r, 2, "pink"):
            values = [pieces(b2, c) for c in COLOURS[:3]]
            out.append((p, most_wins(values, chaos=2)))
        table[take] = merge(out)
    return table


def area(boards, team):
    """Go-like area of ``team`` over boards {(x, y): team or None or LOCKED}: spaces it
    occupies or reaches orthogonally through empty and locked spaces."""
    total = 0
    for cells in boards:
        own = [s for s, t in cells.items() if t == team]
        reached, todo = set(own), list(own)
        while todo:
            x, y = todo.pop()
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n in cells and n not in reached and cells[n] in (None, LOCKED):
                    reached.add(n)
                    todo.append(n)
        total += len(reached)
    return total


def least_area_wins(boards, teams):
    """Teams with a piece compare (one with none has no area to compare)."""
    present = [t for t in teams if any(t in cells.values() for cells in boards)]
    values = {t: area(boards, t) for t in present}
    least = min(values.values())
    return {t: (W if t in values and values[t] == least else L) for t in teams}


def area_against_chaos(boards, players, chaos):
    """BoS's "Least area wins" against Chaos (READINGS.md, BoS): a player with less
    area than Chaos wins, with more loses, level with it draws."""
    ref = area(boards, chaos)
    return {t: (W if area(boards, t) < ref else L if area(boards, t) > ref else D) for t in players}


def bos():
    """(black's board, white's board) -> {(black, white): p}; Chaos places its one
    circle on its space of board 1 or 2 at random; each player is measured against it."""
    spaces = {  # seat -> board -> its exclusive space
        0: {1: (1, 1), 2: (1, 1)},
        1: {1: (1, 2), 2: (1, 2)},
        2: {1: (2, 1), 2: (2, 2)},
    }
    locked = {1: (2, 2), 2: (2, 1)}
    table = {}
    for bb, wb in product((1, 2), (1, 2)):
        out = []
        for cb in (1, 2):
            boards = []
            for n in (1, 2):
                cells = {(x, y): None for x in (1, 2) for y in (1, 2)}
                cells[locked[n]] = LOCKED
                for seat, on in ((0, bb), (1, wb), (2, cb)):
                    if on == n:
                        cells[spaces[seat][n]] = seat
                boards.append(cells)
            res = area_against_chaos(boards, (0, 1), 2)
            out.append((Fraction(1, 2), (res[0], res[1])))
        table[(bb, wb)] = merge(out)
    return table


def bos3():
    """(black's, white's, pink's board) -> (black, white, pink); Chaos has no piece."""
    spaces = {
        0: {1: (1, 1), 2: (1, 1), 3: (1, 1)},
        1: {1: (1, 2), 2: (1, 2), 3: (2, 2)},
        2: {1: (2, 1), 2: (2, 2), 3: (2, 1)},
    }
    table = {}
    for choice in product((1, 2, 3), repeat=3):
        boards = []
        for n in (1, 2, 3):
            cells = {(x, y): None for x in (1, 2) for y in (1, 2)}
            for seat, on in enumerate(choice):
                if on == n:
                    cells[spaces[seat][n]] = seat
            boards.append(cells)
        res = least_area_wins(boards, (0, 1, 2))
        table[choice] = (res[0], res[1], res[2])
    return table


# -- every table, keyed as variants/catalogue/tables.py writes it ----------------------


def _dist(d):
    return {o: str(p) for o, p in sorted(d.items())}


def all_tables():
    """name -> {key: players' results (a tuple) or {results: "probability"}}."""
    pd = {k: _dist(v) for k, v in prisoners(False).items()}
    t = {
        "RockPaperScissors": rock_paper_scissors(),
        "4P-TrendSetter": trend(True),
        "4P-Conformist": trend(False),
        "3P-PublicGoods": {k: _dist(v) for k, v in public_goods().items()},
        "NeedyTrust": {k: _dist(v) for k, v in trust(False).items()},
        "RichTrust": {k: _dist(v) for k, v in trust(True).items()},
        "StagHunt": {k: _dist(v) for k, v in stag_hunt().items()},
        "PrisonerDilemma": pd,
        "OptionalPD": pd,
        "ContractPD": {k: _dist(v) for k, v in prisoners(True).items()},
        "NeedyUltimatum": {k: _dist(v) for k, v in ultimatum(False, False).items()},
        "RichUltimatum": {k: _dist(v) for k, v in ultimatum(True, False).items()},
        "NeedyDictator": {k[0]: _dist(v) for k, v in ultimatum(False, True).items()},
        "RichDictator": {k[0]: _dist(v) for k, v in ultimatum(True, True).items()},
        "3P-Volunteer": {k: _dist(v) for k, v in volunteer().items()},
        "BoS": {k: _dist(v) for k, v in bos().items()},
        "3P-BoS": bos3(),
        "Centipede9": {k: _dist(v) for k, v in centipede(False).items()},
        "NeedyCentipede4": {k: _dist(v) for k, v in centipede(True).items()},
        "ContractHunt": {k: _dist(v) for k, v in contract_hunt().items()},
        "4P-TrolleyDilemma": trolley(4),
        "3P-TrolleyDilemma": trolley(3),
    }
    return t


# The two 4-player trend games' tables (81 rows each) are a module of their own, so that
# tables.py stays a readable size.
TREND_GAMES = ("4P-TrendSetter", "4P-Conformist")


def _rows(name, rows):
    lines = [f"    {name!r}: {{"]
    for key, value in rows.items():
        lines.append(f"        {key!r}: {value!r},")
    lines.append("    },")
    return lines


def write_tables(path):
    """Write the tables as Python modules, ``path`` and tables_trend.py beside it (run once;
    the test keeps them in step)."""
    from pathlib import Path

    from variants.catalogue.tables_meta import META

    tables = all_tables()
    lines = [
        '"""Outcome tables of the social-dilemma games of issue 19 (variants/catalogue/',
        'READINGS.md, "Social-dilemma games (issue 19)"): what each game gives for every',
        "combination of its players' choices. Written by tests/dilemma_games_model.py (an",
        "independent model of the readings); tests/test_dilemma_games.py checks that the",
        "engine plays the same. ``META[name]`` says what a key and a value are; the two",
        'trend games\' tables are in tables_trend.py."""',
        "",
        "from .tables_meta import META  # noqa: F401  (what keys and values mean)",
        "from .tables_trend import TREND_TABLES",
        "",
        "TABLES = {",
    ]
    for name, rows in tables.items():
        assert name in META, name
        if name in TREND_GAMES:
            lines.append(f"    {name!r}: TREND_TABLES[{name!r}],")
        else:
            lines.extend(_rows(name, rows))
    lines.append("}")
    trend = [
        '"""Outcome tables of the 4-player trend games of issue 19, 4P-TrendSetter and',
        "4P-Conformist (every combination of four players' squares): a part of ``TABLES``",
        '(tables.py), written by tests/dilemma_games_model.py as it is."""',
        "",
        "TREND_TABLES = {",
    ]
    for name in TREND_GAMES:
        trend.extend(_rows(name, tables[name]))
    trend.append("}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(Path(path).with_name("tables_trend.py"), "w") as f:
        f.write("\n".join(trend) + "\n")
