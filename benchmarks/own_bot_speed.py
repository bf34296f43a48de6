"""An own bot's tournament against the same tournament of a built-in bot (issue 36).

    .venv/bin/python benchmarks/own_bot_speed.py [--games 200] [--rounds 2]
        [--game Tic-Tac-Toe] [--mailbox]

On PostgreSQL + Redis as a deployment runs them: database ``vf_bench_ownbots`` on
127.0.0.1 (made afresh each run unless ``--keep-database``; ``--database`` names another,
never a development one, and a name not starting ``vf_bench_`` is never dropped)
and Redis db 12 (``--redis``; flushed first, never db 0). A child process migrates, loads
the catalogue, registers an own bot, starts a Celery worker (prefork x2, as ``make run``)
and a daphne, and connects the reference client (``foundry_bot.BotClient`` in a process
of its own, answering at once with a random legal move). Then, alternating for
``--rounds``: a tournament of ``--games`` games own bot vs Random, and the same games
between a built-in Random bot (a bot of equal speed) and Random. The own bot's games are
played by its socket's process, as a deployment does (``tournaments.hosted_games``);
``--mailbox`` sends every turn through the worker's mailbox instead. Each is timed from its
creation until it is done (the finaliser's ``finished`` stamp: played, written, rated).
Prints both games/s, the ratio and whether it meets the bar (>= 0.5); where each kind's
time goes (to its first turn or game, to its last game over, to done); the turn latency
on loopback: from the worker's request (the turn's ``created``) to the bot's receipt of
the acknowledgement (``moved``), p50/p99, bar p50 <= 10 ms; with its two parts (request
to the bot's receipt of ``your-move``; receipt to ``moved``). The machine's load before
and after.
"""

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = str(ROOT / ".venv" / "bin" / "python")
SCRATCH = Path("/tmp/vf_bench_ownbots")
RATIO_BAR, LATENCY_BAR_MS = 0.5, 10.0


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] if ordered else float("nan")


# --- the bot's client (a process of its own, as a trainer's program) --------------------------


def client(url: str, out: str) -> None:
    """Answer every turn at once with a random legal move; on SIGTERM write, per turn,
    when ``your-move`` and ``moved`` arrived (epoch seconds, this machine's clock)."""
    import random

    sys.path.insert(0, str(ROOT))
    from foundry_bot import BotClient

    seen: dict[str, list] = {}
    messages = [0]  # messages that brought tournament turns: each turn's is noted

    def on_event(event: dict) -> None:
        kind, now = event.get("type"), time.time()
        asked = event.get("turns", []) if kind == "your-moves" else [event]
        tournament = [t for t in asked if t.get("type") == "your-move" and t.get("tournament")]
        messages[0] += bool(tournament)
        for turn in tournament:  # (its deadline and tournament: a hosted turn has no row)
            seen[turn["turn"]] = [now, None, messages[0], turn["deadline"], turn["tournament"]]
        if kind == "moved":  # one turn ("turn"), or several at once ("turns")
            for turn in event.get("turns", [event.get("turn")]):
                if turn in seen:
                    seen[turn][1] = now

    rng = random.Random(1)
    bot = BotClient(
        url, os.environ["FOUNDRY_BOT_TOKEN"], lambda view, legal: rng.choice(legal), "bench",
        on_event=on_event,
    )  # fmt: skip
    bot.run()
    Path(out).write_text(json.dumps(seen))


# --- the child: the site ----------------------------------------------------------------------


