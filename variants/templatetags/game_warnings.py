"""``{{ layout|game_warnings }}``: the factory's warnings about a game nobody can win."""

from django import template

from variants.factory.warnings import warnings_for_state

register = template.Library()


@register.filter
def game_warnings(layout) -> list[str]:
    state = getattr(layout, "state", None)
    return warnings_for_state(state) if state is not None else []


@register.filter
def quick_estimate(layout) -> str:
    """A few hundred random games of the game on the factory form, in one line."""
    from variants.factory.estimate import estimate
    from variants.factory.state import to_document

    state = getattr(layout, "state", None)
    if state is None:
        return ""
    try:
        doc = to_document(state)
    except Exception:  # a half-filled form: its own errors speak for it
        return ""
    return estimate(doc)
