"""Reads over matches and ratings: a player's Stats tab and the evolution chart (who
favours whom: ``leaderboards.favouritism``). Nothing here writes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db.models import Count, F, Max, Q, Sum

from accounts.models import Player
from leaderboards import rating as math
from leaderboards.models import Rating, RatingHistory, Universe
from play.models import Match, Move, Seat

MAX_CURVES = 8
MAX_POINTS = 400  # per curve; longer histories are thinned evenly (first and last kept)
CHART_W, CHART_H, PAD = 720, 360, 48
COLORS = ["#0d6efd", "#dc3545", "#198754", "#fd7e14", "#6f42c1", "#20c997", "#6c757d", "#d63384"]
# What the evolution chart can draw, by the value of its ``measure`` parameter.
MEASURES = {
    "rating": "Rating",
    "skill": "Skill μ",
    "uncertainty": "Uncertainty σ",
    "score": "Score, last 20 matches (%)",
    # Learning AIs' learning curves (aiplayers.predictions): over each 100 predictions.
    "accuracy": "Accuracy, learning curve (%)",
    "f1": "F1, learning curve (%)",
    "long_game": "Long Game, learning curve (%)",
}
LEARNING_MEASURES = ("accuracy", "f1", "long_game")
LEARNING_X = {"moves": "moves studied", "games": "games played"}
SCORE_WINDOW = 20
SCORES = {"win": 1.0, "draw": 0.5}  # anything else (a loss) scores 0


# --- the Stats tab -------------------------------------------------------------------------


@dataclass
class StatsRow:
    rule_set_id: int
    rule_set_name: str
    universe: Universe | None
    last_match: object = None
    matches: int = 0
    won: float | None = None
    drawn: float | None = None
    rating: Rating | None = None
    think_ms: float | None = None


def player_stats(player: Player, rule_sets) -> list[StatsRow]:
    """Per game (and universe) ``player`` played or is rated in, among ``rule_sets`` (a
    queryset of the games the viewer may see): last match, matches, % won, % drawn,
    rating, top burst, average time to move."""
    from leaderboards.services import default_universe

    main = default_universe()
    rows: dict[tuple[int, int], StatsRow] = {}
    finished = Q(match__status=Match.Status.FINISHED, match__rule_set__in=rule_sets)
    # The seats the player took, or shared as a member of the seat's crew (distinct
    # counts: the crew join repeats a seat once per member).
    seats = (
        Seat.objects.filter(finished, Q(player=player) | Q(crew__player=player))
        .filter(kind=Seat.Kind.PLAYER)
        .values("match__rule_set_id", "match__rule_set__name", "match__universe_id")
        .annotate(
            n=Count("id", distinct=True),
            wins=Count("id", filter=Q(result="win"), distinct=True),
            draws=Count("id", filter=Q(result="draw"), distinct=True),
            last=Max("match__finished"),
        )
    )
    universes = {u.pk: u for u in Universe.objects.all()}
    for s in seats:
        key = (s["match__rule_set_id"], s["match__universe_id"] or main.pk)
        row = rows.setdefault(key, StatsRow(key[0], s["match__rule_set__name"], universes[key[1]]))
        row.matches += s["n"]
        row.won = (row.won or 0) + s["wins"]
        row.drawn = (row.drawn or 0) + s["draws"]
        row.last_match = max(filter(None, [row.last_match, s["last"]]), default=None)
    for row in rows.values():
        row.won, row.drawn = row.won / row.matches, row.drawn / row.matches
    _add_think_times(player, rule_sets, rows, main)
    for r in Rating.objects.filter(player=player, rule_set__in=rule_sets).select_related(
        "rule_set", "universe"
    ):
        row = rows.setdefault(
            (r.rule_set_id, r.universe_id), StatsRow(r.rule_set_id, r.rule_set.name, r.universe)
        )
        row.rating = r
    return sorted(rows.values(), key=lambda r: (r.rule_set_name.lower(), r.universe.pk))


def _add_think_times(player, rule_sets, rows, main) -> None:
    moves = (
        Move.objects.filter(
            match__status=Match.Status.FINISHED,
            match__rule_set__in=rule_sets,
            match__seats__player=player,
            match__seats__index=F("seat"),
            kind=Move.Kind.MOVE,
        )
        .values("match__rule_set_id", "match__universe_id")
        .annotate(n=Count("id"), ms=Sum("think_ms"))
    )
    # Recorded games keep their log packed (play.move_log): their seats hold the sums.
    packed = (
        Seat.objects.filter(
            player=player,
            match__status=Match.Status.FINISHED,
            match__rule_set__in=rule_sets,
            moves_made__gt=0,
        )
        .values("match__rule_set_id", "match__universe_id")
        .annotate(n=Sum("moves_made"), ms=Sum("think_total_ms"))
    )
    sums: dict[tuple, list[int]] = {}
    for m in [*moves, *packed]:
        key = (m["match__rule_set_id"], m["match__universe_id"] or main.pk)
        total = sums.setdefault(key, [0, 0])
        total[0] += m["n"]
        total[1] += m["ms"] or 0
    for key, (n, ms) in sums.items():
        row = rows.get(key)
        if row is not None and n:
            row.think_ms = ms / n


# --- the evolution chart ---------------------------------------------------------------------


@dataclass
class Curve:
    player: Player
    color: str
    points: list[tuple[int, int]]  # (match number, shown R)
    matches: int = 0  # rated matches the curve stands for (its points may be thinned)
    path: str = ""
    dots: list[tuple[float, float]] = field(default_factory=list)
    label: str = ""  # an own bot's version curve: "name version"

    @property
    def name(self) -> str:
        return self.label or self.player.display_name

    @property
    def last(self) -> int:
        return self.points[-1][1] if self.points else 0


@dataclass
class Chart:
    curves: list[Curve]
    width: int = CHART_W
    height: int = CHART_H
    x_ticks: list[tuple[float, int]] = field(default_factory=list)
    y_ticks: list[tuple[float, int]] = field(default_factory=list)
    empty: bool = True
    measure: str = MEASURES["rating"]


def evolution_chart(
    rule_set, universe, player_ids: Sequence[int], measure="rating", by_version=False, x="moves"
) -> Chart:
    """One curve per player: the measure after each of its rated matches of this game
    (R, μ and σ as the pages show them, ×100; the score as a running percentage).
    ``by_version``: an own bot's curve is cut into one per version it reported (issue
    26's learning curve; ``ownbots.versions.split_curve``)."""
    players = {p.pk: p for p in Player.objects.filter(pk__in=player_ids).select_related("user")}
    curves = []
    for pk in (pk for pk in player_ids if pk in players):
        history = RatingHistory.objects.filter(
            rating__rule_set=rule_set, rating__universe=universe, player_id=pk
        ).order_by("id")
        if measure in LEARNING_MEASURES:  # x: moves studied (or games played), not matches
            points = _learning_points(measure, pk, rule_set, x)
        else:
            points = _measure_points(measure, pk, history)
        if by_version and players[pk].kind == Player.Kind.OWN_BOT:
            from ownbots.versions import split_curve

            for label, part, matches in split_curve(pk, history, points):
                color = series_color(len(curves))
                curves.append(Curve(players[pk], color, _thin(part), matches, label=label))
            continue
        matches = sum(1 for x, _ in points if x > 0)  # every point but the start
        curves.append(Curve(players[pk], series_color(len(curves)), _thin(points), matches))
    chart = Chart(curves, measure=MEASURES[measure])
    _layout(chart)
    return chart


