"""Pieces that move, in headless Chromium: the factory's move, power, condition and result
dropdowns and their clearing and disabling, a marker toggled on a space, Tapatan created
through the form (the catalogue's fingerprint), and Tapatan played against a bot to the
end by clicking pieces on the board. Screenshots go to /work/shots/factoryboard/ (or
$FACTORYBOARD_SHOTS) at a laptop's and a phone's width."""

from __future__ import annotations

import os
import random
import re
import time
from pathlib import Path

import pytest

from play.models import Match
from tests.browser.test_factory_browser import (
    FACTORY,
    GREEN,
    background,
    choose,
    click_space,
    refreshing,
    saved_fingerprint_matches,
)
from tests.play_helpers import bot, rule_set, start
from variants.models import RuleSet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(os.environ.get("FACTORYBOARD_SHOTS", "/work/shots/factoryboard"))
SIZES = {"laptop": (1366, 768), "phone": (390, 844)}


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def disabled(page, selector: str) -> bool:
    return page.eval_on_selector(selector, "e => e.disabled")


def enabled_options(page, selector: str) -> list[str]:
    return page.eval_on_selector(
        selector, "e => [...e.options].filter(o => !o.disabled).map(o => o.value)"
    )


def test_move_power_condition_and_result_controls(person):
    page = person("mona")
    page.goto(FACTORY)
    assert page.locator(".fc-shape .fc-coming").count() == 0  # nothing "coming" per shape
    choose(page, "id_board_type", "squares")
    choose(page, "id_size_x", "4")
    choose(page, "id_size_y", "4")
    # 8 each fill the 4x4 board: every reserve at its maximum, nothing can move yet.
    assert disabled(page, "#id_move-1")
    page.select_option("#id_reserve-black-1", "4")  # at once, in the browser
    assert not disabled(page, "#id_move-1")
    # No power: condition and result cleared and disabled.
    assert disabled(page, "#id_power_condition-1") and disabled(page, "#id_power_result-1")
    assert page.input_value("#id_power_condition-1") == ""
    choose(page, "id_power-1", "must-capture")
    assert not disabled(page, "#id_power_condition-1")
    assert page.input_value("#id_power_condition-1") == "cover"
    assert page.input_value("#id_power_result-1") == "remove"
    # Cover off stacks: only Removes and Reincarnates.
    assert set(enabled_options(page, "#id_power_result-1")) == {
        "remove",
        "reincarnate",
        "reincarnate-x2",
    }
    choose(page, "id_power_condition-1", "jump")
    assert "convert" in enabled_options(page, "#id_power_result-1")
    page.select_option("#id_power_result-1", "convert")
    page.select_option("#id_move-1", "orthogonal")
    choose(page, "id_power_condition-1", "cover")  # convert is cleared
    assert page.input_value("#id_power_result-1") == "remove"
    assert page.input_value("#id_move-1") == "orthogonal"
    choose(page, "id_power-1", "none")
    assert disabled(page, "#id_power_condition-1") and disabled(page, "#id_power_result-1")
    assert page.input_value("#id_power_result-1") == ""
    # Moving by stack is offered on stacks only.
    assert "orthogonal-by-stack" not in enabled_options(page, "#id_move-1")
    # Every reserve of the shape at its maximum: the move is cleared and disabled.
    top = page.eval_on_selector("#id_reserve-black-1", "s => s.dataset.max")  # past it: captures
    page.select_option("#id_reserve-black-1", top)
    if page.input_value("#id_reserve-white-1") != top:
        page.select_option("#id_reserve-white-1", top)
    assert disabled(page, "#id_move-1") and page.input_value("#id_move-1") == ""
    assert "cannot move" in page.inner_text("#id_move-1-reason")
    choose(page, "id_power-1", "none")  # the server's render agrees
    assert disabled(page, "#id_move-1") and page.input_value("#id_move-1") == ""
    # A shape that captures: the rules accept more (marked ⚔), but the maximum
    # stays the board's share (issue 35), so the shape still cannot move until one drops.
    choose(page, "id_power-1", "can-capture")
    assert disabled(page, "#id_move-1")
    assert "⚔" in page.inner_text("#id_reserve-white-1")
    page.select_option("#id_reserve-white-1", "3")
    assert not disabled(page, "#id_move-1")
    for name, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        page.select_option("#id_reserve-white-1", "3")
        page.select_option("#id_move-1", "adjacent")
        shot(page, f"factory-moving-{name}")


