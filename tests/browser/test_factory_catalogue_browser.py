"""The general family's named games in headless Chromium (issue 21, "Done means").

- Made through the factory form by clicking, a few of them (``CLICKED``): the same fill
  as tests/test_factory_catalogue_form.py, which makes every general game through the
  form by HTTP alone (fast); here every select, marker and space is worked in the page
  and its htmx re-render awaited, then Save gives the catalogue's fingerprint.
- Played to the end between two people: StagHunt (a simultaneous round: neither page
  receives the other's plan before the resolution) and PrisonerDilemma (cover by rank:
  both cooperate, the white pentagon outranks the black X and removes it).

Screenshots at a laptop's and a phone's width go to /work/shots/factorye2e/ (or
$FACTORYE2E_SHOTS).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from gamecore import rules
from play import services
from play.models import Match
from tests.browser.factory_fill import SAVED, BrowserForm, build, general_games
from tests.browser.test_rounds_browser import CELL, open_match, watch_frames
from tests.play_helpers import rule_set, start
from variants import catalogue
from variants.models import RuleSet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(os.environ.get("FACTORYE2E_SHOTS", "/work/shots/factorye2e"))
SIZES = {"laptop": (1366, 768), "phone": (390, 844)}
# One of each kind: a moving piece and a turn check; exclusive stacks, set-up pieces, a
# power and two phases (simultaneous); phase 1's own lock; three boards under cloaks;
# two endings (one in a turn-check dropdown) and three phases of cloaked stacks.
CLICKED = ["9-Holes", "StagHunt", "ContractHunt", "3Blotto13", "Shopping9"]
# FACTORY_CLICK_ALL=1 clicks every named game since the fourteen flat ones through the form
# (about 7 minutes: too slow for `make test`, where the others go by HTTP with the same
# fields: tests/test_factory_catalogue_form.py).
ALL = CLICKED + [n for n in general_games() if n not in CLICKED]
CLICK = ALL if os.environ.get("FACTORY_CLICK_ALL") else CLICKED
OVER = "!document.querySelector('#vf-game-over').hidden"


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("name", CLICK)
def test_a_general_game_clicked_through_the_form_has_the_catalogues_fingerprint(name, person):
    page = person("maker", width=1366, height=768)
    doc = rules.parse(catalogue.get(name))
    form = BrowserForm(page)
    build(form, doc, f"My{name}")
    if name in ("StagHunt", "ContractHunt"):  # the factory with phases and markers
        form.pick("id_phase", "0")
        if name == "ContractHunt":  # phase 1's own lock on stack 4, said on its spaces
            label = page.get_attribute("#sp-1-4-1-1", "aria-label")
            assert label.endswith("locked in phase 1"), label
        for size, (w, h) in SIZES.items():
            page.set_viewport_size({"width": w, "height": h})
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
            shot(page, f"factory-{name.lower()}-{size}")
        page.set_viewport_size({"width": 1366, "height": 768})
    where = form.save()
    assert SAVED.search(where), f"{name} not saved: {form.errors()}"
    saved = RuleSet.objects.get(name=f"My{name}")
    assert saved.fingerprint == rules.fingerprint(doc), saved.document


# --- played to the end between two people ------------------------------------------------------


def _match_of_two(person, game: str):
    """A match of ``game`` between alice (black, a laptop) and bob (white, a phone), both
    pages open on it, every websocket frame each receives kept."""
    alice = person("alice", width=1366, height=768)
    bob = person("bob", width=390, height=844)
    match = start(rule_set(game), alice.user, alice.user, bob.user)
    services.answer_invitation(match.pk, bob.user, accept=True)
    frames = {"alice": watch_frames(alice), "bob": watch_frames(bob)}
    open_match(alice, match)
    open_match(bob, match)
    return match, alice, bob, frames


def _plan(page, move: str, last: bool = False) -> None:
    """Plan a move; the last plan of a round resolves it at once (no "registered" then)."""
    page.locator(CELL.format(move)).click()
    if last:
        return
    page.wait_for_function(
        "document.querySelector('[data-testid=turn]').textContent.includes('(registered)')"
    )


def _pieces(page) -> list[tuple[str, str]]:
    """(coords of the cell, colour class) of every piece drawn on the board."""
    found = page.evaluate(
        """() => [...document.querySelectorAll('#vf-board .vf-piece')].map(p => [
            p.closest('[data-coords]')?.dataset.coords || '',
            [...p.classList].find(c => c.startsWith('vf-c-')) || ''])"""
    )
    return [tuple(item) for item in found]


def _finished(match, pages) -> Match:
    for page in pages:
        page.wait_for_function(OVER, timeout=30_000)
    match = Match.objects.get(pk=match.pk)
    assert match.status == "finished", match.outcome
    for page in pages:
        shown = page.locator("[data-testid=game-over]").get_attribute("data-reason")
        assert shown == match.outcome["reason"]
    return match


def test_staghunt_between_two_people_neither_sees_the_others_plan(person):
    match, alice, bob, frames = _match_of_two(person, "StagHunt")
    for page in (alice, bob):
        assert page.locator("[data-testid=phase]").inner_text() == "Phase 1 of 2"
    _plan(alice, "pentagon 3,1")  # black hunts the stag
    bob.wait_for_selector("[data-testid=round-seat][data-planned='1']")
    assert "alice: plan registered" in bob.locator("[data-testid=round-seats]").inner_text()
    # Mid-round: nothing of alice's plan on bob's page, in its frames or its boot data.
    assert ("3,1", "vf-c-black") not in _pieces(bob)
    assert all("pentagon 3,1" not in f for f in frames["bob"]), "bob received alice's plan"
    bob.reload()
    open_match(bob, match)
    boot = bob.locator("#match-boot").text_content()
    assert "pentagon 3,1" not in boot
    assert json.loads(boot)["state"]  # the page's first render, read above
    assert len(_pieces(bob)) == 2  # only the two set-up pentagons
    # bob's return is told to alice once (not once per connection), and not to bob.
    assert alice.locator("[data-testid=note]", has_text="bob is back.").count() <= 1
    assert bob.locator("[data-testid=note]", has_text="bob is back.").count() == 0
    for size, page in (("laptop", alice), ("phone", bob)):
        shot(page, f"match-staghunt-mid-round-{size}")
    _plan(bob, "pentagon 4,1", last=True)  # white hunts the stag too
    match = _finished(match, (alice, bob))
    for page in (alice, bob):  # both stags hunted: each pentagon on its stag stack
        drawn = _pieces(page)
        assert ("3,1", "vf-c-black") in drawn and ("4,1", "vf-c-white") in drawn, drawn
    for size, page in (("laptop", alice), ("phone", bob)):
        shot(page, f"match-staghunt-finished-{size}")
    assert match.outcome["results"][:2] in (["win", "win"], ["loss", "loss"]), match.outcome


def test_prisoner_dilemma_to_the_end_the_pentagon_outranks_the_x(person):
    """Cover by rank: both cooperate (stack 5); in the round the white pentagon outranks
    the black X and removes it; then Chaos plays at random and the game ends."""
    match, alice, bob, _frames = _match_of_two(person, "PrisonerDilemma")
    _plan(alice, "x 5,1")
    _plan(bob, "pentagon 5,1", last=True)
    note = alice.locator("[data-testid=note]", has_text="Round 1:")
    note.wait_for()
    assert note.inner_text() == "Round 1: alice X on column 5 · bob pentagon on column 5"
    match = _finished(match, (alice, bob))
    record = list(match.moves.order_by("ply").values_list("seat", "notation"))
    assert record[:2] == [(0, "x 5,1"), (1, "pentagon 5,1")], record
    for page in (alice, bob):  # the X is gone: black keeps only its set-up X on stack 1
        drawn = _pieces(page)
        assert [c for c, k in drawn if k == "vf-c-black"] == ["1,1"], drawn
        assert ("5,1", "vf-c-white") in drawn, drawn
    for size, page in (("laptop", alice), ("phone", bob)):
        shot(page, f"match-prisonerdilemma-finished-{size}")
    assert match.outcome["results"][:2] in (["win", "win"], ["loss", "loss"]), match.outcome
