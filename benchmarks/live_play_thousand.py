"""Live play at a thousand sockets (issue 36): two daphne processes, PostgreSQL, Redis.

Part A: ``--matches`` Connect4 matches of two people at a person's pace (each seat on a
different daphne, so every move crosses Redis) plus ``--spectators`` anonymous watchers
spread over them. Bar: p99 move-to-opponent latency <= 50 ms, no error, no move lost
(every move a client saw confirmed is checked against the database at the end).
Part B (fan-out): one match watched by ``--fanout`` spectators (half on each daphne).
Bar: p99 over moves of (the last spectator's receipt - send) <= 100 ms.

    .venv/bin/python benchmarks/live_play_thousand.py            # the real run, ~6 min
    .venv/bin/python benchmarks/live_play_thousand.py --quick    # shorter, same sockets

The load generator runs in ``--workers`` processes (asyncio + websockets each) so that it
is not the bottleneck; times are ``time.perf_counter()`` (CLOCK_MONOTONIC: one clock for
every process). Set-up and the daphne/database helpers are ``live_play_load.py``'s.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import multiprocessing
import os
import random
import re
import signal
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))
sys.path.insert(0, str(BASE_DIR / "benchmarks"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import light_socket  # noqa: E402
import live_play_load as base  # noqa: E402

OPPONENT_BAR_MS = 50.0
FANOUT_BAR_MS = 100.0
BARRIER_SECONDS = 300.0  # for 500 spectators to connect, at the very most
# Play goes on this long after the measured window, then every match resigns at once: that
# wave (400 resignations, their ratings and 1,000 sockets closing within a second) is the
# benchmark's own teardown, no evening's traffic. When it began at the window's end, the
# moves sent in the window's last second waited behind it (0.3-0.7 s on the web process's
# threads): ~0.5% of the samples, all in the p99's tail.
END_GRACE_SECONDS = 3.0
PLY = re.compile(rb'"ply": (\d+)')  # a state event's first "ply" is the event's own
STATUS = re.compile(rb'"status": "(\w+)"')


def options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=400)
    parser.add_argument("--spectators", type=int, default=200)
    parser.add_argument("--think-ms", default="3000-10000", help="MIN-MAX, a person's pace")
    parser.add_argument("--warmup", type=float, default=30.0, help="seconds not measured")
    parser.add_argument("--duration", type=float, default=180.0, help="seconds measured")
    parser.add_argument("--fanout", type=int, default=500, help="spectators of one match")
    parser.add_argument("--fanout-think-ms", default="1000-2000")
    parser.add_argument("--fanout-duration", type=float, default=120.0)
    parser.add_argument("--ramp", type=float, default=20.0, help="seconds over which A connects")
    parser.add_argument("--workers", type=int, default=2, help="load generator processes")
    parser.add_argument("--profile", metavar="DIR", help="run daphne 1 under cProfile, to DIR")
    parser.add_argument("--skip", choices=("a", "b"), help="leave a part out")
    parser.add_argument(
        "--no-housekeeping",
        dest="housekeeping",
        action="store_false",
        help="no VACUUM ANALYZE every 20 s (autovacuum's part, off on this machine)",
    )
    parser.add_argument(
        "--spectator-client",
        choices=("light", "websockets"),
        default="light",
        help="how the generator's spectators read (light: benchmarks/light_socket.py)",
    )
    parser.add_argument(
        "--afk",
        action="store_true",
        help="matches with the AFK timer on: every move also clears it (an event)",
    )
    parser.add_argument("--quick", action="store_true", help="warm-up 15 s, A 45 s, B 40 s")
    args = parser.parse_args()
    if args.quick:
        args.warmup, args.duration, args.fanout_duration, args.ramp = 15.0, 45.0, 40.0, 10.0
    args.think = _range(args.think_ms)
    os.environ["BENCH_SPECTATOR_CLIENT"] = args.spectator_client  # (the workers inherit it)
    os.environ["BENCH_AFK"] = "1" if args.afk else ""
    args.fanout_think = _range(args.fanout_think_ms)
    return args


def _range(text: str) -> tuple[float, float]:
    low, _, high = text.partition("-")
    return float(low) / 1000, float(high or low) / 1000


# -- one worker process's clients -------------------------------------------------------------


def _peek(raw) -> tuple[str, int | None, str | None]:
    """(type, ply, status) of an event without decoding all of it (spectators' hot path)."""
    data = raw.encode() if isinstance(raw, str) else raw
    kind = data[10 : data.index(b'"', 10)].decode() if data.startswith(b'{"type": "') else "?"
    ply = PLY.search(data) if kind == "state" else None
    status = STATUS.search(data) if kind == "state" else None
    return kind, ply and int(ply.group(1)), status and status.group(1).decode()


class Record:
    """What one worker saw: send times, receipt times, moves confirmed, errors."""

    def __init__(self) -> None:
        self.sends: dict[tuple[int, int], float] = {}  # (match, ply after) -> send time
        self.opponent: dict[tuple[int, int], float] = {}  # -> the opponent's receipt
        self.spectator: list[tuple[int, int, float]] = []  # (match, ply, receipt)
        self.moves: dict[int, dict[int, str]] = {}  # match -> {ply: move} confirmed
        self.errors: list[str] = []
        self.matches: list[int] = []
        self.aborted: list[int] = []  # matches whose client failed (a socket not opened)

    def result(self) -> dict:
        return {k: getattr(self, k) for k in vars(self)}


def _connect(port: int, match_id: int, cookie: str | None):
    from django.conf import settings
    from websockets.asyncio.client import connect

    headers = {"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}"} if cookie else {}
    return connect(
        f"ws://127.0.0.1:{port}/ws/match/{match_id}/",
        origin=f"http://127.0.0.1:{port}",
        additional_headers=headers,
        max_size=2**22,
    )


async def _seat(ws, match_id: int, me: int, think, rec: Record, stop_at: float) -> None:
    import json

    moved = -1
    async for raw in ws:
        received = time.perf_counter()
        event = json.loads(raw)
        if event["type"] == "error":
            rec.errors.append(f"match {match_id} seat {me}: {event}")
            continue
        if event["type"] != "state":
            continue
        ply = event["ply"]
        if (match_id, ply) in rec.sends and (match_id, ply) not in rec.opponent:
            if rec.moves[match_id].get(ply, (None, me))[1] != me:
                rec.opponent[(match_id, ply)] = received
        if event["status"] != "active":
            return
        if me in event["view"]["to_move"] and ply > moved:
            if time.perf_counter() >= stop_at:  # the run is over: end the match cleanly
                moved = ply
                await ws.send(json.dumps({"type": "game:resign"}))
                continue
            await asyncio.sleep(random.uniform(*think))
            legal = [m for m in event["view"]["legal_moves"] if m not in base.SPECIAL]
            move, moved = random.choice(legal), ply
            rec.moves[match_id][ply + 1] = (move, me)
            rec.sends[(match_id, ply + 1)] = time.perf_counter()
            await ws.send(json.dumps({"type": "move", "move": move, "ply": ply}))


async def _watch(ws, match_id: int, rec: Record, first: asyncio.Event | None = None) -> None:
    async for received, raw in _received(ws):
        kind, ply, status = _peek(raw)
        if kind == "error":
            rec.errors.append(f"match {match_id} spectator: {raw[:200]}")
        if kind != "state":
            continue
        if first is not None and not first.is_set():
            first.set()
        else:
            rec.spectator.append((match_id, ply, received))
        if status != "active":
            return


async def _received(ws):
    """(receipt time, message) of each message: stamped where it arrived for a light
    socket, as it is taken off the queue for a ``websockets`` one."""
    if isinstance(ws, light_socket.LightSocket):
        async for item in ws:
            yield item
    else:
        async for raw in ws:
            yield time.perf_counter(), raw


async def _play_match(match_id, cookies, ports, think, rec, stop_at, watchers: int) -> None:
    rec.matches.append(match_id)
    rec.moves[match_id] = {}
    async with (
        _connect(ports[0], match_id, cookies[0]) as a,
        _connect(ports[1], match_id, cookies[1]) as b,
    ):
        seats = [_seat(ws, match_id, i, think, rec, stop_at) for i, ws in enumerate((a, b))]
        # spread over both processes: a match's first spectator on either, by its id
        # (``i % 2`` alone sent every match's one spectator to daphne 1: 600 sockets there)
        specs = [_spectate(ports[(match_id + i) % 2], match_id, rec) for i in range(watchers)]
        await asyncio.gather(*seats, *specs)


async def _spectate(port: int, match_id: int, rec: Record, first=None, door=None) -> None:
    if door is not None:  # at most so many handshakes at once
        async with door:
            ws = await _open_spectator(port, match_id)
    else:
        ws = await _open_spectator(port, match_id)
    try:
        await _watch(ws, match_id, rec, first)
    finally:
        await ws.close()


def _open_spectator(port: int, match_id: int):
    if os.environ.get("BENCH_SPECTATOR_CLIENT") == "websockets":
        return _connect(port, match_id, None)
    path, origin = f"/ws/match/{match_id}/", f"http://127.0.0.1:{port}"
    return light_socket.open_socket(port, path, origin)


def worker_setup() -> None:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    quiet_collector()


def quiet_collector() -> None:
    """No collector pauses in a load generator (a full pass over its records takes tens
    of ms and would show as latency): what is set up is frozen, cycles wait for the end."""
    gc.collect()
    gc.freeze()
    gc.disable()


def part_a_worker(pairs, cookies, watchers, ports, think, stop_at, ramp) -> dict:
    """Play matches one after another for each pair until ``stop_at``; pair i has
    ``watchers[i]`` spectators, who follow it to its next match."""
    rec = Record()

    async def pair(i):
        await asyncio.sleep(random.uniform(0, ramp))  # people arrive over a while
        while time.perf_counter() < stop_at:
            match_id = await asyncio.to_thread(base.new_match, *pairs[i])
            try:
                await _play_match(match_id, cookies[i], ports, think, rec, stop_at, watchers[i])
            except BaseException:
                rec.aborted.append(match_id)  # its last move dies with the client
                raise

    async def main():
        results = await asyncio.gather(*(pair(i) for i in range(len(pairs))), return_exceptions=1)
        rec.errors += [f"client failed: {r!r}" for r in results if isinstance(r, BaseException)]

    asyncio.run(main())
    return rec.result()


def fanout_spectators(match_id: int, ports, count: int, barrier) -> dict:
    """``count`` spectators of one match: all connected, then the barrier, then watch."""
    rec = Record()

    async def main():
        firsts = [asyncio.Event() for _ in range(count)]
        door = asyncio.Semaphore(20)

        async def one(i):
            try:
                await _spectate(ports[i % 2], match_id, rec, firsts[i], door)
            except Exception as exc:  # counted as an error; the others go on
                rec.errors.append(f"spectator failed: {exc!r}")
            finally:
                firsts[i].set()

        tasks = [asyncio.create_task(one(i)) for i in range(count)]
        await asyncio.gather(*(f.wait() for f in firsts))
        await asyncio.to_thread(barrier.wait, BARRIER_SECONDS)
        await asyncio.gather(*tasks)

    asyncio.run(main())
    return rec.result()


# -- measuring --------------------------------------------------------------------------------


def process_ids(daphnes, pool) -> dict[str, list[int]]:
    """The processes whose CPU is reported (PostgreSQL and Redis: all of the server's
    processes, which also serve anything else running on this machine)."""
    comm = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                comm[int(entry.name)] = (entry / "comm").read_text().strip()
            except OSError:
                pass
    return {
        **{f"daphne {i + 1}": [d.pid] for i, d in enumerate(daphnes)},
        "redis": [p for p, c in comm.items() if c.startswith("redis-server")],
        "postgres": [p for p, c in comm.items() if c == "postgres"],
        "load generator": [os.getpid(), *pool._processes],
    }


_last_cpu: dict[int, float] = {}


def cpu_now(pids: dict[str, list[int]]) -> dict[str, float]:
    """CPU seconds so far per name. A process gone meanwhile (a PostgreSQL backend that
    ended) counts what it had when last read; backends started meanwhile are not seen."""

    def one(pid):
        try:
            _last_cpu[pid] = base.cpu_seconds(pid)
        except (OSError, IndexError):
            pass
        return _last_cpu.get(pid, 0.0)

    return {name: sum(one(p) for p in ids) for name, ids in pids.items()}


_last_system: dict[int, float] = {}


def _system_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        _last_system[pid] = int(fields[12]) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError):
        pass
    return _last_system.get(pid, 0.0)


