"""Issue 38: a factory a person can use without the README — every control labelled,
disabled controls say what to change, and a game nobody can win is warned before Save."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from tests.test_factory import FACTORY, REFRESH, form_fields, post_data
from variants.factory import layout as page
from variants.factory.state import default_state

# A disabled control's reason must say what to do, not only what is wrong.
ACTION_VERBS = ("Lower", "Raise", "Choose", "Pick", "Set", "Add", "Remove", "Turn", "Select")


class ControlReader(HTMLParser):
    """Every visible select/input with its id, aria-label and the ids labels point at."""

    def __init__(self):
        super().__init__()
        self.controls: list[dict] = []
        self.label_for: set[str] = set()
        self._label_depth = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "label":
            if a.get("for"):
                self.label_for.add(a["for"])
            self._label_depth += 1
        elif tag in ("select", "input", "textarea"):
            if a.get("type") in ("hidden", "submit") or "aria-hidden" in a:
                return
            self.controls.append({**a, "_tag": tag, "_wrapped": self._label_depth > 0})

    def handle_endtag(self, tag):
        if tag == "label":
            self._label_depth = max(0, self._label_depth - 1)


def unlabelled(html: str) -> list[str]:
    reader = ControlReader()
    reader.feed(html)
    out = []
    for c in reader.controls:
        named = c.get("aria-label") or c["_wrapped"] or c.get("id") in reader.label_for
        if not named:
            out.append(f"{c['_tag']} name={c.get('name')} id={c.get('id')}")
    return out


def icon_only_buttons(html: str) -> list[str]:
    """Buttons whose only content is an icon and that have no words a sighted user reads."""
    out = []
    for m in re.finditer(r"<button\b([^>]*)>(.*?)</button>", html, re.S):
        attrs, inner = m.group(1), m.group(2)
        if 'class="fc-space' in attrs or 'aria-hidden="true"' in attrs:
            continue  # board spaces are named by aria-label and drawn as the board
        text = re.sub(r"<[^>]+>", "", inner).strip()
        if not text:
            out.append(attrs.strip()[:120])
    return out


def visible_label_missing(html: str) -> list[str]:
    """Selects of the flat form whose label is for screen readers only (no visible words)."""
    out = []
    for m in re.finditer(r'<label class="[^"]*visually-hidden" for="([^"]+)">', html):
        out.append(m.group(1))
    return out


@pytest.fixture
def page_html(creator, client):
    client.force_login(creator)
    return client.get(FACTORY).content.decode()


def test_every_control_of_the_flat_form_has_a_label(page_html):
    assert unlabelled(page_html) == []
    assert visible_label_missing(page_html) == []


def test_no_icon_only_buttons(page_html):
    start = page_html.index('<form id="factory-form"')
    form = page_html[start : page_html.index("</form>", start)]
    assert 'id="fc-add-check"' in form
    assert icon_only_buttons(form) == []


def test_the_space_markers_and_reserves_say_what_they_are(page_html):
    assert 'id="fc-markers-heading"' in page_html
    assert 'id="fc-reserves-heading"' in page_html


def _reasons(layout) -> list[str]:
    return [c.reason for c in page._all_controls(layout) if c.reason]


def _has_action(reason: str) -> bool:
    return any(re.search(rf"\b{verb}\b", reason, re.I) for verb in ACTION_VERBS)


def test_disabled_reasons_say_what_to_change():
    from variants.factory import nested_state

    state = default_state()
    state.seconds = None  # no timer: "When the time runs out" is off
    limit = state.reserve_limit()
    for color in state.color_names:  # every reserve of shape 1 at its maximum: it cannot move
        state.reserves.setdefault(color, {})[1] = limit
    reasons = _reasons(page.build(state))
    joined = " | ".join(reasons)
    assert "cannot move" in joined and "Seconds per turn" in joined and "4 Players" in joined
    assert "Lower a reserve below its maximum to let this shape move" in joined
    for reason in reasons:
        assert _has_action(reason), reason
    for name in ("NEEDS_BLOCKS", "NO_AREA", "CHECKED_FLAT", "NEEDS_TIMER", "NEEDS_MAP",
                 "FLAT_MAPS", "NO_LOWER"):  # fmt: skip
        assert _has_action(getattr(nested_state, name)), name


def test_the_hash_board_says_how_to_change_its_size(page_html):
    assert "Choose Squares as the Board to change the size" in page_html


def test_a_game_nobody_can_win_is_warned_in_the_form_as_it_is_edited(creator, client):
    client.force_login(creator)
    html = client.get(FACTORY).content.decode()
    # Changing a turn check redraws the form, warnings included.
    tag = re.search(r'<select[^>]*id="id_check_0"[^>]*>', html).group(0)
    assert 'hx-trigger="change"' in tag, tag
    fields = form_fields(html)
    data = post_data(fields, name="FiveOnThree", check="5-wins-d")
    refreshed = client.post(REFRESH, data).content.decode()
    assert 'data-testid="game-warnings"' in refreshed, refreshed[:500]
    assert "No line of 5 fits on a 3×3×1 board" in refreshed
    # Beside Save, too: a person at the bottom of the form sees it before pressing Save.
    assert 'data-testid="game-warnings-reminder"' in refreshed
    # A winnable game has neither.
    fine = client.post(REFRESH, post_data(fields, name="Fine")).content.decode()
    assert 'data-testid="game-warnings"' not in fine
    assert 'data-testid="game-warnings-reminder"' not in fine
