"""Issue 35's factory details in headless Chromium: the name field's browser check (a
pattern Chromium compiles), the lock marker's entry-only / exit-only choice per seat, the
reserve selects' stable maximum and the draw-only warning. Screenshots, at a laptop's and
a phone's size, go to /tmp/shots/factoryfix/ (or $FACTORYFIX_SHOTS)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.browser.test_factory_browser import FACTORY, choose, click_space, refreshing
from variants.models import RuleSet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(os.environ.get("FACTORYFIX_SHOTS", "/tmp/shots/factoryfix"))
SIZES = {"desktop": (1366, 768), "phone": (390, 844)}


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


def shots(page, selector: str, name: str) -> None:
    """``selector`` in view at each size, shot, then back at the laptop's size."""
    for size, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        page.locator(selector).scroll_into_view_if_needed()
        shot(page, f"{name}-{size}")
    page.set_viewport_size({"width": SIZES["desktop"][0], "height": SIZES["desktop"][1]})


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_name_fields_pattern_compiles_and_checks_the_name(person, size):
    w, h = SIZES[size]
    page = person(f"namer{size}", width=w, height=h)
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text))
    page.goto(FACTORY)
    name = page.locator("#id_name")
    pattern = name.get_attribute("pattern")
    # Chromium compiles `pattern` with the v flag: the same check here, spelled out.
    assert page.evaluate(
        "p => { try { new RegExp(p, 'v'); return true } catch { return false } }", pattern
    )
    assert not [m for m in console if "pattern" in m.lower()], console
    for text, ok in (("Good-Name_7", True), ("two words", False), ("a*b", False),
                     ("a(b", False), ("a)b", False), ("tab\there", False)):  # fmt: skip
        name.fill(text)
        mismatch = name.evaluate("e => e.validity.patternMismatch")
        assert mismatch is (not ok), text
    name.fill("no spaces")
    page.click("#fc-save")
    # The browser refuses the form and says why (nothing posted: still the new page).
    assert name.evaluate("e => !e.checkValidity() && e.validity.patternMismatch")
    assert page.url.endswith(FACTORY)
    shot(page, f"name-check-{size}")


def test_an_exit_only_lock_for_a_seat_through_the_page(person):
    page = person("locker", width=1366, height=768)
    page.goto(FACTORY)
    choose(page, "id_players", "3")
    choose(page, "id_board_type", "squares")
    page.click("label[for=mk-lock]")
    page.select_option("#id_marker_seat", "2")
    page.select_option("#id_lock_flags", "x")
    click_space(page, "1-2-2-1")
    assert page.inner_text("#sp-1-2-2-1 .fc-flag-lock").strip() == "2out"
    assert "exit locked to seat 2" in page.get_attribute("#sp-1-2-2-1", "aria-label")
    assert page.input_value("#id_lock_flags") == "x"  # kept through the redraw
    page.select_option("#id_marker_seat", "3")
    page.select_option("#id_lock_flags", "e")
    click_space(page, "1-2-2-1")
    assert page.inner_text("#sp-1-2-2-1 .fc-flag-lock").strip() == "2out,3in"
    shots(page, "#id_lock_flags", "lock-flags")


def test_the_reserve_maximum_stays_put_and_captures_say_so(person):
    page = person("reserver", width=1366, height=768)
    page.goto(FACTORY)
    choose(page, "id_players", "2-vs-chaos")
    choose(page, "id_board_type", "stacks")
    choose(page, "id_size_x", "4")
    choose(page, "id_size_y", "1")
    choose(page, "id_size_z", "3")

    def plain():
        return page.eval_on_selector(
            "#id_reserve-pink-1",
            "s => [...s.options].filter(o => !o.text.includes('⚔')).map(o => o.value)",
        )

    assert plain() == ["0", "1", "2", "3", "4"]
    assert page.locator("#fc-reserve-note").count() == 0
    choose(page, "id_power-1", "can-capture")
    assert plain() == ["0", "1", "2", "3", "4"]  # the maximum did not move
    assert "up to 12" in page.inner_text("#fc-reserve-note")
    page.select_option("#id_reserve-pink-1", "6")
    shots(page, "#fc-reserve-note", "reserves")


@pytest.mark.parametrize("family", ["flat", "nested"])
def test_a_turn_time_in_milliseconds_is_chosen_and_bounded(person, family):
    page = person(f"timer{family}", width=1366, height=768)
    page.goto(FACTORY)
    prefix = ""
    if family == "nested":
        choose(page, "id_family", "nested")
        prefix = "n_"
    field = page.locator(f"#id_{prefix}turn_ms")
    assert field.is_disabled()  # off until the select says milliseconds
    choose(page, f"id_{prefix}seconds", "ms")
    assert field.is_enabled()
    for text, ok in (("7500", True), ("4999", False), ("60001", False), ("60000", True)):
        field.fill(text)
        assert field.evaluate("e => e.checkValidity()") is ok, text
    field.fill("7500")
    page.fill("#id_name", f"Timed-{family}")
    for name, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        field.scroll_into_view_if_needed()
        shot(page, f"turn-ms-{family}-{name}")
    page.click("#fc-save")
    page.wait_for_url("**/games/*/")
    assert page.input_value(f"#id_{prefix}turn_ms") == "7500"  # the saved page shows it
    for name, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        page.locator(f"#id_{prefix}turn_ms").scroll_into_view_if_needed()
        shot(page, f"turn-ms-saved-{family}-{name}")
    from variants.models import RuleSet

    saved = RuleSet.objects.get(name=f"Timed-{family}").rule_doc()
    assert saved.turn_ms == 7500


