"""The tic-tac-toe server seed's three bots (003), checked over the whole game tree:
hard (minimax) never loses from either seat against any line of play; medium wins when it
can, else blocks a single threat; easy plays at random, with no threat detection."""

from __future__ import annotations

from collections import Counter

import pytest

from gamecore.bots.specs import make_agent
from gamecore.engine import compile_game
from variants import catalogue

SCORE = {"win": 1, "draw": 0, "loss": -1}


@pytest.fixture(scope="module")
def ttt():
    return compile_game(catalogue.get("Tic-Tac-Toe"))


def _after(state, seat, move):
    child = state.clone()
    child.apply(seat, move)
    return child


def _key(state) -> str:
    return repr(state.view(None)["boards"])


def worst_result(state, bot_seat: int, spec: str, memo: dict) -> int:
    """The worst the bot ends with from ``state`` over every reply of its opponent."""
    if state.is_terminal():
        return SCORE[state.outcome.results[bot_seat]]
    seat = state.to_move()[0]
    if seat == bot_seat:
        key = _key(state)
        if key not in memo:  # the bot is deterministic for a seed: one choice a position
            memo[key] = make_agent(spec, seed=0).choose(state.clone(), seat)
        return worst_result(_after(state, seat, memo[key]), bot_seat, spec, memo)
    return min(worst_result(_after(state, seat, m), bot_seat, spec, memo)
               for m in state.legal_moves(seat))  # fmt: skip


@pytest.mark.parametrize("seat", [0, 1])
def test_hard_never_loses_against_any_line_of_play(ttt, seat):
    memo: dict = {}
    assert worst_result(ttt.new_initial_state(seed=0), seat, "hard", memo) == 0
    assert len(memo) > 50  # it was asked in many positions, not a lucky few


def test_easy_would_lose_somewhere(ttt):
    """The same search finds a line that beats easy: it is no minimax in disguise."""
    assert worst_result(ttt.new_initial_state(seed=0), 0, "easy", {}) == -1


def _positions(state, seen: dict):
    """Every reachable unfinished position, once."""
    key = _key(state)
    if key in seen or state.is_terminal():
        return
    seen[key] = state
    seat = state.to_move()[0]
    for move in state.legal_moves(seat):
        _positions(_after(state, seat, move), seen)


def _wins(state, seat) -> list:
    return [m for m in state.legal_moves(seat)
            if _after(state, seat, m).is_terminal()
            and _after(state, seat, m).outcome.results[seat] == "win"]  # fmt: skip


LINES = (
    [[(x, y) for x in (1, 2, 3)] for y in (1, 2, 3)]
    + [[(x, y) for y in (1, 2, 3)] for x in (1, 2, 3)]
    + [[(1, 1), (2, 2), (3, 3)], [(1, 3), (2, 2), (3, 1)]]
)


def _threats(state, seat) -> set[str]:
    """Empty cells where ``seat`` would complete a line next: counted on the board itself,
    not asked of a bot."""
    owner = {tuple(p["at"][:2]): p["owner"] for p in state.view(None)["boards"][0]["pieces"]}
    out = set()
    for line in LINES:
        mine = [c for c in line if owner.get(c) == seat]
        empty = [c for c in line if c not in owner]
        if len(mine) == 2 and len(empty) == 1:
            out.add(f"{empty[0][0]},{empty[0][1]},1")
    return out


def test_medium_wins_or_blocks_at_once_when_it_can(ttt):
    positions: dict = {}
    _positions(ttt.new_initial_state(seed=0), positions)
    checked = Counter()
    for state in positions.values():
        seat = state.to_move()[0]
        move = str(make_agent("medium", seed=1).choose(state.clone(), seat))
        if _threats(state, seat):
            assert move in _threats(state, seat), (state.view(None)["boards"], move)
            checked["win"] += 1
        elif len(_threats(state, 1 - seat)) == 1:
            assert move in _threats(state, 1 - seat), (state.view(None)["boards"], move)
            checked["block"] += 1
    assert checked["win"] > 100 and checked["block"] > 100, checked


def test_medium_facing_two_threats_blocks_one_of_them(ttt):
    """Seed 003: medium "blocks immediately when possible". With two threats against it
    (and no win of its own) it cannot stop both, but every seed blocks one of them."""
    positions: dict = {}
    _positions(ttt.new_initial_state(seed=0), positions)
    checked = 0
    for state in positions.values():
        seat = state.to_move()[0]
        threats = _threats(state, 1 - seat)
        if _threats(state, seat) or len(threats) < 2:
            continue
        for seed in range(4):
            move = str(make_agent("medium", seed=seed).choose(state.clone(), seat))
            assert move in threats, (state.view(None)["boards"], move, threats)
        checked += 1
    assert checked > 20, checked


def test_easy_has_no_threat_detection(ttt):
    """Where a win is one move away, easy takes it only as often as chance would."""
    state = ttt.new_initial_state(seed=0)
    for seat, text in [(0, "1,1,1"), (1, "1,2,1"), (0, "2,2,1"), (1, "1,3,1")]:
        state.apply(seat, ttt.parse_move(text))
    win = _wins(state, 0)
    picks = Counter(str(make_agent("easy", seed=s).choose(state.clone(), 0)) for s in range(200))
    share = sum(picks[str(m)] for m in win) / 200
    assert len(picks) >= 4 and share < 0.5, picks
