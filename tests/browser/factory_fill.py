"""Fill the Game Factory form from a rule document, control by control, as a person would.

``build(form, doc, name)`` reads a parsed catalogue document and works the factory's
controls in the order a person can: players and colours, shapes, the board, the outcome
dropdowns, each shape's power, then (phase 1) the space markers, set-up pieces and
reserves, each shape's move, and last every phase through the phase selector (order,
movement, pass, fold, the phase_lock icons, the lock and cloak markers). It never writes
a hidden field: what the form sends is what the controls made.

``form`` is one of two drivers with the same few verbs:

- ``BrowserForm``: a Playwright page; selects, clicks on markers and spaces, the htmx
  re-render after each control that asks for one (true click-through).
- ``PostForm``: the same form driven by HTTP alone: it reads the rendered form's controls
  (the fields a browser submits, with the disabled ones left out) and sends them to the
  factory's refresh and save URLs exactly as the page's htmx would, one request per
  control that re-renders. Fast, and the server sees what a browser sends.

A control that is missing, disabled or without the option the document needs fails the
fill with the control named (``CannotFill``): that is a game the form cannot make.
"""

from __future__ import annotations

import re
from collections import defaultdict
from html import unescape as html_unescape
from html.parser import HTMLParser

from gamecore.rules import endings as ending_words

FACTORY = "/games/new/"
REFRESH = "/games/new/refresh/"


class CannotFill(AssertionError):
    """The factory has no control (or no option) for something the document says."""


# --- the fill -----------------------------------------------------------------------------


def build(form, doc, name: str) -> None:
    """Work the factory's controls until the form describes ``doc`` (a parsed RuleDoc)."""
    form.open()
    form.fill_name(name)
    form.pick("id_players", doc.players)
    form.pick("id_colors", doc.colors)
    form.pick("id_cloaking", doc.cloaking)
    _shapes(form, list(doc.shapes))
    form.pick("id_boards", str(doc.boards))
    form.pick("id_board_type", doc.board.type)
    _size(form, tuple(doc.board.size))
    form.pick("id_pieces_per_turn", str(doc.pieces_per_turn))
    _outcomes(form, doc)
    if doc.players == "4":
        form.pick("id_overachievers", "1" if doc.overachievers else "0")
    rows = {shape: i + 1 for i, shape in enumerate(doc.shapes)}
    for shape, r in doc.shape_rules.items():
        row = rows[shape]
        form.pick(f"id_power-{row}", r.power)
        if r.power != "none":
            form.pick(f"id_power_condition-{row}", r.condition)
            form.pick(f"id_power_result-{row}", r.result)
    if doc.seconds_per_turn:
        form.pick("id_seconds", str(doc.seconds_per_turn))
        form.pick("id_timeout", doc.timeout)
    form.pick("id_agree_draw", "1" if doc.agree_draw else "0")
    phases = list(doc.phases)
    if len(phases) > 1:
        form.pick("id_phases", str(len(phases)))  # added phases copy phase 1: still blank
    _spaces(form, doc, rows)
    for color, by_shape in _reserves(doc).items():
        for shape, count in by_shape.items():
            form.pick(f"id_reserve-{color}-{rows[shape]}", str(count))
    for shape, r in doc.shape_rules.items():
        if r.move != "stationary":
            form.pick(f"id_move-{rows[shape]}", r.move)
    if not phases:
        form.pick("id_allow_pass", "1" if doc.allow_pass else "0")
    for i, phase in enumerate(phases):
        _phase(form, doc, i, phase)


def _shapes(form, shapes: list[str]) -> None:
    form.pick("id_shape_count", str(len(shapes)))
    for i, shape in enumerate(shapes):
        here = f"id_shape_{i + 1}"
        if form.value(here) == shape:
            continue
        # A shape used by one row is not offered to the others: move that row aside first.
        for j in range(i + 1, len(shapes)):
            other = f"id_shape_{j + 1}"
            if form.value(other) == shape:
                spare = next(s for s in form.options(other) if s not in shapes)
                form.pick(other, spare)
        form.pick(here, shape)


def _size(form, size: tuple[int, int, int]) -> None:
    """Shrink first, then grow: each side's options depend on the product of the others."""
    for _ in range(3):
        current = [int(form.value(f"id_size_{a}")) for a in "xyz"]
        if current == list(size):
            return
        order = sorted(range(3), key=lambda i: size[i] - current[i])
        for i in order:
            if int(form.value(f"id_size_{'xyz'[i]}")) != size[i]:
                if str(size[i]) in form.options(f"id_size_{'xyz'[i]}"):
                    form.pick(f"id_size_{'xyz'[i]}", str(size[i]))
    current = tuple(int(form.value(f"id_size_{a}")) for a in "xyz")
    if current != tuple(size):
        raise CannotFill(f"board size {size}: the dimension selects stay at {current}")


