"""Outcome tables of the dilemma games computed from the ENGINE: for each key of a table
(variants/catalogue/tables.py) the players' moves it stands for are played through the
public API; every random move of Chaos is enumerated (each legal move with equal
probability, the state cloned per branch), so the distribution is exact.

``LINES[name](key)`` gives the players' moves: a list of rounds, each a dict
``{seat: move text}`` (0-based seats) applied in seat order; a seat to move that has no
move left in the script and exactly one legal move plays it (a forced placement).
"""

from fractions import Fraction

from gamecore.engine import compile_game
from variants.catalogue.tables import TABLES

RESULTS = {"win": "win", "draw": "draw", "loss": "loss"}


class LineError(AssertionError):
    pass


def play_line(game, rounds, seed=1, then=None):
    """{players' results: Fraction} over Chaos's moves after the scripted ``rounds``;
    ``then(state, seat)`` gives a player's move text once its script is played."""
    state = game.new_initial_state(seed=seed)
    script = [dict(r) for r in rounds]
    return _walk(game, state, script, Fraction(1), then)


def _walk(game, state, script, p, then=None):
    chaos = game.chaos
    out: dict = {}
    while not state.is_terminal():
        seats = state.to_move()
        if chaos is not None and chaos in seats and len(seats) == 1:
            moves = state.legal_moves(chaos)
            q = p / len(moves)
            for m in moves:
                branch = state.clone()
                branch.apply(chaos, m)
                for o, r in _walk(game, branch, [dict(x) for x in script], q, then).items():
                    out[o] = out.get(o, 0) + r
            return out
        seat = seats[0]
        step = script[0] if script else {}
        if seat in step:
            state.apply(seat, game.parse_move(step.pop(seat)))
            if not step:
                script.pop(0)
            continue
        legal = state.legal_moves(seat)
        if then is not None and not script and len(legal) > 1:
            state.apply(seat, game.parse_move(then(state, seat)))
            continue
        if len(legal) != 1:
            raise LineError(
                f"seat {seat + 1} is to move with {len(legal)} moves and nothing scripted "
                f"(script left: {script}); view: {state.view(None).get('phase')}"
            )
        state.apply(seat, legal[0])
    if any(script):
        raise LineError(f"the game ended before these moves were played: {script}")
    players = tuple(RESULTS[r] for s, r in enumerate(state.outcome.results) if s != game.chaos)
    return {players: p}


def _pg(key):
    tall = (1, 2, 3)
    return [{s: (f"{s + 1},1,{tall[s] - k + 1}-5,1" if k else "pass") for s, k in enumerate(key)}]


def _ultimatum(key):
    keep, answer = key if isinstance(key, tuple) else (key, None)
    moves = [{0: "circle 2,1"} for _ in range(keep)]
    moves += [{0: "circle 1,1"} for _ in range(3 - keep)]
    if answer:
        moves.append({1: "x 3,1" if answer == "accept" else "x 2,1"})
    return moves


def _centipede(take):
    moves, seat, n = [], 0, 1
    left = [4, 4]
    while True:
        if take == n:
            moves.append({seat: "pentagon 1,1"})
            break
        if not left[seat]:
            break
        left[seat] -= 1
        moves.append({seat: "circle 1,1"})
        seat, n = 1 - seat, n + 1
    return moves


LINES = {
    "RockPaperScissors": lambda k: [{0: f"{k[0]} 1,1", 1: f"{k[1]} 1,1"}],
    "4P-TrendSetter": lambda k: [{s: f"1,{y},1" for s, y in enumerate(k)}],
    "4P-Conformist": lambda k: [{s: f"1,{y},1" for s, y in enumerate(k)}],
    "3P-PublicGoods": _pg,
    "StagHunt": lambda k: [{0: f"pentagon {k[0]},1", 1: f"pentagon {k[1]},1"}],
    "PrisonerDilemma": lambda k: [{0: f"x {k[0]},1", 1: f"pentagon {k[1]},1"}],
    "OptionalPD": lambda k: [{0: f"x {k[0]},1", 1: f"pentagon {k[1]},1"}],
    "ContractPD": lambda k: [
        {1: f"pentagon {k[0]},1"},
        {0: f"x {k[1]},1", 1: f"pentagon {k[2]},1"},
    ],
    "ContractHunt": lambda k: [
        {1: f"pentagon {k[0]},1"},
        {0: f"pentagon {k[1]},1", 1: f"pentagon {k[2]},1"},
    ],
    "NeedyUltimatum": _ultimatum,
    "RichUltimatum": _ultimatum,
    "NeedyDictator": _ultimatum,
    "RichDictator": _ultimatum,
    "3P-Volunteer": lambda k: [{0: f"pentagon {k[0]},1", 1: f"x {k[1]},1", 2: f"cross {k[2]},1"}],
    "BoS": lambda k: [{0: f"b{k[0]}:1,1,1", 1: f"b{k[1]}:1,2,1"}],
    "3P-BoS": lambda k: [
        {
            0: f"b{k[0]}:1,1,1",
            1: f"b{k[1]}:" + ("2,2,1" if k[1] == 3 else "1,2,1"),
            2: f"b{k[2]}:" + ("2,2,1" if k[2] == 2 else "2,1,1"),
        }
    ],
    "4P-TrolleyDilemma": lambda act: [{0: "circle 1,1" if act else "pass"}],
    "3P-TrolleyDilemma": lambda act: [{0: "circle 1,1" if act else "pass"}],
}


