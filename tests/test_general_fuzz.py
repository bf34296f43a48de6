"""Random rule documents for moving pieces (any valid mix of moves, powers, conditions,
results, locks, boards): random legal play ends, every legal move reads back from its
notation, a clone is independent and a refused move changes nothing."""

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamecore.engine import IllegalMove, RulesError, compile_game
from gamecore.rules.vocabulary import (
    CaptureResult,
    Condition,
    Movement,
    Power,
)

MOVES = list(Movement.__args__)
POWERS = list(Power.__args__)
CONDITIONS = list(Condition.__args__)
RESULTS = list(CaptureResult.__args__)
SHAPES = ["circle", "triangle", "x", "cross", "star", "pentagon"]


@st.composite
def moving_docs(draw):
    kind = draw(st.sampled_from(["hash", "squares", "squares", "stacks"]))
    size = {
        "hash": [3, 3, 1],
        "squares": [draw(st.integers(2, 5)), draw(st.integers(1, 5)), draw(st.integers(1, 2))],
        "stacks": [draw(st.integers(2, 4)), draw(st.integers(1, 2)), draw(st.integers(2, 4))],
    }[kind]
    shapes = draw(st.lists(st.sampled_from(SHAPES), min_size=1, max_size=3, unique=True))
    rules = {}
    for shape in shapes:
        power = draw(st.sampled_from(POWERS))
        rule = {"move": draw(st.sampled_from(MOVES)), "power": power}
        if power != "none":
            rule["condition"] = draw(st.sampled_from(CONDITIONS))
            rule["result"] = draw(st.sampled_from(RESULTS))
        rules[shape] = rule
    players = draw(st.sampled_from(["2", "3", "2-vs-chaos", "partners"]))
    n = {"2": 2, "3": 3, "2-vs-chaos": 3, "partners": 4}[players]
    cells = size[0] * size[1] * size[2]
    per = max(1, cells // (3 * n * len(shapes)))
    colors = ["black", "white", "pink", "yellow"][: 2 if players == "partners" else n]
    doc = {
        "name": "Fuzz",
        "players": players,
        "colors": "partners-share" if players == "partners" else "assigned",
        "shapes": shapes,
        "board": {"type": kind, "size": size},
        "shape_rules": rules,
        "reserves": {c: {s: draw(st.integers(0, per)) or 1 for s in shapes} for c in colors},
        "turn_checks": draw(st.sampled_from([[], [{"k": 3, "result": "wins"}]])),
        "stalemate": draw(st.sampled_from(["draw", "most-pieces-wins", "most-area-wins"])),
        "allow_pass": draw(st.booleans()),
        "pieces_per_turn": draw(st.sampled_from([1, 1, 2])),
    }
    if kind != "stacks" and draw(st.booleans()):
        at = [draw(st.integers(1, size[0])), draw(st.integers(1, size[1])), 1]
        which = draw(st.sampled_from(["sticky", "exclusive", "space_locks"]))
        doc[which] = [{"at": at} if which == "sticky" else {"at": at, "seats": [1]}]
    return doc


def valid(doc):
    try:
        return compile_game(doc)
    except RulesError:
        return None


@settings(
    max_examples=120,
    deadline=None,
    derandomize=True,  # the same documents in every run (CI must not depend on luck)
    suppress_health_check=[HealthCheck.filter_too_much],
)
@given(doc=moving_docs(), seed=st.integers(0, 2**16))
def test_random_moving_documents_play_to_an_end(doc, seed):
    g = valid(doc)
    if g is None:
        return
    rng = random.Random(seed)
    s = g.new_initial_state(seed)
    stop = rng.randrange(60)
    while not s.is_terminal():
        assert s.ply < 20_000, "a random game ran past 20,000 moves"
        seat = rng.choice(s.to_move())
        legal = s.legal_moves(seat)
        assert legal
        for m in legal:
            assert g.parse_move(str(m)) == m, m
        if s.ply == stop:
            before = json.dumps([s.view(None), s.key()])
            copy = s.clone()
            copy.apply(seat, rng.choice(legal))
            steps = _all_steps(g)
            for other in (m for m in rng.sample(steps, min(30, len(steps))) if m not in legal):
                try:
                    s.apply(seat, other)
                except IllegalMove:
                    pass
                else:
                    raise AssertionError(f"{other!r} was accepted")
            assert json.dumps([s.view(None), s.key()]) == before
        s.apply(seat, rng.choice(legal))
    assert s.outcome is not None


def _all_steps(g):
    from gamecore.engine.general.moves import STEP, Move

    n = g.npos
    return [Move(STEP, t, -1, "?", o) for t in range(n) for o in range(n)] + [
        Move(STEP, t, -1, "?", o, True) for t in range(3) for o in range(3)
    ]
