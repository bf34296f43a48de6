"""Load benchmark of live play: concurrent Connect4 matches over two daphne processes and Redis.

Every match has two human seats whose websocket clients connect to *different* daphne
processes, so every move crosses the Redis channel layer. A client whose seat is to move
thinks a random time, sends a random legal move and notes the time; the opponent's client
notes when the ``state`` of that ply arrives. Latency = receipt - send, on one clock.

    .venv/bin/python benchmarks/live_play_load.py --matches 100 --think-ms 1000-3000 --duration 60

Needs PostgreSQL (DATABASE_URL, default below: a database of its own, created if missing)
and Redis (REDIS_URL). See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import multiprocessing
import os
import random
import secrets
import signal
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))

DEFAULT_DATABASE = "postgres://postgres@127.0.0.1:5432/vf_bench_play"
DEFAULT_REDIS = "redis://127.0.0.1:6379/5"
# tests.conftest reads the settings as it is imported: this process's settings must
# already name the benchmark's database, Redis and the key its sessions are signed with.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DATABASE_URL", DEFAULT_DATABASE)
os.environ.setdefault("REDIS_URL", DEFAULT_REDIS)
os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(48))

from tests.conftest import child_env, session_cookie, start_daphne, stop  # noqa: E402

FORBIDDEN_DATABASES = {"variant_foundry", "test_variant_foundry"}
GAME = "Connect4"
SPECIAL = {"draw", "accept", "decline", "pass"}  # legal, but not what a load client plays
BAR_MS = 50.0


def options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--think-ms", default="1000-3000", help="a range MIN-MAX, or one value")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds not measured")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds measured")
    args = parser.parse_args()
    low, _, high = args.think_ms.partition("-")
    args.think = (float(low) / 1000, float(high or low) / 1000)
    return args


def environment() -> dict[str, str]:
    """The variables this process and both daphne children share (local services only)."""
    database = os.environ.get("DATABASE_URL", DEFAULT_DATABASE)
    redis = os.environ.get("REDIS_URL", DEFAULT_REDIS)
    for url in (database, redis):
        if urlsplit(url).hostname not in ("127.0.0.1", "localhost"):
            sys.exit(f"{url}: this benchmark only talks to 127.0.0.1")
    name = urlsplit(database).path.lstrip("/")
    if name in FORBIDDEN_DATABASES or name.startswith("test_"):
        sys.exit(f"{name}: that is a development or test database; name one of its own")
    if urlsplit(redis).path.strip("/") in ("", "0"):
        sys.exit("REDIS_URL: use a Redis database other than 0")
    return {
        "DATABASE_URL": database,
        "REDIS_URL": redis,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "0",
        "SECRET_KEY": os.environ["SECRET_KEY"],  # sessions made here must verify there
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "LOG_LEVEL": "WARNING",
        # The connection pool, as a deployment has it (DB_POOL_MAX_SIZE=0 and CONN_MAX_AGE
        # to compare with persistent connections, the old advice).
        "DB_POOL_MAX_SIZE": os.environ.get("DB_POOL_MAX_SIZE", "10"),
        "CONN_MAX_AGE": os.environ.get("CONN_MAX_AGE", "0"),
    }


def ensure_database(url: str) -> None:
    import psycopg
    from psycopg import sql

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


# -- set-up through the project's own services ------------------------------------------------


def prepare(matches: int) -> tuple[list, list[str]]:
    """Migrate, load the catalogue, end what an earlier run left; (pairs of users, cookies)."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from play.models import Match, Presence
    from variants.services import load_catalogue

    call_command("migrate", verbosity=0)
    load_catalogue()
    users = []
    for i in range(2 * matches):
        user = get_user_model().objects.filter(username=f"bench{i:03d}").first()
        users.append(user or get_user_model().objects.create_user(f"bench{i:03d}", password=None))
    # An earlier run's unfinished matches would fire their AFK and reconnect timers now.
    left = Match.objects.filter(created_by__in=users, status__in=("invited", "active"))
    Presence.objects.filter(match__in=left).delete()
    left.update(status="aborted", wake_at=None)
    # Each run leaves thousands of dead row versions (every move updates its match row),
    # and this machine's PostgreSQL runs without autovacuum: start each run clean.
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
        cursor.execute("SHOW autovacuum")
        print(f"PostgreSQL autovacuum {cursor.fetchone()[0]}; vacuumed before the run")
    cookies = [session_cookie(user) for user in users]
    return [(users[i].pk, users[i + 1].pk) for i in range(0, len(users), 2)], cookies