def _outcomes(form, doc) -> None:
    """The stalemate dropdown, then as many turn-check dropdowns as the document needs
    (the "First k-in-a-row" checks, then its other endings, as the factory lists them)."""
    stalemate = doc.stalemate
    values = [f"{c.k}-{c.result}-{'d' if c.diagonal else 'o'}" for c in doc.turn_checks]
    for e in doc.endings:
        k = ending_words.key(e)
        if e.when == "stalemate" and stalemate == "draw":
            stalemate = k
        else:
            values.append(k)
    form.pick("id_stalemate", stalemate)
    while form.count("select[name=check]") < len(values):
        form.press("fc-add-check")
    while form.count("select[name=check]") > len(values):
        form.press(f"fc-delete-check-{form.count('select[name=check]') - 1}")
    for i, value in enumerate(values):
        form.pick(f"id_check_{i}", value)


def _spaces(form, doc, rows: dict[str, int]) -> None:
    """Phase 1's markers: exclusive (per seat), sticky, seat locks, locked blanks and the
    set-up pieces. On stacks a marker marks the whole stack and things fall, so a stack is
    clicked at its foot and its contents are put in bottom up."""
    stacks = doc.board.type == "stacks"

    def where(board, at):
        return (board, at[0], at[1], 1 if stacks else at[2])

    exclusive: dict[tuple, set[int]] = defaultdict(set)
    for e in doc.exclusive:
        exclusive[where(e.board, e.at)] |= set(e.seats)
    for spot, seats in sorted(exclusive.items()):
        for seat in sorted(seats):
            form.pick("id_marker_seat", str(seat))
            form.marker("exclusive")
            form.space(spot)
    for spot in sorted({where(s.board, s.at) for s in doc.sticky}):
        form.marker("sticky")
        form.space(spot)
    # A seat's lock: entry and exit, entry only or exit only (the lock marker's select).
    seat_locks: dict[tuple, set[tuple[int, str]]] = defaultdict(set)
    for k in doc.space_locks:
        flags = "ex" if k.entry and k.exit else "e" if k.entry else "x"
        seat_locks[where(k.board, k.at)] |= {(seat, flags) for seat in k.seats}
    for spot, locks in sorted(seat_locks.items()):
        for seat, flags in sorted(locks):
            form.pick("id_marker_seat", str(seat))
            if form.value("id_lock_flags") != flags:
                form.pick("id_lock_flags", flags)
            form.marker("lock")
            form.space(spot)
    if seat_locks and form.value("id_lock_flags") != "ex":
        form.pick("id_lock_flags", "ex")
    form.pick("id_marker_seat", "0")
    # Locked blanks and pieces, bottom up in each stack (z order) so that they fall in place.
    items = [(s.board, *s.at, "lock") for s in doc.locked]
    items += [
        (p.board, *p.at, f"piece-{p.color}-{rows[p.shape]}" + ("/nobody" if p.nobody else ""))
        for p in doc.initial_pieces
    ]
    # Dealt spaces (release 1.7): the common marker or the seat's, placed like any marker.
    items += [(d.board, *d.at, f"dealt-{d.seat or 'common'}") for d in doc.dealt]
    owner = "seat"
    for b, x, y, z, marker in sorted(items, key=lambda t: (t[0], t[1], t[2], t[3])):
        marker, _, whose = marker.partition("/")  # a piece of nobody's: the owner select
        if marker.startswith("piece-") and (whose or "seat") != owner:
            owner = whose or "seat"
            form.pick("id_piece_owner", owner)
        form.marker(marker)
        form.space((b, x, y, z))
    if doc.deck:
        form.text("id_deck", doc.deck)


def _reserves(doc) -> dict[str, dict[str, int]]:
    """Every reserve select's number (zero where the document names none)."""
    from gamecore import rules

    colors = rules.color_names(doc)
    given = doc.reserves or {}
    return {c: {s: given.get(c, {}).get(s, 0) for s in doc.shapes} for c in colors}


