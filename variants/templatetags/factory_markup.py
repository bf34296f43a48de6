"""The factory form's most repeated markup, drawn in Python: the form is drawn again on
every control a person changes, and as template loops these were most of each redraw
(0.2 s for a game of 26-high stacks in six phases: 5,000 options, 1,500 spaces). The
markup is the one the templates drew, byte for byte.

``{% factory_space cell readonly refresh %}``: one space of the board (the badges' meaning
is in the button's aria-label and the legend under the board; factory.css draws their
icons). ``{% factory_options control.options %}``: a dropdown's options.
``{% factory_select control layout.readonly %}`` and ``{% factory_field control
layout.readonly %}``: a whole dropdown with its label, help and errors (a
``controls.Control``), as the templates ``select.html`` and ``field.html`` drew them,
about a hundred times a redraw; their values printed as ``{{ }}`` prints them.
"""

from html import escape  # (django.utils.html.escape is this behind a lazy-text wrapper)

from django import template
from django.template.base import render_value_in_context
from django.urls import reverse
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


@register.simple_tag(takes_context=True)
def factory_select(context, control, readonly) -> str:
    """One dropdown or integer select of the factory, its short or long label in front."""
    c, live, out = control, not readonly, _Printer(context)
    cid = out(c.id)
    if c.short:
        label = (
            f'<label class="fc-short" for="{cid}"><span aria-hidden="true">{out(c.short)}</span>'
            f'<span class="visually-hidden">{out(c.label)}</span></label>\n  '
        )
    else:
        label = f'<label class="fc-label" for="{cid}">{out(c.label)}</label>'
    hidden = ""
    if c.keep and live:
        hidden = f'<input type="hidden" name="{out(c.name)}" value="{out(c.value)}">'
    coming = ""
    if c.coming and live:
        coming = (
            f'<span class="badge rounded-pill text-bg-light border fc-coming" '
            f'title="{out(c.coming)}" tabindex="0">coming<span class="visually-hidden">: '
            f"{out(c.coming)}</span></span>"
        )
    return mark_safe(  # noqa: S308 (every value printed through _Printer)
        f'\n<div class="fc-control{" d-none" if readonly and c.blank else ""}">\n'
        f"  {label}\n"
        f"{_select(c, live, out, data_max=True)}"
        f"  {hidden}\n"
        f"  {_reason(c, live, out, ' w-100')}\n"
        f"  {_note(c, live, out, ' w-100')}\n"
        f"  {_help(c, live, out, 'form-text w-100 mt-0')}\n"
        f"  {coming}\n"
        f"  {_errors(c, out)}\n"
        "</div>\n"
    )


@register.simple_tag(takes_context=True)
def factory_field(context, control, readonly) -> str:
    """A dropdown with a visible label above it, its help text and, when it is off, why."""
    c, live, out = control, not readonly, _Printer(context)
    cid = out(c.id)
    notes = ""
    if live:
        notes = (
            f"\n  {_reason(c, live, out, '')}\n"
            f"  {_note(c, live, out, '')}\n"
            f"  {_help(c, live, out, 'form-text')}\n  "
        )
    return mark_safe(  # noqa: S308 (every value printed through _Printer)
        f'\n<div class="fc-field{" d-none" if readonly and c.hide_when_saved else ""}">\n'
        f'  <label class="form-label small fw-semibold mb-0" for="{cid}">{out(c.label)}</label>\n'
        f"{_select(c, live, out, data_max=False)}"
        f"  {_errors(c, out)}\n"
        f"  {notes}\n"
        "</div>\n"
    )


class _Printer:
    """``{{ value }}`` in the tag's context: localised, then escaped unless safe."""

    def __init__(self, context):
        self.context = context

    def __call__(self, value) -> str:
        return render_value_in_context(value, self.context)


def _select(c, live: bool, out, data_max: bool) -> str:
    """The ``<select>`` element and its options, with the indentation the templates had."""
    cid = out(c.id)
    maximum = f' data-max="{out(c.max)}"' if data_max and c.max else ""
    refresh = ""
    if c.refresh and live:
        refresh = f'hx-post="{_refresh_url()}" hx-trigger="change"'
    invalid = 'aria-invalid="true"' if c.errors else ""
    described = (
        (f"{cid}-error " if c.errors else "")
        + (f"{cid}-reason " if c.reason and live else "")
        + (f"{cid}-help" if c.help and live else "")
    )
    return (
        f'  <select class="form-select form-select-sm{" is-invalid" if c.errors else ""}"\n'
        f'          id="{cid}" name="{out(c.name)}"\n'
        f"          {'disabled' if c.disabled else ''}{maximum}\n"
        f"          {refresh}\n"
        f'          aria-describedby="{described}"\n'
        f"          {invalid}>\n"
        f"    {factory_options(c.options)}\n"
        "  </select>\n"
    )


def _reason(c, live: bool, out, wide: str) -> str:
    if not (c.reason and live):
        return ""
    return (
        f'<div class="form-text fc-reason{wide}" id="{out(c.id)}-reason">'
        f'<i class="fa fa-info-circle" aria-hidden="true"></i> {out(c.reason)}</div>'
    )


def _note(c, live: bool, out, wide: str) -> str:
    if not (c.note and live):
        return ""
    return f'<div class="form-text fc-reason{wide}" id="{out(c.id)}-note">{out(c.note)}</div>'


def _help(c, live: bool, out, classes: str) -> str:
    if not (c.help and live):
        return ""
    return f'<div class="{classes}" id="{out(c.id)}-help">{out(c.help)}</div>'


def _errors(c, out) -> str:
    if not c.errors:
        return ""
    messages = "".join(f"<div>{out(m)}</div>" for m in c.errors)
    return f'<div class="invalid-feedback d-block" id="{out(c.id)}-error">{messages}</div>'


_REFRESH: list[str] = []


def _refresh_url() -> str:
    """The refresh view's address (reversed once: the url tag reversed it each control)."""
    if not _REFRESH:
        _REFRESH.append(escape(reverse("variants:factory_refresh")))
    return _REFRESH[0]
