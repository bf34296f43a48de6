"""Many matches rated in one pass (a tournament's finaliser): the same results as
``services.rate_match`` one match at a time, in the order given (a test compares them).

Everything is read as plain rows (no model instances: building them cost more than
the rating maths), the ratings are worked out in memory, then written with one
executemany per table, all in one transaction.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import Player
from leaderboards import rating as math
from leaderboards.models import Rating, RatingHistory, Universe
from leaderboards.services import (
    RATING_FIELDS,
    _advance,
    _insert_history,
    counts,
    default_universe,
    rate_match,
    seat_results,
)
from play.models import CrewMember, Match, Seat
from play.prepared import prepared_cursor
from variants.models import RuleSet

_MATCH_FIELDS = ("pk", "rule_set_id", "universe_id", "created_by_id", "rated", "status",
                 "finished")  # fmt: skip
_SEAT_FIELDS = ("match_id", "id", "index", "kind", "player_id", "rank")


def rate_matches(match_ids: Sequence[int]) -> int:
    """``rate_match`` for many matches, in the order given: one transaction, each table
    read once, one update of the rating rows and one insert of their history. A match
    rated already (or not rated at all) is skipped. How many matches moved ratings."""
    ids = list(match_ids)
    if not ids:
        return 0
    try:
        with transaction.atomic():
            return _rate(ids)
    except IntegrityError:  # another process rated some of them: one by one
        return sum(rate_match(pk) for pk in ids)


def _rate(ids: list[int]) -> int:
    return rate_entries(entries_of(ids))


def entries_of(ids: list[int]) -> list[tuple]:
    """What rating the matches ``ids`` needs, read from the database, in the order given:
    (match id, rule set id, universe, when, results) of each match that is rated and not
    rated yet. The matches are locked."""
    wanted = set(ids)
    # The matches locked (PostgreSQL) as rate_match locks its one match: these only.
    rows = Match.objects.select_for_update().filter(pk__in=ids).values_list(*_MATCH_FIELDS)
    found = {row[0]: row for row in rows}
    done = set(
        RatingHistory.objects.filter(_among("match__id", ids)).values_list("match_id", flat=True)
    )
    seats_of: dict[int, list[tuple]] = {pk: [] for pk in ids}
    seats = Seat.objects.filter(_among("match__id", ids)).order_by("match_id", "index")
    for match_id, *seat in seats.values_list(*_SEAT_FIELDS):
        if match_id in wanted:
            seats_of[match_id].append(tuple(seat))
    crews: dict[int, list[int]] = {}  # seat id -> members (others' seats' too: harmless)
    members = CrewMember.objects.filter(_among("seat__match__id", ids)).order_by("seat_id", "order")
    for seat_id, player_id in members.values_list("seat_id", "player_id"):
        crews.setdefault(seat_id, []).append(player_id)
    seated = {s[3] for rows_ in seats_of.values() for s in rows_ if s[3] is not None}
    players = dict(
        (pk, (kind, owner)) for pk, kind, owner in
        Player.objects.filter(pk__in=seated).values_list("pk", "kind", "owner_id")
    )  # fmt: skip
    creators = get_user_model().objects.in_bulk({r[3] for r in found.values() if r[3]})
    verdicts: dict[tuple, bool] = {}  # counts() of each distinct (match fields, players)
    teams = _teams({r[1] for r in found.values()})
    universes = Universe.objects.in_bulk({r[2] for r in found.values() if r[2]})

    todo = []  # (match id, rule set id, universe, when, results)
    public = None
    for pk in ids:
        row = found.get(pk)
        if row is None or pk in done:
            continue
        _, rule_set_id, universe_id, creator_id, rated, status, finished = row
        mine = seats_of[pk]
        who = tuple(players[s[3]] for s in mine if s[2] == Seat.Kind.PLAYER and s[3] is not None)
        key = (rated, status, creator_id, who)
        if key not in verdicts:
            verdicts[key] = counts(rated, status, creators.get(creator_id), creator_id, who)
        if not verdicts[key]:
            continue
        if universe_id is None:
            public = public or default_universe()
            universe = public
        else:
            universe = universes[universe_id]
        results = seat_results(teams[rule_set_id], mine, crews)
        todo.append((pk, rule_set_id, universe, finished or timezone.now(), results))
    return todo


def rate_entries(todo: list[tuple]) -> int:
    """Rate ``entries_of``'s entries (or the same built from memory: a tournament's chain)
    in their order: the rating rows read and locked once, then one update of them and one
    insert of their history. How many matches moved ratings."""
    if not todo:
        return 0
    wanted: dict[tuple, set[int]] = {}  # (rule set id, universe id) -> player ids
    for _, rule_set_id, universe, _, results in todo:
        keys = {r.key for r in results if r.key is not None}
        wanted.setdefault((rule_set_id, universe.pk), set()).update(keys)
    ratings = {}  # (rule set id, universe id, player id) -> Rating
    for (rule_set_id, universe_id), keys in wanted.items():
        first = next(t for t in todo if t[1] == rule_set_id and t[2].pk == universe_id)
        for row in _locked_ratings(sorted(keys), rule_set_id, first[2], first[3]):
            ratings[(rule_set_id, universe_id, row.player_id)] = row
    history = []
    adapt = connection.ops.adapt_datetimefield_value
    for match_id, rule_set_id, universe, when, results in todo:
        universe_id = universe.pk  # (a model's pk is a property: read once a game)
        mine = {
            r.key: ratings[(rule_set_id, universe_id, r.key)] for r in results if r.key is not None
        }
        skills = {k: math.Skill(r.mu, r.sigma) for k, r in mine.items()}
        at = adapt(when)
        expected = math.expectation(results, skills)
        for key, skill in math.rate_match(results, skills).items():
            row = mine[key]
            values = _advance(row, skill, when)
            win = expected.wins.get(key)
            history.append((row.pk, match_id, row.player_id, *values, at, win, expected.draw))
    _save(list(ratings.values()))
    _insert_history(history)
    return len(todo)


def _among(field: str, ids: list[int]) -> Q:
    """``field`` in ``ids``; a range when the ids are dense, as a tournament's matches are
    (the ORM prepares each value of an IN list on its own: 300 of them cost more than
    the query). The caller drops the rows of other ids."""
    low, high = min(ids), max(ids)
    if high - low < 2 * len(ids):
        return Q(**{f"{field}__range": (low, high)})
    return Q(**{f"{field}__in": ids})


def _teams(rule_set_ids: set[int]) -> dict[int, tuple[int, ...]]:
    """Each rule set's team of each seat index (its game compiled once, then cached)."""
    from play.replay import game_of_rule_set

    return {
        pk: tuple(game_of_rule_set(rule_set).teams)
        for pk, rule_set in RuleSet.objects.in_bulk(rule_set_ids).items()
    }


