"""Games played away from the live path (tournaments), written as finished matches.

A recorded game is a match like any other: a ``Match`` (status finished, the
``game:over`` outcome), its ``Seat``s with result and rank, and the move log, so the
replay page, the stats and the ratings read it the same way. The log is packed into the
match's row (``play.move_log``), not a ``Move`` row a ply: written once, it is read
whole. The tournament's unique
(tournament, game number) makes a second write of one game fail: a retried batch
cannot count a game twice.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import NamedTuple

from django.db import IntegrityError, connection, transaction

from .bulk import insert_rows
from .events import game_over_event
from .models import Match, Move, Seat
from .move_log import pack, think_totals
from .prepared import prepared_cursor


class PlayedMove(NamedTuple):
    """One move of a played game (a tuple: a tournament makes thousands a second)."""

    seat: int
    notation: str  # str(move)
    think_ms: int = 0
    kind: str = Move.Kind.MOVE  # or a timer's row (timeout, disconnect, skip): own bots


@dataclass(frozen=True)
class PlayedGame:
    """What a bot game produced: the seed it started from, its moves and its end."""

    seed: int
    moves: Sequence[PlayedMove]
    outcome: object  # the engine's Outcome
    started: datetime
    finished: datetime
    versions: dict = field(default_factory=dict)  # own bots' seats: the version that played
    # learning AIs' predictions: (seat, ply, prediction) tuples (aiplayers.predictions)
    predictions: tuple = ()


def record_game(
    rule_set,
    players: Sequence,
    chaos: int | None,
    game: PlayedGame,
    *,
    by=None,
    rated: bool = True,
    universe=None,
    tournament=None,
    game_number: int | None = None,
) -> Match | None:
    """Write one finished game; ``players`` has one Player per non-Chaos seat, in seat
    order. Returns the match, or ``None`` if this tournament game was already written."""
    try:
        with transaction.atomic():
            match = Match.objects.create(
                rule_set=rule_set,
                seed=game.seed,
                status=Match.Status.FINISHED,
                created_by=by,
                started=game.started,
                finished=game.finished,
                ply=len(game.moves),
                move_log=pack(game.moves),
                outcome=game_over_event(game.outcome),
                rated=rated,
                universe=universe,
                tournament=tournament,
                game_number=game_number,
            )
            Seat.objects.bulk_create(_seats(match, players, chaos, game))
    except IntegrityError:
        if tournament is None:
            raise
        return None  # the same game number was written by another try
    return match


def record_games(
    rule_set,
    chaos: int | None,
    games: Sequence[tuple[Sequence, PlayedGame, int | None]],
    *,
    by=None,
    rated: bool = True,
    universe=None,
    tournament=None,
) -> list[int] | None:
    """Write several finished games, each (players, game, game number), with one insert
    per table in one transaction: a tournament's batches. Returns the matches' ids in
    the order given; or ``None``, with nothing written, if one of them was already
    written (the caller then writes them one by one with ``record_game``, which skips
    those)."""
    if not games:
        return []
    if tournament is not None:
        return write_games(
            prepare_games(rule_set, chaos, games, by=by, rated=rated, universe=universe,
                          tournament=tournament)
        )  # fmt: skip
    template = _template(rule_set, by, rated, universe, None)
    with transaction.atomic():  # no game numbers to read the ids back by
        made = [_match(template, game, number) for _, game, number in games]
        ids = [m.pk for m in Match.objects.bulk_create(made)]
        seats = [
            row
            for match_id, (players, game, _) in zip(ids, games, strict=True)
            for row in _seat_rows(match_id, players, chaos, game)
        ]
        insert_rows(Seat._meta.db_table, _SEAT_COLUMNS, seats)
    return ids


@dataclass(frozen=True)
class Prepared:
    """A tournament's games as rows, built before the transaction that writes them (on
    SQLite a write transaction holds the database's one write lock: the other chain
    waits while Python builds rows). The match ids are known only once written."""

    tournament_id: int
    numbers: list[int]
    matches: tuple[list[tuple], dict]  # _match_rows(): the packed logs among them
    seats: list[list[tuple]]  # each game's seat rows, without the match id


def prepare_games(rule_set, chaos, games, *, by, rated, universe, tournament) -> Prepared:
    """``record_games``' rows of a tournament's games, not written yet."""
    template = _template(rule_set, by, rated, universe, tournament)
    outcomes: dict = {}  # the games' few distinct outcomes, each prepared once
    return Prepared(
        tournament.pk,
        [number for _, _, number in games],
        _match_rows(template, games, outcomes),
        [
            _seat_rows(None, players, chaos, game, _outcome_of(game.outcome, outcomes)[1])
            for players, game, _ in games
        ],
    )


def _outcome_of(outcome, cache: dict) -> tuple:
    """(the ``outcome`` column's value, the ranks) of a game's outcome, from ``cache`` if
    an equal outcome was seen (a tournament's games end in few ways: the JSON and the
    ranks cost more than the rest of a match's row). The value is the JSON text on every
    backend: PostgreSQL's COPY reads a jsonb from its text (``insert_rows``), and the
    text lets the whole copy be built as text, not row by row by psycopg."""
    try:
        found = cache.get(outcome)
    except TypeError:  # an unhashable outcome (never from the engine): prepared each time
        found, cache = None, {}
    if found is None:
        event = game_over_event(outcome)
        field = Match._meta.get_field("outcome")
        found = (json.dumps(event, cls=field.encoder), tuple(event["ranks"]))
        cache[outcome] = found
    return found


def write_games(prepared: Prepared) -> list[int] | None:
    """Write ``prepare_games``' rows (one insert per table, in a savepoint of the
    caller's transaction); the matches' ids in order, or ``None``, with nothing written,
    if one of the games was already written."""
    if not prepared.numbers:
        return []
    try:
        with transaction.atomic():
            ids = _insert_matches(prepared)
            seats = [
                (match_id, *row[1:])
                for match_id, rows in zip(ids, prepared.seats, strict=True)
                for row in rows
            ]
            insert_rows(Seat._meta.db_table, _SEAT_COLUMNS, seats)
    except IntegrityError:
        return None
    return ids


def _template(rule_set, by, rated, universe, tournament) -> Match:
    return Match(
        rule_set=rule_set,
        status=Match.Status.FINISHED,
        created_by=by,
        rated=rated,
        universe=universe,
        tournament=tournament,
    )


def _match(template: Match, game: PlayedGame, number: int | None) -> Match:
    return Match(
        rule_set=template.rule_set,
        seed=game.seed,
        status=template.status,
        created_by=template.created_by,
        started=game.started,
        finished=game.finished,
        ply=len(game.moves),
        move_log=pack(game.moves),
        outcome=game_over_event(game.outcome),
        rated=template.rated,
        universe=template.universe,
        game_number=number,
    )


# a game's own columns (the others are the same for every game of an insert)
_MATCH_OWN = ("seed", "started", "finished", "ply", "move_log", "outcome", "game_number")


def _match_rows(
    template: Match, games: Sequence[tuple], outcomes: dict
) -> tuple[list[tuple], dict]:
    """The games' match rows: each game's own values (``_MATCH_OWN``), and {column:
    value} of the fields every game shares, prepared once from ``template`` (no model
    instance a game: the ORM's bulk insert prepares every field of every row, which cost
    more than the games)."""
    same = {
        f.column: f.get_db_prep_save(f.pre_save(template, add=True), connection)
        for f in _match_fields()
        if f.attname not in _MATCH_OWN
    }
    when = connection.ops.adapt_datetimefield_value
    rows = [
        (
            game.seed,
            when(game.started),
            when(game.finished),
            len(game.moves),
            pack(game.moves),
            _outcome_of(game.outcome, outcomes)[0],
            number,
        )
        for _, game, number in games
    ]
    return rows, same


def _match_fields() -> list:
    return [f for f in Match._meta.concrete_fields if not f.primary_key]


def _insert_matches(prepared: Prepared) -> list[int]:
    """The prepared match rows in one insert; their ids read back by game number."""
    numbers = prepared.numbers
    q = connection.ops.quote_name
    rows, same = prepared.matches
    insert_rows(Match._meta.db_table, _MATCH_OWN, rows, same)
    with prepared_cursor() as cursor:
        cursor.execute(
            f"SELECT {q('game_number')}, {q('id')} FROM {q(Match._meta.db_table)} "
            f"WHERE {q('tournament_id')} = %s AND {q('game_number')} BETWEEN %s AND %s",
            [prepared.tournament_id, min(numbers), max(numbers)],
        )
        found = dict(cursor.fetchall())
    return [found[number] for number in numbers]


_SEAT_COLUMNS = (
    "match_id", "index", "kind", "player_id", "invitation", "result", "rank",
    "moves_made", "think_total_ms",
)  # fmt: skip


def _seat_rows(
    match_id: int, players: Sequence, chaos: int | None, game, ranks: Sequence | None = None
) -> list[tuple]:
    """``_seats`` as rows of ``_SEAT_COLUMNS`` (no model instances: they cost more than
    the games); ``ranks``: the outcome's, if known."""
    outcome = game.outcome
    picks = iter(players)
    accepted = Seat.Invitation.ACCEPTED.value
    totals = think_totals(game.moves, len(outcome.results))
    rows = []
    ranks = outcome.ranks if ranks is None else ranks
    for index, (result, rank) in enumerate(zip(outcome.results, ranks, strict=True)):
        made, ms = totals[index]
        if index == chaos:
            kind, player = Seat.Kind.CHAOS.value, None
        else:
            kind, player = Seat.Kind.PLAYER.value, next(picks).pk
        rows.append((match_id, index, kind, player, accepted, result, rank, made, ms))
    return rows


def _seats(match: Match, players: Sequence, chaos: int | None, game) -> list[Seat]:
    outcome = game.outcome
    picks = iter(players)
    totals = think_totals(game.moves, len(outcome.results))
    seats = []
    for index, result in enumerate(outcome.results):
        made, ms = totals[index]
        common = {"match": match, "index": index, "result": result, "rank": outcome.ranks[index],
                  "moves_made": made, "think_total_ms": ms}  # fmt: skip
        if index == chaos:
            seats.append(Seat(kind=Seat.Kind.CHAOS, **common))
        else:
            seats.append(Seat(kind=Seat.Kind.PLAYER, player=next(picks), **common))
    return seats
