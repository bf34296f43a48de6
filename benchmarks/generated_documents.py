"""Generated rule documents played at random (issue 39's "generated-rule-document run").

    .venv/bin/python benchmarks/generated_documents.py --documents 10000 [--seed 0]

Draws documents of every family the engine plays (placement games of every board, player
and colour mode; pieces that move with any move, power, condition and result, phases,
simultaneous rounds, shared reserves, en passant, typed endings on the goal measure;
nested boards with Checked, Kyū, no sending back, obstacles and scouts), repairs the
choices validation refuses, and plays each valid one from two seeds, uniformly at random,
with skipped turns and forfeits now and then. Counted: engine errors (an exception, or a
legal move refused), positions with no legal move that are not over, games not over after
``--moves`` moves or ``--cpu`` seconds of CPU (the ply limits are the engine's own), and
the CPU time of the longest game and of the longest single move. Pure Python: no Django.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gamecore.engine import IllegalMove, RulesError, compile_game  # noqa: E402
from gamecore.rules.vocabulary import (  # noqa: E402
    CaptureResult,
    Condition,
    Movement,
    Power,
)

MOVES = list(Movement.__args__)
POWERS = list(Power.__args__)
CONDITIONS = list(Condition.__args__)
RESULTS = list(CaptureResult.__args__)
SHAPES = ["circle", "triangle", "x", "cross", "star", "pentagon"]
COLORS = ["black", "white", "pink", "yellow"]
SEATS = {"2": 2, "3": 3, "4": 4, "partners": 4, "1-vs-chaos": 2, "2-vs-chaos": 3, "3-vs-chaos": 4}


def flat_or_general(r: random.Random) -> dict:
    kind = r.choice(["hash", "squares", "squares", "stacks"])
    size = {
        "hash": [3, 3, 1],
        "squares": [r.randint(1, 6), r.randint(1, 6), r.choice([1, 1, 2])],
        "stacks": [r.randint(2, 5), r.randint(1, 3), r.randint(2, 5)],
    }[kind]
    players = r.choice(list(SEATS))
    modes = ["assigned", "shared", "choose"] + ["partners-share"] * (players == "partners")
    colors = r.choice(modes)
    shapes = r.sample(SHAPES, r.randint(1, 3))
    ncolors = {"shared": 1, "partners-share": 2}.get(colors, SEATS[players])
    most = max(1, size[0] * size[1] * size[2] // (2 * SEATS[players] * len(shapes)))
    doc = {
        "name": "Generated",
        "players": players,
        "colors": colors,
        "shapes": shapes,
        "board": {"type": kind, "size": size},
        "boards": r.choice([1, 1, 1, 2, 3]),
        "pieces_per_turn": r.choice([1, 1, 2]),
        "reserves": {c: {s: r.randint(0, most) for s in shapes} for c in COLORS[:ncolors]},
        "turn_checks": r.choice([[], [{"k": 3}], [{"k": 3}, {"k": 4, "result": "loses"}]]),
        "stalemate": r.choice(["draw", "all-win", "most-pieces-wins", "most-area-wins"]),
        "allow_pass": r.random() < 0.2,
        "agree_draw": r.random() < 0.2,
    }
    if r.random() < 0.1:
        doc.pop("reserves")  # the rules' defaults
    if r.random() < 0.7:
        rules = {}
        for shape in shapes:
            rule = {"move": r.choice(MOVES), "power": r.choice(POWERS)}
            if rule["power"] != "none":
                rule["condition"] = r.choice(CONDITIONS)
                rule["result"] = r.choice(RESULTS)
            rules[shape] = rule
        doc["shape_rules"] = rules
    if r.random() < 0.3:
        orders = ["simultaneous", "single", "sequential"]
        doc.pop("allow_pass")
        doc["phases"] = [
            {"order": r.choice(orders), "allow_pass": r.random() < 0.3,
             "placement_only": r.random() < 0.3}
            for _ in range(r.randint(1, 3))
        ]  # fmt: skip
        if doc["phases"][-1]["order"] == "single":
            doc["phases"][-1]["order"] = "simultaneous"
    if r.random() < 0.2:
        doc["endings"] = [
            {
                "measure": r.choice(["goal", "pieces", "in-a-row", "area"]),
                "comparison": r.choice(["any", "last-standing"]),
                "result": r.choice(["wins", "loses", "stalemate"]),
                "when": "turn",
            }
        ]
    return doc


def nested(r: random.Random) -> dict:
    depth = r.choice([1, 2, 2, 3])
    side = r.choice([2, 2, 3]) if depth < 3 else 2
    n = {
        "side": side,
        "depth": depth,
        "checked": r.random() < 0.5,
        "random_obstacles": r.choice([0, 0, 1, 3, 5]),
        "scouts": r.choice([0, 0, 1, 3]),
        "symmetric_obstacles": r.random() < 0.3,
        "inverted": r.random() < 0.3,
        "kyu": r.random() < 0.2,
        "no_send_back": r.random() < 0.2,
        "lock_captured": r.random() < 0.3,
        "free_when_decided": r.random() < 0.2,
        "turn_order": r.choice(["sequential", "sequential", "simultaneous"]),
        "quick": depth >= 2 and r.random() < 0.2,
    }
    players = r.choice(["2", "2", "3", "4"])
    return {"name": "Generated", "players": players, "board": {"type": "nested"}, "nested": n}


def repaired(doc: dict):
    for _ in range(8):
        try:
            return compile_game(doc)
        except RulesError as exc:
            errors = exc.errors
        for error in errors:
            parts = error["path"].split(".")
            head = parts[0].split("[")[0]
            if head == "shape_rules" and len(parts) == 3:
                plain = {"move": "adjacent", "result": "remove", "condition": "cover"}
                rule = doc["shape_rules"][parts[1]]
                if parts[2] in plain:
                    rule[parts[2]] = plain[parts[2]]
                else:
                    rule.pop(parts[2], None)
            elif head == "shape_rules" and len(parts) == 2:
                doc["shape_rules"][parts[1]] = {"move": "adjacent"}
            elif head in doc and head not in ("name", "board", "players"):
                doc.pop(head)
            else:
                return None
    return None


def play(game, seed: int, moves: int, cpu: float, tally: dict, label: int) -> None:
    state, rng = game.new_initial_state(seed=seed), random.Random(seed)
    start = time.thread_time()
    for _ in range(moves):
        if state.is_terminal():
            break
        if time.thread_time() - start > cpu:
            tally["over cpu"] += 1
            return
        t0 = time.thread_time()
        seats = state.to_move()
        legal = [(s, m) for s in seats for m in state.legal_moves(s)]
        if not legal:
            tally["stuck"] += 1
            tally["examples"].append(("stuck", label, seed, state.ply))
            return
        roll = rng.random() if getattr(state, "offer", None) is None else 1.0
        chaos = getattr(game, "chaos", None)
        if roll < 0.03:
            state.skip(legal[0][0])
        elif roll < 0.04 and game.nseats > 2 and not state.out and legal[0][0] != chaos:
            state.forfeit(legal[0][0])
        else:
            seat, move = rng.choice(legal)
            try:
                state.apply(seat, move)
            except IllegalMove:
                tally["refused"] += 1
                tally["examples"].append(("refused", label, seed, str(move)))
                return
        tally["longest move"] = max(tally["longest move"], time.thread_time() - t0)
    else:
        if not state.is_terminal():
            tally["over moves"] += 1
    tally["longest game"] = max(tally["longest game"], time.thread_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--documents", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--cpu", type=float, default=2.0)
    args = parser.parse_args()
    tally = {"valid": 0, "playouts": 0, "errors": 0, "refused": 0, "stuck": 0,
             "over moves": 0, "over cpu": 0, "longest game": 0.0, "longest move": 0.0,
             "examples": []}  # fmt: skip
    began = time.process_time()
    for i in range(args.documents):
        r = random.Random(args.seed * 1_000_003 + i)
        doc = nested(r) if r.random() < 0.25 else flat_or_general(r)
        try:
            game = repaired(doc)
        except Exception:
            tally["errors"] += 1
            tally["examples"].append(("compile", i, traceback.format_exc(limit=-1)))
            continue
        if game is None:
            continue
        tally["valid"] += 1
        for seed in (0, 1):
            tally["playouts"] += 1
            try:
                play(game, seed, args.moves, args.cpu, tally, i)
            except Exception:
                tally["errors"] += 1
                tally["examples"].append(("error", i, seed, traceback.format_exc(limit=-2)))
    examples = tally.pop("examples")
    print(
        f"{args.documents} documents drawn, {tally['valid']} valid, {tally['playouts']} "
        f"playouts: {tally['errors']} errors, {tally['refused']} legal moves refused, "
        f"{tally['stuck']} positions with no move and not over, {tally['over moves']} not "
        f"over after {args.moves} moves, {tally['over cpu']} over {args.cpu} s of CPU; "
        f"longest game {tally['longest game']:.2f} s, longest move "
        f"{tally['longest move'] * 1000:.0f} ms of CPU; {time.process_time() - began:.0f} s"
    )
    for example in examples[:10]:
        print(*example)


if __name__ == "__main__":
    main()