def setup_django() -> None:
    import django

    django.setup()


def new_match(first_id: int, second_id: int) -> int:
    """A started match of two humans: the first invites, the second accepts. Runs in a
    process of its own, so its ORM work does not steal the clients' interpreter."""
    from django.contrib.auth import get_user_model

    from accounts.services import human_player
    from play.create import SeatChoice, answer_invitation, create_match
    from variants.models import RuleSet

    first, second = (get_user_model().objects.get(pk=pk) for pk in (first_id, second_id))
    choices = [SeatChoice("player", human_player(user)) for user in (first, second)]
    afk = bool(os.environ.get("BENCH_AFK")) or None  # (live_play_thousand.py --afk)
    match = create_match(RuleSet.objects.get(name=GAME), choices, first, afk=afk)
    answer_invitation(match.pk, second, True)
    return match.pk


# -- the daphne processes -----------------------------------------------------------------------


def daphne(env: dict[str, str], log_dir: Path):
    """A daphne process on a free port, serving the site with ``env``."""
    log = log_dir / f"daphne-{len(list(log_dir.iterdir()))}.log"
    process, port = start_daphne(log, child_env(**env))
    process.port, process.log = port, log
    return process


def machine_ticks() -> list[int]:
    """The machine's CPU time so far, as /proc/stat's first line counts it (all cores)."""
    return [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]


def machine_share(before: list[int], after: list[int]) -> dict[str, float]:
    """Busy and stolen shares of the machine between two ``machine_ticks``: steal is time
    the hypervisor gave this VM's cores to someone else, which no code here can win back."""
    delta = [b - a for a, b in zip(before, after, strict=True)]
    total = sum(delta[:8]) or 1  # user nice system idle iowait irq softirq steal
    idle = delta[3] + delta[4]
    return {"busy": (total - idle - delta[7]) / total, "steal": delta[7] / total}


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# -- the clients ------------------------------------------------------------------------------


@dataclass
class Run:
    think: tuple[float, float]
    start: float  # of measurement (perf_counter)
    end: float
    stopping: bool = False
    latencies: list[float] = field(default_factory=list)
    unanswered: int = 0  # moves sent in the window whose state has not reached the opponent
    errors: list[dict] = field(default_factory=list)
    machine: dict[str, float] = field(default_factory=dict)  # see machine_share

    def measured(self, sent: float) -> bool:
        return self.start <= sent < self.end


async def seat_client(ws, me: int, sent: dict, run: Run) -> None:
    """Play one seat until the match ends; record the opponent's moves' latencies.
    ``sent`` maps a ply to (seat that made it, send time), shared by both seats."""
    moved = -1
    async for raw in ws:
        received = time.perf_counter()
        event = json.loads(raw)
        if event["type"] == "error":
            run.errors.append(event)
            print(f"error: {event}", file=sys.stderr)
            continue
        if event["type"] != "state":
            continue
        ply = event["ply"]
        if ply in sent and sent[ply][0] != me:
            _seat, at = sent.pop(ply)
            if run.measured(at):
                run.latencies.append(received - at)
                run.unanswered -= 1
        if event["status"] != "active":
            return
        if me in event["view"]["to_move"] and ply > moved and not run.stopping:
            await asyncio.sleep(random.uniform(*run.think))
            moves = [m for m in event["view"]["legal_moves"] if m not in SPECIAL]
            moved, at = ply, time.perf_counter()
            sent[ply + 1] = (me, at)
            run.unanswered += run.measured(at)
            await ws.send(json.dumps({"type": "move", "move": random.choice(moves), "ply": ply}))


async def pair_client(pair, cookies: list[str], ports: list[int], run: Run, maker) -> None:
    """One match after another for a pair of users, seat i on daphne ``ports[i]``."""
    from django.conf import settings
    from websockets.asyncio.client import connect

    while not run.stopping:
        match_id = await asyncio.get_running_loop().run_in_executor(maker, new_match, *pair)
        sockets = [
            connect(
                f"ws://127.0.0.1:{port}/ws/match/{match_id}/",
                origin=f"http://127.0.0.1:{port}",
                additional_headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}"},
            )
            for port, cookie in zip(ports, cookies, strict=True)
        ]
        async with sockets[0] as first, sockets[1] as second:
            sent: dict[int, tuple[int, float]] = {}
            await asyncio.gather(
                seat_client(first, 0, sent, run), seat_client(second, 1, sent, run)
            )


