"""Random playouts: our engine against OpenSpiel driven from Python, side by side.

    .venv/bin/python benchmarks/versus_openspiel.py [--rounds 5] [--seconds 0.5]
        [--only Connect4,...] [--loop public|random_move]

Needs ``open_spiel`` (not a requirement of the project): ``.venv/bin/pip install open_spiel``.

Both engines run the same loop in the same process — ask who moves, list the legal moves,
pick one with ``random.Random.choice``, apply it — until the game ends, then start again.
Each round runs ours for ``--seconds``, then OpenSpiel's, alternately first, so both see the
same machine load; a round's ratio is ours/theirs. It prints per game the median moves/s
of each, the median ratio with its range over the rounds, and the geometric mean of the
median ratios. ``--loop random_move`` also times our ``state.random_move(rng)`` loop (a
shortcut of the public API: no list at all), which is not the bar.
"""

import argparse
import math
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

try:
    import pyspiel
except ImportError:
    sys.exit(
        "open_spiel is not installed (it is not a requirement of the project).\n"
        "Install it into the virtualenv:  .venv/bin/pip install open_spiel"
    )

from variants import catalogue  # noqa: E402
from variants.engine import compile_game  # noqa: E402

GAMES = {
    # name: (our document, OpenSpiel game string)
    "Tic-Tac-Toe": (lambda: catalogue.get("Tic-Tac-Toe"), "tic_tac_toe"),
    "Connect4": (lambda: catalogue.get("Connect4"), "connect_four"),
    "Ultimate": (lambda: catalogue.get("Ultimate-Tic-Tac-Toe"), "ultimate_tic_tac_toe"),
    "Qubic-4": (lambda: catalogue.get("Qubic-4"), "gomoku(size=4,dims=3,connect=4)"),
    "5on15sq": (lambda: catalogue.get("5on15sq"), "gomoku(size=15,dims=2,connect=5)"),
    "19x19 k5": (
        lambda: {
            **catalogue.get("5on15sq"),
            "name": "19x19-k5",
            "board": {"type": "squares", "size": [19, 19, 1]},
            "reserves": {"black": {"circle": 181}, "white": {"circle": 180}},
        },
        "gomoku(size=19,dims=2,connect=5)",
    ),
}


def ours(game, seconds: float, rng) -> float:
    """Moves/s of the public loop: to_move, legal_moves, a random choice, apply."""
    choice = rng.choice
    moves = 0
    started = time.perf_counter()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            seat = state.to_move()[0]
            state.apply(seat, choice(state.legal_moves(seat)))
            moves += 1
    return moves / (time.perf_counter() - started)


def ours_random_move(game, seconds: float, rng) -> float:
    """Moves/s with ``state.random_move(rng)`` in place of the list and the choice."""
    moves = 0
    started = time.perf_counter()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            seat = state.to_move()[0]
            state.apply(seat, state.random_move(rng))
            moves += 1
    return moves / (time.perf_counter() - started)


def theirs(game, seconds: float, rng) -> float:
    """Moves/s of OpenSpiel's loop: legal_actions, a random choice, apply_action."""
    choice = rng.choice
    moves = 0
    started = time.perf_counter()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.current_player()
            state.apply_action(choice(state.legal_actions()))
            moves += 1
    return moves / (time.perf_counter() - started)


def busy() -> str:
    try:
        one, five, _ = os.getloadavg()
        return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"
    except OSError:
        return "load unknown"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=0.5)
    ap.add_argument("--only", default="", help="comma-separated names of: " + ", ".join(GAMES))
    ap.add_argument("--loop", choices=("public", "random_move"), default="public")
    args = ap.parse_args()
    names = [n.strip() for n in args.only.split(",") if n.strip()] or list(GAMES)
    print(f"before: {busy()}")
    print(f"{args.rounds} rounds of {args.seconds}s per engine, interleaved; loop: {args.loop}")
    head = f"{'game':12} {'ours/s':>10} {'OpenSpiel/s':>12} {'ratio':>6}  range"
    if args.loop == "random_move":
        head += f"      {'random_move/s':>13} {'ratio':>6}"
    print(head)
    medians, extra = [], []
    for name in names:
        make_doc, spiel_name = GAMES[name]
        game = compile_game(make_doc())
        spiel = pyspiel.load_game(spiel_name)
        rng = random.Random(1)
        ours(game, 0.05, rng)  # warm the caches compile_game leaves to first use
        theirs(spiel, 0.05, rng)
        ratios, a, b, r2, c = [], [], [], [], []
        for r in range(args.rounds):
            if r % 2:
                y = theirs(spiel, args.seconds, rng)
                x = ours(game, args.seconds, rng)
            else:
                x = ours(game, args.seconds, rng)
                y = theirs(spiel, args.seconds, rng)
            a.append(x)
            b.append(y)
            ratios.append(x / y)
            if args.loop == "random_move":
                z = ours_random_move(game, args.seconds, rng)
                c.append(z)
                r2.append(z / y)
        med = statistics.median(ratios)
        medians.append(med)
        line = (
            f"{name:12} {statistics.median(a):10,.0f} {statistics.median(b):12,.0f} "
            f"{med:6.2f}  {min(ratios):.2f}-{max(ratios):.2f}"
        )
        if c:
            extra.append(statistics.median(r2))
            line += f"  {statistics.median(c):13,.0f} {statistics.median(r2):6.2f}"
        print(line, flush=True)
    gm = math.exp(sum(math.log(m) for m in medians) / len(medians))
    print(f"geometric mean of the median ratios: {gm:.2f}")
    if extra:
        gm2 = math.exp(sum(math.log(m) for m in extra) / len(extra))
        print(f"geometric mean, random_move loop: {gm2:.2f}")
    print(f"after: {busy()}")


if __name__ == "__main__":
    main()
