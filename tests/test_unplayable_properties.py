"""Property tests of the families issue 39 found unplayable: simultaneous rounds with
shared reserves, en passant, turn endings on the goal measure, nested Checked boards
with obstacles and scouts, missing reserves. For every generated game and random play:
every legal move applies without error, and every position has a legal move or is over.
Save's check (``variants.playable``) refuses such a game with a RulesError or accepts it,
never raises anything else. Sized by FUZZ_SCALE (1 in ``make test``)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamecore import rules
from gamecore.engine import RulesError, compile_game
from gamecore.rules.vocabulary import CaptureResult, Condition, Movement, Power
from tests.conftest import FUZZ_SCALE
from variants.playable import check_playable

MOVES = list(Movement.__args__)
POWERS = list(Power.__args__)
CONDITIONS = list(Condition.__args__)
RESULTS = list(CaptureResult.__args__)
SHAPES = ["circle", "triangle", "x", "cross", "star", "pentagon"]
COLORS = ["black", "white", "pink", "yellow"]
PLAYERS = {"2": 2, "3": 3, "2-vs-chaos": 3, "partners": 4}
FAMILIES = ["shared-rounds", "en-passant", "goal-turn", "missing-reserves"]

MOVES_PER_GAME = 80  # random moves per game (the games here are small)
CHECKED_POSITIONS = 25  # positions whose every legal move is applied on a copy


def _settings(examples: int):
    return settings(
        max_examples=examples * FUZZ_SCALE,
        deadline=None,
        derandomize=True,  # the same documents in every run (CI must not depend on luck)
        suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
    )


@st.composite
def general_docs(draw, family: str):
    """A game of ``family``, drawn where its findings were: small boards, scarce pieces,
    simultaneous rounds (plans collide, pieces leave before the next move is made)."""
    rounds = family == "shared-rounds" or (family == "en-passant" and draw(st.booleans()))
    kind = draw(st.sampled_from(["squares", "squares", "hash", "stacks"]))
    if family == "en-passant":
        kind = "squares"
    small = 2 if rounds else 3
    size = {
        "hash": [3, 3, 1],
        "squares": [draw(st.integers(2, small + 1)), draw(st.integers(small, 5)), 1],
        "stacks": [draw(st.integers(2, 3)), draw(st.integers(1, 2)), draw(st.integers(2, 4))],
    }[kind]
    shapes = draw(st.lists(st.sampled_from(SHAPES), min_size=1, max_size=3, unique=True))
    shape_rules = {}
    for shape in shapes:
        rule = {"move": draw(st.sampled_from(MOVES)), "power": draw(st.sampled_from(POWERS))}
        if rule["power"] != "none":
            rule["condition"] = draw(st.sampled_from(CONDITIONS))
            rule["result"] = draw(st.sampled_from(RESULTS))
        shape_rules[shape] = rule
    players = draw(st.sampled_from(list(PLAYERS)))
    colors = draw(st.sampled_from(["assigned", "shared", "choose"]))
    if family == "shared-rounds":
        colors = draw(st.sampled_from(["shared", "choose"]))
    if players == "partners":
        colors = draw(st.sampled_from(["partners-share", "shared"]))
    ncolors = {"shared": 1, "partners-share": 2}.get(colors, PLAYERS[players])
    most = 1 if family == "shared-rounds" else 2  # scarce: plans fight over the last piece
    doc = {
        "name": "Property",
        "players": players,
        "colors": colors,
        "shapes": shapes,
        "board": {"type": kind, "size": size},
        "shape_rules": shape_rules,
        "reserves": {c: {s: draw(st.integers(1, most)) for s in shapes} for c in COLORS[:ncolors]},
        "turn_checks": draw(st.sampled_from([[], [], [{"k": 3, "result": "wins"}]])),
        "stalemate": draw(st.sampled_from(["draw", "most-pieces-wins", "most-area-wins"])),
        "pieces_per_turn": draw(st.sampled_from([1, 1, 2])),
    }
    if rounds:
        orders = ["simultaneous", "single", "sequential"]
        doc["phases"] = [{"order": "simultaneous"}] + [
            {
                "order": draw(st.sampled_from(orders)),
                "allow_pass": draw(st.booleans()),
                "placement_only": draw(st.booleans()),
            }
            for _ in range(draw(st.integers(0, 2)))
        ]
        if doc["phases"][-1]["order"] == "single":
            doc["phases"][-1]["order"] = "simultaneous"
    if family == "en-passant":
        for shape in shapes[: draw(st.integers(1, len(shapes)))]:
            shape_rules[shape] = {
                "move": draw(st.sampled_from(["pawn-forward-center", "linear", "orthogonal"])),
                "power": draw(st.sampled_from(["can-capture", "must-capture"])),
                "condition": "diagonal-en-passant",
                "result": draw(st.sampled_from(RESULTS)),
            }
    if family == "goal-turn":
        doc["endings"] = [
            {
                "measure": "goal",
                "comparison": draw(st.sampled_from(["any", "last-standing"])),
                "result": draw(st.sampled_from(["wins", "loses", "stalemate"])),
                "when": "turn",
            }
        ]
        for rule in shape_rules.values():
            if rule["move"] == "stationary":
                rule["move"] = "adjacent"
    if family == "missing-reserves":
        doc["reserves"] = draw(
            st.sampled_from([{}, {c: {s: 0 for s in shapes} for c in doc["reserves"]}])
        )
        if draw(st.booleans()):
            color = COLORS[0]
            doc["initial_pieces"] = [{"at": [1, 1, 1], "color": color, "shape": shapes[0]}]
    return doc


@st.composite
def nested_docs(draw):
    depth = draw(st.sampled_from([1, 2, 2]))
    nested = {
        "side": draw(st.sampled_from([2, 2, 2, 3])),
        "depth": depth,
        "checked": True,
        "random_obstacles": draw(st.sampled_from([0, 1, 3, 5])),
        "scouts": draw(st.sampled_from([1, 3, 3, 0])),
        "symmetric_obstacles": draw(st.booleans()),
        "inverted": draw(st.booleans()),
        "kyu": draw(st.booleans()),
        "no_send_back": draw(st.booleans()),
        "lock_captured": draw(st.booleans()),
        "free_when_decided": draw(st.booleans()),
        "turn_order": draw(st.sampled_from(["sequential", "simultaneous"])),
        "quick": depth >= 2 and draw(st.booleans()),
    }
    players = draw(st.sampled_from(["2", "2", "3"]))
    return {"name": "Nested", "players": players, "board": {"type": "nested"}, "nested": nested}


def repaired(doc: dict):
    """The game of ``doc``, its invalid choices replaced by plain ones (a random mix is
    often refused: a forward-only piece with nothing to become, a cover on stacks...);
    None if it still is not a game."""
    for _ in range(8):
        try:
            return compile_game(doc)
        except RulesError as exc:
            errors = exc.errors
        for error in errors:
            parts = error["path"].split(".")
            head = parts[0].split("[")[0]
            if head == "shape_rules" and len(parts) == 3:
                plain = {"move": "adjacent", "result": "remove", "condition": "cover"}
                rule = doc["shape_rules"][parts[1]]
                if parts[2] in plain:
                    rule[parts[2]] = plain[parts[2]]
                else:
                    rule.pop(parts[2], None)
            elif head == "shape_rules" and len(parts) == 2:
                doc["shape_rules"][parts[1]] = {"move": "adjacent"}
            elif head in ("phases", "endings", "initial_pieces", "nested"):
                doc.pop(head, None)
            else:
                return None
    return None


def assert_playable(game, seed: int) -> None:
    """Random play from ``seed``, with a few skipped turns and forfeits: every position
    has a legal move or is over, no reserve is negative; at the first positions every
    legal move applies (on a copy) without error."""
    state, rng = game.new_initial_state(seed=seed), random.Random(seed)
    chaos = getattr(game, "chaos", None)
    for step in range(MOVES_PER_GAME):
        if state.is_terminal():
            return
        moves = [(s, m) for s in state.to_move() for m in state.legal_moves(s)]
        assert moves, f"no legal move at ply {state.ply}, not over"
        assert min(getattr(state, "reserves", None) or [0]) >= 0, "a negative reserve"
        if step < CHECKED_POSITIONS:
            for seat, move in moves:
                state.clone().apply(seat, move)
        roll = rng.random() if getattr(state, "offer", None) is None else 1.0
        if roll < 0.05:  # a timer's skipped turn, a player leaving: the next may be stuck
            state.skip(moves[0][0])
        elif roll < 0.07 and game.nseats > 2 and not state.out and moves[0][0] != chaos:
            state.forfeit(moves[0][0])
        else:
            state.apply(*rng.choice(moves))


@pytest.mark.parametrize("family", FAMILIES)
@_settings(12)
@given(data=st.data(), seed=st.integers(0, 2**16))
def test_generated_general_games_can_always_be_played(family, data, seed):
    game = repaired(data.draw(general_docs(family)))
    if game is None:
        return
    assert_playable(game, seed)


@_settings(25)
@given(doc=nested_docs(), seed=st.integers(0, 2**16))
def test_generated_nested_checked_games_can_always_be_played(doc, seed):
    game = repaired(doc)
    if game is None:
        return
    for s in range(seed, seed + 8):  # obstacles and scouts differ by seed: 8 set-ups,
        start = game.new_initial_state(seed=s)
        assert start.is_terminal() or any(start.legal_moves(t) for t in start.to_move())
    for s in (seed, seed + 1):  # and 2 games
        assert_playable(game, s)


@pytest.mark.parametrize("family", FAMILIES)
@_settings(4)
@given(data=st.data())
def test_save_refuses_or_accepts_and_never_raises_anything_else(family, data):
    doc = data.draw(general_docs(family))
    if repaired(doc) is None:
        return
    pieceless = family == "missing-reserves" and not doc.get("initial_pieces")
    try:
        check_playable(rules.parse(doc))
    except RulesError as exc:
        assert exc.errors and all(e["message"] for e in exc.errors)
        if pieceless:
            assert exc.errors[0]["path"].startswith("reserves.")
    else:
        assert not pieceless, "a game with no piece anywhere was accepted"
