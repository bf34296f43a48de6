"""Fill PostgreSQL with players and rated matches, then time the leaderboard page.

    DATABASE_URL=postgres://.../vf_bench python manage.py migrate
    DATABASE_URL=postgres://.../vf_bench python manage.py bench_leaderboard \
        --players 10000 --matches 1000000 --requests 200

Use a database of its own: the command adds its players ("bench-00001", ...), its
matches of Tic-Tac-Toe (each with two seats and two rating-history rows, the ratings
computed by openskill in match order, like the live path) and then requests the
leaderboard page through Django's test client, printing the median and 95th percentile.
Rows are written with COPY in chunks; the matches carry no move logs (the page reads none).
``--skip-fill`` times an already filled database again.
"""

from __future__ import annotations

import random
import statistics
import time
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.test import Client
from django.utils import timezone

from accounts.models import Player
from leaderboards import rating as math
from leaderboards.models import Rating
from leaderboards.services import default_universe
from play.models import Match

CHUNK = 50_000
PREFIX = "bench-"


class Command(BaseCommand):
    help = "Fill the database with players and rated matches; time the leaderboard page."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=10_000)
        parser.add_argument("--matches", type=int, default=1_000_000)
        parser.add_argument("--requests", type=int, default=200)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--skip-fill", action="store_true")

    def handle(self, *args, **options):
        if connection.vendor != "postgresql":
            raise CommandError("Run it on PostgreSQL (set DATABASE_URL to a database of its own).")
        from variants.models import RuleSet
        from variants.services import load_catalogue

        load_catalogue()
        ttt = RuleSet.objects.get(name="Tic-Tac-Toe")
        user = get_user_model().objects.filter(username=f"{PREFIX}user").first()
        if not options["skip_fill"]:
            started = time.perf_counter()
            user = self.fill(ttt, options["players"], options["matches"], options["seed"])
            self.stdout.write(f"filled in {time.perf_counter() - started:.0f} s")
        self.report_sizes()
        self.time_pages(ttt, user, options["requests"])

    # --- filling ----------------------------------------------------------------------------

    def fill(self, ttt, players: int, matches: int, seed: int):
        if Player.objects.filter(name__startswith=PREFIX).exists():
            raise CommandError("This database already has bench players: use --skip-fill.")
        user = get_user_model().objects.create_user(f"{PREFIX}user")
        ids = [user.player.pk] + self.make_bots(players - 1)
        universe = default_universe()
        start = timezone.now() - timedelta(days=365)
        ratings = Rating.objects.bulk_create(
            Rating(player_id=pk, rule_set=ttt, universe=universe, level_since=start) for pk in ids
        )
        state = {
            r.player_id: {"id": r.pk, "skill": math.BEGINNER, "burst": 0.0, "n": 0, "since": start}
            for r in ratings
        }
        rng = random.Random(seed)
        first_id = (Match.objects.order_by("-id").values_list("id", flat=True).first() or 0) + 1
        step = timedelta(days=365) / max(1, matches)
        for offset in range(0, matches, CHUNK):
            count = min(CHUNK, matches - offset)
            rows = self.chunk(ttt, ids, state, rng, first_id + offset, count, start, step, offset)
            self.copy(*rows)
            self.stdout.write(f"  {offset + count:>9} matches")
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT setval(pg_get_serial_sequence('play_match', 'id'), %s)",
                [first_id + matches - 1],
            )
        self.save_ratings(state)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        return user

    def make_bots(self, n: int) -> list[int]:
        bots = Player.objects.bulk_create(
            Player(kind=Player.Kind.BOT, name=f"{PREFIX}{i:05d}", bot_spec={"kind": "random"})
            for i in range(1, n + 1)
        )
        return [b.pk for b in bots]

    def chunk(self, ttt, ids, state, rng, first_id, count, start, step, offset):
        matches, seats, history = [], [], []
        outcome = '{"type": "game:over", "reason": "victory"}'
        for k in range(count):
            match_id = first_id + k
            when = (start + step * (offset + k)).isoformat()
            a, b = rng.sample(ids, 2)
            roll = rng.random()
            ranks = (1, 2) if roll < 0.45 else (2, 1) if roll < 0.9 else (1, 1)
            results = {1: "win", 2: "loss"} if ranks != (1, 1) else {1: "draw"}
            matches.append((match_id, ttt.pk, rng.randrange(2**31), "finished", when, when, when,
                            7, outcome, True, 60, 20, 60, False, "", 1, "[]", "{}",
                            False))  # fmt: skip
            seats.append((match_id, 0, "player", a, "accepted", results[ranks[0]], ranks[0]))
            seats.append((match_id, 1, "player", b, "accepted", results[ranks[1]], ranks[1]))
            seated = [math.SeatResult(a, 0, ranks[0]), math.SeatResult(b, 1, ranks[1])]
            new = math.rate_match(seated, {a: state[a]["skill"], b: state[b]["skill"]})
            for pk, skill in new.items():
                history.append(self.apply(state[pk], skill, match_id, pk, when))
        return matches, seats, history

    @staticmethod
    def apply(entry, skill, match_id, pk, when):
        before = entry["skill"]
        if math.level(skill.ordinal) != math.level(before.ordinal) or entry["n"] == 0:
            entry["since"] = when
        entry["burst"] = max(entry["burst"], skill.ordinal - before.ordinal)
        entry["skill"], entry["n"], entry["last"] = skill, entry["n"] + 1, when
        return (entry["id"], match_id, pk, before.mu, before.sigma, skill.mu, skill.sigma,
                before.ordinal, skill.ordinal, when)  # fmt: skip

    def copy(self, matches, seats, history):
        tables = [
            ("play_match", "id, rule_set_id, seed, status, created, started, finished, ply, "
             "outcome, rated, afk_timeout, afk_warning, reconnect_window, afk_warned, "
             "series_end, series_game, series_ready, team_clocks, afk_on", matches),
            ("play_seat", "match_id, index, kind, player_id, invitation, result, rank", seats),
            ("leaderboards_ratinghistory", "rating_id, match_id, player_id, mu_before, "
             "sigma_before, mu_after, sigma_after, ordinal_before, ordinal_after, at", history),
        ]  # fmt: skip
        with transaction.atomic(), connection.cursor() as cursor:
            for table, columns, rows in tables:
                with cursor.connection.cursor().copy(
                    f"COPY {table} ({columns}) FROM STDIN"
                ) as copy:
                    for row in rows:
                        copy.write_row(row)

    def save_ratings(self, state):
        rows = []
        for pk, entry in state.items():
            skill = entry["skill"]
            rows.append(
                Rating(
                    id=entry["id"],
                    player_id=pk,
                    mu=skill.mu,
                    sigma=skill.sigma,
                    ordinal=skill.ordinal,
                    top_burst=entry["burst"],
                    score=skill.ordinal + entry["burst"],
                    level_since=entry["since"],
                    matches=entry["n"],
                    last_match=entry.get("last"),
                )
            )
        fields = ["mu", "sigma", "ordinal", "top_burst", "score", "level_since", "matches",
                  "last_match"]  # fmt: skip
        Rating.objects.bulk_update(rows, fields, batch_size=2000)

    # --- timing -----------------------------------------------------------------------------

    def report_sizes(self):
        with connection.cursor() as cursor:
            for table in ("accounts_player", "play_match", "play_seat",
                          "leaderboards_ratinghistory", "leaderboards_rating"):  # fmt: skip
                cursor.execute(f"SELECT count(*) FROM {table}")
                self.stdout.write(f"{table}: {cursor.fetchone()[0]} rows")

    def time_pages(self, ttt, user, requests: int):
        url = f"/games/{ttt.pk}/leaderboard/"
        anonymous, member = Client(HTTP_HOST="localhost"), Client(HTTP_HOST="localhost")
        if user is not None:
            member.force_login(user)
        low = Rating.objects.filter(rule_set=ttt).order_by("score").first()
        cases = [
            ("anonymous", anonymous, url),
            ("logged in, own row", member, url),
            ("with Add Player", member, f"{url}?add={low.player_id}" if low else url),
        ]
        for label, client, target in cases:
            assert client.get(target).status_code == 200  # warm up
            times = []
            for _ in range(requests):
                clock = time.perf_counter()
                response = client.get(target)
                times.append((time.perf_counter() - clock) * 1000)
                assert response.status_code == 200
            times.sort()
            p95 = times[max(0, round(0.95 * len(times)) - 1)]
            self.stdout.write(
                f"leaderboard page ({label}): median {statistics.median(times):.1f} ms, "
                f"p95 {p95:.1f} ms over {requests} requests"
            )
