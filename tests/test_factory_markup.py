"""A space of the factory's board, drawn in Python (``factory_markup``): every badge, in
the template's order, and the text escaped. (Every catalogue game's factory and detail
pages were compared byte for byte with the template this replaced.)"""

from variants.factory.flat_board import Cell
from variants.templatetags.factory_markup import factory_options, factory_space


def test_a_space_with_every_badge_and_a_label_to_escape():
    cell = Cell(
        spot=(1, 2, 3, 1), label='space 2,3 <"x">', piece=("white", "x"), nobody=True,
        sticky=True, exclusive="1,3", seat_locked="2in", phase_locked=True, cloaked=True,
    )  # fmt: skip
    html = factory_space(cell, False, "/games/new/refresh/")
    assert html == (
        '<button type="submit" class="fc-space" id="sp-1-2-3-1" data-spot="1,2,3,1" '
        'name="toggle" value="1,2,3,1" aria-label="space 2,3 &lt;&quot;x&quot;&gt;" '
        'hx-post="/games/new/refresh/"><svg class="fc-piece fc-white fc-nobody" '
        'aria-hidden="true"><use href="#fcp-x"/><use href="#fcm-white"/></svg>'
        '<span class="fc-flags" aria-hidden="true"><span class="fc-flag-exclusive">1,3</span>'
        '<span class="fc-flag-lock">2in</span><span class="fc-flag-phase-lock"></span>'
        '<span class="fc-flag-cloak"></span><span class="fc-flag-sticky"></span></span></button>'
    )


def test_a_locked_a_dealt_and_a_black_piece_read_only():
    locked = Cell(spot=(1, 1, 1, 1), label="locked", locked=True, piece=("black", "circle"))
    assert factory_space(locked, True, "") == (
        '<span class="fc-space is-locked" data-spot="1,1,1,1" role="img" aria-label="locked">'
        '<i class="fa fa-lock" aria-hidden="true"></i></span>'
    )
    dealt = Cell(spot=(1, 2, 1, 1), label="dealt", dealt="common")
    assert '<span class="fc-dealt fc-c-common" aria-hidden="true">?</span>' in factory_space(
        dealt, True, ""
    )
    black = Cell(spot=(1, 3, 1, 1), label="b", piece=("black", "star"))
    assert '<use href="#fcp-star"/></svg></span>' in factory_space(black, True, "")


def test_options_keep_their_order_flags_and_escaping():
    from variants.factory.controls import Option

    options = [
        Option("a", "A & B"),
        Option('"q"', "Q", selected=True),
        Option("z", "Z", disabled=True),
    ]
    assert factory_options(options) == (
        '<option value="a">A &amp; B</option><option value="&quot;q&quot;" selected>Q</option>'
        '<option value="z" disabled>Z</option>'
    )


def _render(tag: str, control, readonly: bool) -> str:
    from django.template import Context, Template

    template = Template("{% load factory_markup %}{% " + tag + " control readonly %}")
    return template.render(Context({"control": control, "readonly": readonly}))


def _control(**changes):
    from django.utils.safestring import mark_safe

    from variants.factory.controls import Control, Option

    control = Control(
        "size", "Size & shape", [Option("3", "3 <x>", True), Option("4", "4")],
        refresh=True, help="How 'big'", reason="Ruled out", note="Some off",
        errors=["Too <small>", mark_safe("<b>safe</b>")], keep=True, max="9",
        coming="Soon",
    )  # fmt: skip
    for name, value in changes.items():
        setattr(control, name, value)
    return control


def test_a_dropdown_with_everything_on_it_on_the_form_and_on_a_saved_page():
    """(Every catalogue game's factory and saved pages, and 12,000 dropdowns made at
    random, were compared byte for byte with the select.html and field.html they
    replaced.)"""
    html = _render("factory_select", _control(), False)
    assert html.startswith('\n<div class="fc-control">\n  <label class="fc-label" for="id_size">')
    assert ">Size &amp; shape</label>" in html and 'data-max="9"' in html
    assert 'hx-post="/games/new/refresh/" hx-trigger="change"' in html
    assert 'aria-describedby="id_size-error id_size-reason id_size-help"' in html
    assert 'aria-invalid="true">' in html
    assert '<option value="3" selected>3 &lt;x&gt;</option>' in html
    assert '<input type="hidden" name="size" value="3">' in html
    assert "<div>Too &lt;small&gt;</div><div><b>safe</b></div>" in html  # as {{ }} prints
    assert '<div class="form-text w-100 mt-0" id="id_size-help">How &#x27;big&#x27;</div>' in html
    assert 'title="Soon" tabindex="0">coming' in html and html.endswith("</div>\n")
    saved = _render("factory_select", _control(errors=[], hide_when_saved=True), True)
    assert saved.startswith('\n<div class="fc-control d-none">')  # blank on a saved page
    for gone in ("hx-post", "-reason", "-help", "-note", "coming", 'type="hidden"'):
        assert gone not in saved


def test_a_field_has_its_label_above_and_no_notes_on_a_saved_page():
    html = _render("factory_field", _control(short="x"), False)
    assert '<label class="form-label small fw-semibold mb-0" for="id_size">' in html
    assert "data-max" not in html and "fc-short" not in html  # the select's own
    assert '<div class="form-text fc-reason" id="id_size-reason">' in html
    help_text = '<div class="form-text" id="id_size-help">How &#x27;big&#x27;</div>'
    assert html.endswith(help_text + "\n  \n</div>\n")
    saved = _render("factory_field", _control(hide_when_saved=True), True)
    assert saved.startswith('\n<div class="fc-field d-none">') and "-reason" not in saved
    assert saved.endswith("</div></div>\n  \n</div>\n")  # the errors, then nothing
    short = _render("factory_select", _control(short="x"), False)
    assert '<label class="fc-short" for="id_size"><span aria-hidden="true">x</span>' in short
