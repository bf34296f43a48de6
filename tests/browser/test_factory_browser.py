"""The Game Factory in headless Chromium: every clickable element, the error messages, and
three catalogue games created through the form alone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from gamecore import rules
from tests.browser.conftest import screenshot
from variants import catalogue, services
from variants.models import RuleSet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FACTORY = "/games/new/"
GREEN = "rgb(165, 232, 165)"


def refreshing(page, action) -> None:
    """Do something that asks the server to re-render the form (htmx), and wait for it."""
    with page.expect_response(lambda r: "/games/new/refresh/" in r.url):
        action()
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
    )


def choose(page, select_id: str, value: str) -> None:
    """Pick an option of a dropdown that changes the layout."""
    refreshing(page, lambda: page.select_option(f"#{select_id}", value))
    assert page.input_value(f"#{select_id}") == value


def click_space(page, spot: str) -> None:
    refreshing(page, lambda: page.click(f"#sp-{spot}"))


def goals(page) -> list[str]:
    return [t.strip() for t in page.locator(".fc-goal").all_inner_texts() if t.strip()]


def background(page, selector: str) -> str:
    return page.eval_on_selector(selector, "e => getComputedStyle(e).backgroundColor")


def saved_fingerprint_matches(name: str, catalogue_name: str) -> None:
    rule_set = RuleSet.objects.get(name=name)
    expected = rules.fingerprint(rules.parse(catalogue.get(catalogue_name)))
    assert rule_set.fingerprint == expected, rule_set.document


# --- every clickable element ----------------------------------------------------------------------


def test_players_colors_shapes_and_boards_change_the_layout(person):
    page = person("carla")
    page.goto(FACTORY)
    assert goals(page) == ["(Player 1 Goal)", "(Player 2 Goal)"]
    expected_goals = {"2": 2, "3": 3, "4": 4, "partners": 4, "2-vs-chaos": 2, "3-vs-chaos": 3}
    expected_colors = {"2": 2, "3": 3, "4": 4, "partners": 4, "2-vs-chaos": 3, "3-vs-chaos": 4}
    for players, count in expected_goals.items():
        choose(page, "id_players", players)
        assert len(goals(page)) == count, players
        assert page.locator(".fc-reserve-row").count() == expected_colors[players]
    # "Partners share color" is offered only for Partners.
    assert page.locator("#id_colors option[value=partners-share]").is_disabled()
    choose(page, "id_players", "partners")
    assert not page.locator("#id_colors option[value=partners-share]").is_disabled()
    choose(page, "id_colors", "partners-share")
    assert page.locator(".fc-reserve-row").count() == 2
    for colors, rows in (("shared", 1), ("choose", 4), ("assigned", 4)):
        choose(page, "id_colors", colors)
        assert page.locator(".fc-reserve-row").count() == rows
    choose(page, "id_players", "2")

    # Shapes: rows, reserve selects and shape markers follow the count.
    for count in ("2", "3", "4", "5", "6", "1"):
        choose(page, "id_shape_count", count)
        assert page.locator(".fc-shape").count() == int(count)
        assert page.locator("select[name^=reserve-black-]").count() == int(count)
        assert page.locator("input[name=marker][value^=piece-white-]").count() == int(count)
    choose(page, "id_shape_1", "pentagon")
    assert page.get_attribute("label[for=mk-piece-black-1]", "title") == "black pentagon marker"
    choose(page, "id_shape_count", "2")
    # A shape used by one row is not offered to the other.
    assert page.locator("#id_shape_2 option[value=pentagon]").count() == 0

    for boards in ("2", "3", "1"):
        choose(page, "id_boards", boards)
        assert page.locator("figure.fc-board-wrap").count() == int(boards)


def test_board_types_and_dimensions_redraw_the_board(person):
    page = person("carla")
    page.goto(FACTORY)
    assert all(page.locator(f"#id_size_{a}").is_disabled() for a in "xyz")  # hash: 3×3×1
    assert page.locator(".fc-hash .fc-space").count() == 9
    choose(page, "id_board_type", "squares")
    choose(page, "id_size_x", "15")
    choose(page, "id_size_y", "1")  # a row; goals at x=1 and x=max
    assert page.locator(".fc-row .fc-space").count() == 15
    assert goals(page) == ["(Player 1 Goal)", "(Player 2 Goal)"]
    assert page.locator(".fc-goal-left").inner_text() == "(Player 1 Goal)"
    assert page.input_value("#id_reserve-black-1") == "8"  # untouched reserves follow
    choose(page, "id_size_y", "4")  # a plane
    assert page.locator(".fc-plane .fc-space").count() == 60
    # The other selects' ranges follow: 15 × 4 leaves z up to 8.
    assert page.locator("#id_size_z option").last.get_attribute("value") == "8"
    choose(page, "id_size_x", "4")
    choose(page, "id_size_z", "4")  # none is 1: side-by-side z-slices
    assert page.locator(".fc-cube").count() == 4
    assert page.get_attribute("#sp-1-1-4-1", "aria-label") == "space 1,4,1"
    choose(page, "id_board_type", "stacks")
    assert page.locator("text=max height 4").count() == 1
    choose(page, "id_size_y", "1")
    choose(page, "id_size_z", "6")
    assert page.locator(".fc-stacks .fc-space").count() == 8  # two levels above the floor
    assert page.locator("#id_size_z option").first.get_attribute("value") == "2"
    choose(page, "id_board_type", "hash")
    assert [page.input_value(f"#id_size_{a}") for a in "xyz"] == ["3", "3", "1"]


def test_checks_markers_spaces_and_timer(person):
    page = person("carla")
    page.goto(FACTORY)
    # Every stalemate and turn-check option can be chosen (they change no layout).
    for value in page.locator("#id_stalemate option").evaluate_all("os => os.map(o => o.value)"):
        page.select_option("#id_stalemate", value)
    options = page.locator("#id_check_0 option").evaluate_all("os => os.map(o => o.text)")
    assert "First 3-same-color-in-a-row wins (no diagonal)" in options
    assert "Last pentagon wins" in options  # the typed endings follow the 20 k-checks
    page.select_option("#id_check_0", "4-loses-o")

    # Add Check inserts a dropdown (a copy of the last), Delete Check removes one.
    refreshing(page, lambda: page.click("#fc-add-check"))
    refreshing(page, lambda: page.click("#fc-add-check"))
    assert page.locator("select[name=check]").count() == 3
    assert page.input_value("#id_check_2") == "4-loses-o"
    page.select_option("#id_check_1", "5-wins-d")
    refreshing(page, lambda: page.click("#fc-delete-check-0"))  # confirmed (dialog accepted)
    assert [page.input_value(f"#id_check_{i}") for i in range(2)] == ["5-wins-d", "4-loses-o"]
    refreshing(page, lambda: page.click("#fc-delete-check-0"))
    refreshing(page, lambda: page.click("#fc-delete-check-0"))
    assert page.locator("#fc-no-checks").is_visible()
    refreshing(page, lambda: page.click("#fc-add-check"))
    assert page.input_value("#id_check_0") == "3-wins-d"

    # A space clicked before any marker: a hint, and nothing is sent.
    page.click("#sp-1-2-2-1")
    assert "Select a marker first" in page.inner_text("#fc-status")
    # Markers select with a green highlight; a second click clears the selection.
    assert background(page, "label[for=mk-lock]") != GREEN
    page.click("label[for=mk-lock]")
    assert background(page, "label[for=mk-lock]") == GREEN
    page.click("label[for=mk-lock]")
    assert background(page, "label[for=mk-lock]") != GREEN
    assert not page.is_checked("#mk-lock")
    for marker in ("piece-black-1", "piece-white-1", "lock"):
        page.click(f"label[for=mk-{marker}]")
        assert background(page, f"label[for=mk-{marker}]") == GREEN
    # No "coming" marker in phase 1 (the dealt markers show since batch play, issue 34).
    assert page.locator(".fc-marker.is-coming").count() == 0

    # With the lock selected, a space toggles locked; the marker stays selected.
    click_space(page, "1-2-2-1")
    assert page.get_attribute("#sp-1-2-2-1", "aria-label") == "space 2,2,1, locked"
    assert page.is_checked("#mk-lock")
    assert page.input_value("#id_reserve-black-1") == "4"  # one open space fewer
    click_space(page, "1-2-2-1")
    assert page.get_attribute("#sp-1-2-2-1", "aria-label") == "space 2,2,1"
    # A shape marker puts an initial piece of that colour and shape on a space.
    page.click("label[for=mk-piece-white-1]")
    click_space(page, "1-1-3-1")
    assert page.get_attribute("#sp-1-1-3-1", "aria-label") == "space 1,3,1, white circle"
    assert page.locator("#sp-1-1-3-1 svg.fc-white").count() == 1
    click_space(page, "1-1-3-1")
    assert page.get_attribute("#sp-1-1-3-1", "aria-label") == "space 1,3,1"

    # Without a timer the timeout consequence is disabled.
    assert page.locator("#id_timeout").is_disabled()
    choose(page, "id_seconds", "300")
    assert not page.locator("#id_timeout").is_disabled()
    page.select_option("#id_timeout", "skip")
    for control in ("allow_pass", "agree_draw", "pieces_per_turn"):
        assert not page.locator(f"#id_{control}").is_disabled()
    # Phases and cloaking are played (tests/browser/test_factory_moving_browser.py); one
    # phase leaves nothing to select.
    for control in ("cloaking", "phases", "order", "movement"):
        assert not page.locator(f"#id_{control}").is_disabled(), control
    assert page.locator("#id_phase").is_disabled()
    # No power: its condition is cleared and disabled (tests/browser/test_factory_moving...).
    assert page.locator("#id_power_condition-1").input_value() == ""
    assert page.locator("#id_power_condition-1").is_disabled()
    # Only the dealt common marker waits (the seed: not until batch play).
    assert page.locator(".fc-coming").count() == 0
    assert page.locator("#fc-phase-locks button:not([disabled])").count() == 2


def test_stacks_pieces_fall_in_the_browser(person):
    page = person("carla")
    page.goto(FACTORY)
    choose(page, "id_board_type", "stacks")
    choose(page, "id_size_y", "1")
    choose(page, "id_size_x", "4")
    choose(page, "id_size_z", "5")
    page.click("label[for=mk-piece-black-1]")
    click_space(page, "1-2-1-2")  # clicked in the air: falls to the floor
    assert "black circle" in page.get_attribute("#sp-1-2-1-1", "aria-label")
    page.click("label[for=mk-lock]")
    click_space(page, "1-2-1-3")
    assert page.get_attribute("#sp-1-2-1-2", "aria-label") == "space 2,1,2, locked"
    assert page.locator(".fc-stacks .fc-space").count() == 16  # tallest 2 + two levels


# --- error messages ----------------------------------------------------------------------


def save(page) -> None:
    """Press Save and wait for the re-rendered form: the old page shows the same error
    elements, so reading them before the new page arrives would race."""
    with page.expect_navigation():
        page.click("#fc-save")


def test_error_messages_next_to_their_controls(person):
    services.load_catalogue()  # Tic-Tac-Toe and friends are saved: duplicates are refused
    page = person("carla")
    page.goto(FACTORY)
    page.fill("#id_name", "two words")
    save(page)
    expect(page.locator("#id_name-error")).to_contain_text("May not contain whitespace")
    for bad in ("star*", "paren(x)"):
        page.fill("#id_name", bad)
        save(page)
        expect(page.locator("#id_name-error")).to_contain_text("no whitespace, '*', '(' or ')'")

    # The default form is Tic-Tac-Toe: a duplicate, and the message names the game.
    page.fill("#id_name", "MyTicTacToe")
    save(page)
    expect(page.locator("#fc-top-errors")).to_contain_text("the existing game 'Tic-Tac-Toe'")

    # A name in use is refused next to the name.
    choose(page, "id_board_type", "squares")
    choose(page, "id_size_x", "5")
    page.fill("#id_name", "connect4")
    save(page)
    expect(page.locator("#id_name-error")).to_contain_text("already taken")

    # A dimension beyond its limit (a stale page: the option is injected by hand).
    choose(page, "id_size_x", "19")
    choose(page, "id_size_y", "19")
    page.eval_on_selector("#id_size_z", "s => { s.add(new Option('4', '4')); s.value = '4'; }")
    page.fill("#id_name", "TooBig")
    save(page)
    expect(page.locator("#id_size_z-error")).to_contain_text("At most 1")
    assert page.input_value("#id_size_z") == "4"  # what was submitted stays visible
    screenshot(page, "factory-errors")
    assert not RuleSet.objects.filter(name__in=["TooBig", "MyTicTacToe"]).exists()


def test_sixteenth_game_of_a_creator(person):
    page = person("carla")
    for n in range(2, 17):
        doc = {"name": f"Row{n}", "board": {"type": "squares", "size": [n, 1, 1]}}
        services.create_rule_set(doc, page.user)
    page.goto(FACTORY)
    assert "up to 15 games" in page.inner_text("#fc-quota")
    assert page.locator("#factory-form").count() == 0
    page.goto(RuleSet.objects.get(name="Row5").get_absolute_url())
    assert page.locator("#fc-copy").count() == 0  # no Copy once the quota is used


def test_rename_by_a_non_admin_is_refused_and_admin_renames(person):
    admin = person("ada", role="admin")
    rule_set = services.create_rule_set(catalogue.get("Qubic-4"), admin.user)
    creator = person("carla")
    creator.goto(rule_set.get_absolute_url())
    assert creator.locator("#id_rename").count() == 0
    assert creator.inner_text("#fc-title") == "Qubic-4"
    token = next(c["value"] for c in creator.context.cookies() if c["name"] == "csrftoken")
    response = creator.request.post(
        f"/games/{rule_set.pk}/rename/",
        form={"name": "Mine", "csrfmiddlewaretoken": token},
        headers={"Referer": creator.url},
    )
    assert response.status == 403
    assert "Only an Admin can rename a game." in response.text()
    rule_set.refresh_from_db()
    assert rule_set.name == "Qubic-4"

    admin.goto(rule_set.get_absolute_url())
    admin.fill("#id_rename", "bad name")
    admin.click("#fc-rename-button")  # confirmed (dialog accepted)
    assert "May not contain whitespace" in admin.inner_text("#id_rename-error")
    admin.fill("#id_rename", "Qubic-Four")
    admin.click("#fc-rename-button")
    admin.wait_for_url(re.compile(rf"/games/{rule_set.pk}/$"))
    rule_set.refresh_from_db()
    assert rule_set.name == "Qubic-Four"


def test_anonymous_visitors_log_in_first(anonymous):
    anonymous.goto(FACTORY)
    assert "/login/" in anonymous.url and "next=/games/new/" in anonymous.url


# --- three catalogue games through the form -----------------------------------------------------


def test_create_connect4_treblecross_and_wild_ttt_through_the_form(person):
    page = person("carla")
    # Connect4: 7×1×6 stacks, first 4-in-a-row wins, 21 black and 21 white.
    page.goto(FACTORY)
    page.fill("#id_name", "Connect4")
    choose(page, "id_board_type", "stacks")
    choose(page, "id_size_x", "7")
    choose(page, "id_size_y", "1")
    choose(page, "id_size_z", "6")
    page.select_option("#id_check_0", "4-wins-d")
    assert page.input_value("#id_reserve-black-1") == "21"
    screenshot(page, "factory-connect4")
    page.click("#fc-save")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    saved_fingerprint_matches("Connect4", "Connect4")
    summary = page.text_content("#fc-summary")
    assert summary == RuleSet.objects.get(name="Connect4").summary

    # Treblecross15: 15×1×1 squares, shared colour, 15 black.
    page.goto(FACTORY)
    page.fill("#id_name", "Treblecross15")
    choose(page, "id_board_type", "squares")
    choose(page, "id_size_x", "15")
    choose(page, "id_size_y", "1")
    choose(page, "id_colors", "shared")
    assert page.input_value("#id_reserve-black-1") == "15"
    page.click("#fc-save")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    saved_fingerprint_matches("Treblecross15", "Treblecross15")

    # Wild-TTT-6sq3143: 6×6×1 squares, players choose colours, (3,1,1) and (4,3,1)
    # locked on the board, 18 black and 18 white.
    page.goto(FACTORY)
    page.fill("#id_name", "Wild-TTT-6sq3143")
    choose(page, "id_board_type", "squares")
    choose(page, "id_size_x", "6")
    choose(page, "id_size_y", "6")
    choose(page, "id_colors", "choose")
    page.click("label[for=mk-lock]")
    click_space(page, "1-3-1-1")
    click_space(page, "1-4-3-1")
    page.select_option("#id_reserve-black-1", "18")
    page.select_option("#id_reserve-white-1", "18")
    screenshot(page, "factory-wild-ttt")
    page.click("#fc-save")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    saved_fingerprint_matches("Wild-TTT-6sq3143", "Wild-TTT-6sq3143")

    # The saved page: the rules in words first, locked spaces named; the read-only factory
    # one click away ("Show as factory"); Copy opens a prefilled factory page.
    rules_text = page.get_by_test_id("rules-in-words").inner_text()
    assert "6×6 squares. Locked (nobody plays there): (3,1), (4,3)." in rules_text
    assert not page.locator("#id_allow_pass").is_visible()
    page.get_by_test_id("factory-view").locator("summary").click()
    assert page.get_attribute("[aria-label^='space 3,1,1']", "aria-label") == "space 3,1,1, locked"
    assert page.locator("select:not([disabled])").count() == 0
    assert page.locator("input[name=marker]").count() == 0
    # Hidden: blank dropdowns (no timer, so no timeout; blank power conditions), zero
    # selects and the palette. Shown: chosen options, even "No option to pass".
    assert page.locator("#id_allow_pass").is_visible()
    assert page.locator("#id_cloaking").is_visible()
    for hidden in ("#id_timeout", "#id_seconds", "#id_power_condition-1", "#id_move-1"):
        assert not page.locator(hidden).is_visible(), hidden
    assert page.locator(".fc-marker").count() == 0
    assert "Created by carla" in page.inner_text("#fc-creator")
    screenshot(page, "saved-wild-ttt")
    page.click("#fc-copy")
    page.wait_for_url(re.compile(r"/games/new/\?copy=\d+$"))
    assert page.input_value("#id_name") == "Wild-TTT-6sq3143-copy"
    assert page.get_attribute("#sp-1-4-3-1", "aria-label") == "space 4,3,1, locked"
    assert page.input_value("#id_reserve-white-1") == "18"
    page.click("#fc-save")  # unchanged: refused as a duplicate naming the original
    assert "the existing game 'Wild-TTT-6sq3143'" in page.inner_text("#fc-top-errors")

    # Show All Creations leads to the creator's Creations tab.
    page.goto(RuleSet.objects.get(name="Connect4").get_absolute_url())
    href = page.get_attribute("#fc-creations", "href")
    assert href.endswith("?tab=creations")
    response = page.goto(href)
    assert response.status == 200


# --- phone, keyboard ----------------------------------------------------------------------


def test_phone_width_and_keyboard(person):
    page = person("carla", width=390, height=844)
    page.goto(FACTORY)
    choose(page, "id_board_type", "squares")
    choose(page, "id_size_x", "7")
    choose(page, "id_size_y", "6")
    # Nothing but the board may scroll sideways.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    # Keyboard only: select the lock marker with Space, then lock a space with Enter.
    page.focus("#mk-lock")
    page.keyboard.press("Space")
    assert page.is_checked("#mk-lock")
    page.focus("#sp-1-4-4-1")
    refreshing(page, lambda: page.keyboard.press("Enter"))
    assert page.get_attribute("#sp-1-4-4-1", "aria-label") == "space 4,4,1, locked"
    # Focus stays on the space that was pressed (htmx restores it by id).
    assert page.evaluate("document.activeElement.id") == "sp-1-4-4-1"
    page.keyboard.press("Escape")
    assert not page.is_checked("#mk-lock")
    screenshot(page, "factory-phone")


def test_without_javascript_the_form_still_works(person):
    page = person("carla", js=False)
    page.goto(FACTORY)
    page.select_option("#id_players", "3")
    page.click("noscript button, button[value=refresh]")  # "Update" redraws on the server
    assert page.locator(".fc-reserve-row").count() == 3
    page.click("#fc-add-check")
    assert page.locator("select[name=check]").count() == 2
    page.select_option("#id_check_1", "2-loses-o")
    page.click("label[for=mk-lock]")  # a plain radio: selected with the green highlight
    assert background(page, "label[for=mk-lock]") == GREEN
    page.click("#sp-1-2-2-1")
    assert page.get_attribute("#sp-1-2-2-1", "aria-label") == "space 2,2,1, locked"
    page.fill("#id_name", "NoScript3P")
    page.click("#fc-save")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    doc = RuleSet.objects.get(name="NoScript3P").rule_doc()
    assert doc.players == "3" and [(s.board, s.at) for s in doc.locked] == [(1, (2, 2, 1))]
    assert {(c.k, c.result, c.diagonal) for c in doc.turn_checks} == {
        (3, "wins", True),
        (2, "loses", False),
    }
