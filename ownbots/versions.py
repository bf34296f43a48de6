"""Versions: what an own bot reported for each game it played, and its record and
rating per version (the learning curve: how each new version of the bot did)."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

from leaderboards import rating as math
from play.bulk import insert_rows

from .models import GameVersion


def record_versions(tournament, played, written: dict[int, int]) -> None:
    """A tournament batch's own-bot versions, in the transaction that writes its games
    (``played``: (seated players, PlayedGame, game number), all of ``tournament``'s game;
    ``written``: the match id of each game written, by number, in this transaction: no
    version row can exist for them yet). From what the chain holds: no query (on a new
    site's tables without statistics, reading the seats back took 5-12 ms a group); one
    insert, a COPY on PostgreSQL (the ORM's bulk insert took 4-5 ms for 50 games, the
    copy 1.5)."""
    from play.replay import game_of_rule_set

    chaos = game_of_rule_set(tournament.rule_set).chaos
    rows = [
        (match_id, seat, player.pk, version)
        for seated, game, number in played
        if game.versions and (match_id := written.get(number)) is not None
        for seat, version in game.versions.items()
        if (player := _seated(seated, seat, chaos)) is not None
    ]
    insert_rows(GameVersion._meta.db_table, ("match_id", "seat", "player_id", "version"), rows)


def _seated(seated: list, seat: int, chaos: int | None):
    """The player at ``seat`` of a game whose ``seated`` players leave out Chaos's seat."""
    if chaos is not None and seat == chaos:
        return None
    index = seat - 1 if chaos is not None and seat > chaos else seat
    return seated[index] if 0 <= index < len(seated) else None


@dataclass
class VersionRow:
    version: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    first: object = None
    last: object = None
    ratings: dict = field(default_factory=dict)  # game name -> (R before, R after)

    @property
    def score(self) -> int:
        return round(100 * (self.wins + self.draws / 2) / self.games) if self.games else 0


def version_table(player, matches=None) -> list[VersionRow]:
    """One row per version, in the order they first played: games, results, and per game
    the rating (shown R) before its first and after its last rated match; counting only
    ``matches`` (a queryset: those the visitor may see) when given."""
    from leaderboards.models import RatingHistory
    from play.models import Seat

    rows: OrderedDict[str, VersionRow] = OrderedDict()
    versions = GameVersion.objects.filter(player=player)
    if matches is not None:
        versions = versions.filter(match__in=matches)
    tagged = list(
        versions.order_by("match_id").values_list("match_id", "seat", "version", "match__finished")
    )
    results = {
        (m, i): r
        for m, i, r in Seat.objects.filter(
            match_id__in=[t[0] for t in tagged], player=player
        ).values_list("match_id", "index", "result")
    }
    version_of = {}
    for match_id, seat, version, finished in tagged:
        row = rows.setdefault(version, VersionRow(version))
        version_of[match_id] = version
        result = results.get((match_id, seat), "")
        if not result:
            continue  # still in play
        row.games += 1
        row.wins += result == "win"
        row.draws += result == "draw"
        row.losses += result == "loss"
        row.first = row.first or finished
        row.last = finished
    history = (
        RatingHistory.objects.filter(player=player, match_id__in=list(version_of))
        .select_related("rating__rule_set")
        .order_by("id")
    )
    for h in history:
        row = rows[version_of[h.match_id]]
        name = h.rating.rule_set.name
        before = row.ratings.get(name, (math.display(h.ordinal_before), None))[0]
        row.ratings[name] = (before, math.display(h.ordinal_after))
    return list(rows.values())


def versions_of_matches(player_id: int, match_ids) -> dict[int, str]:
    return dict(
        GameVersion.objects.filter(player_id=player_id, match_id__in=list(match_ids)).values_list(
            "match_id", "version"
        )
    )


def split_curve(player_id: int, history, points: list) -> list[tuple[str, list, int]]:
    """An own bot's evolution curve cut by version: (label, points, matches) per version in
    the order they first played. ``points`` are (match number, value) over ``history`` (its
    rating rows in order, number n is row n; 0 is before the first); ``matches`` counts the
    version's own rated matches. Each part starts at the point before its first match (and
    again after another version's), so the parts join into the whole curve."""
    from accounts.models import Player

    name = Player.objects.filter(pk=player_id).values_list("name", flat=True).first() or ""
    match_ids = list(history.values_list("match_id", flat=True))
    tags = versions_of_matches(player_id, match_ids)
    by_number = dict(points)
    parts: OrderedDict[str, list] = OrderedDict()
    counts: dict[str, int] = {}
    for n, match_id in enumerate(match_ids, 1):
        if n not in by_number:
            continue
        version = tags.get(match_id, "?")
        part = parts.setdefault(version, [])
        counts[version] = counts.get(version, 0) + 1
        if (not part or part[-1][0] != n - 1) and n - 1 in by_number:
            part.append((n - 1, by_number[n - 1]))
        part.append((n, by_number[n]))
    return [(f"{name} {version}", part, counts[version]) for version, part in parts.items()]
