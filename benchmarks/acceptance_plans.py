"""Release 1.7's acceptance plans: five sets of 100 Random-vs-Random games of each of
Tic-Tac-Toe, 3on15line, 3on5sq, 3P-Notakto and 3P-Misere-Notakto, run as tournaments.

    .venv/bin/python benchmarks/acceptance_plans.py [--games 100] [--sets 5]
        [--names Tic-Tac-Toe,3on15line,...]

The release: "Run each of these tournaments on distinct Random players ... Note the
deviation in win rates, numbers of moves, and times taken to play." So each game gets
its own Random players (bots of spec ``random``, one per seat, made for this run), and
each set is one tournament of ``--games`` games between them, made with the tournament
code (``create_from_plan``) and played, written and rated by the worker's own task
(``run_batches``), here in this process instead of a Celery worker (no broker: the
``start`` that would send the chain's message is replaced by the call). The shape is the
embedded one (SQLite, in a fresh folder of /tmp), like ``make run`` without Redis.

Per game it prints the spread (min / median / max across the sets) of each seat's win
rate, the draw rate, the moves per game (from the written matches) and the wall-clock
time per game (the set's run, playing, writing and rating, over its games); and checks
the release's "the sum of the ratings did not change" (each game's players' ratings
summed before the plans and after).
"""

import argparse
import os
import shutil
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRATCH = Path("/tmp/vf_bench_acceptance")
RANDOM = {"kind": "random"}
NAMES = ("Tic-Tac-Toe", "3on15line", "3on5sq", "3P-Notakto", "3P-Misere-Notakto")


def setup() -> None:
    shutil.rmtree(SCRATCH, ignore_errors=True)
    (SCRATCH / "var").mkdir(parents=True)
    for key in ("DATABASE_URL", "REDIS_URL"):
        os.environ.pop(key, None)
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="0",
        SECRET_KEY="bench-" + os.urandom(8).hex(),
        VAR_DIR=str(SCRATCH / "var"),
        SQLITE_PATH=str(SCRATCH / "db.sqlite3"),
        CELERY_FS_ROOT=str(SCRATCH / "celery"),
    )
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from variants.services import load_catalogue

    load_catalogue()


def spread(values) -> str:
    values = sorted(values)
    return f"{values[0]:.2f} / {statistics.median(values):.2f} / {values[-1]:.2f}"


def run_set(rule_set, universe, players, games, trainer) -> dict:
    from leaderboards.models import Tournament, TournamentBatch
    from play.models import Match
    from tournaments import services as tournaments

    plan = tournaments.Plan(rule_set, universe, f"Random {rule_set.name}", [(players, games)])
    t = tournaments.create_from_plan(plan, trainer)
    first = TournamentBatch.objects.filter(tournament=t).order_by("number").first()
    started = time.perf_counter()
    written = tournaments.run_batches(first.pk, seconds=1e9)
    took = time.perf_counter() - started
    t.refresh_from_db()
    assert t.status == Tournament.Status.DONE, t.status
    assert written == games, written
    matches = list(Match.objects.filter(tournament=t).values("ply", "outcome"))
    seats = len(players)
    wins, draws, moves = [0] * seats, 0, []
    for m in matches:
        results = m["outcome"]["results"][:seats]
        moves.append(m["ply"])
        if all(r == "draw" for r in results):
            draws += 1
        for s, r in enumerate(results):
            wins[s] += r == "win"
    n = len(matches)
    return {
        "wins": [w / n for w in wins],
        "draw": draws / n,
        "moves": sum(moves) / n,
        "ms": 1000 * took / n,
    }


def ratings_sum(players, rule_set, universe) -> float:
    from leaderboards.models import BEGINNER_MU, Rating

    mus = dict(
        Rating.objects.filter(
            player_id__in=players, rule_set=rule_set, universe=universe
        ).values_list("player_id", "mu")
    )
    return sum(mus.get(p, BEGINNER_MU) for p in players)  # a player not rated yet: a beginner


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--sets", type=int, default=5)
    ap.add_argument("--names", default=",".join(NAMES))
    args = ap.parse_args()
    if not 1 <= args.games <= 1000 or not 1 <= args.sets <= 20:
        ap.error("--games 1..1000, --sets 1..20")
    print("load before:", open("/proc/loadavg").read().split()[:3])
    setup()
    from accounts.models import Player, User
    from leaderboards.services import default_universe
    from play.replay import game_of_rule_set
    from tournaments import plans as tournament_plans
    from variants.models import RuleSet

    tournament_plans.start = lambda _pk: None  # no broker: this process is the worker
    trainer = User.objects.create(username="bench-trainer", role="trainer")
    universe = default_universe()
    rows = []
    for name in args.names.split(","):
        rule_set = RuleSet.objects.get(name=name)
        game = game_of_rule_set(rule_set)
        seats = game.nseats - (game.chaos is not None)
        players = [
            Player.objects.create(
                kind="bot", name=f"Random {name} {i + 1}", bot_spec={"kind": "random"}
            ).pk
            for i in range(seats)
        ]
        before = ratings_sum(players, rule_set, universe)
        sets = [run_set(rule_set, universe, players, args.games, trainer) for _ in range(args.sets)]
        after = ratings_sum(players, rule_set, universe)
        rows.append((name, seats, sets, before, after))
        print(f"{name}: done", flush=True)
    print()
    print(
        f"{args.sets} sets of {args.games} Random-vs-Random games; min / median / max of the sets"
    )
    print("| game | seat win rates | draw rate | moves per game | ms per game |")
    print("| --- | --- | --- | --- | --- |")
    for name, seats, sets, _b, _a in rows:
        wins = "; ".join(f"{s + 1}: {spread([x['wins'][s] for x in sets])}" for s in range(seats))
        print(
            f"| {name} | {wins} | {spread([x['draw'] for x in sets])} | "
            f"{spread([x['moves'] for x in sets])} | {spread([x['ms'] for x in sets])} |"
        )
    print()
    for name, _s, _sets, before, after in rows:
        print(f"{name}: sum of the players' ratings (mu) {before:.3f} before, {after:.3f} after")
    print("load after:", open("/proc/loadavg").read().split()[:3])


if __name__ == "__main__":
    main()
