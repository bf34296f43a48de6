"""What the tournament pages read: progress, results, the sets, the Tournaments tab (and
the finisher: ``results``, ``games_written``)."""

from __future__ import annotations

from django.db import connection
from django.db.models import Count, Q

from accounts.models import Player
from leaderboards.models import Tournament
from play.models import Match, Seat
from tournaments.plans import schedule


def games_written(tournament_id: int) -> int:
    return Match.objects.filter(tournament_id=tournament_id).count()


def results(t: Tournament, players: dict | None = None) -> dict:
    """When it ran, win and draw rates per player, duration, average moves per game.
    ``players``: the tournament's players by id, if the caller has them (a chain)."""
    first, last, moves, games, draws = _span(t.pk)
    seats = _seat_counts(t)
    if players is None:
        players = Player.objects.in_bulk({s["player_id"] for s in seats})
    names = {pk: p.display_name for pk, p in players.items()}
    rows = sorted(
        (
            {
                "player": s["player_id"],
                "name": names.get(s["player_id"], "?"),
                "games": s["games"],
                "win_rate": s["wins"] / s["games"],
                "draw_rate": s["draws"] / s["games"],
            }
            for s in seats
        ),
        key=lambda row: (-row["win_rate"], -row["draw_rate"], row["name"]),
    )
    return {
        "games": games,
        "started": first.isoformat() if first else None,
        "finished": last.isoformat() if last else None,
        "seconds": (last - first).total_seconds() if first and last else 0.0,
        "average_moves": round(float(moves or 0.0), 2),
        "draw_rate": draws / games if games else 0.0,
        "players": rows,
    }


def _span(tournament_id: int) -> tuple:
    """(first start, last finish, average moves, games, draws) of a tournament's games,
    in one statement: the ORM's aggregate cost ~4 ms of building, more than running it,
    at the end of every tournament. A draw: a game nobody won (EXISTS on the seats'
    match index: a join read every winning seat of every tournament)."""
    q = connection.ops.quote_name
    sql = (
        f"SELECT MIN(m.{q('started')}), MAX(m.{q('finished')}), AVG(m.{q('ply')}), COUNT(*), "
        f"COALESCE(SUM(CASE WHEN EXISTS (SELECT 1 FROM {q(Seat._meta.db_table)} s "
        f"WHERE s.{q('match_id')} = m.{q('id')} AND s.{q('result')} = %s) THEN 0 ELSE 1 END), 0) "
        f"FROM {q(Match._meta.db_table)} m WHERE m.{q('tournament_id')} = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, ["win", tournament_id])
        first, last, moves, games, draws = cursor.fetchone()
    return _as_datetime(first, "started"), _as_datetime(last, "finished"), moves, games, draws


def _as_datetime(value, field: str):
    """A match's datetime column as the ORM reads it (SQLite's arrive as text)."""
    col = Match._meta.get_field(field).get_col(Match._meta.db_table)
    for fn in connection.ops.get_db_converters(col):
        value = fn(value, col, connection)
    return value


def _seat_counts(t: Tournament) -> list[dict]:
    """Per player seated in ``t``'s games: games, wins, draws. On PostgreSQL the seats are
    reached from the tournament's matches (LATERAL: the seats' (match, index) index per
    match). With the statistics of freshly filled tables (a new site's first tournaments),
    the planner scanned every seat of the site and looked each one's match up: 14 ms for
    300 games among 40 tournaments' seats, growing with the site's history."""
    if connection.vendor != "postgresql":
        return list(
            Seat.objects.filter(match__tournament=t, kind=Seat.Kind.PLAYER)
            .values("player_id")
            .annotate(
                games=Count("id"),
                wins=Count("id", filter=Q(result="win")),
                draws=Count("id", filter=Q(result="draw")),
            )
        )
    q = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT s.{q('player_id')}, COUNT(*), COUNT(*) FILTER (WHERE s.{q('result')} = %s),"
            f" COUNT(*) FILTER (WHERE s.{q('result')} = %s) FROM {q(Match._meta.db_table)} m"
            f" CROSS JOIN LATERAL (SELECT u.{q('player_id')}, u.{q('result')}"
            f" FROM {q(Seat._meta.db_table)} u WHERE u.{q('match_id')} = m.{q('id')}"
            f" AND u.{q('kind')} = %s OFFSET 0) s"
            f" WHERE m.{q('tournament_id')} = %s GROUP BY s.{q('player_id')}",
            ["win", "draw", Seat.Kind.PLAYER.value, t.pk],
        )
        rows = cursor.fetchall()
    keys = ("player_id", "games", "wins", "draws")
    return [dict(zip(keys, row, strict=True)) for row in rows]


def tournament_names(t: Tournament) -> Q:
    ids = {pk for s in t.sets.all() for pk in s.players}
    return Q(pk__in=ids)


def progress(t: Tournament) -> dict:
    written = games_written(t.pk)
    return {
        "id": t.pk,
        "status": t.status,
        "statusLabel": t.get_status_display(),
        "written": written,
        "total": t.total_games,
        "rated": t.ratings_through,
        "percent": round(100 * written / t.total_games) if t.total_games else 100,
        "done": t.status in (Tournament.Status.DONE, Tournament.Status.FAILED),
    }


def set_rows(t: Tournament) -> list[dict]:
    names = {p.pk: p.display_name for p in Player.objects.filter(tournament_names(t))}
    numbers = Match.objects.filter(tournament=t).values_list("game_number", flat=True)
    order = schedule(t)
    per_set: dict[int, int] = {}
    for number in numbers:
        set_order = order[number - 1][0]
        per_set[set_order] = per_set.get(set_order, 0) + 1
    return [
        {"players": [names.get(pk, "?") for pk in s.players], "games": s.games,
         "written": per_set.get(s.order, 0), "game": (s.rule_set or t.rule_set).name,
         "rule_set_id": s.rule_set_id or t.rule_set_id}
        for s in t.sets.select_related("rule_set")
    ]  # fmt: skip


SORTABLE = {"created", "kind", "total_games", "average_moves", "draw_rate", "name"}
RECENT = 20  # a game's Tournaments tab: its most recent tournaments


def recent(rule_set, universe, hidden, order: str) -> list[dict]:
    """A game's Tournaments tab: the ``RECENT`` most recent tournaments with a set of
    ``rule_set`` (a plan may mix games) in ``universe``, none playing a ``hidden`` game,
    sorted by ``order`` (a ``SORTABLE`` key, "-" first for descending)."""
    found = (
        Tournament.objects.filter(Q(rule_set=rule_set) | Q(sets__rule_set=rule_set))
        .filter(universe=universe)
        .exclude(sets__rule_set__in=hidden)
        .distinct()
        .order_by("-created", "-id")[:RECENT]
    )
    return table(found, order)


def table(found, order: str) -> list[dict]:
    """The Tournaments tab: name, freshness, type, matches, average length, draw rate."""
    rows = []
    for t in found:
        r = t.results or {}
        rows.append(
            {
                "tournament": t,
                "created": t.created,
                "name": t.name.lower(),
                "kind": t.get_kind_display(),
                "total_games": t.total_games,
                "average_moves": r.get("average_moves"),
                "draw_rate": r.get("draw_rate"),
            }
        )
    key = order.lstrip("-")
    # Unknown values (a plan not run yet) last either way; ties newest first.
    known = [row for row in rows if row[key] is not None]
    known.sort(key=lambda row: row["created"], reverse=True)
    known.sort(key=lambda row: row[key], reverse=order.startswith("-"))
    return known + [row for row in rows if row[key] is None]
