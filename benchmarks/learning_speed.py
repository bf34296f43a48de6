"""How fast the learning AIs study and play (issue 33's speed bars).

    .venv/bin/python benchmarks/learning_speed.py [--games 500] [--chunk 5000] [--moves 200]

1. Study: ``--games`` Random-vs-Random 3on5sq matches are made first (not timed); then,
   per algorithm, the timed part is what a curriculum task does: replay each match's log
   into labelled samples (``samples_from_match``) and ``partial_fit`` them in chunks of
   ``--chunk`` moves. Printed: moves studied per second of the process's CPU time, with
   BLAS held to one thread (per core). Bar: at least 20,000 on 3on5sq. The default
   algorithm is timed once more with the features built from ``view(seat)`` (the path
   every non-flat family takes) instead of the flat family's fast path.
2. Play: a logistic-regression learner trained on 300 Random Connect4 matches plays
   ``--moves`` moves (half each seat, against Random); printed: the median and p95 wall
   time of ``choose`` (every legal move scored in one batched prediction). Bar: median at
   most 20 ms.

Pure Python: no database, no Django settings.
"""

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

from gamecore.bots import RandomAgent  # noqa: E402
from gamecore.bots.common import for_seat  # noqa: E402
from gamecore.engine import compile_game  # noqa: E402
from gamecore.learn import ALGORITHMS, Learner  # noqa: E402
from gamecore.learn.agent import LearnerAgent  # noqa: E402
from gamecore.learn.study import random_match, samples_from_match  # noqa: E402
from variants import catalogue  # noqa: E402

STUDY_BAR = 20_000
MOVE_BAR_MS = 20.0


def study(game, matches, algorithm: str, chunk: int) -> tuple[int, float]:
    learner = Learner.new(algorithm, {}, {}, seed=1)
    started = time.process_time()
    xs, ys, pending = [], [], 0
    for moves, results, seed in matches:
        X, y = samples_from_match(game, moves, results, None, seed)
        xs.append(X)
        ys.append(y)
        pending += len(X)
        if pending >= chunk:
            learner.partial_fit(np.concatenate(xs), np.concatenate(ys))
            xs, ys, pending = [], [], 0
    if xs:
        learner.partial_fit(np.concatenate(xs), np.concatenate(ys))
    return learner.moves_studied, time.process_time() - started


def train(game, games: int) -> Learner:
    learner = Learner.new("logistic_regression", {}, {}, seed=1)
    for i in range(games):
        moves, results, seed = random_match(game, i)
        learner.partial_fit(*samples_from_match(game, moves, results, None, seed), game=game)
    return learner


def move_times(game, learner, moves: int) -> list[float]:
    times: list[float] = []
    g = 0
    while len(times) < moves:
        agent = LearnerAgent(learner, seed=g)
        me = g % 2
        other = RandomAgent(seed=g)
        rng = random.Random(g)
        state = game.new_initial_state(seed=rng.randrange(2**32))
        while not state.is_terminal() and len(times) < moves:
            seat = state.to_move()[0]
            if seat == me:
                started = time.perf_counter()
                move = agent.choose(for_seat(state, seat), seat)
                times.append(time.perf_counter() - started)
            else:
                move = other.choose(state, seat)
            state.apply(seat, move)
        g += 1
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--chunk", type=int, default=5000)
    parser.add_argument("--moves", type=int, default=200)
    args = parser.parse_args()
    with threadpool_limits(1):
        game = compile_game(catalogue.get("3on5sq"))
        matches = [random_match(game, i) for i in range(args.games)]
        total = sum(len(m[0]) for m in matches)
        print(f"Study: {args.games} Random 3on5sq matches, {total} moves, chunks of {args.chunk}")
        study(game, matches[:20], "logistic_regression", args.chunk)  # warm up
        for algorithm in ALGORITHMS:
            n, seconds = study(game, matches, algorithm, args.chunk)
            rate = n / seconds
            mark = "meets" if rate >= STUDY_BAR else "MISSES"
            print(f"  {algorithm:22s} {rate:9,.0f} moves studied/s (CPU)  {mark} {STUDY_BAR:,}")
        from gamecore.learn import study as study_module
        from gamecore.learn.features import layout_for

        layout = layout_for(game)
        study_module._ENCODERS[game] = lambda state, seat, out: layout.encode_into(
            state.view(seat), seat, out
        )
        n, seconds = study(game, matches, "logistic_regression", args.chunk)
        print(f"  {'logistic_regression':22s} {n / seconds:9,.0f} moves studied/s (CPU) "
              "with the features built from the view")  # fmt: skip
        del study_module._ENCODERS[game]
        c4 = compile_game(catalogue.get("Connect4"))
        learner = train(c4, 300)
        times = move_times(c4, learner, args.moves)
        median = statistics.median(times) * 1000
        p95 = sorted(times)[int(len(times) * 0.95)] * 1000
        mark = "meets" if median <= MOVE_BAR_MS else "MISSES"
        print(
            f"Play: Connect4, {len(times)} moves of a learner trained on 300 Random matches "
            f"({learner.moves_studied} moves): median {median:.2f} ms, p95 {p95:.2f} ms  "
            f"{mark} median <= {MOVE_BAR_MS:.0f} ms"
        )


if __name__ == "__main__":
    main()
