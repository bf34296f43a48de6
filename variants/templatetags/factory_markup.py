"""The factory form's most repeated markup, drawn in Python: the form is drawn again on
every control a person changes, and as template loops these were most of each redraw
(0.2 s for a game of 26-high stacks in six phases: 5,000 options, 1,500 spaces). The
markup is the one the templates drew, byte for byte.

``{% factory_space cell readonly refresh %}``: one space of the board (the badges' meaning
is in the button's aria-label and the legend under the board; factory.css draws their
icons). ``{% factory_options control.options %}``: a dropdown's options.
"""

from html import escape  # (django.utils.html.escape is this behind a lazy-text wrapper)

from django import template
from django.utils.safestring import mark_safe

register = template.Library()


@register.simple_tag
def factory_options(options) -> str:
    return mark_safe(  # noqa: S308 (escaped here)
        "".join(
            f'<option value="{escape(o.value)}"{" selected" if o.selected else ""}'
            f"{' disabled' if o.disabled else ''}>{escape(o.label)}</option>"
            for o in options
        )
    )


@register.simple_tag
def factory_space(cell, readonly: bool, refresh: str) -> str:
    locked = " is-locked" if cell.locked else ""
    spot, label = escape(cell.value), escape(cell.label)
    if readonly:
        opening = (
            f'<span class="fc-space{locked}" data-spot="{spot}" role="img" aria-label="{label}">'
        )
        return mark_safe(f"{opening}{_content(cell)}</span>")  # noqa: S308 (escaped above)
    opening = (
        f'<button type="submit" class="fc-space{locked}" id="{escape(cell.id)}" '
        f'data-spot="{spot}" name="toggle" value="{spot}" aria-label="{label}" '
        f'hx-post="{escape(refresh)}">'
    )
    return mark_safe(f"{opening}{_content(cell)}</button>")  # noqa: S308 (escaped above)


def _content(cell) -> str:
    """What a space holds: a lock, a dealt piece's "?", or a piece; then its badges."""
    out = ""
    if cell.locked:
        out = '<i class="fa fa-lock" aria-hidden="true"></i>'
    elif cell.dealt:
        color = escape(cell.dealt_color or "common")
        out = f'<span class="fc-dealt fc-c-{color}" aria-hidden="true">?</span>'
    elif cell.piece:
        color, shape = escape(cell.piece[0]), escape(cell.piece[1])
        nobody = " fc-nobody" if cell.nobody else ""
        mark = f'<use href="#fcm-{color}"/>' if cell.piece[0] != "black" else ""
        out = (
            f'<svg class="fc-piece fc-{color}{nobody}" aria-hidden="true">'
            f'<use href="#fcp-{shape}"/>{mark}</svg>'
        )
    flags = ""
    if cell.exclusive:
        flags += f'<span class="fc-flag-exclusive">{escape(cell.exclusive)}</span>'
    if cell.seat_locked:
        flags += f'<span class="fc-flag-lock">{escape(cell.seat_locked)}</span>'
    if cell.phase_locked:
        flags += '<span class="fc-flag-phase-lock"></span>'
    if cell.cloaked:
        flags += '<span class="fc-flag-cloak"></span>'
    if cell.sticky:
        flags += '<span class="fc-flag-sticky"></span>'
    if flags:
        out += f'<span class="fc-flags" aria-hidden="true">{flags}</span>'
    return out
