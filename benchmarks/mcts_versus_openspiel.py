"""Our MCTS against OpenSpiel's Python MCTS: simulations per second, and a match.

    .venv/bin/python benchmarks/mcts_versus_openspiel.py [--simulations 1000]
        [--rounds 5] [--games 40] [--first 0] [--only Tic-Tac-Toe,Connect4,Ultimate-Tic-Tac-Toe]

Needs ``open_spiel`` (not a requirement of the project): ``.venv/bin/pip install open_spiel``.

Equal settings: both do ``--simulations`` simulations a move, one random rollout each,
UCT with the same exploration (ours c = 1 on rewards in [0, 1] is OpenSpiel's c = 2 on
[-1, 1]); OpenSpiel's solver is off (``solve=False``), so both are plain UCT (ours adds its
"decisive moves" at expansion, see gamecore/bots/mcts.py).

1. Speed: each round, from the start position and from a few positions reached by random
   moves, both choose a move in turn, each timed on its own (by this process's CPU time,
   which other processes on a shared machine do not inflate); simulations/s and the ratio.
2. Strength: ``--games`` games of Connect4 (colours alternate), ours against theirs;
   wins, draws and losses from our side.
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
    from open_spiel.python.algorithms import mcts as spiel_mcts
except ImportError:
    sys.exit(
        "open_spiel is not installed (it is not a requirement of the project).\n"
        "Install it into the virtualenv:  .venv/bin/pip install open_spiel"
    )

import numpy as np  # noqa: E402  (open_spiel brings it)

from gamecore.bots.mcts import MctsAgent  # noqa: E402
from gamecore.engine import compile_game  # noqa: E402
from variants import catalogue  # noqa: E402

# Our target index is OpenSpiel's action in both games (cell x + 3y; a column).
GAMES = {
    "Tic-Tac-Toe": "tic_tac_toe",
    "Connect4": "connect_four",
    "Ultimate-Tic-Tac-Toe": "ultimate_tic_tac_toe",
}


def play_theirs(name: str, ours, theirs, move) -> None:
    """Play our ``move`` (legal in ``ours``, not yet applied) on OpenSpiel's state, checking
    that both engines offer the same moves. OpenSpiel does not check an action: a wrong one
    crashes the process. On Ultimate our target is a ground cell (x + 9y); OpenSpiel's
    action is the cell in the block the move must go to (0-8), and a free move is two
    actions of the same player: the block first (0-8), then the cell."""
    legal = ours.legal_moves(ours.to_move()[0])
    if name != "Ultimate-Tic-Tac-Toe":
        assert sorted(m.target for m in legal) == sorted(theirs.legal_actions())
        theirs.apply_action(move.target)
        return

    def split(target):
        y, x = divmod(target, 9)
        return (y // 3) * 3 + x // 3, (y % 3) * 3 + x % 3

    if ours.area == 0:  # a free move: OpenSpiel asks for the block first
        assert sorted({split(m.target)[0] for m in legal}) == sorted(theirs.legal_actions())
        theirs.apply_action(split(move.target)[0])
    block, cell = split(move.target)
    mine = sorted(c for b, c in map(split, (m.target for m in legal)) if b == block)
    assert mine == sorted(theirs.legal_actions())
    theirs.apply_action(cell)


def spiel_bot(game, simulations: int, seed: int):
    rs = np.random.RandomState(seed)
    evaluator = spiel_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    return spiel_mcts.MCTSBot(game, 2.0, simulations, evaluator, solve=False, random_state=rs)


def positions(name, game, spiel, n: int, rng):
    """The start and n - 1 positions a few random moves in: (our state, theirs)."""
    out = [(game.new_initial_state(), spiel.new_initial_state())]
    while len(out) < n:
        ours, theirs = game.new_initial_state(), spiel.new_initial_state()
        for _ in range(rng.randrange(1, 5)):
            move = rng.choice(ours.legal_moves(ours.to_move()[0]))
            play_theirs(name, ours, theirs, move)
            ours.apply(ours.to_move()[0], move)
        if not ours.is_terminal():
            out.append((ours, theirs))
    return out


def speed(name, simulations: int, rounds: int) -> float:
    game, spiel = compile_game(catalogue.get(name)), pyspiel.load_game(GAMES[name])
    rng = random.Random(7)
    clock = time.process_time  # CPU time: other processes on a shared machine do not count
    ours_rate, theirs_rate, ratios = [], [], []
    for r in range(rounds):
        a_sims = a_time = b_sims = b_time = 0.0
        for ours, theirs in positions(name, game, spiel, 4, rng):
            agent = MctsAgent(seed=r, simulations=simulations)
            bot = spiel_bot(spiel, simulations, r)
            started = clock()
            agent.choose(ours.clone(), ours.to_move()[0])
            a_time += clock() - started
            a_sims += agent.last_simulations
            started = clock()
            bot.step(theirs.clone())
            b_time += clock() - started
            b_sims += simulations
        ours_rate.append(a_sims / a_time)
        theirs_rate.append(b_sims / b_time)
        ratios.append(ours_rate[-1] / theirs_rate[-1])
    med = statistics.median(ratios)
    print(
        f"{name:12} ours {statistics.median(ours_rate):9,.0f} sims/s   OpenSpiel "
        f"{statistics.median(theirs_rate):9,.0f} sims/s   ratio {med:.2f} "
        f"({min(ratios):.2f}-{max(ratios):.2f})",
        flush=True,
    )
    return med


def match(games: int, simulations: int, first: int = 0) -> None:
    game, spiel = compile_game(catalogue.get("Connect4")), pyspiel.load_game("connect_four")
    tally = {"win": 0, "draw": 0, "loss": 0}
    started = time.perf_counter()
    for g in range(first, first + games):
        our_seat = g % 2
        agent = MctsAgent(seed=1000 + g, simulations=simulations)
        bot = spiel_bot(spiel, simulations, 2000 + g)
        ours, theirs = game.new_initial_state(), spiel.new_initial_state()
        while not ours.is_terminal():
            seat = ours.to_move()[0]
            if seat == our_seat:
                move = agent.choose(ours, seat)
                action = move.target
            else:
                action = bot.step(theirs)
                move = game.moves_for(0)[action]
            ours.apply(seat, move)
            theirs.apply_action(action)
        assert theirs.is_terminal()
        tally[ours.outcome.results[our_seat]] += 1
        print(
            f"  game {g + 1}: ours as {'first' if our_seat == 0 else 'second'}: "
            f"{ours.outcome.results[our_seat]}",
            flush=True,
        )
    print(
        f"Connect4, {simulations} simulations each, {games} games: ours {tally['win']} "
        f"wins, {tally['draw']} draws, {tally['loss']} losses "
        f"({time.perf_counter() - started:.0f} s)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--simulations", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--first", type=int, default=0, help="seeds of the games start here")
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    one, five, _ = os.getloadavg()
    print(f"before: load average {one:.2f} (1 min), {five:.2f} (5 min), {os.cpu_count()} cores")
    names = [n.strip() for n in args.only.split(",") if n.strip()] or list(GAMES)
    meds = [speed(n, args.simulations, args.rounds) for n in names]
    gm = math.exp(sum(map(math.log, meds)) / len(meds))
    print(f"geometric mean of the ratios: {gm:.2f}")
    if args.games:
        match(args.games, args.simulations, args.first)
    one, five, _ = os.getloadavg()
    print(f"after: load average {one:.2f} (1 min), {five:.2f} (5 min)")


if __name__ == "__main__":
    main()