def test_a_sticky_and_an_exclusive_marker_toggle_on_a_space(person):
    page = person("mark")
    page.goto(FACTORY)
    choose(page, "id_players", "2-vs-chaos")
    page.click("label[for=mk-sticky]")
    assert background(page, "label[for=mk-sticky]") == GREEN
    click_space(page, "1-2-2-1")
    assert page.locator("#sp-1-2-2-1 .fc-flag-sticky").count() == 1
    assert "sticky" in page.get_attribute("#sp-1-2-2-1", "aria-label")
    click_space(page, "1-2-2-1")
    assert page.locator("#sp-1-2-2-1 .fc-flag-sticky").count() == 0
    # Exclusive to Player 1, then to Chaos as well.
    page.click("label[for=mk-exclusive]")
    page.select_option("#id_marker_seat", "1")
    click_space(page, "1-1-1-1")
    page.select_option("#id_marker_seat", "3")
    click_space(page, "1-1-1-1")
    assert page.inner_text("#sp-1-1-1-1 .fc-flag-exclusive").strip() == "1,3"
    assert background(page, "label[for=mk-exclusive]") == GREEN  # still selected
    click_space(page, "1-1-1-1")  # Chaos again: removed
    assert page.inner_text("#sp-1-1-1-1 .fc-flag-exclusive").strip() == "1"


def test_a_board_with_no_dimension_of_one_is_a_3d_graph(person):
    page = person("cube")
    page.goto(FACTORY)
    choose(page, "id_board_type", "squares")
    choose(page, "id_size_z", "3")
    page.wait_for_selector("[data-testid=board-3d] svg .fc-3d-node")
    assert page.locator("[data-testid=board-3d] .fc-3d-node").count() == 27
    page.click("label[for=mk-lock]")
    node = page.locator("[data-testid=board-3d] .fc-3d-node[data-spot='1,2,2,3']")
    refreshing(page, lambda: node.click())
    assert "is-locked" in page.get_attribute("#sp-1-2-2-3", "class")
    page.wait_for_selector("[data-testid=board-3d] .fc-3d-locked", state="attached")
    for name, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        shot(page, f"factory-3d-{name}")


def test_tapatan_created_through_the_form(person):
    page = person("tara")
    page.goto(FACTORY)
    page.fill("#id_name", "MyTapatan")
    page.select_option("#id_reserve-black-1", "3")
    page.select_option("#id_reserve-white-1", "3")
    page.select_option("#id_move-1", "adjacent")
    page.click("#fc-save")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    saved_fingerprint_matches("MyTapatan", "Tapatan")
    # The saved page hides what is blank: the cleared condition and result.
    page.click("#fc-factory-view summary")
    assert not page.locator("#id_power_condition-1").is_visible()
    assert page.locator("#id_move-1").is_visible()


# --- the board: Tapatan against a bot, by clicking pieces ------------------------------------

OVER = "!document.querySelector('#vf-game-over').hidden"
MY_TURN = (
    "document.querySelector('[data-testid=board] [data-testid=cell][data-move],"
    " [data-testid=board] [data-testid=cell][data-moves]') &&"
    " !document.querySelector('#vf-board').classList.contains('is-pending')"
)


def _one_turn(page, rng: random.Random) -> None:
    """Place on an empty space, or pick up a piece and click one of its lit destinations."""
    legal = page.locator("[data-testid=board] [data-testid=cell][data-move]")
    moves = [legal.nth(i).get_attribute("data-move") for i in range(legal.count())]
    places = [m for m in moves if "-" not in m]
    if places:
        page.locator(f"[data-testid=board] [data-move='{rng.choice(places)}']").click()
        return
    pieces = sorted({m.split("-")[0] for m in moves})
    page.locator(f"[data-testid=board] [data-coords='{rng.choice(pieces)}']").click()
    lit = page.locator("[data-testid=board] [data-target]")
    assert lit.count() >= 1  # its destinations light up
    lit.nth(rng.randrange(lit.count())).click()