def _phase(form, doc, i: int, phase) -> None:
    form.pick("id_phase", str(i))
    form.pick("id_order", phase.order)
    form.pick("id_movement", "1" if phase.placement_only else "0")
    form.pick("id_allow_pass", "1" if phase.allow_pass else "0")
    if i < len(doc.phases) - 1:
        form.pick("id_fold", phase.fold)
    for seat in range(1, form.count("#fc-phase-locks button") + 1):
        pressed = form.attribute(f"fc-phase-lock-{seat}", "aria-pressed") == "true"
        if pressed != (seat in phase.locked_seats):
            form.press(f"fc-phase-lock-{seat}")
    stacks = doc.board.type == "stacks"
    # In phase 1 the lock marker makes blanks for the whole game unless its seat says
    # "this phase only" (-1); after phase 1 it locks spaces for the shown phase.
    form.pick("id_marker_seat", "-1" if i == 0 and phase.locked else "0")
    for marker, spaces in (("lock", phase.locked), ("cloak", phase.cloaked)):
        # A whole stack is clicked at its foot; a cloak of some of a stack's spaces asks
        # the cloak marker for only the space clicked, and clicks each.
        clicks: list[tuple[tuple, str]] = []
        if stacks:
            levels: dict[tuple, set[int]] = defaultdict(set)
            for s in spaces:
                levels[(s.board, s.at[0], s.at[1])].add(s.at[2])
            every = set(range(1, doc.board.size[2] + 1))
            for (b, x, y), zs in sorted(levels.items()):
                if marker == "lock" or 0 in zs or zs >= every:
                    clicks.append(((b, x, y, 1), "stack"))
                else:
                    clicks += [((b, x, y, z), "space") for z in sorted(zs)]
        else:
            clicks = [
                ((s.board, *s.at), "stack") for s in sorted(spaces, key=lambda s: (s.board, *s.at))
            ]
        for spot, reach in clicks:
            if stacks and marker == "cloak" and form.value("id_cloak_reach") != reach:
                form.pick("id_cloak_reach", reach)
            form.marker(marker)
            form.space(spot)


# --- the browser ------------------------------------------------------------------------------


class BrowserForm:
    """The factory page in a browser: every control worked as a person works it."""

    def __init__(self, page):
        self.page = page

    def open(self):
        self.page.goto(FACTORY)

    def fill_name(self, name):
        self.page.fill("#id_name", name)

    def _settled(self, action):
        with self.page.expect_response(lambda r: REFRESH in r.url):
            action()
        self.page.wait_for_function(
            "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
        )

    def value(self, ident):
        return self.page.input_value(f"#{ident}")

    def options(self, ident):
        return self.page.eval_on_selector(
            f"#{ident}", "e => [...e.options].filter(o => !o.disabled).map(o => o.value)"
        )

    def count(self, selector):
        return self.page.locator(selector).count()

    def attribute(self, ident, name):
        return self.page.get_attribute(f"#{ident}", name)

    def pick(self, ident, value):
        if self.page.locator(f"#{ident}").count() == 0:
            raise CannotFill(f"no control #{ident} (for {value!r})")
        if self.value(ident) == value:
            return
        if self.page.eval_on_selector(f"#{ident}", "e => e.disabled"):
            raise CannotFill(f"#{ident} is disabled (wanted {value!r})")
        if value not in self.options(ident):
            raise CannotFill(f"#{ident} offers no {value!r}: {self.options(ident)}")
        if self.page.get_attribute(f"#{ident}", "hx-post"):
            self._settled(lambda: self.page.select_option(f"#{ident}", value))
        else:
            self.page.select_option(f"#{ident}", value)
        assert self.value(ident) == value, (ident, value)

    def press(self, ident):
        self._settled(lambda: self.page.click(f"#{ident}"))

    def text(self, ident, value):
        """Type into a text field that recounts (the deck): Enter asks the server."""
        if self.page.locator(f"#{ident}").count() == 0:
            raise CannotFill(f"no control #{ident} (for {value!r})")
        self.page.fill(f"#{ident}", value)
        self._settled(lambda: self.page.press(f"#{ident}", "Enter"))
        assert self.page.input_value(f"#{ident}") == value, (ident, value)

    def marker(self, value):
        if self.page.locator(f"#mk-{value}").count() == 0:
            raise CannotFill(f"no marker {value!r}")
        if not self.page.is_checked(f"#mk-{value}"):
            self.page.click(f"label[for=mk-{value}]")
        assert self.page.is_checked(f"#mk-{value}")

    def space(self, spot):
        ident = "sp-" + "-".join(map(str, spot))
        if self.page.locator(f"#{ident}").count() == 0:
            raise CannotFill(f"no space {spot} on the drawn board")
        self._settled(lambda: self.page.click(f"#{ident}"))

    def save(self) -> str:
        """Press Save; the page's URL after it (a saved game's page, or the form again)."""
        with self.page.expect_navigation():
            self.page.click("#fc-save")
        return self.page.url

    def errors(self) -> str:
        return " | ".join(
            t.strip()
            for t in self.page.locator(
                ".invalid-feedback, #fc-top-errors, .alert-danger"
            ).all_inner_texts()
        )


