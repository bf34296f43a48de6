"""Random playouts: our engine against OpenSpiel driven from Python, side by side.

    .venv/bin/python benchmarks/versus_openspiel.py [--rounds 5] [--seconds 1.0]
        [--only Connect4,...] [--loop public|random_move] [--clock cpu|wall]

Needs ``open_spiel`` (not a requirement of the project): ``.venv/bin/pip install open_spiel``.

Both engines run the same loop in the same process — ask who moves, list the legal moves,
pick one with ``random.Random.choice``, apply it — until the game ends. A round lasts
``--seconds``: the engines take turns in blocks of a few ms of whole games (each block
timed on its own, by this process's CPU time unless ``--clock wall``: other processes on
a shared machine then do not count), so a change of machine load falls on both alike; a
round's ratio is ours/theirs. It prints per game
the median moves/s of each, the median ratio with its range over the rounds, and the
geometric mean of the median ratios. ``--loop random_move`` also times our
``state.random_move(rng)`` loop (a shortcut of the public API), which is not the bar.
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

from gamecore.engine import compile_game  # noqa: E402
from variants import catalogue  # noqa: E402

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


def ours(game, rng) -> int:
    """One game through the public loop: to_move, legal_moves, a random choice, apply."""
    choice = rng.choice
    moves = 0
    state = game.new_initial_state()
    while not state.is_terminal():
        seat = state.to_move()[0]
        state.apply(seat, choice(state.legal_moves(seat)))
        moves += 1
    return moves


def ours_random_move(game, rng) -> int:
    """One game with ``state.random_move(rng)`` in place of the list and the choice."""
    moves = 0
    state = game.new_initial_state()
    while not state.is_terminal():
        seat = state.to_move()[0]
        state.apply(seat, state.random_move(rng))
        moves += 1
    return moves


def theirs(game, rng) -> int:
    """One game of OpenSpiel's loop: current_player, legal_actions, a random choice,
    apply_action."""
    choice = rng.choice
    moves = 0
    state = game.new_initial_state()
    while not state.is_terminal():
        state.current_player()
        state.apply_action(choice(state.legal_actions()))
        moves += 1
    return moves


def theirs_marks(game, rng) -> int:
    """``theirs``, counting marks placed. OpenSpiel's Ultimate splits a free move into two
    actions of the same player (choose a board, then a cell in it); ours is one move (a
    cell anywhere), so the board choice is not counted: a player acting twice in a row
    means the first action chose a board. (It also draws a free move's cell board first,
    not uniformly over the cells: games differ a little in length, not in what a move is.)"""
    choice = rng.choice
    moves = 0
    last = -1
    state = game.new_initial_state()
    while not state.is_terminal():
        player = state.current_player()
        if player == last:
            moves -= 1
        last = player
        state.apply_action(choice(state.legal_actions()))
        moves += 1
    return moves


# The games whose OpenSpiel loop counts its moves its own way.
THEIR_LOOP = {"Ultimate": theirs_marks}

BLOCK = 0.005  # seconds of games per turn of an engine (a clock read per block, not per game)


def round_(players, seconds: float, cpu: bool = True) -> list[float]:
    """Moves/s of each (play, game, rng) in ``players``, taking turns block by block (a few
    ms of whole games each) for ``seconds``, so that a change of machine load falls on all
    alike. ``cpu``: timed by this process's CPU time, which other processes on a shared
    machine do not inflate (wall time counts the time they took the processor away)."""
    wall = time.perf_counter
    clock = time.process_time if cpu else wall
    moves = [0] * len(players)
    spent = [0.0] * len(players)
    deadline = wall() + seconds
    while wall() < deadline:
        for k, (play, game, rng) in enumerate(players):
            started, until = clock(), wall() + BLOCK
            n = 0
            while True:
                n += play(game, rng)
                if wall() >= until:
                    break
            moves[k] += n
            spent[k] += clock() - started
    return [m / s for m, s in zip(moves, spent, strict=True)]


def busy() -> str:
    try:
        one, five, _ = os.getloadavg()
        return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"
    except OSError:
        return "load unknown"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--only", default="", help="comma-separated names of: " + ", ".join(GAMES))
    ap.add_argument("--loop", choices=("public", "random_move"), default="public")
    ap.add_argument(
        "--clock", choices=("cpu", "wall"), default="cpu", help="time by CPU time (default)"
    )
    args = ap.parse_args()
    cpu = args.clock == "cpu"
    names = [n.strip() for n in args.only.split(",") if n.strip()] or list(GAMES)
    print(f"before: {busy()}")
    print(
        f"{args.rounds} rounds of {args.seconds}s, alternating blocks of {BLOCK * 1000:.0f} ms;"
        f" loop: {args.loop}; clock: {args.clock}"
    )
    head = f"{'game':12} {'ours/s':>10} {'OpenSpiel/s':>12} {'ratio':>6}  range"
    if args.loop == "random_move":
        head += f"      {'random_move/s':>13} {'ratio':>6}"
    print(head)
    medians, extra = [], []
    for name in names:
        make_doc, spiel_name = GAMES[name]
        game = compile_game(make_doc())
        spiel = pyspiel.load_game(spiel_name)
        their_loop = THEIR_LOOP.get(name, theirs)
        players = [(ours, game, random.Random(1)), (their_loop, spiel, random.Random(1))]
        if args.loop == "random_move":
            players.append((ours_random_move, game, random.Random(1)))
        round_(players, 0.05, cpu)  # warm the caches compile_game leaves to first use
        ratios, a, b, r2, c = [], [], [], [], []
        for _ in range(args.rounds):
            x, y, *z = round_(players, args.seconds, cpu)
            a.append(x)
            b.append(y)
            ratios.append(x / y)
            if z:
                c.append(z[0])
                r2.append(z[0] / y)
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