async def drive(args, pairs, cookies, daphnes, maker) -> tuple[Run, dict[str, float]]:
    now = time.perf_counter()
    run = Run(args.think, now + args.warmup, now + args.warmup + args.duration)
    ports = [d.port for d in daphnes]
    tasks = [
        asyncio.create_task(pair_client(pair, cookies[2 * i : 2 * i + 2], ports, run, maker))
        for i, pair in enumerate(pairs)
    ]
    await asyncio.sleep(args.warmup)
    pids = {"client": os.getpid(), **{f"daphne :{d.port}": d.pid for d in daphnes}}
    before = {name: cpu_seconds(pid) for name, pid in pids.items()}
    ticks = machine_ticks()
    await asyncio.sleep(args.duration)
    cpu = {name: (cpu_seconds(pid) - before[name]) / args.duration for name, pid in pids.items()}
    run.machine = machine_share(ticks, machine_ticks())
    run.stopping = True
    for _ in range(50):  # let the last moves arrive
        failed = [t for t in tasks if t.done() and t.exception()]
        if run.unanswered <= 0 or failed:
            break
        await asyncio.sleep(0.1)
    for task in tasks:
        task.cancel()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    for result in results:
        if isinstance(result, Exception) and not isinstance(result, asyncio.CancelledError):
            print(f"client failed: {result!r}", file=sys.stderr)
    return run, cpu


def report(args, run: Run, cpu: dict[str, float]) -> None:
    ms = sorted(x * 1000 for x in run.latencies)
    cuts = statistics.quantiles(ms, n=100, method="inclusive") if len(ms) > 1 else ms * 99
    print(f"game {GAME}; matches {args.matches}; clients {2 * args.matches} (one process)")
    print(f"think {args.think_ms} ms; warm-up {args.warmup:g} s; measured {args.duration:g} s")
    pool, age = os.environ["DB_POOL_MAX_SIZE"], os.environ["CONN_MAX_AGE"]
    print(f"DB_POOL_MAX_SIZE {pool}; CONN_MAX_AGE {age}")
    print(f"moves measured {len(ms)}; moves/s {len(ms) / args.duration:.1f}")
    print(f"unanswered moves {run.unanswered}; errors {len(run.errors)}")
    if ms:
        print(f"latency ms: p50 {cuts[49]:.1f}  p95 {cuts[94]:.1f}  p99 {cuts[98]:.1f}")
        print(f"            max {ms[-1]:.1f}  mean {statistics.fmean(ms):.1f}")
    print("CPU (cores): " + ", ".join(f"{name} {share:.2f}" for name, share in cpu.items()))
    if run.machine:
        busy, steal = run.machine["busy"], run.machine["steal"]
        print(f"machine: {busy:.0%} busy, {steal:.1%} stolen by the hypervisor (all cores)")
    verdict = "yes" if ms and cuts[98] <= BAR_MS else "NO"
    print(f"p99 <= {BAR_MS:g} ms: {verdict}  (load average now: {os.getloadavg()[0]:.2f})")


def main() -> None:
    args = options()
    env = environment()
    os.environ.update(env)
    ensure_database(env["DATABASE_URL"])
    pairs, cookies = prepare(args.matches)
    # The set-up's objects live to the end: keep the collector's full passes (tens of ms
    # with Django loaded) off them, so they do not stall the clients mid-measurement.
    gc.freeze()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("terminated"))  # still stop daphne
    daphnes = []
    spawn = multiprocessing.get_context("spawn")
    with (
        tempfile.TemporaryDirectory(prefix="vf-bench-") as logs,
        ProcessPoolExecutor(1, mp_context=spawn, initializer=setup_django) as maker,
    ):
        try:
            daphnes = [daphne(env, Path(logs)) for _ in range(2)]
            run, cpu = asyncio.run(drive(args, pairs, cookies, daphnes, maker))
        finally:
            for process in daphnes:
                stop(process)
        for process in daphnes:
            lines = process.log.read_text().splitlines()
            errors = [line for line in lines if "ERROR" in line or "Traceback" in line]
            if errors:
                print(f"daphne :{process.port} logged {len(errors)} errors, e.g. {errors[0]}")
    report(args, run, cpu)


if __name__ == "__main__":
    main()