# --- HTTP alone ------------------------------------------------------------------------------


class _Controls(HTMLParser):
    """The factory form's controls as a browser holds them: each select's id, name,
    options, disabled state and hx-post; inputs (hidden, checked radios); buttons by id."""

    def __init__(self):
        super().__init__()
        self.selects: dict[str, dict] = {}  # id -> {name, options, value, disabled, refresh}
        self.order: list[tuple[str, str]] = []  # (kind, key) in document order
        self.inputs: list[dict] = []
        self.buttons: dict[str, dict] = {}
        self.errors: list[str] = []
        self._select = None
        self._error_depth = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "select":
            self._select = {
                "id": a.get("id", ""),
                "name": a.get("name", ""),
                "options": [],
                "value": None,
                "disabled": "disabled" in a,
                "refresh": "hx-post" in a,
            }
        elif tag == "option" and self._select is not None:
            value = a.get("value", "")
            self._select["options"].append((value, "disabled" in a))
            if (
                "selected" in a
                or self._select["value"] is None
                and not self._select["options"][:-1]
            ):
                self._select["value"] = value
        elif tag == "input" and a.get("name"):
            self.inputs.append(a)
            self.order.append(("input", str(len(self.inputs) - 1)))
        elif tag == "button" and a.get("id"):
            self.buttons[a["id"]] = a
        if "invalid-feedback" in (a.get("class") or "") or a.get("id") == "fc-top-errors":
            self._error_depth = 1
        elif self._error_depth:
            self._error_depth += 1 if tag not in ("input", "br") else 0

    def handle_endtag(self, tag):
        if tag == "select" and self._select is not None:
            self.selects[self._select["id"]] = self._select
            self.order.append(("select", self._select["id"]))
            self._select = None
        elif self._error_depth:
            self._error_depth -= 1

    def handle_data(self, data):
        if self._error_depth and data.strip():
            self.errors.append(data.strip())


_SKIPPED = re.compile(r"<script\b.*?</script>|<!--.*?-->", re.S | re.I)
_TAG = re.compile(r"<select\b([^>]*)>(.*?)</select>|<(input|button)\b([^>]*)>", re.S | re.I)
_OPTION = re.compile(r"<option\b([^>]*)>", re.I)
_ATTR = re.compile(r'([^\s="\'/>]+)(\s*=\s*(?:"([^"]*)"|\'([^\']*)\'|([^\s>]+)))?')


def _attrs(text: str) -> dict:
    """A tag's attributes as ``HTMLParser`` gives them: names lower-cased, values
    unescaped, None for a bare one (``disabled``)."""
    out = {}
    for name, given, double, single, bare in _ATTR.findall(text):
        value = html_unescape(double or single or bare) if given else None
        out.setdefault(name.lower(), value)
    return out


class _QuickControls(_Controls):
    """``_Controls`` read with regular expressions (the form's markup is the site's own,
    regular): Python's HTML parser took half of a large form's fill (a 26-high stack
    game's form is 300 KB, redrawn a hundred times). Its errors are parsed only when
    asked for (``errors``)."""

    def feed(self, data: str) -> None:
        self._html = data
        self._errors = None
        for found in _TAG.finditer(_SKIPPED.sub("", data)):
            select_attrs, body, tag, attrs = found.groups()
            if select_attrs is not None:
                self._select = None
                self.handle_starttag("select", list(_attrs(select_attrs).items()))
                for option in _OPTION.finditer(body):
                    self.handle_starttag("option", list(_attrs(option.group(1)).items()))
                self.handle_endtag("select")
            else:
                self.handle_starttag(tag.lower(), list(_attrs(attrs).items()))

    @property
    def errors(self) -> list[str]:
        if self._errors is None:
            full = _Controls()
            full.feed(self._html)
            self._errors = full.errors
        return self._errors

    @errors.setter
    def errors(self, value) -> None:  # (``_Controls.__init__`` sets it empty)
        pass