def trust_line(name, key):
    send, back = key
    have = 4 if name == "RichTrust" else 2
    moves = [{0: "circle 2,1"} for _ in range(send)]
    moves += [{0: "circle 1,1"} for _ in range(have - send)]
    moves += [{1: "circle 3,1"} for _ in range(back)]
    moves += [{1: "circle 2,1"} for _ in range(2 * send - back)]
    return moves


def centipede_line(take):
    """Placements on stack 1 until the mover of placement ``take`` places its pentagon
    there; then (``bank``) each places what it holds on its own stack, and both pass."""
    return _centipede(take)


def bank(state, seat):
    """Centipede, after the take: place a piece held on the own stack (2 for black, 3 for
    white), circles first; with nothing held, pass."""
    view = state.view(seat)
    held = view["reserves"][view["seat_colors"][seat]]
    for shape in ("circle", "pentagon"):
        if held.get(shape):
            return f"{shape} {seat + 2},1"
    return "pass"


def rps_round(game, key):
    """RockPaperScissors: the results of the round's plans, or "again" when the round left
    the stack empty and the game goes on (each without the shape it played)."""
    state = game.new_initial_state(seed=1)
    for seat, shape in enumerate(key):
        state.apply(seat, game.parse_move(f"{shape} 1,1"))
    if state.is_terminal():
        return tuple(RESULTS[r] for r in state.outcome.results)
    empty = not any(b["pieces"] for b in state.view(None)["boards"])
    return "again" if empty and state.to_move() == (0, 1) else "not over"


def engine_table(name, doc):
    """{key: value} as tables.py writes it, computed by the engine."""
    game = compile_game(doc)
    table = {}
    if name == "RockPaperScissors":
        return {key: rps_round(game, key) for key in TABLES[name]}
    for key, want in TABLES[name].items():
        then = None
        if name in ("NeedyTrust", "RichTrust"):
            rounds = trust_line(name, key)
        elif name in ("Centipede9", "NeedyCentipede4"):
            rounds, then = centipede_line(key), bank
        else:
            rounds = LINES[name](key)
        try:
            if name == "3P-PublicGoods":
                gives = sum(m != "pass" for m in rounds[0].values())  # a pot each
                got = split_pots(game, rounds, captors=3, deals=max(gives, 1))
            else:
                got = play_line(game, rounds, then=then)
        except LineError as e:  # the engine does not let the line be played as read
            table[key] = f"not playable: {e}"
            continue
        table[key] = _as_written(got, want)
    return table


def split_pots(game, rounds, captors, deals=3):
    """``play_line`` with the random start of each split pot enumerated, uniform over the
    ``captors`` and independent from deal to deal (the engine draws it in
    ``Pots._deal_start``; up to ``deals`` pots a line, each sequence of starts fixed in
    turn; a line with fewer pots repeats its runs evenly)."""
    from itertools import product

    from gamecore.engine.general.pots import Pots

    drawn = Pots._deal_start
    out: dict = {}
    weight = Fraction(1, captors**deals)
    try:
        for starts in product(range(captors), repeat=deals):
            todo = list(starts)
            Pots._deal_start = lambda self, n, todo=todo: todo.pop(0) % n
            for o, p in play_line(game, rounds).items():
                out[o] = out.get(o, 0) + p * weight
    finally:
        Pots._deal_start = drawn
    return out


def _as_written(got: dict, want):
    """The engine's distribution in the form the table uses (a tuple when certain)."""
    if isinstance(want, dict):
        return {o: str(p) for o, p in sorted(got.items())}
    if want == "again":
        return "again" if got == {("draw", "draw"): 1} or not got else got
    if len(got) == 1 and next(iter(got.values())) == 1:
        return next(iter(got))
    return got