def cpu_now(roots: dict[str, int]) -> dict[str, float]:
    """CPU seconds so far of each process tree in ``roots``, and of the PostgreSQL and
    Redis servers (``tournament_shapes``' reading of /proc)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from tournament_shapes import _processes, cpu_seconds, server_seconds

    found = _processes()
    spent = {name: cpu_seconds(pid, found) for name, pid in roots.items()}
    spent["postgres"] = server_seconds(("postgres",))
    spent["redis"] = server_seconds(("redis-server",))
    return spent


def one_at_a_time(own, rule_set, trainer, count: int) -> list[float]:
    """The turn's round trip with nothing else in flight: this process asks as a worker
    does (``asking.ask``), the client answers; ms from the request to the answer in hand."""
    from leaderboards.models import Tournament
    from leaderboards.services import default_universe
    from ownbots import asking

    t = Tournament.objects.create(
        name="latency", rule_set=rule_set, universe=default_universe(), created_by=trainer,
        seed=1, total_games=1, batch_size=1,
    )  # fmt: skip
    game = rule_set_game(rule_set)
    state = game.new_initial_state(seed=1)
    view, legal = state.view(0), [str(m) for m in state.legal_moves(0)]
    spent = []
    for _ in range(count):
        began = time.perf_counter()
        asking.ask(own.pk, t.pk, 1, 0, 0, view, legal)
        spent.append((time.perf_counter() - began) * 1000)
    return spent


def phases(out: dict, asked_first: dict) -> dict[str, list[list[float]]]:
    """Where each tournament's time went (ms, by its rows' stamps): from its creation to
    the first turn asked (own bot: its first turn row, or ``asked_first``, by tournament,
    for hosted games, which have none) or the first game over (built-in), from there to
    the last game over, and from that to done (written, rated, results)."""
    from django.db.models import Max, Min

    from leaderboards.models import Tournament
    from ownbots.models import BotTurn
    from play.models import Match

    found = {}
    for kind in ("own", "builtin"):
        ids = out[f"{kind}_ids"]
        games = dict(
            (row["tournament_id"], (row["first"], row["last"]))
            for row in Match.objects.filter(tournament_id__in=ids)
            .values("tournament_id")
            .annotate(first=Min("finished"), last=Max("finished"))
        )
        turns = dict(
            BotTurn.objects.filter(tournament_id__in=ids)
            .values("tournament_id")
            .annotate(first=Min("created"))
            .values_list("tournament_id", "first")
        )
        done = dict(Tournament.objects.filter(pk__in=ids).values_list("pk", "finished"))
        found[kind] = []
        for pk in ids:
            first_game, last_game = games[pk]
            first = turns[pk].timestamp() if pk in turns else asked_first.get(pk)
            first = first_game.timestamp() if first is None else first
            began, last, end = out["began"][str(pk)], last_game.timestamp(), done[pk].timestamp()
            found[kind].append([1000 * (first - began), 1000 * (last - first), 1000 * (end - last)])
    return found


def rule_set_game(rule_set):
    from play.replay import game_of_rule_set

    return game_of_rule_set(rule_set)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(args: list[str], log: Path, ready: str, what: str) -> subprocess.Popen:
    process = subprocess.Popen(
        args,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=open(log, "w"),
        env=os.environ.copy(),  # noqa: SIM115
    )
    deadline = time.time() + 60
    while ready not in log.read_text(errors="replace"):
        if process.poll() is not None or time.time() > deadline:
            sys.exit(f"{what} did not start: see {log}")
        time.sleep(0.2)
    return process


def child(game_name: str, games: int, rounds: int, turns_alone: int) -> None:
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from accounts.models import Player
    from accounts.services import random_player
    from leaderboards.models import Tournament
    from leaderboards.services import default_universe
    from ownbots.keys import register
    from ownbots.models import BotTurn
    from tournaments import services as tournaments
    from variants.models import RuleSet
    from variants.services import load_catalogue

    if not RuleSet.objects.filter(name=game_name).exists():
        load_catalogue()
    rule_set = RuleSet.objects.get(name=game_name)
    stamp = os.urandom(3).hex()
    trainer = get_user_model().objects.create_user(f"bench-{stamp}", role="trainer")
    own, token = register(trainer, f"own-{stamp}")
    # A built-in bot as fast as the own bot's choice (Random): owned by nobody, as the
    # Random player; the own bot's games are rated too (Random is not the trainer's).
    builtin = Player.objects.create(kind="bot", name=f"rnd-{stamp}", bot_spec={"kind": "random"})
    rnd = random_player()
    port = free_port()
    worker = start(
        [PY, "-m", "celery", "-A", "config", "worker", "--concurrency", "2", "-Q", "celery",
         "--loglevel", "INFO", "-n", f"bench-{stamp}@%h"],
        SCRATCH / "worker.log", "ready.", "the worker",
    )  # fmt: skip
    web = start(
        [PY, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        SCRATCH / "daphne.log", "Listening on", "daphne",
    )  # fmt: skip
    times = SCRATCH / "client.json"
    times.unlink(missing_ok=True)
    bot = subprocess.Popen(
        [PY, __file__, "--client", f"ws://127.0.0.1:{port}/ws/bot/", "--out", str(times)],
        cwd=ROOT, env={**os.environ, "FOUNDRY_BOT_TOKEN": token},
        stdout=subprocess.DEVNULL, stderr=open(SCRATCH / "client.log", "w"),  # noqa: SIM115
    )  # fmt: skip
    from config.celery import app, prepare_to_send

    prepare_to_send()  # as daphne does at its start (this process stands in for it)
    with app.producer_or_acquire() as producer:  # the broker's connection, once, untimed
        producer.connection.ensure_connection(max_retries=3)
    out = {"own": [], "builtin": [], "games": games, "own_ids": [], "builtin_ids": [], "cpu": {}}
    out["began"] = {}
    roots = {"worker": worker.pid, "daphne": web.pid, "client": bot.pid}
    try:
        from ownbots import connections

        deadline = time.time() + 30
        while connections.current(own.pk) is None:
            if time.time() > deadline:
                sys.exit("the bot did not connect: see client.log")
            time.sleep(0.1)
        for _ in range(rounds):
            for kind, player in (("own", own), ("builtin", builtin)):
                plan = tournaments.Plan(
                    rule_set, default_universe(), f"{kind}-{stamp}", [([player.pk, rnd.pk], games)]
                )
                cpu = cpu_now(roots)
                began = time.time()  # (the worker stamps ``finished`` by the same clock)
                t = tournaments.create_from_plan(plan, trainer)
                while True:
                    status = Tournament.objects.values_list("status", flat=True).get(pk=t.pk)
                    if status in ("done", "failed"):
                        break
                    for process, what in ((worker, "worker"), (web, "daphne"), (bot, "client")):
                        if process.poll() is not None:
                            sys.exit(f"the {what} died: see {SCRATCH}")
                    time.sleep(0.02)
                if status != "done":
                    sys.exit(f"a tournament failed: see {SCRATCH / 'worker.log'}")
                # From creation to the finaliser's stamp, as tournament_shapes.py times
                # it: this loop's 20 ms looks and the CPU readings are not the site's time.
                done = Tournament.objects.values_list("finished", flat=True).get(pk=t.pk)
                out[kind].append(games / (done.timestamp() - began))
                out["began"][str(t.pk)] = began
                spent = {k: v - cpu[k] for k, v in cpu_now(roots).items()}
                for name, seconds in spent.items():  # CPU ms a game, by process
                    out["cpu"].setdefault(kind, {}).setdefault(name, []).append(
                        1000 * seconds / games
                    )
                out[f"{kind}_ids"].append(t.pk)
        out["alone"] = one_at_a_time(own, rule_set, trainer, turns_alone)
    finally:
        bot.terminate()
        bot.wait(timeout=20)
        for process in (web, worker):
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
    from django.conf import settings

    seen = json.loads(times.read_text()) if times.exists() else {}
    message_numbers = set()
    asked = dict(
        BotTurn.objects.filter(tournament_id__in=out["own_ids"], status="answered").values_list(
            "pk", "created"
        )
    )
    total, deliver, answer, asked_first = [], [], [], {}
    own_ids = set(out["own_ids"])
    for turn, (got, acked, message, deadline, tournament) in seen.items():
        if tournament not in own_ids:
            continue  # (the turns timed one at a time)
        created = asked.get(int(turn[1:]))  # a mailbox turn's row; a hosted turn has none:
        # it was asked OWNBOT_MOVE_SECONDS before its deadline (its bot was connected)
        made = deadline / 1000 - settings.OWNBOT_MOVE_SECONDS
        created = made if created is None else created.timestamp()
        asked_first[tournament] = min(created, asked_first.get(tournament, created))
        if acked is None:
            continue
        message_numbers.add(message)
        total.append((acked - created) * 1000)
        deliver.append((got - created) * 1000)
        answer.append((acked - got) * 1000)
    # The worker's side: each own bot move's think time is its wait for the answer (ms).
    # (A tournament game's log is packed on its match: read as every reader reads it.)
    from play.models import Match, Seat
    from play.move_log import rows_of_many

    matches = list(
        Match.objects.filter(tournament_id__in=out["own_ids"]).values_list("pk", flat=True)
    )
    own_seat = dict(
        Seat.objects.filter(match_id__in=matches, player=own).values_list("match_id", "index")
    )
    waits = [
        row.think_ms
        for match_id, rows in rows_of_many(matches).items()
        for row in rows
        if row.kind == "move" and row.seat == own_seat.get(match_id)
    ]
    out["phases"] = phases(out, asked_first)
    out["latency"] = {"total": total, "deliver": deliver, "answer": answer, "worker": waits}
    out["messages"] = len(message_numbers)
    print("RESULT " + json.dumps(out), flush=True)


# --- the parent ------------------------------------------------------------------------------


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=100, help="games a tournament")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--game", default="Connect4")
    ap.add_argument("--turns", type=int, default=300, help="turns timed one at a time")
    ap.add_argument("--mailbox", action="store_true",
                    help="every turn through the worker's mailbox (OWNBOT_HOSTED=0)")  # fmt: skip
    ap.add_argument("--database", default="vf_bench_ownbots",
                    help="made afresh each run when its name starts with vf_bench_")  # fmt: skip
    ap.add_argument("--keep-database", action="store_true",
                    help="reuse the database as the last run left it")  # fmt: skip
    ap.add_argument("--redis", default="redis://127.0.0.1:6379/12")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--client", default="", help=argparse.SUPPRESS)
    ap.add_argument("--out", default="", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.client:
        return client(args.client, args.out)
    if args.child:
        return child(args.game, args.games, args.rounds, args.turns)
    if args.database in ("variant_foundry", "postgres") or args.redis.rstrip("/").endswith("/0"):
        sys.exit("refused: a database and a Redis db of the benchmark's own")
    print(f"before: {load()}")
    SCRATCH.mkdir(parents=True, exist_ok=True)
    pg = ["-h", "127.0.0.1", "-U", "postgres"]
    if args.database.startswith("vf_bench_") and not args.keep_database:  # the script's own:
        # made afresh, so that a run's figures do not depend on the runs before it
        subprocess.run(["dropdb", *pg, "--if-exists", "--force", args.database],
                       capture_output=True)  # fmt: skip
    subprocess.run(["createdb", *pg, args.database], capture_output=True)  # (or kept)
    db_number = args.redis.rstrip("/").rsplit("/", 1)[1]
    subprocess.run(["redis-cli", "-n", db_number, "flushdb"], capture_output=True)
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(
        DEBUG="0", SECRET_KEY="bench-" + os.urandom(8).hex(), PYTHONPATH=str(ROOT),
        DJANGO_SETTINGS_MODULE="config.settings", VAR_DIR=str(SCRATCH / "var"),
        DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{args.database}", REDIS_URL=args.redis,
    )  # fmt: skip
    env.setdefault("DB_POOL_MAX_SIZE", "10")
    env["OWNBOT_HOSTED"] = "0" if args.mailbox else "1"
    how = "through the worker's mailbox" if args.mailbox else "hosted by the bot's socket"
    print(f"{args.game}: {args.games} games a tournament, {args.rounds} rounds; PostgreSQL + "
          f"Redis, a Celery worker (prefork x2), one daphne, the client apart; own-bot "
          f"games {how}")  # fmt: skip
    proc = subprocess.run(
        [PY, __file__, "--child", "--game", args.game, "--games", str(args.games),
         "--rounds", str(args.rounds), "--turns", str(args.turns)],
        env=env, cwd=ROOT, capture_output=True, text=True,
    )  # fmt: skip
    line = next((x for x in proc.stdout.splitlines() if x.startswith("RESULT ")), None)
    if line is None:
        sys.exit(f"failed\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}")
    out = json.loads(line[7:])
    for i, (own, builtin) in enumerate(zip(out["own"], out["builtin"], strict=True), 1):
        print(f"round {i}: own bot {own:7.2f} games/s   built-in {builtin:7.2f} games/s   "
              f"ratio {own / builtin:.2f}")  # fmt: skip
    ratio = statistics.median(o / b for o, b in zip(out["own"], out["builtin"], strict=True))
    met = "met" if ratio >= RATIO_BAR else "NOT met"
    print(f"median ratio {ratio:.2f} (bar >= {RATIO_BAR}: {met})")
    for kind, spent in out["cpu"].items():
        parts = ", ".join(f"{name} {statistics.median(ms):.2f}" for name, ms in spent.items())
        print(f"CPU ms a game ({kind}): {parts}")
    names = ("to its first turn asked", "to its first game over")
    for kind, name in (("own", names[0]), ("builtin", names[1])):
        first, play, tail = (statistics.median(p[i] for p in out["phases"][kind]) for i in range(3))
        print(f"where a tournament's time goes ({kind}, medians): {name} {first:.0f} ms, "
              f"then to its last game over {play:.0f} ms, then to done {tail:.0f} ms")  # fmt: skip
    alone = out["alone"]
    p50 = percentile(alone, 50)
    met = "met" if p50 <= LATENCY_BAR_MS else "NOT met"
    print(
        f"turn latency on loopback, one turn at a time, request to the answer in the "
        f"worker's hands ({len(alone)} turns): p50 {p50:.2f} ms, "
        f"p99 {percentile(alone, 99):.2f} ms (bar p50 <= {LATENCY_BAR_MS:g} ms: {met})"
    )
    lat = out["latency"]
    if lat["total"]:
        print(f"during the own bot's tournaments (every game of a batch in flight), request "
              f"to the bot's receipt of moved ({len(lat['total'])} turns): "
              f"p50 {percentile(lat['total'], 50):.1f} ms, "
              f"p99 {percentile(lat['total'], 99):.1f} ms")  # fmt: skip
        parts = (("deliver", "request to your-move"), ("answer", "your-move to moved"),
                 ("worker", "each answer's wait in its game (think ms, whole)"))  # fmt: skip
        for part, name in parts:
            print(f"  {name}: p50 {percentile(lat[part], 50):.1f} ms, "
                  f"p99 {percentile(lat[part], 99):.1f} ms")  # fmt: skip
        turns = len(lat["total"])
        print(f"  turns a message to the bot: {turns / max(1, out['messages']):.1f} "
              f"({out['messages']} messages)")  # fmt: skip
    else:
        print("during the tournaments: no turn measured")
    print(f"after: {load()}")


if __name__ == "__main__":
    main()