class Meter:
    """CPU per process over one or more spans (``resume`` .. ``pause``)."""

    def __init__(self, pids) -> None:
        self.pids, self.load = pids, os.getloadavg()
        self.seconds, self.ticks = 0.0, base.machine_ticks()
        self.cpu = dict.fromkeys(pids, 0.0)
        self.kernel = dict.fromkeys(pids, 0.0)
        self.resume()

    def _read(self):
        kernel = {k: sum(_system_seconds(p) for p in ids) for k, ids in self.pids.items()}
        return time.perf_counter(), cpu_now(self.pids), kernel

    def resume(self) -> None:
        self.mark = self._read()

    def pause(self) -> None:
        (at, cpu, kernel), (now, cpu2, kernel2) = self.mark, self._read()
        self.seconds += now - at
        for k in cpu:
            self.cpu[k] += cpu2[k] - cpu[k]
            self.kernel[k] += kernel2[k] - kernel[k]

    def report(self, moves: int) -> str:
        share = base.machine_share(self.ticks, base.machine_ticks())
        seconds, per_move = self.seconds or 1.0, max(moves, 1)
        cores = ", ".join(f"{k} {v / seconds:.2f}" for k, v in self.cpu.items())
        each = ", ".join(
            f"{k} {1000 * v / per_move:.1f} ({1000 * self.kernel[k] / per_move:.1f} kernel)"
            for k, v in self.cpu.items()
        )
        load = os.getloadavg()
        return (
            f"CPU, cores over {self.seconds:.0f} s: {cores}\n"
            f"CPU ms per move: {each}\n"
            f"machine {share['busy']:.0%} busy, {share['steal']:.1%} stolen; load average "
            f"{self.load[0]:.2f} before, {load[0]:.2f} after (1 min)"
        )


