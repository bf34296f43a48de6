"""The paper game's fields on the match page (seed 002): switches for Block numbers,
Where a move sends (Mapped / Hypermapped), Who owns what (Help), Move record and
Continuous record, on a desktop and on a phone. Screenshots: FACTORY_SCREENSHOTS
(strategic-*.png)."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.conftest import screenshot
from tests.play_helpers import bot, rule_set, start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LEGAL = "[data-testid=board] [data-testid=cell][data-move]"
MY_TURN = (
    f"document.querySelector('{LEGAL}') &&"
    " !document.querySelector('#vf-board').classList.contains('is-pending')"
)


def open_match(page, match):
    page.goto(match.get_absolute_url())
    page.wait_for_selector("[data-testid=board] [data-testid=cell]")
    page.wait_for_selector("[data-testid=paper-panel]:not([hidden])")
    return page


def switch(page, key: str):
    page.locator(f"label[for=vf-paper-{key}]").click()
    assert page.locator(f"[data-testid=paper-switch-{key}]").is_checked()


SHOWN = "document.querySelector('[data-testid=sends-outline]')?.getAttribute('visibility')"


def first_tap(page, selector: str, deadline_s: float = 10):
    """A touch tap on the cell ``selector``, which shows where it sends. The board may
    re-render just then (the match's state arriving) and a new board shows nothing yet:
    then it is a first tap again. Never a second tap on a board that shows the outline
    (that would play the move)."""
    deadline = time.monotonic() + deadline_s
    while True:
        cell = page.locator(selector)
        cell.dispatch_event("pointerdown", {"pointerType": "touch", "isPrimary": True})
        cell.dispatch_event("click")
        try:
            page.wait_for_function(f"{SHOWN} === 'visible'", timeout=1000)
            return
        except PlaywrightTimeout:
            assert time.monotonic() < deadline, "a tap never showed where the cell sends"


MARKS = (
    "[...document.querySelectorAll('[data-testid=board] [data-testid=cell]')]"
    ".filter(c => !['_', '#', '%'].includes(c.dataset.symbol)).length"
)


def play_moves(page, count: int, deadline_s: float = 30):
    """Play the first legal cell ``count`` times, each time until the bot has answered. A
    dispatched click: the board may re-render at once (the bot's answer), so a click
    that fell between two renders is simply tried again."""
    for _ in range(count):
        before = page.evaluate(f"() => {MARKS}")
        deadline = time.monotonic() + deadline_s
        while page.evaluate(f"() => {MARKS}") < before + 2:
            assert time.monotonic() < deadline, "the bot did not answer in time"
            if page.evaluate(f"() => {MARKS}") == before and page.evaluate(f"() => !!({MY_TURN})"):
                page.locator(LEGAL).first.dispatch_event("click")
                try:
                    page.wait_for_function(f"{MARKS} > {before}", timeout=3000)
                except PlaywrightTimeout:
                    pass
            time.sleep(0.05)
    page.wait_for_function(MY_TURN, timeout=15000)


def test_strategic_map_fields_on_a_desktop(person):
    ann = person("ann", width=1366, height=768)
    match = start(rule_set("Strategic-Map"), ann.user, ann.user, bot())
    open_match(ann, match)
    assert ann.locator("[data-testid=paper-number]").count() == 0  # all off at first
    switch(ann, "numbers")
    assert ann.locator("[data-testid=paper-number]").count() == 81  # every tactical cell
    assert ann.locator('[data-testid=paper-number][data-block="5/3"]').count() == 1
    switch(ann, "routes")
    assert ann.locator("[data-testid=route-number]").count() == 81  # 9 rows x 9 blocks
    # Pointing at a cell outlines where it sends the other player, as the engine says.
    cell = ann.locator(f'{LEGAL}[data-move="4/8/2"]')
    cell.hover()
    outline = ann.locator("[data-testid=sends-outline]")
    assert outline.get_attribute("visibility") == "visible"
    from tests.engine_helpers import game, play

    g = game("Strategic-Map")
    expected = play(g.new_initial_state(), "4/8/2").view(1)["area_path"]
    assert outline.get_attribute("data-sends") == "/".join(map(str, expected))
    assert (
        f"block {outline.get_attribute('data-sends')}"
        in ann.locator("[data-testid=paper-sends]").inner_text()
    )
    screenshot(ann, "strategic-map-desktop-hover")
    switch(ann, "help")
    switch(ann, "record")
    play_moves(ann, 3)
    rows = ann.locator("[data-testid=paper-record] tbody tr")
    assert rows.count() >= 3
    first = rows.first.locator("td").all_inner_texts()
    assert len(first) == 6 and all(t.isdigit() for t in first)  # X: S T O, O: S T O
    assert ann.locator("[data-testid=paper-help] svg").count() == 2  # tactical, strategic
    assert ann.locator("[data-testid=paper-continuous]").is_hidden()  # Map-like game
    assert ann.locator("[data-testid=paper-continuous]").count() == 1
    assert ann.locator("[data-testid=paper-continuous]").is_hidden()
    assert ann.locator("#vf-paper-continuous").is_disabled()
    ann.mouse.move(0, 0)
    screenshot(ann, "strategic-map-desktop")
    # The switches are remembered: a reload shows the same fields.
    ann.reload()
    open_match(ann, match)
    assert ann.locator("[data-testid=paper-number]").count() == 81
    assert ann.locator("[data-testid=paper-record] tbody tr").count() >= 3


def test_strategic_hypermap_and_tactical_fields_on_a_phone(person):
    pia = person("pia", width=390, height=844)
    match = start(rule_set("Strategic-Hypermap"), pia.user, pia.user, bot())
    open_match(pia, match)
    switch(pia, "routes")
    assert pia.locator("[data-testid=route-number]").count() == 729  # one in every cell
    # A touch screen: the first tap shows where the move sends, the second plays it.
    pia.wait_for_function(MY_TURN, timeout=15000)
    first_tap(pia, f'{LEGAL}[data-move="5/5/5"]')
    cell = pia.locator(f'{LEGAL}[data-move="5/5/5"]')
    outline = pia.locator("[data-testid=sends-outline]")
    assert outline.get_attribute("visibility") == "visible"
    assert pia.locator("[data-testid=board] [data-symbol=X]").count() == 0  # not played
    assert (
        "5/5/5 sends the other player to block"
        in pia.locator("[data-testid=paper-sends]").inner_text()
    )
    cell.dispatch_event("pointerdown", {"pointerType": "touch", "isPrimary": True})
    cell.dispatch_event("click")
    pia.wait_for_selector("[data-testid=board] [data-testid=cell][data-symbol=X]")
    switch(pia, "help")
    play_moves(pia, 2)
    empty = pia.evaluate(
        "() => [...document.querySelectorAll('[data-testid=board] [data-testid=cell]')]"
        ".filter(c => c.dataset.symbol === '_').length"
    )
    assert pia.locator("[data-testid=route-number]").count() == empty  # empty cells only
    width = pia.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390  # nothing sticks out sideways on a phone
    screenshot(pia, "strategic-hypermap-phone")
    tactical = start(rule_set("Strategic-Tactical"), pia.user, pia.user, bot())
    open_match(pia, tactical)
    switch(pia, "numbers")
    switch(pia, "record")
    switch(pia, "continuous")
    play_moves(pia, 3)
    links = pia.locator("[data-testid=paper-continuous] li")
    assert links.count() >= 5
    assert links.first.inner_text().count("/") == 2  # the first move is written in full
    assert pia.evaluate("() => document.documentElement.scrollWidth") <= 390
    screenshot(pia, "strategic-tactical-phone")


def test_who_owns_what_matches_the_blocks_won_on_the_board(person):
    bea = person("bea", width=1366, height=768)
    doc = {"board": {"type": "nested"}, "nested": {"depth": 3, "scouts": 5}}
    scouted = rule_set("Strategic-Scouts", **doc)  # marks before the first move win blocks
    open_match(bea, start(scouted, bea.user, bea.user, bot()))
    switch(bea, "help")
    won = bea.locator("[data-testid=board] [data-testid=block-mark]").count()
    assert won > 0
    assert bea.locator("[data-testid=paper-help] svg text").count() == won
    labels = bea.locator("[data-testid=paper-help] svg").evaluate_all(
        "svgs => svgs.map(s => s.getAttribute('aria-label'))"
    )
    assert labels[0].startswith("Tactical cells: ") and labels[1].startswith("Strategic cells: ")
    screenshot(bea, "strategic-help-desktop")
