"""A simultaneous round between two people in headless Chromium (issue 19): neither page
receives the other's plan before the round resolves (every websocket frame each page
receives is kept and read, and the page's boot data after a reload), each page says who
has planned and, to its own seat, "Your plan: ... (registered)"; then the round resolves
on both pages at once. One person plays on a phone-sized page, by keyboard."""

from __future__ import annotations

import json
import re

import pytest

from play import services
from play.models import Match
from tests.browser.conftest import screenshot
from tests.browser.test_live_play_browser import pieces
from tests.play_helpers import rule_set, start
from tests.test_live_rounds import STAND_OFF

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TWO_PIECES = "document.querySelectorAll('[data-testid=board] .vf-piece').length == 2"
CELL = '[data-testid=board] [data-testid=cell][data-move="{}"]'


def watch_frames(page) -> list[str]:
    """Every websocket frame the page receives, as text, from now on."""
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda data: frames.append(str(data))))
    return frames


def open_match(page, match):
    page.goto(match.get_absolute_url())
    page.wait_for_selector("[data-testid=board] [data-testid=cell]")
    page.wait_for_selector("[data-testid=phase-panel]:not([hidden])")


def test_neither_person_sees_the_others_plan_before_the_round_resolves(person):
    xena, oscar = person("xena"), person("oscar", width=390, height=800)
    rules = rule_set("Stand-off", **STAND_OFF, seconds_per_turn=120)
    match = start(rules, xena.user, xena.user, oscar.user)
    services.answer_invitation(match.pk, oscar.user, accept=True)
    seen = {"xena": watch_frames(xena), "oscar": watch_frames(oscar)}
    open_match(xena, match)
    open_match(oscar, match)
    for page in (xena, oscar):
        assert page.locator("[data-testid=phase]").inner_text() == "Phase 1 of 1"
        assert (
            "Round 1: waiting for 2 players"
            in page.locator("[data-testid=round-summary]").inner_text()
        )
        assert "Your plan: choose a move" in page.locator("[data-testid=turn]").inner_text()

    xena.locator(CELL.format("1,1,1")).click()  # black's own square
    xena.wait_for_function(
        "document.querySelector('[data-testid=turn]').textContent.includes('(registered)')"
    )
    turn = xena.locator("[data-testid=turn]").inner_text()
    assert turn.startswith("Your plan: ") and "waiting for 1 player" in turn
    assert "xena: your plan" in xena.locator("[data-testid=round-seats]").inner_text()
    # A clock each: xena's stopped with her plan; oscar's runs on, not restarted.
    left = xena.locator("[data-testid=turn-timer]").inner_text()
    assert re.fullmatch(r"Time left for the others: (2:00|1:[0-5]\d)", left), left
    left = oscar.locator("[data-testid=turn-timer]").inner_text()
    assert re.fullmatch(r"Time for this move: (2:00|1:[0-5]\d)", left), left
    oscar.wait_for_selector("[data-testid=round-seat][data-planned='1']")
    seats = oscar.locator("[data-testid=round-seats]").inner_text()
    assert "xena: plan registered" in seats and "oscar: still planning" in seats
    summary = oscar.locator("[data-testid=round-summary]").inner_text()
    assert summary == "Round 1: waiting for 1 player"
    assert "In play · round 1" in oscar.locator("[data-testid=status]").inner_text()
    screenshot(oscar, "round-waiting-phone")
    screenshot(xena, "round-planned")
    assert pieces(oscar) == 0 and pieces(xena) == 0  # nothing is played before the round
    oscar.reload()  # the first render of the page: its boot data
    open_match(oscar, match)
    boot = json.loads(oscar.locator("#match-boot").text_content())
    assert "1,1,1" not in json.dumps(boot["state"])  # (the rules line names the square)
    assert all("1,1,1" not in f for f in seen["oscar"]), "oscar received xena's plan"

    shown = replay_moves(oscar, match)  # the replay, mid-round: who planned, never what
    assert shown[-1] == "1.Round 1: xena planned (round not resolved: plans stay hidden)"

    # oscar plans by keyboard: focus the square and press Enter.
    target = oscar.locator(CELL.format("1,3,1"))
    target.focus()
    oscar.keyboard.press("Enter")
    for page in (xena, oscar):
        page.wait_for_function(TWO_PIECES)
        note = page.locator("[data-testid=note]", has_text="Round 1:")
        note.wait_for()
        assert "xena" in note.inner_text() and "oscar" in note.inner_text()
    assert all("1,3,1" not in f for f in seen["xena"][: _resolution(seen["xena"])])
    assert all("1,1,1" not in f for f in seen["oscar"][: _resolution(seen["oscar"])])
    assert Match.objects.get(pk=match.pk).ply == 2
    shown = replay_moves(xena, match)  # the round as one step of the replay
    assert shown == ["Start", "2.Round 1: xena column 1, row 1 · oscar column 1, row 3"]


