"""The plan's acceptance of the learning AIs (LATER.md, "Educated AI"; issue 33).

    .venv/bin/python benchmarks/learning_acceptance.py [--game 3on5sq] [--plan 500]
                         [--games 200] [--checkpoints 0,50,100,250,500] [--algorithms ...]

1. A Random-vs-Random plan of ``--plan`` matches of ``--game`` (made with the engine
   and the engine's random moves; seeds 0..plan-1).
2. One AI per algorithm (default settings and personality, seed 1) studies the plan in
   order, in chunks; at each checkpoint (matches studied) it plays ``--games`` matches
   against Random (half in each seat, the same seeds for every AI) and the learning curve
   prints: its score (win 1, draw 1/2), W/D/L, the 95% confidence interval of the score
   (normal approximation, mean ± 1.96·sd/√n), and Accuracy, F1 and Long Game of its own
   predictions over the last 100 of its moves in those matches (metrics.py).
   Checkpoint 0 is the fresh, unlearnt AI: a fork from before any learning.
3. The default algorithm's AI after all learning is stored and loaded (``to_bytes`` /
   ``from_bytes``: a fork after all learning) and plays the same benchmark.

Not a test: nothing here runs under ``make test``. Pure Python, no Django.
"""

import argparse
import math
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

from gamecore.bots import RandomAgent  # noqa: E402
from gamecore.bots.common import for_seat  # noqa: E402
from gamecore.engine import compile_game  # noqa: E402
from gamecore.learn import ALGORITHMS, DEFAULT_ALGORITHM, Learner  # noqa: E402
from gamecore.learn.agent import LearnerAgent  # noqa: E402
from gamecore.learn.labels import label_for  # noqa: E402
from gamecore.learn.metrics import accuracy, f1, long_game  # noqa: E402
from gamecore.learn.study import random_match, samples_from_match  # noqa: E402
from variants import catalogue  # noqa: E402

POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def benchmark(game, learner, games: int) -> dict:
    """``games`` matches against Random (one AI seat, the others Random, Chaos random),
    the AI's seat alternating; its points and its predictions against what happened."""
    points, tally, pairs = [], {"win": 0, "draw": 0, "loss": 0}, []
    players = game.nseats - (game.chaos is not None)
    seats = [s for s in range(game.nseats) if s != game.chaos]
    for g in range(games):
        me = seats[g % players]
        agent = LearnerAgent(learner, seed=10_000 + g)
        rng = random.Random(g)
        state = game.new_initial_state(seed=rng.randrange(2**32))
        others = {s: RandomAgent(seed=rng.randrange(2**32)) for s in range(game.nseats)}
        predicted = []
        while not state.is_terminal():
            seat = state.to_move()[0]
            if seat == me:
                move = agent.choose(for_seat(state, seat), seat)
                predicted.append(agent.last_prediction["label"])
            else:
                move = others[seat].choose(for_seat(state, seat), seat)
            state.apply(seat, move)
        result = state.outcome.results[me]
        tally[result] += 1
        points.append(POINTS[result])
        actual = label_for(result)
        pairs.extend((p, actual) for p in predicted)
    mean = sum(points) / len(points)
    sd = math.sqrt(sum((p - mean) ** 2 for p in points) / max(1, len(points) - 1))
    half = 1.96 * sd / math.sqrt(len(points))
    return {
        **{"score": mean, "low": mean - half, "high": mean + half, **tally},
        **{"accuracy": accuracy(pairs), "f1": f1(pairs), "long_game": long_game(pairs)},
    }


def line(label: str, r: dict) -> str:
    def pct(v):
        return "  —  " if v is None else f"{v:5.1%}"

    return (
        f"  {label:28s} score {r['score']:.3f} [{r['low']:.3f}, {r['high']:.3f}]  "
        f"W/D/L {r['win']:3d}/{r['draw']:3d}/{r['loss']:3d}  "
        f"acc {pct(r['accuracy'])} F1 {pct(r['f1'])} long {pct(r['long_game'])}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="3on5sq")
    parser.add_argument("--plan", type=int, default=500)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--checkpoints", default="0,50,100,250,500")
    parser.add_argument("--algorithms", default=",".join(ALGORITHMS))
    parser.add_argument("--chunk", type=int, default=5000)
    args = parser.parse_args()
    checkpoints = sorted({min(args.plan, int(c)) for c in args.checkpoints.split(",")})
    game = compile_game(catalogue.get(args.game))
    started = time.perf_counter()
    with threadpool_limits(1):
        plan = [random_match(game, i) for i in range(args.plan)]
        samples = [samples_from_match(game, m, r, None, s) for m, r, s in plan]
        wins = [sum(r[s] == "win" for _m, r, _s in plan) for s in range(game.nseats)]
        print(f"{args.game}: a Random plan of {args.plan} matches, "
              f"{sum(len(m) for m, _r, _s in plan)} moves; wins per seat {wins}; "
              f"benchmark: {args.games} matches against Random per checkpoint")  # fmt: skip
        finals = {}
        for algorithm in args.algorithms.split(","):
            learner = Learner.new(algorithm, {}, {}, seed=1)
            print(f"{algorithm} ({ALGORITHMS[algorithm]['label']})")
            done = 0
            for checkpoint in checkpoints:
                while done < checkpoint:
                    upto = done
                    rows = 0
                    while upto < checkpoint and rows < args.chunk:
                        rows += len(samples[upto][0])
                        upto += 1
                    X = np.concatenate([samples[i][0] for i in range(done, upto)])
                    y = np.concatenate([samples[i][1] for i in range(done, upto)])
                    learner.partial_fit(X, y, game=game)
                    done = upto
                result = benchmark(game, learner, args.games)
                print(line(f"after {checkpoint} matches", result))
            finals[algorithm] = learner
        if DEFAULT_ALGORITHM in finals:
            fork = Learner.from_bytes(finals[DEFAULT_ALGORITHM].to_bytes())
            print(f"{DEFAULT_ALGORITHM}: stored and loaded after all learning (a late fork)")
            print(line("the loaded copy", benchmark(game, fork, args.games)))
    print(f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
