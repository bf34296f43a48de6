"""Ratings and leaderboards: apply a finished match to its players' ratings; read a rule
set's leaderboard. The math is ``leaderboards.rating`` (pure Python); this module reads
and writes the rows, each write in one transaction with the rating rows locked.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import Player
from accounts.roles import is_trainer_or_admin
from leaderboards import rating as math
from leaderboards.models import (
    DEFAULT_UNIVERSE_SLUG,
    Rating,
    RatingHistory,
    StandardPlayer,
    Universe,
)
from play.crews import has_crews
from play.models import CrewMember, Match, Seat

log = logging.getLogger(__name__)

TOP_RANKED = 10  # ranks shown on a leaderboard
MAX_ROWS = 10  # rows shown, ranked players and the always-shown ones together
MAX_PLAYER_CHOICES = 500  # names offered by the leaderboard's player combobox


# --- universes ----------------------------------------------------------------------------


def default_universe() -> Universe:
    """The public universe (made by a migration; re-made if a test flushed the table)."""
    universe, _ = Universe.objects.get_or_create(
        slug=DEFAULT_UNIVERSE_SLUG, defaults={"name": "Public Universe"}
    )
    return universe


def universes_for(user) -> list[Universe]:
    """The public universe and every universe where ``user`` has a persona."""
    options = [default_universe()]
    if getattr(user, "is_authenticated", False):
        others = (
            Universe.objects.filter(members__kind=Player.Kind.PERSONA, members__owner=user)
            .exclude(slug=DEFAULT_UNIVERSE_SLUG)
            .distinct()
            .order_by("name")
        )
        options += list(others)
    return options


# --- applying a match ----------------------------------------------------------------------


def counts_for_ratings(match: Match, seats: Sequence[Seat]) -> bool:
    """Is this finished match rated? Not when it was created unrated, and not when a
    Trainer's own bots play only each other (a Trainer's experiments, on a clock nobody
    is waiting on, must not move the public ratings)."""
    players = [s.player for s in seats if s.kind == Seat.Kind.PLAYER and s.player is not None]
    return counts(
        match.rated,
        match.status,
        match.created_by,
        match.created_by_id,
        [(p.kind, p.owner_id) for p in players],
    )


def counts(rated: bool, status: str, creator, creator_id, players: Sequence[tuple]) -> bool:
    """``counts_for_ratings`` on plain values; ``players``: (kind, owner id) of each
    seated player (the batch path reads rows, not models)."""
    if not rated or status != Match.Status.FINISHED or not players:
        return False
    own_bots = all(
        kind in (Player.Kind.BOT, Player.Kind.OWN_BOT, Player.Kind.AI) and owner_id == creator_id
        for kind, owner_id in players
    )
    return not (creator is not None and is_trainer_or_admin(creator) and own_bots)


def rate_match(match_id: int) -> bool:
    """Apply one finished match to its players' ratings (once: a second call, or a call
    racing the first, does nothing). True if ratings moved."""
    try:
        with transaction.atomic():
            match = (
                Match.objects.select_for_update(of=("self",))
                .select_related("rule_set", "created_by", "universe")
                .get(pk=match_id)
            )
            if RatingHistory.objects.filter(match=match).exists():
                return False
            seats = list(match.seats.select_related("player").order_by("index"))
            if not counts_for_ratings(match, seats):
                return False
            _apply(match, seats)
            return True
    except IntegrityError:  # another process applied it between our check and insert
        return False


def _teams_of(match: Match) -> tuple[int, ...]:
    from play.replay import game_of_rule_set

    return tuple(game_of_rule_set(match.rule_set).teams)


def _apply(match: Match, seats: Sequence[Seat]) -> None:
    universe = match.universe or default_universe()
    when = match.finished or timezone.now()
    results = _seat_results(match, seats)
    keys = sorted({r.key for r in results if r.key is not None})
    ratings = _locked_ratings(keys, match.rule_set_id, universe, when)
    skills = {k: math.Skill(r.mu, r.sigma) for k, r in ratings.items()}
    new = math.rate_match(results, skills)
    expected = math.expectation(results, skills)
    history = []
    for key, skill in new.items():
        history.append(_update(ratings[key], skill, when))
        history[-1].match = match
        history[-1].expected_win = expected.wins.get(key)
        history[-1].expected_draw = expected.draw
    # A row a statement: Django sends a bulk insert's columns to PostgreSQL as arrays, and
    # psycopg's array dumper leaves a reference cycle per column (a recursive closure
    # holding its transformer), freed only by the garbage collector, whose passes stalled a
    # busy web process's sockets. A live match has two to four rows: one more round trip.
    RatingHistory.objects.bulk_create(history, batch_size=1)


RATING_FIELDS = ["mu", "sigma", "ordinal", "top_burst", "score", "matches", "last_match",
                 "level_since"]  # fmt: skip


def _seat_results(match: Match, seats: Sequence[Seat]) -> list:
    """The seats' results for the rating maths (each seat's crew read)."""
    rows = [(s.pk, s.index, s.kind, s.player_id, s.rank) for s in seats]
    crews = {s.pk: [] for s in seats}
    if has_crews(match):  # (read apart, not prefetched: a prefetched crew's queryset
        # points back at its seat, a reference cycle per seat; most games have no crews)
        members = CrewMember.objects.filter(seat__match_id=match.pk).order_by("seat", "order")
        for seat_id, player_id in members.values_list("seat_id", "player_id"):
            crews[seat_id].append(player_id)
    return seat_results(_teams_of(match), rows, crews)


def seat_results(teams: Sequence[int], seats: Sequence[tuple], crews: dict) -> list:
    """The rating maths' ``SeatResult``s of a match's seats, given as (id, index, kind,
    player id, rank) in index order; ``teams`` is the game's team of each seat index and
    ``crews`` maps a seat id to its crew's player ids, in order."""

    def team(index: int) -> int:
        return teams[index] if index < len(teams) else index

    results = [
        math.SeatResult(
            key=player_id if kind == Seat.Kind.PLAYER else None, team=team(index), rank=rank or 1
        )
        for _, index, kind, player_id, rank in seats
    ]
    # A crew (people sharing a nested game's team) is rated like Partners: one team.
    results += [
        math.SeatResult(key=m, team=team(index), rank=rank or 1)
        for seat_id, index, _, _, rank in seats
        for m in crews.get(seat_id, [])
    ]
    return results