class PostForm:
    """The factory form driven by HTTP requests, as the page's htmx sends them: a control
    that re-renders posts the whole form to the refresh URL and the answer replaces the
    form; markers and plain selects only change what the next request sends."""

    def __init__(self, client):
        self.client = client  # django.test.Client, logged in
        self.controls: _Controls | None = None
        self.name = ""
        self.marked = ""
        self.response = None

    def _read(self, html: str):
        self.controls = _QuickControls()
        self.controls.feed(html)
        checked = [i for i in self.controls.inputs if i.get("name") == "marker" and "checked" in i]
        self.marked = checked[0]["value"] if checked else ""

    def fields(self) -> list[tuple[str, str]]:
        """What the browser would submit: inputs (checked radios), enabled selects' values."""
        out = []
        for kind, key in self.controls.order:
            if kind == "input":
                a = self.controls.inputs[int(key)]
                if a.get("type") in ("radio", "checkbox"):
                    continue
                value = self.name if a["name"] == "name" else a.get("value", "")
                out.append((a["name"], value))
            else:
                s = self.controls.selects[key]
                if not s["disabled"] and s["name"]:
                    out.append((s["name"], s["value"] or ""))
        if self.marked:
            out.append(("marker", self.marked))
        return out

    def _post(self, url, extra=()):
        data = defaultdict(list)
        for k, v in [*self.fields(), *extra]:
            data[k].append(v)
        return self.client.post(url, dict(data))

    def _refresh(self, extra=()):
        response = self._post(REFRESH, extra)
        assert response.status_code == 200, response.status_code
        self._read(response.content.decode())

    def open(self):
        response = self.client.get(FACTORY)
        assert response.status_code == 200
        self._read(response.content.decode())

    def fill_name(self, name):
        self.name = name

    def _select(self, ident):
        s = self.controls.selects.get(ident)
        if s is None:
            raise CannotFill(f"no control #{ident}")
        return s

    def value(self, ident):
        return self._select(ident)["value"]

    def options(self, ident):
        return [v for v, off in self._select(ident)["options"] if not off]

    def count(self, selector):
        if selector == "select[name=check]":
            return sum(1 for s in self.controls.selects.values() if s["name"] == "check")
        if selector == "#fc-phase-locks button":
            return sum(1 for b in self.controls.buttons if b.startswith("fc-phase-lock-"))
        raise ValueError(selector)

    def attribute(self, ident, name):
        return self.controls.buttons[ident].get(name)

    def pick(self, ident, value):
        s = self._select(ident)
        if s["value"] == value:
            return
        if s["disabled"]:
            raise CannotFill(f"#{ident} is disabled (wanted {value!r})")
        if value not in self.options(ident):
            raise CannotFill(f"#{ident} offers no {value!r}: {self.options(ident)}")
        s["value"] = value
        if s["refresh"]:
            self._refresh()
            assert self.value(ident) == value, (ident, value, self.value(ident))

    def text(self, ident, value):
        found = [i for i in self.controls.inputs if i.get("id") == ident]
        if not found or "disabled" in found[0]:
            raise CannotFill(f"no control #{ident} (for {value!r})")
        found[0]["value"] = value
        if "hx-post" in found[0]:
            self._refresh()
            again = [i for i in self.controls.inputs if i.get("id") == ident]
            assert again and again[0].get("value") == value, (ident, value)

    def press(self, ident):
        button = self.controls.buttons.get(ident)
        if button is None or "disabled" in button:
            raise CannotFill(f"no button #{ident}")
        self._refresh([(button["name"], button["value"])])

    def marker(self, value):
        if not any(
            i.get("name") == "marker" and i.get("value") == value for i in self.controls.inputs
        ):
            raise CannotFill(f"no marker {value!r}")
        self.marked = value

    def space(self, spot):
        ident = "sp-" + "-".join(map(str, spot))
        button = self.controls.buttons.get(ident)
        if button is None:
            raise CannotFill(f"no space {spot} on the drawn board")
        self._refresh([("toggle", button["value"])])

    def save(self) -> str:
        response = self._post(FACTORY, [("action", "save")])
        self.response = response
        if response.status_code == 302:
            return response["Location"]
        self._read(response.content.decode())
        return FACTORY

    def errors(self) -> str:
        return " | ".join(self.controls.errors)


SAVED = re.compile(r"/games/\d+/$")


def general_games() -> list[str]:
    """The catalogue's named games that only the general family plays (every named game
    added since the fourteen flat ones, nested boards aside): the factory must make each."""
    from gamecore import rules
    from gamecore.rules.moving import needs_general
    from variants import catalogue

    docs = {name: rules.parse(doc) for name, doc in catalogue.documents().items()}
    return [n for n, d in docs.items() if d.board.type != "nested" and needs_general(d)]
