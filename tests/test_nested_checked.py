"""Quick Checked (two plain levels, two teams): every answer read from the masks —
"is this move safe", "which blocks does the opponent threaten" — against playing the move
out on a copy, on every candidate of every position of random games, for Ultimate-Checked
and documents off the catalogue that take the reading's other branches (captures not
locked, free moves when sent to a decided block, map and hypermap routing, open routing)."""

import random

import pytest

from gamecore.engine.outcome import LOSS, WIN
from tests.engine_helpers import game

BASE = {"board": {"type": "nested"}, "nested": {"lock_captured": True, "checked": True}}
DOCS = {
    "Ultimate-Checked": None,
    "unlocked": {"lock_captured": False},
    "free-when-decided": {"lock_captured": False, "free_when_decided": True},
    "map": {"routing": "map"},
    "hypermap": {"routing": "hypermap", "lock_captured": False},
    "open": {"routing": "open"},
}


def compiled(name):
    if DOCS[name] is None:
        return game(name)
    return game({**BASE, "name": f"checked-{name}", "nested": {**BASE["nested"], **DOCS[name]}})


def played_out(state, seat: int, i: int) -> bool:
    """The exact reading: play the move on a copy, then try every reply that captures."""
    after = state.clone()
    after._play(seat, i, False)
    if after.outcome is not None:
        return after.outcome.results[seat] != LOSS
    team = after.to_move()[0]
    for m in after._raw_moves():
        trial = after.clone()
        trial._play(team, m.target, False)
        if trial.outcome is not None and trial.outcome.results[team] == WIN:
            return False
    return True


@pytest.mark.parametrize("name", DOCS)
def test_quick_checked_reads_what_playing_out_finds(name):
    g = compiled(name)
    assert g.quick_checked
    checked = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = g.new_initial_state(seed=seed)
        while not state.is_terminal():
            seat = state.to_move()[0]
            raw = state._raw_moves()
            for m in raw:
                assert state._safe_read(seat, m.target) == played_out(state, seat, m.target), (
                    f"seed {seed}, ply {state.ply}, {m}"
                )
                checked += 1
            threats = state._threats(seat)
            # A threatened block: one where the opponent has a capture completing its
            # peak line (read here by playing each of its captures out).
            opp = 1 - seat
            for b in state.game.geometry.inner_ids:
                cells = [
                    c for c in range(g.geometry.ncells) if g.geometry.inner[c] == b and
                    state.emask[b] >> g.geometry.pos[c] & 1
                ]  # fmt: skip
                wins = False
                if state.bown[b] == -1:
                    for c in cells:
                        trial = state.clone()
                        trial._play(opp, c, False)
                        if trial.outcome is not None and trial.outcome.results[opp] == WIN:
                            wins = True
                            break
                assert (b in threats) == wins, f"seed {seed}, ply {state.ply}, block {b}"
            state.apply(seat, rng.choice(state.legal_moves(seat)))
    assert checked > 1000