def _locked_ratings(keys: Iterable[int], rule_set_id: int, universe, when) -> dict:
    """The rating rows of ``keys``, created if missing, locked in id order (no deadlock
    between two matches of the same players)."""
    for key in keys:
        Rating.objects.get_or_create(
            player_id=key,
            rule_set_id=rule_set_id,
            universe=universe,
            defaults={"level_since": when},
        )
    rows = (
        Rating.objects.select_for_update()
        .filter(player_id__in=list(keys), rule_set_id=rule_set_id, universe=universe)
        .order_by("id")
    )
    return {r.player_id: r for r in rows}


def _advance(row: Rating, skill: math.Skill, when) -> tuple[float, ...]:
    """Move a rating row to ``skill`` (not saved); the history's values: mu, sigma and
    ordinal before, then after."""
    before = math.Skill(row.mu, row.sigma)
    values = (before.mu, before.sigma, before.ordinal, skill.mu, skill.sigma, skill.ordinal)
    if math.level(skill.ordinal) != math.level(row.ordinal) or row.matches == 0:
        row.level_since = when
    row.mu, row.sigma, row.ordinal = skill.mu, skill.sigma, skill.ordinal
    row.top_burst = max(row.top_burst, skill.ordinal - before.ordinal)
    row.score = row.ordinal + row.top_burst
    row.matches += 1
    row.last_match = when
    return values


def _update(row: Rating, skill: math.Skill, when, save: bool = True) -> RatingHistory:
    mu0, sigma0, ordinal0, mu1, sigma1, ordinal1 = _advance(row, skill, when)
    entry = RatingHistory(
        rating=row,
        player_id=row.player_id,
        mu_before=mu0,
        sigma_before=sigma0,
        mu_after=mu1,
        sigma_after=sigma1,
        ordinal_before=ordinal0,
        ordinal_after=ordinal1,
        at=when,
    )
    if save:
        row.save()
    return entry