def replay_moves(page, match) -> list[str]:
    """The replay page's move list, opened in another tab of the same person."""
    tab = page.context.new_page()
    tab.goto(f"/matches/{match.pk}/replay/")
    tab.wait_for_selector("[data-testid=move-item]")
    items = [t.strip() for t in tab.locator("[data-testid=move-item]").all_inner_texts()]
    tab.close()
    return items


def _resolution(frames: list[str]) -> int:
    """The index of the first frame showing the resolved round (the state of ply 2)."""
    for i, text in enumerate(frames):
        message = json.loads(text)
        if message.get("type") == "round:resolved" or message.get("ply", 0) >= 2:
            return i
    raise AssertionError("no frame showed the round resolved")


THREE_ACTS = {
    "board": {"type": "squares", "size": [4, 1, 1]},
    "reserves": {"black": {"circle": 2}, "white": {"circle": 2}},
    "turn_checks": [],
    "sticky": [{"at": [1, 1, 1]}],
    "stalemate": "all-win",
    "phases": [
        {"allow_pass": True, "locked_seats": [2]},
        {"allow_pass": True, "fold": "less-than-most-committed"},
        {"allow_pass": True, "order": "simultaneous"},
    ],
}


def test_the_page_says_the_phase_who_is_locked_and_who_has_folded(person):
    xena, oscar = person("xena"), person("oscar", width=390, height=800)
    match = start(rule_set("Three-acts", **THREE_ACTS), xena.user, xena.user, oscar.user)
    services.answer_invitation(match.pk, oscar.user, accept=True)
    open_match(xena, match)
    open_match(oscar, match)
    for page in (xena, oscar):
        assert page.locator("[data-testid=phase]").inner_text() == "Phase 1 of 3"
        locked = page.locator("[data-testid=phase-locked]").inner_text()
        assert locked == "Locked this phase (cannot move): oscar"
        assert page.locator("[data-testid=phase-folded]").is_hidden()
    xena.locator(CELL.format("1,1,1")).click()  # a sticky square: a committed piece
    # The page takes no other move while one awaits the server (a click then does
    # nothing): under load the pass came before the answer and was dropped.
    xena.wait_for_selector("[data-testid=board]:not(.is-pending)")
    xena.locator("[data-testid=pass]").click()  # phase 1 ends: oscar may move in phase 2
    oscar.wait_for_function(PHASE.format("Phase 2 of 3"))
    assert oscar.locator("[data-testid=phase-locked]").is_hidden()
    oscar.locator("[data-testid=pass]").click()
    xena.wait_for_function(MY_PASS)
    xena.locator("[data-testid=pass]").click()  # phase 2 ends: oscar, less committed, folds
    for page in (xena, oscar):
        page.wait_for_function(PHASE.format("Phase 3 of 3"))
        folded = page.locator("[data-testid=phase-folded]").inner_text()
        assert folded == "Folded (no more moves, may still win): oscar"
        assert "everyone plans at once" in page.locator("[data-testid=phase-order]").inner_text()
    screenshot(oscar, "phase-folded-phone")


PHASE = "document.querySelector('[data-testid=phase]').textContent === '{}'"
MY_PASS = "!document.querySelector('[data-testid=pass]').hidden"
