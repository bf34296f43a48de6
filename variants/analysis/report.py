"""``analyse(game)``: every figure of a game's analysis card, within a time budget.

Bigger games get fewer and shorter samples (the report says how many games each figure
rests on). ``ANALYSIS_VERSION`` names the method: stored analyses made by an older one
(or by another engine family) are recomputed.
"""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

from . import sampling, selfplay, solve

METHOD = 1  # bump when the analysis itself changes


def _engine_digest() -> str:
    """A digest of the engine's and the bots' source: an analysis made by other rules
    code is out of date, and is made again."""
    root = Path(__file__).resolve().parent.parent.parent
    digest = hashlib.sha256()
    for folder in (root / "gamecore" / "engine", root / "gamecore" / "bots"):
        for path in sorted(folder.rglob("*.py")):
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


ANALYSIS_VERSION = f"{METHOD}-{_engine_digest()}"
RANDOM_GAMES = 2000
BOT_GAMES = 40


def analyse(game, seconds: float = 30.0, progress=None, seed: int = 0) -> dict:
    """The card's figures for a compiled ``game``. ``progress(fraction, what)`` is called
    between steps (the Celery task stores it for the card)."""
    started = time.perf_counter()
    tell = progress or (lambda fraction, what: None)
    # Random games and the solver are quick where they can be; the bots need the most.
    quick, bots = seconds * 0.15, seconds * 0.35

    tell(0.0, "random games")
    random_play = sampling.random_games(game, RANDOM_GAMES, seed=seed, seconds=quick).summary()
    tell(0.25, "solving")
    solved = solve.solve(game, budget=100_000, seconds=max(quick, 2.0))
    tell(0.5, "equal bots")
    equal = selfplay.equal_bots(game, BOT_GAMES, seed=seed, seconds=bots).summary()
    tell(0.75, "difficulty")
    skill = selfplay.difficulty(game, BOT_GAMES, seed=seed, seconds=bots)
    tell(1.0, "done")
    return headline(
        {
            "version": ANALYSIS_VERSION,
            "family": game.family,
            "seats": game.nseats,
            "chaos": game.chaos,
            "random": random_play,
            "equal_bots": equal,
            "solved": solved,
            "difficulty": skill,
            "seconds": round(time.perf_counter() - started, 1),
        }
    )


def headline(result: dict) -> dict:
    """Adds the four figures the games list sorts by: ``balance`` (100 minus the gap, in
    points, between the seats that win most and least often under random play, Chaos
    left out), ``draw_rate`` (random games nobody wins), ``length`` (mean moves of a
    random game) and ``difficulty`` (the level, or None)."""
    random_play = result["random"]
    rates = [w["rate"] for w in random_play["wins"] if w["seat"] != result["chaos"]]
    gap = (max(rates) - min(rates)) if random_play["games"] and rates else 0.0
    result["headline"] = {
        "balance": round(100 * (1 - gap), 1) if random_play["games"] else None,
        "draw_rate": random_play["draws"]["rate"] if random_play["games"] else None,
        "length": random_play["length"]["mean"] if random_play["games"] else None,
        "difficulty": result["difficulty"]["level"],
    }
    return result