_HISTORY_COLUMNS = ("rating_id", "match_id", "player_id", "mu_before", "sigma_before",
                    "ordinal_before", "mu_after", "sigma_after", "ordinal_after", "at",
                    "expected_win", "expected_draw")  # fmt: skip


def _insert_history(rows: list[tuple]) -> None:
    """RatingHistory rows (``_HISTORY_COLUMNS``) in one go: a tournament's finaliser
    writes hundreds, and the ORM's per-field preparation cost more than the ratings."""
    from play.bulk import insert_rows

    insert_rows(RatingHistory._meta.db_table, _HISTORY_COLUMNS, rows)


def on_match_finished(sender, match_id: int, **kwargs) -> None:
    """``play.signals.match_finished``: rate the match (a failure is logged, not raised:
    the match itself has already ended)."""
    try:
        rate_match(match_id)
    except Exception:
        log.exception("rating match %s failed", match_id)


# --- the leaderboard -----------------------------------------------------------------------


@dataclass
class Row:
    player: Player
    rating: Rating | None  # None: no rated match yet (shown at the beginner's rating)
    position: int | None = None  # place in the whole board's order
    rank: int | None = None  # shown for the top ten only
    is_user: bool = False
    is_standard: bool = False
    action: str = ""  # "play", "friend" or "" (see row_action)
    checkbox: bool = False  # Random and AI players: selectable for evolution / benchmark
    gap_before: bool = False  # rows were skipped between this one and the previous

    @property
    def score(self) -> float:
        return self.rating.score if self.rating else 0.0


@dataclass
class Board:
    rule_set: object
    universe: Universe
    rows: list[Row]
    total: int  # rated players in this board
    player_choices: list[tuple[int, str]] = field(default_factory=list)


def board_of(rule_set, universe: Universe):
    """Every rating of one leaderboard (a queryset)."""
    return Rating.objects.filter(rule_set=rule_set, universe=universe)


def leaderboard(rule_set, universe: Universe, user, added: Sequence[int] = ()) -> Board:
    """Up to ``MAX_ROWS`` rows sorted by R + top burst: the always-shown players (the
    user if rated here, Random, the standard player, and players added with Add Player),
    then as many of the top ten as there is room for, then the standard bots if room is
    left."""
    board = board_of(rule_set, universe)
    top = list(board.select_related("player__user").order_by("-score", "id")[:TOP_RANKED])
    fixed = _always_shown(rule_set, user, added)
    fixed_ratings = {
        r.player_id: r
        for r in board.filter(player_id__in=[p.pk for p in fixed]).select_related("player__user")
    }
    rows: dict[int, Row] = {}
    for player in fixed:
        if player.kind == Player.Kind.HUMAN and player.user_id == getattr(user, "pk", None):
            if player.pk not in fixed_ratings:
                continue  # "the user (if they played)"
        rows[player.pk] = Row(player, fixed_ratings.get(player.pk))
        if len(rows) == MAX_ROWS:
            break
    for index, r in enumerate(top):
        if r.player_id in rows:
            rows[r.player_id].position = index + 1
        elif len(rows) < MAX_ROWS:
            rows[r.player_id] = Row(r.player, r, position=index + 1)
    # The site's standard bots (AI) fill the rows left: on a new site's boards they are
    # there to play from the first visit; on a busy one the top ten keeps its place.
    from accounts.services import standard_bots

    bots = [p for p in standard_bots() if p.pk not in rows][: MAX_ROWS - len(rows)]
    if bots:
        rated = {r.player_id: r for r in board.filter(player__in=bots).select_related("player")}
        for bot in bots:
            rows[bot.pk] = Row(bot, rated.get(bot.pk))
    _place(board, rows.values())
    ordered = sorted(rows.values(), key=lambda row: (row.position or 10**9, row.player.pk))
    _decorate(ordered, rule_set, user)
    total = board.count()
    if not total:  # nobody rated yet: no one is "#1" of an empty board
        for row in ordered:
            row.rank = None
    return Board(rule_set, universe, ordered, total, player_choices(board))


