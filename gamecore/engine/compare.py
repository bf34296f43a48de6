"""Differential play: the same random game in two families of the engine, side by side.

A new family is trusted only where an old one agrees with it (DESIGN §3a): at every
step both must await the same seats, offer each of them the same legal moves (by
notation), show the same position, and end with the same outcome (results, reason,
detail, winning lines). ``play_both`` returns the first difference as a sentence, or
None. In one game in four a seat now and then skips its turn or forfeits, so those paths
are compared too.
"""

import random

from .errors import IllegalMove
from .game import compile_game

# View keys one family has and the other has not (the general family's extras).
_FAMILY_KEYS = ("family", "chain", "phase", "plans", "round", "last_round")  # general-only keys


def _view(state) -> dict:
    data = state.view(None)
    for key in _FAMILY_KEYS:
        data.pop(key, None)
    return data


def play_both(doc: dict, seed: int, families=("flat", "general"), leave: float = 0.02):
    """Play one random game (``seed``) in both families; the first difference or None."""
    games = [compile_game(doc, family=f) for f in families]
    states = [g.new_initial_state(seed=seed) for g in games]
    rng = random.Random(seed)
    if rng.random() >= 0.25:
        leave = 0.0  # three games in four are played to their natural end
    ply = 0
    while True:
        a, b = states
        problem = _differ(a, b, ply)
        if problem or a.is_terminal():
            return problem
        seat = rng.choice(a.to_move())
        roll = rng.random()
        if roll < leave:  # may be refused (a draw offer pending, Chaos): alike in both
            act = "skip" if roll < leave / 2 else "forfeit"
            refused = [_refused(getattr(s, act), seat) for s in states]
            if refused[0] != refused[1]:
                return f"ply {ply}: {act} by seat {seat + 1}: {refused[0]} != {refused[1]}"
        else:
            text = str(rng.choice(a.legal_moves(seat)))
            for g, s in zip(games, states, strict=True):
                s.apply(seat, g.parse_move(text))
        ply += 1


def _refused(action, seat: int) -> str | None:
    """Run ``action(seat)``; the IllegalMove message if it was refused."""
    try:
        action(seat)
    except IllegalMove as exc:
        return str(exc)
    return None


def _differ(a, b, ply: int) -> str | None:
    where = f"ply {ply}"
    if a.to_move() != b.to_move():
        return f"{where}: awaited seats {a.to_move()} != {b.to_move()}"
    for seat in range(a.game.nseats):
        ma = sorted(str(m) for m in a.legal_moves(seat))
        mb = sorted(str(m) for m in b.legal_moves(seat))
        if ma != mb:
            return f"{where}: seat {seat + 1} legal moves {ma} != {mb}"
    va, vb = _view(a), _view(b)
    if va != vb:
        keys = [k for k in va if va.get(k) != vb.get(k)]
        return f"{where}: views differ in {keys}"
    if a.outcome != b.outcome:
        return f"{where}: outcomes {a.outcome} != {b.outcome}"
    return None
