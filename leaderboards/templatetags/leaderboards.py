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
