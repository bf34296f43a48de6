"""The general family's figures: agreement with the flat family, speed, bot strength.

    .venv/bin/python benchmarks/general_family.py [--games 200] [--seconds 2] [--bots 100]
                                                 [--skip differential,speed,bots]

1. Differential: ``--games`` random games of each of the fourteen flat catalogue games,
   played in the flat and the general family side by side (gamecore/engine/compare.py):
   every awaited seat, legal-move list, view and outcome must agree, move by move.
2. Speed: random playouts through the public API (``variant bench``'s measure), each flat
   game in both families with the ratio, then Tapatan, Achi and 9-Holes (target: at least
   150,000 moves/s; the flat games in the general family at least a third of flat).
3. Bots: MCTS (1000 simulations) against random at Tapatan and Achi, ``--bots`` games
   each, half in each seat (target: at least 90 wins of 100).

Pure Python: no database, no Django settings.
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from gamecore.engine import compile_game, playout_rate  # noqa: E402
from gamecore.engine.compare import play_both  # noqa: E402
from variants import catalogue  # noqa: E402

NEW = ("Tapatan", "Achi", "9-Holes")


def flat_games() -> list[str]:
    return [n for n, d in catalogue.documents().items() if compile_game(d).family == "flat"]


def differential(games: int) -> bool:
    print(f"Differential: {games} random games each, flat and general side by side")
    ok = True
    for name in flat_games():
        started = time.perf_counter()
        doc = catalogue.get(name)
        problems = [(seed, p) for seed in range(games) if (p := play_both(doc, seed))]
        took = time.perf_counter() - started
        verdict = "agree" if not problems else f"DIFFER (seed {problems[0][0]}: {problems[0][1]})"
        print(f"  {name:24} {games:5} games {took:7.1f} s  {verdict}")
        ok = ok and not problems
    return ok


def speed(seconds: float) -> None:
    print(f"Random playouts through the public API ({seconds:g} s each, one core), moves/s")
    print(f"  {'game':24} {'flat':>12} {'general':>12} {'ratio':>7}")
    for name in flat_games():
        doc = catalogue.get(name)
        flat = playout_rate(compile_game(doc, family="flat"), seconds)[0]
        general = playout_rate(compile_game(doc, family="general"), seconds)[0]
        print(f"  {name:24} {flat:12,.0f} {general:12,.0f} {general / flat:7.2f}")
    for name in NEW:
        rate = playout_rate(compile_game(catalogue.get(name)), seconds)[0]
        print(f"  {name:24} {'':>12} {rate:12,.0f}")


def bots(games: int) -> None:
    from gamecore.bots import play_games

    print(f"MCTS (1000 simulations) against random, {games} games, half in each seat")
    for name in ("Tapatan", "Achi"):
        g = compile_game(catalogue.get(name))
        started = time.perf_counter()
        wins = draws = 0
        for specs, seat in ((["mcts", "random"], 0), (["random", "mcts"], 1)):
            result = play_games(g, specs, games // 2, seed=7)
            wins += result["seats"][seat]["wins"]
            draws += result["seats"][seat]["draws"]
        took = time.perf_counter() - started
        print(
            f"  {name:10} MCTS won {wins}, drew {draws}, lost {games - wins - draws} ({took:.0f} s)"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--bots", type=int, default=100)
    parser.add_argument("--skip", default="", help="comma-separated: differential,speed,bots")
    args = parser.parse_args()
    skip = set(args.skip.split(","))
    ok = True
    if "differential" not in skip:
        ok = differential(args.games)
    if "speed" not in skip:
        speed(args.seconds)
    if "bots" not in skip:
        bots(args.bots)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
