"""Tournament games per second on a real worker, against the same games in a plain loop.

    .venv/bin/python benchmarks/tournament_shapes.py [--shapes embedded,redis]
        [--game Connect4] [--bots easy,medium] [--games 100] [--rounds 2]

Two shapes, as ``make run`` deploys them: **embedded** (SQLite and kombu's file-system
broker, under a fresh folder of its own in /tmp) and **redis** (PostgreSQL database
``vf_bench_speed`` on 127.0.0.1, made afresh for each run unless ``--keep-database``,
and Redis db 7; never db 0, never the development databases). For each shape a child
process migrates, loads the catalogue, makes the bots (not owned by the Trainer, so the
games are rated) and the Random player, starts a Celery worker (prefork x2, as ``make
run``), makes a Benchmark tournament of every pair (``--games`` a pair, 100 as the page
makes them; more games make the worker's start-up costs a smaller share) and times it
from creation until it is done (the finaliser's ``finished`` stamp): games played,
written and rated. Then it plays the same games (same seats, same seeds) in a plain loop
in one process, no database, and prints both rates and the ratio. Rounds alternate the
tournament and the loop, and each tournament is compared with the loop on either side of
it (the loop before round 1 plays a plan of the same shape that never runs): this
machine's speed drifts by half within seconds, and one neighbour alone made a round's
ratio a coin toss of where the drift fell (the loop after alone is printed too). The
machine's load is printed before and after.
On a shared machine the wall-clock rates move with other processes' load, so it also
prints the CPU seconds each side spent (the worker and its pool, from /proc; not the
PostgreSQL or Redis servers) and their ratio, which that load barely moves.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = str(ROOT / ".venv" / "bin" / "python")
CELERY = str(ROOT / ".venv" / "bin" / "celery")
PG_URL = "postgres://postgres@127.0.0.1:5432/vf_bench_speed"
REDIS_URL = "redis://127.0.0.1:6379/7"
SCRATCH = Path("/tmp/vf_bench_speed")
BAR = 0.8  # issue 36: a tournament's games/s against the plain loop's, every round


def shape_env(shape: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(DEBUG="0", SECRET_KEY="bench-" + os.urandom(8).hex(), PYTHONPATH=str(ROOT))
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    env["VAR_DIR"] = str(SCRATCH / shape / "var")
    if shape == "embedded":
        env["SQLITE_PATH"] = str(SCRATCH / shape / "db.sqlite3")
        env["CELERY_FS_ROOT"] = str(SCRATCH / shape / "celery")
    else:
        env["DATABASE_URL"] = PG_URL
        env["REDIS_URL"] = REDIS_URL
    return env


def _processes() -> dict[int, tuple[int, str, float, float]]:
    """{pid: (parent pid, name, own CPU seconds, reaped children's CPU seconds)} from
    /proc (empty where /proc is missing)."""
    tick = os.sysconf("SC_CLK_TCK")
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                head, tail = f.read().rsplit(")", 1)
        except OSError:
            continue
        fields = tail.split()
        own = (int(fields[11]) + int(fields[12])) / tick
        found[int(entry)] = (int(fields[1]), head.split("(", 1)[1], own,
                             (int(fields[13]) + int(fields[14])) / tick)  # fmt: skip
    return found


def cpu_seconds(root: int, found: dict | None = None) -> float:
    """User + system CPU seconds of process ``root`` and every process under it (a Celery
    worker and its pool; a server and its backends, with those that exited: the root's
    reaped children), read from /proc (0 where /proc is missing)."""
    found = _processes() if found is None else found
    total = found[root][3] if root in found else 0.0
    for pid, (_, _, seconds, _) in found.items():
        p = pid
        while p and p != root:
            p = found[p][0] if p in found else 0
        if p == root:
            total += seconds
    return total


def server_seconds(servers: tuple[str, ...] = ("postgres", "redis-server")) -> float:
    """CPU seconds of the PostgreSQL and Redis servers on this machine (their trees; 0
    for a server elsewhere): the tournament's other costs, which the loop has not."""
    found = _processes()
    roots = [
        pid
        for pid, (ppid, name, _, _) in found.items()
        if name in servers and found.get(ppid, (0, ""))[1] != name  # the server, not a backend
    ]
    return sum(cpu_seconds(pid, found) for pid in roots)


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


# --- the child: one shape -------------------------------------------------------------------


def child(shape: str, game_name: str, specs: list[str], rounds: int, games: int) -> None:
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.utils import timezone

    call_command("migrate", verbosity=0)
    from accounts.models import Player
    from accounts.services import random_player
    from leaderboards.models import Tournament
    from leaderboards.services import default_universe
    from tournaments import services as tournaments
    from tournaments.services import Plan, benchmark_plan
    from variants.models import RuleSet
    from variants.services import load_catalogue

    if not RuleSet.objects.filter(name=game_name).exists():
        load_catalogue()
    rule_set = RuleSet.objects.get(name=game_name)
    stamp = os.urandom(3).hex()
    trainer = get_user_model().objects.create_user(f"bench-{stamp}", role="trainer")
    players = [
        Player.objects.create(kind="bot", name=f"{s}-{stamp}"[:40], bot_spec={"kind": s})
        for s in specs
    ] + [random_player()]
    log = SCRATCH / shape / f"worker-{stamp}.log"
    worker = subprocess.Popen(
        [
            CELERY,
            "-A",
            "config",
            "worker",
            "--concurrency",
            "2",
            "--loglevel",
            "INFO",
            "-n",
            f"bench-{stamp}@%h",
        ],  # fmt: skip
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=open(log, "w"),  # noqa: SIM115
        env=os.environ.copy(),
    )
    try:
        deadline = time.time() + 60
        while "ready." not in log.read_text():
            if worker.poll() is not None or time.time() > deadline:
                sys.exit(f"the worker did not start: see {log}")
            time.sleep(0.2)
        # This process sends the tournament's messages as the web server would: its first
        # send sets the Celery app up (``prepare_to_send``, which daphne does as it starts),
        # imports the broker's transport and connects (~100-150 ms, once a process, as the
        # worker's start-up, which is not timed either), done here, not in round 1.
        from config.celery import app, prepare_to_send

        prepare_to_send()
        with app.producer_or_acquire() as producer:
            producer.connection.ensure_connection(max_retries=3)
        out = {
            "worker": [],
            "loop": [],
            "games": 0,
            "worker_cpu": [],
            "loop_cpu": [],
            "server_cpu": [],
            "loop_after": [],
        }

        def plan_of():
            plan = benchmark_plan(rule_set, default_universe(), [p.pk for p in players])
            sets = [(pair, games) for pair, _ in plan.sets]
            return Plan(plan.rule_set, plan.universe, f"bench-{stamp}", sets, plan.kind)

        # The loop played before round 1: a plan of the same shape, never run (its own
        # seeds); each later round's "before" is the loop after the round before it.
        before = plain_loop(tournaments.create_from_plan(plan_of(), trainer, run=False))
        for _ in range(rounds):
            plan = plan_of()
            cpu, servers = cpu_seconds(worker.pid), server_seconds()
            # Timed from here to the moment the finaliser stamps the tournament finished
            # (``finished``: the same machine's clock, in the transaction that marks it
            # done), not to the moment this script notices: a look every 2 ms to notice
            # sooner was 500 queries a second, a share of the two cores the worker and
            # PostgreSQL were timed on.
            stamp_from = timezone.now()
            started = time.perf_counter()
            t = tournaments.create_from_plan(plan, trainer)
            made = time.perf_counter() - started
            while True:
                status = Tournament.objects.values_list("status", flat=True).get(pk=t.pk)
                if status in ("done", "failed"):
                    break
                if worker.poll() is not None:
                    sys.exit(f"the worker died: see {log}")
                time.sleep(0.05)
            seen = time.perf_counter() - started
            worker_cpu = cpu_seconds(worker.pid) - cpu
            out["server_cpu"].append(server_seconds() - servers)
            if status != "done":
                sys.exit(f"the tournament failed: see {log}")
            t.refresh_from_db()
            elapsed = (t.finished - stamp_from).total_seconds()
            if os.environ.get("BENCH_TIMELINE"):
                timeline(shape, t, made, seen)
            out["worker"].append(t.total_games / elapsed)
            out["worker_cpu"].append(worker_cpu)
            out["games"] = t.total_games
            after = plain_loop(t)
            # The loop on either side of the tournament: the machine's speed drifts
            # (the same 300 games took 255 to 455 ms of CPU in 20 runs back to back)
            out["loop"].append(2 / (1 / before[0] + 1 / after[0]))  # games over mean time
            out["loop_cpu"].append((before[1] + after[1]) / 2)
            out["loop_after"].append(after[0])
            before = after
        print("RESULT " + json.dumps(out), flush=True)
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()


def timeline(shape: str, t, made: float, elapsed: float) -> None:
    """One round's timeline from the tournament's creation, appended to $BENCH_TIMELINE."""
    from leaderboards.models import TournamentBatch

    batches = TournamentBatch.objects.filter(tournament=t)
    done = sorted(batches.values_list("touched", flat=True))

    def ms(when) -> int:
        return round((when - t.created).total_seconds() * 1000)

    with open(os.environ["BENCH_TIMELINE"], "a") as f:
        print(
            f"{shape}: made {made * 1000:.0f} ms; batches done {ms(done[0])}..{ms(done[-1])} "
            f"ms; finished {ms(t.finished)} ms; seen {elapsed * 1000:.0f} ms",
            file=f,
        )


def plain_loop(t) -> float:
    """The tournament's games, same seats and seeds, played in a loop: games/s."""
    from accounts.models import Player
    from leaderboards import rating as math
    from play.replay import game_of_rule_set
    from tournaments.services import agent_for, game_seed, play_timed, schedule

    sets = {s.order: s for s in t.sets.all()}
    players = {p.pk: p for p in Player.objects.filter(pk__in={pk for s in sets.values()
                                                               for pk in s.players})}  # fmt: skip
    order = schedule(t)
    seated = [[players[pk] for pk in math.seat_rotation(sets[o].players, i)] for o, i in order]
    game = game_of_rule_set(t.rule_set)
    started, cpu = time.perf_counter(), time.process_time()
    for number, seats in enumerate(seated, 1):  # as the worker plays them (no writes)
        seed = game_seed(t, number)
        play_timed(game, [agent_for(p, seed + i) for i, p in enumerate(seats)], seed)
    return len(seated) / (time.perf_counter() - started), time.process_time() - cpu


# --- the parent ----------------------------------------------------------------------------


def prepare(shape: str, keep: bool = False) -> None:
    """A fresh world for ``shape``: a run's figures must not depend on the runs before it
    (a database grown by ~40 runs, on a PostgreSQL without autovacuum, halved the PostgreSQL
    shape's ratio). ``keep``: the PostgreSQL database as the last run left it."""
    folder = SCRATCH / shape
    if shape == "embedded":
        shutil.rmtree(folder, ignore_errors=True)  # a fresh database and broker folder
    folder.mkdir(parents=True, exist_ok=True)
    if shape == "redis":
        pg = ["-h", "127.0.0.1", "-U", "postgres"]
        if not keep:
            subprocess.run(["dropdb", *pg, "--if-exists", "--force", "vf_bench_speed"],
                           capture_output=True)  # fmt: skip
        subprocess.run(["createdb", *pg, "vf_bench_speed"], capture_output=True)  # (or kept)
        subprocess.run(["redis-cli", "-n", "7", "flushdb"], capture_output=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--shapes", default="embedded,redis")
    ap.add_argument("--game", default="Connect4")
    ap.add_argument("--bots", default="easy,medium", help="bot kinds; Random always plays")
    ap.add_argument("--games", type=int, default=100, help="games a pair")
    ap.add_argument("--rounds", type=int, default=10, help="alternating rounds (the bar: 10)")
    ap.add_argument("--keep-database", action="store_true",
                    help="reuse vf_bench_speed as the last run left it")  # fmt: skip
    ap.add_argument("--child", default="", help=argparse.SUPPRESS)
    args = ap.parse_args()
    specs = [s.strip() for s in args.bots.split(",") if s.strip()]
    if args.child:
        return child(args.child, args.game, specs, args.rounds, args.games)
    print(f"before: {load()}")
    print(f"{args.game}: bots {', '.join(specs)} and Random, every pair {args.games} games")
    verdicts = []
    for shape in [s.strip() for s in args.shapes.split(",") if s.strip()]:
        prepare(shape, args.keep_database)
        proc = subprocess.run(
            [
                PY,
                __file__,
                "--child",
                shape,
                "--game",
                args.game,
                "--bots",
                args.bots,
                "--rounds",
                str(args.rounds),
                "--games",
                str(args.games),
            ],  # fmt: skip
            env=shape_env(shape),
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        line = next((x for x in proc.stdout.splitlines() if x.startswith("RESULT ")), None)
        if line is None:
            print(f"{shape}: failed\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}")
            verdicts.append(False)
            continue
        out = json.loads(line[7:])
        rows = zip(out["worker"], out["loop"], out["worker_cpu"], out["loop_cpu"],
                   out["server_cpu"], out["loop_after"], strict=True)  # fmt: skip
        for w, p, wc, lc, sc, after in rows:
            print(
                f"{shape:9} {out['games']} games: worker {w:8.1f} games/s (written, rated)   "
                f"plain loop {p:8.1f} games/s (after alone {after:6.1f})   ratio {w / p:.2f}   "
                f"CPU: worker {wc:5.2f} s, loop {lc:5.2f} s, ratio {lc / max(wc, 1e-9):.2f}; "
                f"servers {sc:5.2f} s",
                flush=True,
            )
        met = sum(w / p >= BAR for w, p in zip(out["worker"], out["loop"], strict=True))
        cpu = sum(lc / max(wc, 1e-9) >= BAR for wc, lc in
                  zip(out["worker_cpu"], out["loop_cpu"], strict=True))  # fmt: skip
        n = len(out["worker"])
        print(f"{shape:9} rounds at >= {BAR}x the plain loop: {met} of {n} (games/s), "
              f"{cpu} of {n} (CPU seconds)")  # fmt: skip
        verdicts.append((shape, met == n >= 10))
    print(f"after: {load()}")
    measured = {shape for shape, _ in verdicts}
    if measured != {"embedded", "redis"}:  # the bar is both shapes': one alone says its own
        met = " and ".join(f"{shape} {'met' if ok else 'not met'}" for shape, ok in verdicts)
        print(f"BAR (both shapes, 10 of 10 rounds): not measured here ({met})")
        return
    print(
        f"BAR: >= {BAR}x the plain loop's games/s on both shapes in 10 of 10 rounds: "
        f"{'MET' if all(ok for _, ok in verdicts) else 'NOT MET'}"
    )


if __name__ == "__main__":
    main()
