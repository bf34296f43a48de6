"""Small filters for the leaderboard pages."""

from __future__ import annotations

from django import template
from django.utils import timezone

from leaderboards.rating import display

register = template.Library()


@register.filter
def held(since) -> str:
    """How long ago ``since`` was, in one short unit: "48d", "5h", "12m", "now"."""
    if since is None:
        return ""
    seconds = max(0, int((timezone.now() - since).total_seconds()))
    for unit, size in (("y", 365 * 86400), ("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds // size}{unit}"
    return "now"


@register.filter
def shown(value) -> int:
    """A rating or burst (R units) as the pages show it."""
    return display(value or 0.0)


@register.filter
def signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"−{abs(value)}"


@register.filter
def percent(value) -> str:
    return "" if value is None else f"{round(value * 100)}%"


@register.filter
def signed_percent(value) -> str:
    """A difference of rates as a signed percentage: "+12%", "−3%", "+0%"."""
    return "" if value is None else signed(round(value * 100)) + "%"


@register.filter
def signed_hundredths(value) -> str:
    """A signed number to two decimals: "+0.09", "−2.92"."""
    if value is None:
        return ""
    text = f"{abs(value):.2f}"
    return ("−" if value < 0 and text != "0.00" else "+") + text


@register.filter
def chart_data(chart) -> dict:
    """The evolution chart as data for ``static/js/charts.js`` (one dataset per curve)."""
    return {
        "measure": chart.measure,
        "xLabel": "Rated matches played",
        "curves": [
            {
                "label": curve.name,
                "player": curve.player.pk,
                "color": curve.color,
                "points": [{"x": x, "y": y} for x, y in curve.points],
            }
            for curve in chart.curves
        ],
    }


@register.filter
def curve_summary(curve) -> dict:
    """First, last, lowest and highest value of a curve, and its rated matches."""
    values = [y for _x, y in curve.points]
    if not values:
        return {}
    return {
        "first": values[0],
        "last": values[-1],
        "low": min(values),
        "high": max(values),
        "matches": curve.matches,
    }
