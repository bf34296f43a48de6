"""A tournament's ratings applied by its chains as they write their games, in game order.

The transaction that writes a group of games (``tournament_chains._run_claimed``) also rates,
with the tournament row locked, every written game that follows ``ratings_through``
without a gap: the group's own games from what was just played (no reads: reading them
back cost more than the rating maths), games another chain wrote before them read back
in one query (``_read_back``; with two chains a third of the games or more). Both become
the entries ``batch_ratings.entries_of`` makes for the finaliser. A group written ahead of a
gap is rated by the chain that fills the gap; what is left when the last game is written
is the finaliser's. ``ratings_through`` moves in the same transaction as the ratings, so
whoever rates (a chain, a chain sent again, the finaliser) rates each game once, in game
order: the same ratings as the finaliser alone gave.
"""

from __future__ import annotations

import logging

from django.db import connection, transaction

from leaderboards.batch_ratings import rate_entries
from leaderboards.models import Tournament
from leaderboards.services import counts, default_universe, seat_results
from play.models import Match, Seat
from play.prepared import prepared_cursor

log = logging.getLogger(__name__)

AHEAD = 2000  # the other chains' games read at most per group (the rest: the next group)


def rate_written(tournament: Tournament, mine: dict, players: dict) -> int:
    """In the transaction that wrote ``mine`` ({game number: (match id, seated players,
    PlayedGame)}; ``players``: the tournament's, by id): rate the written games that
    follow ``ratings_through`` without a gap and move it. A failure is logged and rolled
    back to here: the games stay written, and a later group or the finaliser rates them.
    The last game it rated (its new ``ratings_through``; 0 if it rated none): when that
    is the tournament's last, every game is written and rated, and the tournament row
    stays locked by this transaction."""
    if not tournament.rated or not mine:
        return 0
    if connection.vendor == "postgresql":
        # The games' deferred foreign-key checks run now, not at the commit: the lock
        # taken below is held until the commit, and the other chain waits for it.
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    try:
        with transaction.atomic():  # a savepoint
            return _rate_written(tournament, mine, players)
    except Exception:
        log.exception("tournament %s: its games are left to the finaliser", tournament.pk)
        return 0


def _rate_written(tournament: Tournament, mine: dict, players: dict) -> int:
    # Plain SQL: the ORM's queries cost more than a group's ratings (~0.4 ms each).
    q = connection.ops.quote_name
    table = q(Tournament._meta.db_table)
    # No key update: the games' rows just inserted hold a key-share lock on this row.
    lock = " FOR NO KEY UPDATE" if connection.features.has_select_for_no_key_update else ""
    with prepared_cursor() as cursor:
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
    others = [number for number in run if number not in mine]
    back = _read_back(tournament, others[0], others[-1], players) if others else {}
    entry = _entries(tournament)
    todo = []
    for number in run:
        if number in mine:
            match_id, seated, game = mine[number]
            picks = iter(seated)
            seats = [
                (i, None, rank) if i == entry.chaos else (i, next(picks).pk, rank)
                for i, rank in enumerate(game.outcome.ranks)
            ]
            todo += entry(match_id, seats, seated, game.finished)
        else:
            todo += entry(*back[number])
    rate_entries(todo)
    with prepared_cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET {q('ratings_through')} = %s WHERE {q('id')} = %s",
            [run[-1], tournament.pk],
        )
    return run[-1]


def _read_back(tournament: Tournament, first: int, last: int, players: dict) -> dict:
    """The games ``first``..``last`` as written (another chain's), in ``entry``'s terms:
    {game number: (match id, seats, seated players, finished)}, in one query (a
    tournament's games have no crews and share the tournament's other fields)."""
    q = connection.ops.quote_name
    finished = Match._meta.get_field("finished")
    col = finished.get_col(Match._meta.db_table)
    convert = connection.ops.get_db_converters(col)
    seats = f"{q(Seat._meta.db_table)} s ON s.{q('match_id')} = m.{q('id')}"
    if connection.vendor == "postgresql":
        # The seats reached from each match (LATERAL, the seats' (match, index) index):
        # without statistics (tables just filled: a new site's first tournaments) the
        # planner read every seat of the site to join them, 24 ms against 0.4 at 100,000.
        seats = (
            f"LATERAL (SELECT u.{q('index')}, u.{q('player_id')}, u.{q('rank')} "
            f"FROM {q(Seat._meta.db_table)} u WHERE u.{q('match_id')} = m.{q('id')} "
            "OFFSET 0) s ON TRUE"
        )
    with prepared_cursor() as cursor:
        cursor.execute(
            f"SELECT m.{q('game_number')}, m.{q('id')}, m.{q('finished')}, s.{q('index')}, "
            f"s.{q('player_id')}, s.{q('rank')} FROM {q(Match._meta.db_table)} m "
            f"JOIN {seats} "
            f"WHERE m.{q('tournament_id')} = %s AND m.{q('game_number')} BETWEEN %s AND %s "
            f"ORDER BY m.{q('game_number')}, s.{q('index')}",
            [tournament.pk, first, last],
        )
        rows = cursor.fetchall()
    games: dict[int, tuple] = {}
    for number, match_id, when, index, player_id, rank in rows:
        if number not in games:
            for fn in convert:
                when = fn(when, col, connection)
            games[number] = (match_id, [], [], when)
        games[number][1].append((index, player_id, rank))
        if player_id is not None:
            games[number][2].append(players[player_id])
    return games


def _entries(tournament: Tournament):
    """entry(match id, seats, seated players, finished): ``entries_of``'s entry of a game
    of ``tournament``, in a list (empty when the game is not rated); ``seats``: (index,
    player id or None for Chaos, rank) in index order."""
    from play.replay import game_of_rule_set  # cached per rule set

    game = game_of_rule_set(tournament.rule_set)
    teams = tuple(game.teams)
    universe = tournament.universe or default_universe()
    creator, creator_id, rated = tournament.created_by, tournament.created_by_id, tournament.rated
    verdicts: dict[tuple, bool] = {}  # counts() of each seating's (kind, owner) pairs
    player, chaos = Seat.Kind.PLAYER, Seat.Kind.CHAOS

    def entry(match_id: int, seats, seated, finished) -> list[tuple]:
        who = tuple((p.kind, p.owner_id) for p in seated)
        if who not in verdicts:
            verdicts[who] = counts(rated, Match.Status.FINISHED, creator, creator_id, who)
        if not verdicts[who]:
            return []
        rows = [(None, i, chaos if pk is None else player, pk, rank) for i, pk, rank in seats]
        results = seat_results(teams, rows, {})
        return [(match_id, tournament.rule_set_id, universe, finished, results)]

    entry.chaos = game.chaos
    return entry
