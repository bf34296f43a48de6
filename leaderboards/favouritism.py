"""Favouritism read from the rating history (the math is ``leaderboards.favour_math``):
a player's Favouritism tab, and the opponent it is most favoured by (the Benchmark
condition of ``tournament_plans.is_benchmark``). Nothing here writes.

A match counts when both players have a history row of it with the expectations kept
(``RatingHistory.expected_win``; rows rated before they were kept have none) and sat on
different teams. The player's last ``FAVOUR_SAMPLE`` such matches in the game and
universe are read: the boosts use each pair's last ten, Favours owed all of them.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from accounts.models import Player
from leaderboards import favour_math as fm
from leaderboards.models import Rating, RatingHistory
from play.models import Seat

FAVOUR_SAMPLE = 5000  # the player's most recent rated matches read
# The tab's sortable columns: ?sort= key -> the row's value (None sorts last).
SORTS = {
    "preference": lambda row: row.stats.preference,
    "last": lambda row: row.last.timestamp() if row.last else None,
    "win_boost": lambda row: row.stats.win_boost,
    "draw_boost": lambda row: row.stats.draw_boost,
    "kick_back": lambda row: row.stats.kick_back,
    "relative": lambda row: row.stats.relative_rating,
    "owed": lambda row: row.stats.favours_owed,
}
DEFAULT_SORT = "-preference"


@dataclass
class FavourRow:
    """The player (a) against one opponent (b)."""

    opponent: Player
    last: object  # when they last met (a rated match with expectations)
    stats: fm.PairStats


def favour_rows(player_id: int, rule_set, universe, sort: str = DEFAULT_SORT) -> list[FavourRow]:
    """One row per opponent, ordered by ``sort`` (a ``SORTS`` key, "-" for descending;
    anything else is the default: highest preference first, ties by opponent id)."""
    mine = Rating.objects.filter(player_id=player_id, rule_set=rule_set, universe=universe).first()
    if mine is None:
        return []
    meetings, last = _meetings(mine, rule_set)
    if not meetings:
        return []
    ratings = {
        r.player_id: r.ordinal
        for r in Rating.objects.filter(rule_set=rule_set, universe=universe, player_id__in=meetings)
    }
    opponents = Player.objects.select_related("user").in_bulk(list(meetings))
    rows = [
        FavourRow(
            opponents[pid],
            last[pid],
            fm.pair_stats(meetings[pid], mine.ordinal, ratings.get(pid, 0.0)),
        )
        for pid in sorted(meetings)
        if pid in opponents
    ]
    return order_rows(rows, sort)


def order_rows(rows: list[FavourRow], sort: str) -> list[FavourRow]:
    key = sort.lstrip("-")
    if key not in SORTS:
        sort, key = DEFAULT_SORT, DEFAULT_SORT.lstrip("-")
    value = SORTS[key]
    descending = sort.startswith("-")
    rows = sorted(rows, key=lambda row: row.opponent.pk)  # ties: by opponent id
    known = [row for row in rows if value(row) is not None]
    unknown = [row for row in rows if value(row) is None]
    return sorted(known, key=value, reverse=descending) + unknown


def favoured_by(player_id: int, rule_set, universe) -> int | None:
    """The opponent ``player_id`` is most favoured by: the highest Preference(player,
    opponent), ties by the lower opponent id. ``None`` if it met nobody (with kept
    expectations)."""
    rows = favour_rows(player_id, rule_set, universe)
    return rows[0].opponent.pk if rows else None


def _meetings(mine: Rating, rule_set) -> tuple[dict, dict]:
    """{opponent id: [Meeting, oldest first]} and {opponent id: last met}."""
    from play.replay import game_of_rule_set  # compiled once per rule set, then cached

    teams = tuple(game_of_rule_set(rule_set).teams)
    recent = (
        RatingHistory.objects.filter(rating=mine, expected_win__isnull=False)
        .order_by("-id")
        .values_list("match_id", "expected_win", "expected_draw", "at")[:FAVOUR_SAMPLE]
    )
    own = {m: (win, draw, at) for m, win, draw, at in recent}
    if not own:
        return {}, {}
    ids = RatingHistory.objects.filter(rating=mine, expected_win__isnull=False).order_by("-id")
    ids = ids.values("match_id")[:FAVOUR_SAMPLE]
    others = (
        RatingHistory.objects.filter(match_id__in=ids, expected_win__isnull=False)
        .exclude(player_id=mine.player_id)
        .values_list("match_id", "player_id", "expected_win")
    )
    seats = Seat.objects.filter(match_id__in=ids).values_list(
        "match_id", "index", "player_id", "rank"
    )
    team_rank: dict[int, dict[int, int]] = defaultdict(dict)  # match -> team -> rank
    team_of: dict[int, dict[int, set[int]]] = defaultdict(lambda: defaultdict(set))
    for match_id, index, pid, rank in seats:
        team = teams[index] if index < len(teams) else index
        rank = rank or 1
        ranks = team_rank[match_id]
        ranks[team] = min(ranks.get(team, rank), rank)
        if pid is not None:
            team_of[match_id][pid].add(team)
    meetings: dict[int, list] = defaultdict(list)
    last: dict[int, object] = {}
    me = mine.player_id
    for match_id, pid, e_b in sorted(others, key=lambda r: (own[r[0]][2], r[0])):  # oldest first
        e_a, e_draw, at = own[match_id]
        mine_t, theirs = team_of[match_id].get(me, set()), team_of[match_id].get(pid, set())
        if len(mine_t) != 1 or len(theirs) != 1 or mine_t == theirs:
            continue  # partners, a crew member, or seated on both sides: not opponents
        ranks = team_rank[match_id]
        (ta,), (tb,) = mine_t, theirs
        outcome = fm.pair_outcome(ranks[ta], ranks[tb], list(ranks.values()))
        meetings[pid].append(fm.Meeting(outcome, e_a, e_b, e_draw or 0.0))
        last[pid] = at if last.get(pid) is None else max(last[pid], at)
    return dict(meetings), last