def cuts(values: list[float]) -> str:
    ms = sorted(x * 1000 for x in values)
    if not ms:
        return "no samples"
    q = statistics.quantiles(ms, n=100, method="inclusive") if len(ms) > 1 else ms * 99
    return f"p50 {q[49]:.1f}  p95 {q[94]:.1f}  p99 {q[98]:.1f}  max {ms[-1]:.1f} ms (n={len(ms)})"


def p99(values: list[float]) -> float:
    ms = sorted(x * 1000 for x in values)
    if len(ms) < 2:
        return float("inf") if not ms else ms[0]
    return statistics.quantiles(ms, n=100, method="inclusive")[98]


def merge(results: list[dict]) -> dict:
    out = Record().result()
    for r in results:
        for k, v in r.items():
            out[k].update(v) if isinstance(v, dict) else out[k].extend(v)
    return out


def lost_moves(rec: dict) -> tuple[list[str], list[str]]:
    """(lost, dropped): moves a client saw confirmed (the opponent got their ``state``)
    that the database does not hold at that ply, and moves sent but never confirmed; apart
    from them, those never acknowledged in a match whose client failed (a client that
    closes its sockets takes its last unacknowledged move with it; the failure itself is
    an error)."""
    aborted = set(rec.get("aborted", ()))
    lost, dropped = [], []
    for match_id, ply, line in _unkept(rec):
        gone = match_id in aborted and (match_id, ply) not in rec["opponent"]
        (dropped if gone else lost).append(line)
    return lost, dropped


