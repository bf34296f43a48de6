"""``{{ layout|game_warnings }}``: the factory's warnings about a game nobody can win."""

from django import template

from variants.factory.warnings import warnings_for_state

register = template.Library()


@register.filter
def game_warnings(layout) -> list[str]:
    state = getattr(layout, "state", None)
    return warnings_for_state(state) if state is not None else []