def _locked_ratings(keys: list[int], rule_set_id: int, universe, when) -> list[Rating]:
    """The rating rows of ``keys``, the missing ones created (as ``get_or_create`` would,
    in one insert), locked in id order (no deadlock between two raters). Plain SQL: a
    tournament's chain calls this for each group of games, and the ORM's queries cost
    ten times more than the rows."""
    rows = _ratings(keys, rule_set_id, universe.pk, lock=False)
    have = {row.player_id for row in rows}
    missing = [
        Rating(player_id=k, rule_set_id=rule_set_id, universe=universe, level_since=when)
        for k in keys
        if k not in have
    ]
    if missing:
        Rating.objects.bulk_create(missing, ignore_conflicts=True)
    if missing or connection.features.has_select_for_update:
        rows = _ratings(keys, rule_set_id, universe.pk, lock=True)
    return rows


def _ratings(keys: list[int], rule_set_id: int, universe_id: int, lock: bool) -> list[Rating]:
    q = connection.ops.quote_name
    fields = Rating._meta.concrete_fields
    names = [f.attname for f in fields]
    sql = (
        f"SELECT {', '.join(q(f.column) for f in fields)} FROM {q(Rating._meta.db_table)} "
        f"WHERE {q('rule_set_id')} = %s AND {q('universe_id')} = %s "
        f"AND {q('player_id')} IN ({', '.join(['%s'] * len(keys))}) ORDER BY {q('id')}"
    )
    if lock and connection.features.has_select_for_update:
        sql += " FOR UPDATE"
    with prepared_cursor() as cursor:
        cursor.execute(sql, [rule_set_id, universe_id, *keys])
        found = cursor.fetchall()
    # The backend's converters (SQLite's datetimes arrive as text), as the ORM applies them.
    table = Rating._meta.db_table
    convert = [
        (i, fn, col)
        for i, f in enumerate(fields)
        for col in [f.get_col(table)]
        for fn in connection.ops.get_db_converters(col)
    ]
    rows = []
    for values in found:
        values = list(values)
        for i, fn, col in convert:
            values[i] = fn(values[i], col, connection)
        rows.append(Rating.from_db(connection.alias, names, values))
    return rows


def _save(rows: list[Rating]) -> None:
    """The rating rows' ``RATING_FIELDS`` in one executemany (the ORM's bulk update builds
    a CASE per field and row)."""
    if not rows:
        return
    q = connection.ops.quote_name
    fields = [Rating._meta.get_field(name) for name in RATING_FIELDS]
    sql = "UPDATE {} SET {} WHERE {} = %s".format(
        q(Rating._meta.db_table), ", ".join(f"{q(f.column)} = %s" for f in fields), q("id")
    )
    params = [
        [f.get_db_prep_save(getattr(row, f.attname), connection) for f in fields] + [row.pk]
        for row in rows
    ]
    with connection.cursor() as cursor:
        cursor.executemany(sql, params)