def test_tapatan_against_a_bot_to_the_end_by_clicking_pieces(person):
    human = person("hugo", width=1366, height=768)
    match = start(rule_set("Tapatan"), human.user, human.user, bot("Easy", "easy"))
    human.goto(match.get_absolute_url())
    human.wait_for_selector("[data-testid=board] [data-testid=cell]")
    rng = random.Random(7)
    stepped = False
    shots = False
    deadline = time.monotonic() + 150
    while not human.evaluate(OVER):
        assert time.monotonic() < deadline, "the match did not end in time"
        if not human.evaluate(MY_TURN):
            time.sleep(0.05)
            continue
        played = match.moves.count()
        moves = human.locator("[data-testid=board] [data-testid=cell][data-move]")
        stepping = moves.count() and "-" in (moves.first.get_attribute("data-move") or "")
        if stepping and not shots:
            # Screenshots of a piece picked up, its destinations lit.
            pick = moves.first.get_attribute("data-move").split("-")[0]
            human.locator(f"[data-testid=board] [data-coords='{pick}']").click()
            for name, (w, h) in SIZES.items():
                human.set_viewport_size({"width": w, "height": h})
                shot(human, f"match-tapatan-{name}")
            human.set_viewport_size({"width": 1366, "height": 768})
            human.keyboard.press("Escape")
            shots = True
        try:
            _one_turn(human, rng)
        except Exception:  # the board re-rendered under the click (the bot answered)
            continue
        stepped = stepped or stepping
        wait = time.monotonic() + 10
        while match.moves.count() == played and time.monotonic() < wait:
            time.sleep(0.05)
    assert stepped, "no piece was moved by clicking it"
    match = Match.objects.get(pk=match.pk)
    assert match.status == "finished"
    reason = human.locator("[data-testid=game-over]").get_attribute("data-reason")
    assert reason == match.outcome["reason"]
    shot(human, "match-tapatan-over")


# --- phases, cloaking and endings -----------------------------------------------------------


def test_phases_the_phase_selector_phase_locks_cloaking_and_endings(person):
    page = person("phil")
    page.goto(FACTORY)
    choose(page, "id_players", "2-vs-chaos")
    page.select_option("#id_cloaking", "hides")
    choose(page, "id_phases", "3")
    assert page.locator("#id_phase option").all_inner_texts() == ["Phase 1", "Phase 2", "Phase 3"]
    page.select_option("#id_order", "simultaneous")
    refreshing(page, lambda: page.click("#fc-phase-lock-3"))
    assert page.get_attribute("#fc-phase-lock-3", "aria-pressed") == "true"
    # Phase 2 resets the interface below the selector to phase 2 (a copy of phase 1 when
    # it was added: sequential); reserves are read-only there.
    choose(page, "id_phase", "1")
    assert page.input_value("#id_order") == "sequential"
    assert page.get_attribute("#fc-phase-lock-3", "aria-pressed") == "false"
    assert disabled(page, "#id_reserve-black-1")
    page.select_option("#id_allow_pass", "1")
    refreshing(page, lambda: page.click("#fc-phase-lock-1"))
    refreshing(page, lambda: page.click("#fc-phase-lock-2"))
    page.click("label[for=mk-cloak]")
    click_space(page, "1-2-2-1")
    assert page.locator("#sp-1-2-2-1 .fc-flag-cloak").count() == 1
    for name, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        shot(page, f"factory-phases-{name}")
    # Back to phase 1: its own rules again, the cloak was phase 2's.
    choose(page, "id_phase", "0")
    assert page.input_value("#id_order") == "simultaneous"
    assert page.get_attribute("#fc-phase-lock-3", "aria-pressed") == "true"
    assert page.locator("#sp-1-2-2-1 .fc-flag-cloak").count() == 0
    # An ending in words a person reads, then save.
    page.select_option("#id_stalemate", label="More pieces than Chaos wins")
    page.fill("#id_name", "Phased")
    page.click("#fc-save")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    doc = RuleSet.objects.get(name="Phased").rule_doc()
    assert doc.cloaking == "hides"
    assert [p.order for p in doc.phases] == ["simultaneous", "sequential", "sequential"]
    assert doc.phases[0].locked_seats == (3,) and doc.phases[1].locked_seats == (1, 2)
    assert doc.phases[1].allow_pass and not doc.phases[0].allow_pass
    assert [(s.board, *s.at) for s in doc.phases[1].cloaked] == [(1, 2, 2, 1)]
    assert [e.comparison for e in doc.endings] == ["more-than-chaos"]
    # The saved page: phase 1's rules read-only, its locked seats as badges (the summary
    # line above names every phase).
    page.click("#fc-factory-view summary")
    badges = page.locator("#fc-phase-locks .badge").all_inner_texts()
    assert [t.strip() for t in badges] == ["Chaos"]
    page.set_viewport_size({"width": 1366, "height": 768})
    shot(page, "factory-saved-phases-laptop")
