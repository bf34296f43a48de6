"""The training adapters (gamecore/train) on every catalogue game, the big ones too.

    .venv/bin/python benchmarks/train_adapters.py [--sims 2] [--seconds 1.0]

1. OpenSpiel's ``pyspiel.random_sim_test`` (``--sims`` simulations) on every catalogue game,
   with its time (the suite runs it on all but the seven big games, tests/test_train_openspiel.py).
2. PettingZoo's ``api_test`` with 200 cycles on every catalogue game.
3. Speed, CPU time, random play: PettingZoo AEC steps/s (observation and mask every
   step) and OpenSpiel moves/s (legal actions every move).

Pure Python: no database, no Django settings. Needs pettingzoo and open_spiel.
"""

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from gamecore.train.openspiel_game import load_variant  # noqa: E402
from gamecore.train.pettingzoo_env import env  # noqa: E402

GAMES = Path(__file__).resolve().parent.parent / "variants" / "catalogue" / "games"
SPEED = ("Tic-Tac-Toe", "Connect4", "Ultimate-Tic-Tac-Toe", "3P-9X-HideSeek", "PrisonerDilemma")


def docs() -> dict:
    return {p.stem: json.loads(p.read_text()) for p in sorted(GAMES.glob("*.json"))}


def checks(sims: int) -> bool:
    ok = True
    for name, doc in docs().items():
        started = time.perf_counter()
        try:
            pyspiel.random_sim_test(load_variant(doc), num_sims=sims, serialize=True, verbose=False)
            openspiel = f"random_sim_test ok {time.perf_counter() - started:6.2f} s"
        except Exception as failure:  # report every game, then fail
            ok = False
            openspiel = f"random_sim_test FAILED: {failure!r}"[:200]
        started = time.perf_counter()
        try:
            api_test(env(doc, seed=0), num_cycles=200)
            pettingzoo = f"api_test ok {time.perf_counter() - started:6.2f} s"
        except Exception as failure:
            ok = False
            pettingzoo = f"api_test FAILED: {failure!r}"[:200]
        print(f"{name:22} {openspiel:32} {pettingzoo}", flush=True)
    return ok


def speed(seconds: float) -> None:
    for name in SPEED:
        doc = docs()[name]
        e, rng, steps = env(doc), random.Random(0), 0
        e.reset(seed=0)
        started = time.process_time()
        while time.process_time() - started < seconds:
            for _agent in e.agent_iter():
                obs, _r, done, cut, _i = e.last()
                e.step(None if done or cut else rng.choice(obs["action_mask"].nonzero()[0]))
                steps += 1
            e.reset()
        pz = steps / (time.process_time() - started)
        game, r, moves = load_variant(doc), np.random.RandomState(0), 0
        started = time.process_time()
        while time.process_time() - started < seconds:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = [a for a, _p in state.chance_outcomes()]
                    state.apply_action(outcomes[r.randint(len(outcomes))])
                elif state.is_simultaneous_node():
                    state.apply_actions(
                        [r.choice(state.legal_actions(p)) for p in range(game.num_players())]
                    )
                else:
                    state.apply_action(r.choice(state.legal_actions()))
                moves += 1
        os_rate = moves / (time.process_time() - started)
        print(f"{name:22} PettingZoo {pz:9,.0f} steps/s   OpenSpiel {os_rate:9,.0f} moves/s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sims", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=1.0)
    args = parser.parse_args()
    ok = checks(args.sims)
    speed(args.seconds)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
