"""A tournament's ratings applied by its chains as they write their games, in game order.

The transaction that writes a group of games (``tournaments._run_claimed``) also rates,
with the tournament row locked, every written game that follows ``ratings_through``
without a gap: the group's own games from what was just played (no reads: reading them
back cost more than the rating maths), games another chain wrote before them read back
as the finaliser reads them (``batch_ratings.entries_of``). A group written ahead of a
gap is rated by the chain that fills the gap; what is left when the last game is written
is the finaliser's. ``ratings_through`` moves in the same transaction as the ratings, so
whoever rates (a chain, a chain sent again, the finaliser) rates each game once, in game
order: the same ratings as the finaliser alone gave.
"""

from __future__ import annotations

import logging

from django.db import connection, transaction

from leaderboards.batch_ratings import entries_of, rate_entries
from leaderboards.models import Tournament
from leaderboards.services import counts, default_universe, seat_results
from play.models import Match, Seat

log = logging.getLogger(__name__)

AHEAD = 2000  # the other chains' games read at most per group (the rest: the next group)


def rate_written(tournament: Tournament, mine: dict) -> int:
    """In the transaction that wrote ``mine`` ({game number: (match id, seated players,
    PlayedGame)}): rate the written games that follow ``ratings_through`` without a
    gap and move it. A failure is logged and rolled back to here: the games stay written,
    and a later group or the finaliser rates them. How many games it rated."""
    if not tournament.rated or not mine:
        return 0
    try:
        with transaction.atomic():  # a savepoint
            return _rate_written(tournament, mine)
    except Exception:
        log.exception("tournament %s: its games are left to the finaliser", tournament.pk)
        return 0


def _rate_written(tournament: Tournament, mine: dict) -> int:
    # Plain SQL: the ORM's queries cost more than a group's ratings (~0.4 ms each).
    q = connection.ops.quote_name
    table = q(Tournament._meta.db_table)
    # No key update: the games' rows just inserted hold a key-share lock on this row.
    lock = " FOR NO KEY UPDATE" if connection.features.has_select_for_no_key_update else ""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {q('ratings_through')} FROM {table} WHERE {q('id')} = %s "
            f"AND {q('status')} = %s{lock}",
            [tournament.pk, Tournament.Status.RUNNING.value],
        )
        row = cursor.fetchone()
        if row is None:
            return 0  # finalising (the finaliser rates) or failed
        through = row[0]
        low, high = min(mine), max(mine)
        gapless = len(mine) == high - low + 1  # mine has no gap (a batch sent again may)
        cursor.execute(
            f"SELECT {q('game_number')}, {q('id')} FROM {q(Match._meta.db_table)} "
            f"WHERE {q('tournament_id')} = %s AND {q('game_number')} > %s "
            f"AND NOT {q('game_number')} BETWEEN %s AND %s ORDER BY {q('game_number')} LIMIT %s",
            [tournament.pk, through, low if gapless else 0, high if gapless else -1, AHEAD],
        )
        written = dict(cursor.fetchall())
    run = []  # the game numbers rated now: from through + 1 on, without a gap
    number = through + 1
    while number in mine or number in written:
        run.append(number)
        number += 1
    if not run:
        return 0
    todo, read = [], []  # consecutive games of other chains are read together
    entry = _from_memory(tournament)
    for number in run:
        if number in mine:
            todo += entries_of(read) if read else []
            read = []
            todo += entry(*mine[number])
        else:
            read.append(written[number])
    todo += entries_of(read) if read else []
    rate_entries(todo)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET {q('ratings_through')} = %s WHERE {q('id')} = %s",
            [run[-1], tournament.pk],
        )
    return len(run)


def _from_memory(tournament: Tournament):
    """entry(match id, seated players, PlayedGame): ``entries_of``'s entry of a game just
    written, built from memory, in a list (empty when the game is not rated)."""
    from play.replay import game_of_rule_set  # cached per rule set

    game = game_of_rule_set(tournament.rule_set)
    teams, chaos = tuple(game.teams), game.chaos
    universe = tournament.universe or default_universe()
    creator, creator_id, rated = tournament.created_by, tournament.created_by_id, tournament.rated
    verdicts: dict[tuple, bool] = {}  # counts() of each seating's (kind, owner) pairs

    def entry(match_id: int, seated, played) -> list[tuple]:
        who = tuple((p.kind, p.owner_id) for p in seated)
        if who not in verdicts:
            verdicts[who] = counts(rated, Match.Status.FINISHED, creator, creator_id, who)
        if not verdicts[who]:
            return []
        picks = iter(seated)
        rows = [
            (None, i, Seat.Kind.CHAOS, None, rank)
            if i == chaos
            else (None, i, Seat.Kind.PLAYER, next(picks).pk, rank)
            for i, rank in enumerate(played.outcome.ranks)
        ]
        results = seat_results(teams, rows, {})
        return [(match_id, tournament.rule_set_id, universe, played.finished, results)]

    return entry
