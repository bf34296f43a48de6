"""The factory's deck control and dealt markers in headless Chromium (issue 34): every
control with its errors, desktop and phone, and a game with a deck copied through the
form; the match page showing a deal. Screenshots: var/screenshots/decks-*.png."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from gamecore import rules
from tests.browser.conftest import SCREENSHOTS, screenshot
from tests.browser.test_factory_browser import FACTORY, click_space, refreshing
from variants import services
from variants.models import RuleSet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


def pick(page, marker: str) -> None:
    page.click(f"label[for=mk-{marker}]")
    assert page.is_checked(f"#mk-{marker}")


def type_deck(page, text: str, key: str = "Enter") -> None:
    """Type into the deck field and recount (Enter, or the pause after typing)."""
    page.fill("#id_deck", "")
    page.focus("#id_deck")
    if key == "pause":
        refreshing(page, lambda: page.keyboard.type(text))
    else:
        page.keyboard.type(text)
        refreshing(page, lambda: page.keyboard.press(key))
    assert page.input_value("#id_deck") == text


def deck_error(page) -> str:
    return page.inner_text("#id_deck-error") if page.locator("#id_deck-error").count() else ""


def test_deck_and_dealt_controls_with_their_errors_on_a_desktop(person):
    page = person("carla", **DESKTOP)
    page.goto(FACTORY)
    for marker in ("dealt-common", "dealt-1", "dealt-2"):
        expect(page.locator(f"label[for=mk-{marker}]")).to_be_visible()
    expect(page.locator("#mk-dealt-3")).to_have_count(0)  # two players: two seats

    # Dealt markers: placed like any marker, a second click takes them off.
    pick(page, "dealt-common")
    click_space(page, "1-1-3-1")
    assert page.get_attribute("#sp-1-1-3-1", "aria-label") == "space 1,3,1, dealt (common)"
    assert "Dealt spaces need a deck to deal from" in deck_error(page)
    pick(page, "dealt-2")
    click_space(page, "1-3-3-1")
    assert page.get_attribute("#sp-1-3-3-1", "aria-label") == "space 3,3,1, dealt to seat 2"
    pick(page, "dealt-1")
    click_space(page, "1-2-2-1")
    click_space(page, "1-2-2-1")  # the same marker again: off
    assert page.get_attribute("#sp-1-2-2-1", "aria-label") == "space 2,2,1"
    expect(page.get_by_test_id("deck-dealt")).to_have_text("2 dealt spaces (1 of seat 2, 1 common)")

    # The deck: errors name the character, as typed.
    type_deck(page, "{O Q}")
    assert "At character 4: 'Q' is not an item" in deck_error(page)
    assert page.get_attribute("#id_deck", "aria-invalid") == "true"
    type_deck(page, "[O O2", key="pause")  # the pause after typing recounts too
    assert "At character 1: this bracket is never closed" in deck_error(page)
    type_deck(page, "{P S}")
    assert "this game's shapes are circle" in deck_error(page)
    type_deck(page, "O")
    assert "too few" in deck_error(page)
    screenshot(page, "decks-factory-errors-desktop")
    # A good deck: its plain words and its count of variations, live.
    type_deck(page, "{O O2 S}")
    assert deck_error(page) == ""
    expect(page.get_by_test_id("deck-label")).to_have_text(
        "1 circle, 1 white circle, and 1 blank in deck"  # O: the colour it is dealt in
    )
    expect(page.get_by_test_id("deck-variations")).to_have_text("6 variations")
    assert page.url.endswith(FACTORY)  # Enter in the deck recounted; it did not save
    screenshot(page, "decks-factory-desktop")

    page.fill("#id_name", "DealtThree")
    page.click("#fc-save")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    doc = RuleSet.objects.get(name="DealtThree").rule_doc()
    assert doc.deck == "{O O2 S}"
    assert [(d.at, d.seat) for d in doc.dealt] == [((1, 3, 1), None), ((3, 3, 1), 2)]
    expect(page.locator("code#id_deck")).to_have_text("{O O2 S}")
    expect(page.locator("#sp-1-3-3-1 .fc-dealt")).to_have_count(0)  # read-only: spans
    expect(page.locator("[data-spot='1,3,3,1'] .fc-dealt")).to_have_text("?")
    screenshot(page, "decks-saved-desktop")


def test_dealt_markers_on_stacks_and_phases_on_a_phone(person):
    page = person("carla", **PHONE)
    page.goto(FACTORY)
    refreshing(page, lambda: page.select_option("#id_board_type", "stacks"))
    refreshing(page, lambda: page.select_option("#id_size_x", "4"))
    pick(page, "dealt-common")
    click_space(page, "1-2-1-2")  # clicked above the floor: it falls
    assert "dealt (common)" in page.get_attribute("#sp-1-2-1-1", "aria-label")
    pick(page, "dealt-1")
    click_space(page, "1-2-1-2")  # and the next lands on it
    assert "dealt to seat 1" in page.get_attribute("#sp-1-2-1-2", "aria-label")
    type_deck(page, "[{O S} {O S}]")
    # two dealt spaces take the first pair only: 2 deals
    expect(page.get_by_test_id("deck-variations")).to_have_text("2 variations")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    expect(page.locator(".fc-3d .fc-3d-dealt")).to_have_count(2)  # the graph shows them too
    screenshot(page, "decks-factory-phone")
    page.get_by_test_id("factory-deck").screenshot(path=str(SCREENSHOTS / "decks-phone-deck.png"))
    page.locator(".fc-play").screenshot(path=str(SCREENSHOTS / "decks-phone-board.png"))

    # Phase 2: the dealt markers wait for phase 1, and a click says so.
    refreshing(page, lambda: page.select_option("#id_phases", "2"))
    refreshing(page, lambda: page.select_option("#id_phase", "1"))
    expect(page.locator("#mk-dealt-common")).to_have_count(0)
    expect(page.locator(".fc-dealt-marker.is-coming")).to_have_count(3)
    coming = page.locator(".fc-dealt-marker.is-coming").first
    assert "Only in phase 1" in coming.get_attribute("title")
    coming.click()  # a greyed marker: nothing to select
    assert page.locator("input[name=marker]:checked").count() == 0
    assert "dealt (common)" in page.get_attribute("#sp-1-2-1-1", "aria-label")  # kept
    screenshot(page, "decks-factory-phase2-phone")


BLIND = {
    "name": "BlindDealt",
    "cloaking": "hides",
    "phases": [{"cloaked": [{"at": [x, y, 1]} for y in (1, 2, 3) for x in (1, 2, 3)]}],
    "deck": "[{ O1 O2 S S S S S S S }]",  # 4P-Blind-TTT's deal, for two players
    "dealt": [{"at": [x, y, 1]} for y in (1, 2, 3) for x in (1, 2, 3)],
    "reserves": {"black": {"circle": 5}, "white": {"circle": 4}},
}


def test_a_game_with_a_deck_is_copied_with_it(person):
    page = person("carla", **DESKTOP)
    original = services.create_rule_set(BLIND, page.user)
    page.goto(f"{FACTORY}?copy={original.pk}")
    assert page.input_value("#id_deck") == BLIND["deck"]
    expect(page.get_by_test_id("deck-variations")).to_have_text("72 variations")
    expect(page.get_by_test_id("deck-label")).to_have_text(
        "1 black circle, 1 white circle, and 7 blanks in deck"
    )
    expect(page.locator(".fc-dealt")).to_have_count(9)
    page.select_option("#id_allow_pass", "1")  # a new rule set (an unchanged one is refused)
    page.fill("#id_name", "BlindDealtPass")
    page.click("#fc-save")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    copy = RuleSet.objects.get(name="BlindDealtPass").rule_doc()
    before = rules.parse(BLIND)
    assert copy.deck == before.deck and copy.dealt == before.dealt
    assert copy.cloaking == before.cloaking and copy.phases[0].cloaked == before.phases[0].cloaked


def test_the_match_page_shows_a_seats_own_dealt_card_only(person):
    from tests.play_helpers import start

    alice, bob = person("alice", **DESKTOP), person("bob", **PHONE)
    row = [{"at": [x, 1, 1]} for x in (1, 2, 3)]
    game = services.create_rule_set(
        {
            "name": "DealtCards",
            "cloaking": "hides",
            "phases": [{"cloaked": row}],
            "deck": "[O O O2]",
            "dealt": [{**row[0], "seat": 1}, row[1], {**row[2], "seat": 2}],
        },
        alice.user,
    )
    match = start(game, alice.user, alice.user, bob.user, seed=3)
    from play import services as play

    play.answer_invitation(match.pk, bob.user, accept=True)
    for page, seen, colour, name in (
        (alice, "1,1,1", "black", "desktop"),
        (bob, "3,1,1", "white", "phone"),
    ):
        page.goto(f"/matches/{match.pk}/")
        page.wait_for_function("document.querySelectorAll('#vf-board .vf-cell').length === 9")
        pieces = page.evaluate(
            "() => [...document.querySelectorAll('#vf-board .vf-piece')].map(p => ["
            "p.closest('.vf-cell').dataset.coords,"
            " [...p.classList].find(c => c.startsWith('vf-c-'))])"
        )
        assert pieces == [[seen, f"vf-c-{colour}"]], (name, pieces)  # its own card only
        screenshot(page, f"decks-match-{name}")


@pytest.mark.parametrize("name", ["KPoker", "4P-Blind-TTT", "TheoryOfMind", "BeerQuiche60"])
def test_a_release_game_with_a_deck_is_made_click_by_click(person, name):
    """The release's KPoker (stacks, a seat's dealt card each), 4P-Blind-TTT (nine
    common dealt spaces, all cloaked), TheoryOfMind (the hats on posts) and BeerQuiche60
    (some of a stack's spaces cloaked: the cloak marker's "only the space clicked"), from
    a fresh page, click by click: the markers, the deck typed, Save; the catalogue's
    fingerprint."""
    from tests.browser.factory_fill import SAVED, BrowserForm, build
    from variants import catalogue

    doc = rules.parse(catalogue.get(name))
    page = person("carla", **DESKTOP)
    form = BrowserForm(page)
    build(form, doc, f"My{name}")
    assert SAVED.search(form.save()), form.errors()
    assert RuleSet.objects.get(name=f"My{name}").fingerprint == rules.fingerprint(doc)
