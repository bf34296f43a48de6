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
