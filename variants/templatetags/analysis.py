"""Sentences and chart data for a game's analysis card (``variants/analysis``)."""

from __future__ import annotations

from django import template

register = template.Library()

COLORS = ["#0d6efd", "#dc3545", "#198754", "#fd7e14", "#6f42c1"]
DRAW_COLOR = "#6c757d"


def _pct(rate: float) -> str:
    return f"{rate * 100:.0f}%"


def _seat(i: int) -> str:
    return f"Player {i + 1}"


@register.filter
def balance_sentence(tally: dict, how: str) -> str:
    if not tally or not tally.get("games"):
        return f"No game under {how} finished in the time given."
    parts = [
        f"{_seat(w['seat'])} wins {_pct(w['rate'])} ({_pct(w['interval'][0])}–"
        f"{_pct(w['interval'][1])})"
        for w in tally["wins"]
    ]
    draws = tally["draws"]
    parts.append(f"nobody wins {_pct(draws['rate'])}")
    return f"Under {how} ({tally['games']} games): " + ", ".join(parts) + "."


@register.filter
def length_sentence(tally: dict) -> str:
    length = tally.get("length") or {}
    if not tally.get("games"):
        return "Not measured."
    return (
        f"A random game lasts {length['mean']:.1f} moves on average "
        f"({length['min']}–{length['max']}); a player has about "
        f"{tally['branching']:.1f} moves to choose from."
    )


@register.filter
def solved_sentence(solved: dict) -> str:
    if solved.get("solved"):
        return (
            f"Yes: with perfect play, {solved['words']} "
            f"({solved['positions']:,} positions searched)."
        )
    return f"Not solved ({solved.get('why', 'out of reach')})."


@register.filter
def difficulty_sentence(skill: dict) -> str:
    if skill.get("level") is None:
        return f"Too few games to tell ({skill.get('games', 0)} played in the time given)."
    return (
        f"{skill['level']} / 100: a stronger bot (MCTS, {skill['strong']} simulations) took "
        f"{_pct(skill['share'])} of the points from a weaker one ({skill['weak']}) "
        f"in {skill['games']} games."
    )


@register.filter
def balance_chart(result: dict) -> dict:
    """A grouped bar chart: for random play and equal bots, each seat's wins and the draws."""
    groups = [("Random play", result["random"]), ("Equal bots", result["equal_bots"])]
    seats = result["seats"]
    datasets = [
        {
            "label": f"{_seat(s)} wins",
            "color": COLORS[s % len(COLORS)],
            "values": [
                round(100 * t["wins"][s]["rate"], 1) if t.get("games") else 0 for _, t in groups
            ],
        }
        for s in range(seats)
    ]
    datasets.append(
        {
            "label": "Nobody wins",
            "color": DRAW_COLOR,
            "values": [round(100 * t["draws"]["rate"], 1) if t.get("games") else 0
                       for _, t in groups],
        }
    )  # fmt: skip
    return {"labels": [name for name, _ in groups], "datasets": datasets, "unit": "% of games"}