def test_the_seeds_rock_paper_scissors_is_warned_before_save(person):
    page = person("rps", width=1366, height=768)
    page.goto(FACTORY)
    choose(page, "id_board_type", "stacks")
    choose(page, "id_size_x", "1")
    choose(page, "id_size_y", "1")
    choose(page, "id_size_z", "2")
    choose(page, "id_shape_count", "3")
    for row in (1, 2, 3):
        choose(page, f"id_power-{row}", "can-capture")
        choose(page, f"id_power_condition-{row}", "cover-by-rank")
        page.select_option(f"#id_power_result-{row}", "convert")
        for color in ("black", "white"):
            page.select_option(f"#id_reserve-{color}-{row}", "1")
    page.select_option("#id_order", "simultaneous")
    page.click("#id_check_0 ~ button, button[value='delete_check-0']")
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
    )
    page.wait_for_selector("[data-testid=game-warnings]")
    said = page.inner_text("[data-testid=game-warnings]")
    assert "Most pieces wins" in said and "RockPaperScissors" in said
    for name, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        page.locator("[data-testid=game-warnings]").scroll_into_view_if_needed()
        shot(page, f"rps-warning-{name}")
    # The stalemate select does not redraw the form (a redraw would race the clicks that
    # follow it); the next redraw (here: Add check) brings the warnings up to date.
    page.select_option("#id_stalemate", "most-pieces-wins")
    refreshing(page, lambda: page.click("#fc-add-check"))
    assert "RockPaperScissors" not in (
        page.inner_text("#fc-warnings") if page.locator("#fc-warnings").count() else ""
    )


def test_a_set_up_piece_of_nobodys_through_the_page(person):
    """Issue 35: the owner select makes a piece marker place scenery (HideSeek's ring):
    drawn faded and dashed, named on the space and in the legend, saved as ``nobody``
    and summarised so on the game's page; back to the seat's, a piece is owned again."""
    page = person("sceneryman", width=1366, height=768)
    page.goto(FACTORY)
    page.fill("#id_name", "Scenery")
    choose(page, "id_players", "2-vs-chaos")
    page.click("label[for=mk-piece-pink-1]")
    page.select_option("#id_piece_owner", "nobody")
    click_space(page, "1-2-2-1")
    assert "pink circle (nobody's)" in page.get_attribute("#sp-1-2-2-1", "aria-label")
    assert page.locator("#sp-1-2-2-1 .fc-nobody").count() == 1
    assert "nobody's (scenery)" in page.inner_text(".fc-flag-legend")
    page.select_option("#id_piece_owner", "seat")
    click_space(page, "1-1-1-1")  # an owned pink circle beside it
    label = page.get_attribute("#sp-1-1-1-1", "aria-label")
    assert label.endswith("pink circle"), label
    assert page.input_value("#id_piece_owner") == "seat"  # kept through the redraw
    shots(page, "#id_piece_owner", "nobody")
    page.click("#fc-save")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    doc = RuleSet.objects.get(name="Scenery").document
    pieces = {tuple(p["at"]): p.get("nobody", False) for p in doc["initial_pieces"]}
    assert pieces == {(2, 2, 1): True, (1, 1, 1): False}
    assert "pink (nobody's) at (2,2,1)" in page.text_content("#fc-summary")


def test_the_cloak_marker_cloaks_one_space_of_a_stack(person):
    """Issue 34: the 3P pokers and BeerQuiche60 cloak some of a stack's spaces in a phase
    (cards shown round by round). "Only the space clicked" cloaks that space alone; "The
    whole stack" (the default) every space of the stack; saved as the spaces chosen."""
    page = person("cloaker", width=1366, height=768)
    page.goto(FACTORY)
    page.fill("#id_name", "PartCloak")
    choose(page, "id_board_type", "stacks")
    choose(page, "id_size_x", "4")
    choose(page, "id_size_y", "1")
    choose(page, "id_size_z", "3")
    page.select_option("#id_cloaking", "hides")
    assert page.input_value("#id_cloak_reach") == "stack"
    page.click("label[for=mk-cloak]")
    click_space(page, "1-1-1-1")  # the whole first stack
    drawn = page.locator("[id^=sp-1-1-1-]").count()
    assert drawn >= 2 and page.locator("[id^=sp-1-1-1-] .fc-flag-cloak").count() == drawn
    page.select_option("#id_cloak_reach", "space")
    click_space(page, "1-2-1-2")  # the second stack's middle space alone
    assert page.locator("[id^=sp-1-2-1-] .fc-flag-cloak").count() == 1
    assert "cloaked in phase 1" in page.get_attribute("#sp-1-2-1-2", "aria-label")
    assert "cloaked" not in page.get_attribute("#sp-1-2-1-1", "aria-label")
    assert page.input_value("#id_cloak_reach") == "space"  # kept through the redraw
    shots(page, "#id_cloak_reach", "cloak-reach")
    page.click("#fc-save")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    doc = RuleSet.objects.get(name="PartCloak").rule_doc()
    cloaked = {(s.at[0], s.at[2]) for s in doc.phases[0].cloaked}
    assert (2, 2) in cloaked and not {(2, 1), (2, 3)} & cloaked
    height = doc.board.size[2]
    assert {(1, z) for z in range(1, height + 1)} <= cloaked or (1, 0) in cloaked


def test_the_cloak_reach_is_offered_on_stacks_only(person):
    page = person("flatcloaker", width=1366, height=768)
    page.goto(FACTORY)
    assert page.locator("#id_cloak_reach").count() == 0  # a flat board: one space a click
    choose(page, "id_board_type", "stacks")
    assert page.locator("#id_cloak_reach").count() == 1
