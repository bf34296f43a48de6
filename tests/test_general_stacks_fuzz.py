"""Random stacks documents whose pieces capture (covers of top pieces, showdowns of poker
hands by stack and by full stack, placements that cover): random legal play ends, every
legal move reads back from its notation, the indexes stay in step with the board, a
refused move changes nothing, and a replay with the same seed deals every pot alike."""

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamecore.engine import IllegalMove, RulesError, compile_game
from gamecore.engine.general.generate import stack_pieces

SHAPES = ["circle", "triangle", "x", "cross", "star", "pentagon"]
MOVES = [
    "orthogonal-by-stack",
    "orthogonal-by-full-stack",
    "adjacent",
    "orthogonal",
    "knight",
    "stationary",
]  # stationary capturing pieces guard their stacks (pots.py)
RESULTS = ["remove", "convert", "reincarnate", "reincarnate-x2"]


@st.composite
def stack_docs(draw):
    size = [draw(st.integers(2, 4)), draw(st.integers(1, 3)), draw(st.integers(2, 6))]
    shapes = draw(st.lists(st.sampled_from(SHAPES), min_size=1, max_size=4, unique=True))
    rules = {}
    for shape in shapes:
        if draw(st.integers(0, 3)) == 0:
            continue  # a chip: it never moves nor captures
        rules[shape] = {
            "move": draw(st.sampled_from(MOVES)),
            "power": draw(st.sampled_from(["none", "can-capture", "must-capture"])),
        }
        if rules[shape]["power"] != "none":
            rules[shape]["condition"] = draw(st.sampled_from(["cover", "cover-by-rank"]))
            rules[shape]["result"] = draw(st.sampled_from(RESULTS))
    players = draw(st.sampled_from(["2", "3", "4", "partners", "2-vs-chaos"]))
    n = {"2": 2, "3": 3, "4": 4, "partners": 4, "2-vs-chaos": 3}[players]
    colors = ["black", "white", "pink", "yellow"][: 2 if players == "partners" else n]
    cells = size[0] * size[1] * size[2]
    per = max(1, cells // (2 * n * len(shapes)))
    doc = {
        "name": "StackFuzz",
        "players": players,
        "colors": "partners-share" if players == "partners" else "assigned",
        "shapes": shapes,
        "board": {"type": "stacks", "size": size},
        "shape_rules": rules,
        "reserves": {c: {s: draw(st.integers(0, per)) or 1 for s in shapes} for c in colors},
        "turn_checks": draw(st.sampled_from([[], [{"k": 3, "result": "wins"}]])),
        "stalemate": draw(st.sampled_from(["draw", "most-pieces-wins"])),
        "allow_pass": draw(st.booleans()),
    }
    if draw(st.booleans()):  # a communal piece at the foot of a stack
        doc["initial_pieces"] = [{"at": [1, 1, 1], "color": "black", "shape": shapes[-1]}]
    return doc


def consistent(s) -> None:
    """The indexes (heights, colour masks, seats' masks) agree with the board."""
    g = s.game
    for pos in range(g.npos):
        spaces = stack_pieces(s, pos)
        assert len(spaces) <= s.heights[pos] <= g.height
        above = g.stack_base[pos] + s.heights[pos] * g.layer
        assert all(s.board[sp] == 0 for sp in range(above, g.geometry.cells, g.layer))
    for color, mask in enumerate(s.cmask):
        assert mask == sum(
            1 << i for i, c in enumerate(s.board) if c > 0 and g.piece[c][1] == color
        )
    for seat, mask in enumerate(s.own):
        assert mask == sum(1 << i for i, c in enumerate(s.board) if c > 0 and g.piece[c][0] == seat)
    assert all(n >= 0 for n in s.reserves)


def play_out(g, seed):
    rng = random.Random(seed)
    s = g.new_initial_state(seed)
    log = []
    while not s.is_terminal():
        seat = rng.choice(s.to_move())
        legal = s.legal_moves(seat)
        assert legal
        for m in legal:
            assert g.parse_move(str(m)) == m, m
        move = rng.choice(legal)
        if rng.random() < 0.1:
            before = json.dumps([s.view(None), s.key()])
            bogus = g.stack_move(rng.randrange(g.geometry.n), rng.randrange(g.npos), True)
            if bogus not in legal:
                try:
                    s.apply(seat, bogus)
                except IllegalMove:
                    pass
                else:
                    raise AssertionError(f"{bogus!r} was accepted")
                assert json.dumps([s.view(None), s.key()]) == before
        s.apply(seat, move)
        log.append((seat, str(move)))
        consistent(s)
    return s, log


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(doc=stack_docs(), seed=st.integers(0, 2**16))
def test_random_stacks_documents_with_captures_play_to_an_end(doc, seed):
    try:
        g = compile_game(doc, family="general")
    except RulesError:
        return
    s, log = play_out(g, seed)
    assert s.outcome is not None
    again = g.new_initial_state(seed)
    for seat, text in log:
        again.apply(seat, g.parse_move(text))
    assert again.key() == s.key() and again.reserves == s.reserves
    assert again.outcome == s.outcome