def _always_shown(rule_set, user, added: Sequence[int]) -> list[Player]:
    from accounts.services import random_player

    shown: list[Player] = []
    mine = None
    if getattr(user, "is_authenticated", False):
        mine = Player.objects.select_related("user").filter(user=user).first()
    if mine is not None:
        shown.append(mine)
    shown.append(random_player())
    sp = StandardPlayer.objects.filter(rule_set=rule_set).select_related("player__user").first()
    if sp is not None:
        shown.append(sp.player)
    extra = Player.objects.filter(pk__in=list(added)[:MAX_ROWS]).select_related("user")
    by_id = {p.pk: p for p in extra}
    shown += [by_id[pk] for pk in added if pk in by_id]
    unique: dict[int, Player] = {}
    for player in shown:
        unique.setdefault(player.pk, player)
    return list(unique.values())


def _place(board, rows: Iterable[Row]) -> None:
    """Positions of rows outside the top ten (one indexed count each, ten at most). A
    player without a rating sits where a beginner's 0 would, after those rated 0."""
    for row in rows:
        if row.position is not None:
            continue
        if row.rating is None:
            ahead = board.filter(score__gte=0.0).count()
        else:
            score = row.rating.score
            ahead = board.filter(Q(score__gt=score) | Q(score=score, id__lt=row.rating.id)).count()
        row.position = ahead + 1


def _decorate(rows: list[Row], rule_set, user) -> None:
    from accounts.services import friend_user_ids

    friends = friend_user_ids(user) if getattr(user, "is_authenticated", False) else set()
    sp = StandardPlayer.objects.filter(rule_set=rule_set).values_list("player_id", flat=True)
    sp_id = next(iter(sp), None)
    previous = None
    for row in rows:
        # Only a rated player has a place: an unrated row (shown at the beginner's 1000)
        # took the rank of the next rated player before, several rows sharing it.
        rated = row.rating is not None
        row.rank = row.position if rated and row.position and row.position <= TOP_RANKED else None
        row.is_user = row.player.user_id is not None and row.player.user_id == getattr(
            user, "pk", None
        )
        row.is_standard = row.player.pk == sp_id
        row.action = row_action(row.player, user, friends)
        row.checkbox = row.player.kind in MACHINES
        # Ties share a place: only a skipped place is a gap.
        row.gap_before = previous is not None and row.position not in (previous, previous + 1)
        previous = row.position


# Players the server (or an own bot's client) moves: a leaderboard's checkboxes.
MACHINES = (Player.Kind.RANDOM, Player.Kind.BOT, Player.Kind.OWN_BOT, Player.Kind.AI)


def row_action(player: Player, user, friends: set[int]) -> str:
    """ "play" (Play New Game) for non-humans, friends, friends' personas (their owner
    is invited, as a friend is) and the user's own personas (and the user's own row);
    "friend" (Add to Friends) for other people."""
    me = getattr(user, "pk", None) if getattr(user, "is_authenticated", False) else None
    if player.kind in MACHINES:
        return "play"
    person = player.user_id if player.kind == Player.Kind.HUMAN else player.owner_id
    if person is not None and (person == me or person in friends):
        return "play"
    return "friend"


def player_choices(board) -> list[tuple[int, str]]:
    """(player id, name) for the player combobox: the board's players, best first (plain
    values, no model instances: this list is the page's largest read)."""
    rows = board.order_by("-score", "id").values_list(
        "player_id", "player__kind", "player__name", "player__user__username"
    )[:MAX_PLAYER_CHOICES]
    return [
        (pk, username if kind == Player.Kind.HUMAN else (name or "Random"))
        for pk, kind, name, username in rows
    ]


def find_rated_player(rule_set, universe, name: str) -> Player | None:
    """A player rated on this board by its shown name (a username, bot or persona name)."""
    name = (name or "").strip()
    if not name:
        return None
    found = (
        Rating.objects.filter(rule_set=rule_set, universe=universe)
        .filter(
            Q(player__user__username__iexact=name)
            | (~Q(player__kind=Player.Kind.HUMAN) & Q(player__name__iexact=name))
        )
        .select_related("player")
        .order_by("-score")
        .first()
    )
    return found.player if found else None


def rating_of(player, rule_set, universe) -> Rating | None:
    return Rating.objects.filter(player=player, rule_set=rule_set, universe=universe).first()