def _unkept(rec: dict) -> list[tuple[int, int, str]]:
    """(match, ply, why) of every move sent that the database does not hold at its ply,
    or whose opponent never got it."""
    from play.models import Move

    stored = {}
    for match_id, ply, notation in Move.objects.filter(match_id__in=rec["matches"]).values_list(
        "match_id", "ply", "notation"
    ):
        stored[(match_id, ply)] = notation
    unkept = []
    for match_id, plies in rec["moves"].items():
        for ply, (move, _seat) in plies.items():
            if stored.get((match_id, ply)) != move:
                why = f"sent {move}, stored {stored.get((match_id, ply))}"
                unkept.append((match_id, ply, f"match {match_id} ply {ply}: {why}"))
    unconfirmed = [k for k in rec["sends"] if k not in rec["opponent"]]
    unkept += [(m, p, f"match {m} ply {p}: the opponent never got it") for m, p in unconfirmed]
    return unkept


# -- the two parts ----------------------------------------------------------------------------


def part_a(args, pairs, cookies, ports, pool) -> tuple[dict, float, float]:
    n = len(pairs)
    watchers = [0] * n
    for i in range(args.spectators):
        watchers[(i * n // max(args.spectators, 1)) % n] += 1  # spread evenly
    start = time.perf_counter()
    lo, hi = start + args.warmup, start + args.warmup + args.duration
    w = args.workers
    futures = [
        pool.submit(
            part_a_worker,
            pairs[k::w],
            [cookies[2 * i : 2 * i + 2] for i in range(k, n, w)],
            watchers[k::w],
            ports,
            args.think,
            hi + END_GRACE_SECONDS,  # (moves sent after ``hi`` are not measured)
            args.ramp,
        )
        for k in range(w)
    ]
    time.sleep(args.warmup)
    meter = Meter(process_ids(daphnes_seen, pool))
    time.sleep(args.duration)
    meter.pause()
    rec = merge([f.result() for f in futures])
    return rec, lo, hi, meter


class Housekeeping:
    """What autovacuum does on a live site, which this machine's PostgreSQL runs without:
    every ``every`` seconds, ``VACUUM ANALYZE``. Without it a fresh database's statistics
    say every table is empty, and the presence table (a row a socket, inserted and deleted
    as sockets come and go) fills with dead rows: its queries read the whole table (one of
    two reasons PostgreSQL spent 4.1 ms of CPU a move on a new machine's first run rather
    than ~1.5; the other was the seats read's planning, play/seat_query.py). Its own CPU
    is in PostgreSQL's figure."""

    def __init__(self, every: float = 20.0) -> None:
        self.every, self.stop = every, threading.Event()
        self.thread = threading.Thread(target=self._run, name="housekeeping", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        from django.db import connection

        try:
            while not self.stop.wait(self.every):
                with connection.cursor() as cursor:
                    # paced as autovacuum paces itself (PostgreSQL 15's defaults): a pass in
                    # one burst took 0.4-1 s of the server's CPU, and the moves waited
                    cursor.execute("SET vacuum_cost_delay = '2ms'")
                    cursor.execute("SET vacuum_cost_limit = 200")
                    cursor.execute("VACUUM ANALYZE")
        finally:
            connection.close()

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=60)


def part_b(args, pair, cookies, ports, pool) -> tuple[dict, str]:
    """Matches one after another, each with ``--fanout`` spectators connected before its
    first move; the players run here, the spectators in the workers."""
    barrier_manager = multiprocessing.get_context("spawn").Manager()
    end = time.perf_counter() + args.fanout_duration
    recs, meter = [], None
    with barrier_manager:
        while time.perf_counter() < end:
            match_id = base.new_match(*pair)
            w = args.workers
            barrier = barrier_manager.Barrier(w + 1)
            shares = [args.fanout // w + (k < args.fanout % w) for k in range(w)]
            futures = [pool.submit(fanout_spectators, match_id, ports, s, barrier) for s in shares]
            barrier.wait(BARRIER_SECONDS)  # a stuck spectator process breaks it: no hang
            if meter is None:
                meter = Meter(process_ids(daphnes_seen, pool))
            else:
                meter.resume()
            rec = Record()
            # a started match is played to its end
            play = _play_match(match_id, cookies, ports, args.fanout_think, rec, float("inf"), 0)
            asyncio.run(play)
            meter.pause()
            recs += [rec.result(), *(f.result() for f in futures)]
    return merge(recs), meter


daphnes_seen: list = []


def profiled_daphne(env: dict[str, str], log_dir: Path, out: Path):
    """daphne under cProfile (it writes ``out`` when stopped: SIGTERM stops twisted's
    reactor and the profiler's main returns)."""
    import subprocess

    from tests.conftest import child_env, free_port, wait_for_port

    port, log = free_port(), log_dir / "daphne-profiled.log"
    command = [sys.executable, "-m", "cProfile", "-o", str(out), "-m", "daphne"]
    command += ["-b", "127.0.0.1", "-p", str(port), "config.asgi:application"]
    with open(log, "a") as sink:
        process = subprocess.Popen(
            command, cwd=BASE_DIR, env=child_env(**env), stdout=sink, stderr=sink
        )
    wait_for_port(port, process, log)
    process.port, process.log = port, log
    return process


def report_a(args, rec, lo, hi, usage) -> bool:
    inside = [k for k, t in rec["sends"].items() if lo <= t < hi]
    lat = [rec["opponent"][k] - rec["sends"][k] for k in inside if k in rec["opponent"]]
    spec = [
        t - rec["sends"][(m, p)]
        for m, p, t in rec["spectator"]
        if lo <= rec["sends"].get((m, p), 0) < hi
    ]
    lost, dropped = lost_moves(rec)
    sockets = 2 * args.matches + args.spectators
    print(f"== A: {args.matches} matches + {args.spectators} spectators = {sockets} sockets")
    print(f"think {args.think_ms} ms; warm-up {args.warmup:g} s; measured {args.duration:g} s")
    rate = len(lat) / args.duration
    print(f"matches played {len(rec['matches'])}; moves measured {len(lat)} ({rate:.1f}/s)")
    print(f"move -> opponent:  {cuts(lat)}")
    print(f"move -> spectator: {cuts(spec)}")
    print(
        f"errors {len(rec['errors'])}; moves lost or unconfirmed {len(lost)}; moves "
        f"unacknowledged when their client failed {len(dropped)}"
    )
    for line in (rec["errors"] + lost)[:5]:
        print("   ", line)
    print(usage.report(len(inside)))
    met = p99(lat) <= OPPONENT_BAR_MS and not rec["errors"] and not lost
    bar = f"p99 move->opponent <= {OPPONENT_BAR_MS:g} ms, no error, no move lost"
    print(f"BAR {bar}: {'met' if met else 'NOT met'}")
    return met


def report_b(args, rec, usage) -> bool:
    last: dict[tuple[int, int], float] = {}
    count: dict[tuple[int, int], int] = {}
    for m, p, t in rec["spectator"]:
        last[(m, p)] = max(last.get((m, p), 0), t)
        count[(m, p)] = count.get((m, p), 0) + 1
    moves = [k for k in rec["sends"] if k in last]
    fan = [last[k] - rec["sends"][k] for k in moves]
    each = [t - rec["sends"][(m, p)] for m, p, t in rec["spectator"] if (m, p) in rec["sends"]]
    short = sum(1 for k in rec["sends"] if count.get(k, 0) != args.fanout)
    lost, _dropped = lost_moves(rec)  # (no client fails in B without an error)
    print(
        f"== B: one match, {args.fanout} spectators (+2 players), think {args.fanout_think_ms} ms"
    )
    print(f"matches {len(rec['matches'])}; moves {len(moves)}; moves some spectator missed {short}")
    print(f"move -> last spectator: {cuts(fan)}")
    print(f"move -> each spectator: {cuts(each)}")
    opponent = [rec["opponent"][k] - rec["sends"][k] for k in rec["opponent"]]
    print(f"move -> opponent:       {cuts(opponent)}")
    print(f"errors {len(rec['errors'])}; moves lost {len(lost)}")
    for line in (rec["errors"] + lost)[:5]:
        print("   ", line)
    print(usage.report(len(rec["sends"])))
    met = p99(fan) <= FANOUT_BAR_MS and not rec["errors"] and not lost and not short
    bar = f"p99 move->last of {args.fanout} spectators <= {FANOUT_BAR_MS:g} ms, none missed"
    print(f"BAR {bar}: {'met' if met else 'NOT met'}")
    return met


def main() -> None:
    args = options()
    env = base.environment()
    os.environ.update(env)
    base.ensure_database(env["DATABASE_URL"])
    pairs, cookies = base.prepare(max(args.matches, 1))
    quiet_collector()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("terminated"))
    spawn = multiprocessing.get_context("spawn")
    print(f"load average at the start: {os.getloadavg()}; cores {os.cpu_count()}")
    print(f"spectators read with: {args.spectator_client}")
    print(f"housekeeping (VACUUM ANALYZE every 20 s): {'on' if args.housekeeping else 'off'}")
    with (
        tempfile.TemporaryDirectory(prefix="vf-bench-") as logs,
        ProcessPoolExecutor(args.workers, mp_context=spawn, initializer=worker_setup) as pool,
    ):
        keeper = None
        try:
            daphnes_seen[:] = [base.daphne(env, Path(logs)) for _ in range(2)]
            if args.profile:
                out = Path(args.profile).resolve() / "daphne1.prof"
                base.stop(daphnes_seen[0])
                daphnes_seen[0] = profiled_daphne(env, Path(logs), out)
            ports = [d.port for d in daphnes_seen]
            keeper = Housekeeping() if args.housekeeping else None
            verdicts = []
            if args.skip != "a":
                rec, lo, hi, usage = part_a(args, pairs, cookies, ports, pool)
                verdicts.append(report_a(args, rec, lo, hi, usage))
            if args.skip != "b":
                rec, usage = part_b(args, pairs[0], cookies[:2], ports, pool)
                verdicts.append(report_b(args, rec, usage))
        finally:
            if keeper is not None:
                keeper.close()
            for process in daphnes_seen:
                base.stop(process)
        for process in daphnes_seen:
            lines = process.log.read_text().splitlines()
            errors = [line for line in lines if "ERROR" in line or "Traceback" in line]
            if errors:
                print(f"daphne :{process.port} logged {len(errors)} errors, e.g. {errors[0]}")
                verdicts.append(False)
    verdict = "met" if all(verdicts) else "NOT met"
    print(f"ALL BARS {verdict}; load average now {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