def series_color(n: int) -> str:
    """The colour of the chart's ``n``-th series (0-based), a different one for each: the
    palette, then hues a golden angle apart (never the same twice on one chart)."""
    if n < len(COLORS):
        return COLORS[n]
    hue = round((n - len(COLORS)) * 137.508 + 17) % 360
    lightness = 35 + 10 * ((n - len(COLORS)) // 360 % 3)
    return f"hsl({hue}, 70%, {lightness}%)"


def _measure_points(measure: str, player_id: int, history) -> list[tuple[int, int]]:
    """(match number, value) from 0 (before the first rated match) on; the score curve
    starts at the first match, since a score before any match means nothing."""
    if measure == "score":
        matches = list(history.values_list("match_id", flat=True))
        results = dict(
            Seat.objects.filter(match_id__in=matches)
            .filter(Q(player_id=player_id) | Q(crew__player_id=player_id))
            .values_list("match_id", "result")
        )
        scores = [SCORES.get(results.get(m, ""), 0.0) for m in matches]
        points = []
        for n in range(1, len(scores) + 1):
            window = scores[max(0, n - SCORE_WINDOW) : n]
            points.append((n, round(100 * sum(window) / len(window))))
        return points
    before, after = {
        "rating": ("ordinal_before", "ordinal_after"),
        "skill": ("mu_before", "mu_after"),
        "uncertainty": ("sigma_before", "sigma_after"),
    }[measure]
    values = list(history.values_list(before, after))
    # R and mu on the rating scale, sigma as a spread on it: rating = skill - 3 uncertainty.
    shown = math.display_change if measure == "uncertainty" else math.display
    points = [(0, shown(values[0][0]))] if values else []
    return points + [(n, shown(v)) for n, (_, v) in enumerate(values, 1)]


def _learning_points(measure: str, player_id: int, rule_set, x: str) -> list[tuple[int, int]]:
    from aiplayers.predictions import curve

    data = curve(player_id, x=x, rule_set_id=rule_set.pk)
    return [(at, round(100 * v)) for at, v in zip(data["x"], data[measure], strict=True)
            if v is not None]  # fmt: skip


def _thin(points: list) -> list:
    if len(points) <= MAX_POINTS:
        return points
    step = (len(points) - 1) / (MAX_POINTS - 1)
    return [points[round(i * step)] for i in range(MAX_POINTS)]


def _layout(chart: Chart) -> None:
    every = [p for c in chart.curves for p in c.points]
    if not every:
        return
    chart.empty = False
    x_max = max(1, max(x for x, _ in every))
    y_lo, y_hi = min(y for _, y in every), max(y for _, y in every)
    if y_lo == y_hi:
        y_lo, y_hi = y_lo - 100, y_hi + 100
    width, height = CHART_W - 2 * PAD, CHART_H - 2 * PAD

    def sx(x):
        return round(PAD + width * x / x_max, 1)

    def sy(y):
        return round(PAD + height * (y_hi - y) / (y_hi - y_lo), 1)

    for curve in chart.curves:
        coords = [(sx(x), sy(y)) for x, y in curve.points]
        curve.path = "M" + " L".join(f"{x},{y}" for x, y in coords) if coords else ""
        curve.dots = coords if len(coords) <= 60 else []
    chart.x_ticks = [(sx(x_max * i / 4), round(x_max * i / 4)) for i in range(5)]
    chart.y_ticks = [
        (sy(y_lo + (y_hi - y_lo) * i / 4), round(y_lo + (y_hi - y_lo) * i / 4)) for i in range(5)
    ]
