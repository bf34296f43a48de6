"""Games played away from the live path (tournaments), written as finished matches.

A recorded game is a match like any other: a ``Match`` (status finished, the
``game:over`` outcome), its ``Seat``s with result and rank, and the move log, so the
replay page, the stats and the ratings read it the same way. The tournament's unique
(tournament, game number) makes a second write of one game fail: a retried batch
cannot count a game twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from .events import game_over_event
from .models import Match, Move, Seat


@dataclass(frozen=True)
class PlayedMove:
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
                outcome=game_over_event(game.outcome),
                rated=rated,
                universe=universe,
                tournament=tournament,
                game_number=game_number,
            )
            Seat.objects.bulk_create(_seats(match, players, chaos, game.outcome))
            Move.objects.bulk_create(
                Move(
                    match=match,
                    ply=ply,
                    seat=m.seat,
                    kind=m.kind,
                    notation=m.notation,
                    auto=True,
                    think_ms=m.think_ms,
                )
                for ply, m in enumerate(game.moves, 1)
            )
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
) -> list[Match] | None:
    """Write several finished games, each (players, game, game number), with one insert
    per table in one transaction: a tournament batch's games. Returns the matches; or
    ``None``, with nothing written, if one of them was already written (the caller then
    writes them one by one with ``record_game``, which skips those)."""
    if not games:
        return []
    try:
        with transaction.atomic():
            matches = [
                Match(
                    rule_set=rule_set,
                    seed=game.seed,
                    status=Match.Status.FINISHED,
                    created_by=by,
                    started=game.started,
                    finished=game.finished,
                    ply=len(game.moves),
                    outcome=game_over_event(game.outcome),
                    rated=rated,
                    universe=universe,
                    tournament=tournament,
                    game_number=number,
                )
                for _, game, number in games
            ]
            if tournament is None:
                matches = Match.objects.bulk_create(matches)
            else:
                _insert_matches(matches, tournament)
            # The seats and the moves (most of the rows: ~20 a game) in one executemany
            # each: the ORM's per-field preparation cost more than the games themselves.
            seats = [
                row
                for match, (players, game, _) in zip(matches, games, strict=True)
                for row in _seat_rows(match.pk, players, chaos, game.outcome)
            ]
            created = connection.ops.adapt_datetimefield_value(timezone.now())
            rows = [
                (match.pk, ply, m.seat, str(m.kind), m.notation, True, m.think_ms, created)
                for match, (_, game, _) in zip(matches, games, strict=True)
                for ply, m in enumerate(game.moves, 1)
            ]
            with connection.cursor() as cursor:
                cursor.executemany(_insert(Seat, _SEAT_COLUMNS), seats)
                cursor.executemany(_MOVE_INSERT, rows)
    except IntegrityError:
        if tournament is None:
            raise
        return None
    return matches


# The columns of a batch's matches that differ from game to game; the others are the
# same for all (prepared once, from the first).
_MATCH_VARYING = ("seed", "started", "finished", "ply", "outcome", "game_number")


def _insert_matches(matches: list[Match], tournament) -> None:
    """A tournament batch's matches in one executemany, then their ids read back by game
    number (the ORM's bulk insert prepares every field of every row: it cost more than
    the games). Sets each match's pk, as ``bulk_create`` does."""
    fields = [f for f in Match._meta.concrete_fields if not f.primary_key]
    first = matches[0]
    fixed = {
        f.attname: f.get_db_prep_save(f.pre_save(first, add=True), connection)
        for f in fields
        if f.name not in _MATCH_VARYING
    }
    varying = [f for f in fields if f.name in _MATCH_VARYING]
    rows = []
    for match in matches:
        match.created = first.created  # pre_save (auto_now_add) set it on the first only
        row = dict(fixed)
        for f in varying:
            row[f.attname] = f.get_db_prep_save(getattr(match, f.attname), connection)
        rows.append([row[f.attname] for f in fields])
    with connection.cursor() as cursor:
        cursor.executemany(_insert(Match, [f.column for f in fields]), rows)
    numbers = [m.game_number for m in matches]
    ids = dict(
        Match.objects.filter(tournament=tournament, game_number__in=numbers).values_list(
            "game_number", "pk"
        )
    )
    for match in matches:
        match.pk = ids[match.game_number]
        match._state.adding = False
        match._state.db = "default"


_SEAT_COLUMNS = ("match_id", "index", "kind", "player_id", "invitation", "result", "rank")


def _insert(model, columns) -> str:
    """An INSERT of ``columns`` into ``model``'s table, names quoted ("index" is a word
    of SQL)."""
    quote = connection.ops.quote_name
    return "INSERT INTO {} ({}) VALUES ({})".format(
        quote(model._meta.db_table),
        ", ".join(quote(c) for c in columns),
        ", ".join(["%s"] * len(columns)),
    )


_MOVE_COLUMNS = ("match_id", "ply", "seat", "kind", "notation", "auto", "think_ms", "created")
_MOVE_INSERT = "INSERT INTO {} ({}) VALUES ({})".format(
    Move._meta.db_table,
    ", ".join(_MOVE_COLUMNS),
    ", ".join(["%s"] * len(_MOVE_COLUMNS)),
)


def _seat_rows(match_id: int, players: Sequence, chaos: int | None, outcome) -> list[tuple]:
    """``_seats`` as rows of ``_SEAT_COLUMNS`` (no model instances: they cost more than
    the games)."""
    picks = iter(players)
    accepted = Seat.Invitation.ACCEPTED.value
    rows = []
    for index, (result, rank) in enumerate(zip(outcome.results, outcome.ranks, strict=True)):
        if index == chaos:
            rows.append((match_id, index, Seat.Kind.CHAOS.value, None, accepted, result, rank))
        else:
            player = next(picks).pk
            rows.append((match_id, index, Seat.Kind.PLAYER.value, player, accepted, result, rank))
    return rows


def _seats(match: Match, players: Sequence, chaos: int | None, outcome) -> list[Seat]:
    picks = iter(players)
    seats = []
    for index, result in enumerate(outcome.results):
        common = {"match": match, "index": index, "result": result, "rank": outcome.ranks[index]}
        if index == chaos:
            seats.append(Seat(kind=Seat.Kind.CHAOS, **common))
        else:
            seats.append(Seat(kind=Seat.Kind.PLAYER, player=next(picks), **common))
    return seats
