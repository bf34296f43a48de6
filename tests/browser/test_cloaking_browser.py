"""3Blotto13 (issue 20) between two people on the match page: each sees only their own
stacks, under fog, until the end, when both armies are shown.

Each person has a browser context with the real match page (templates, match.js,
board.js, fog.js) on a socket that never leaves the page; every click's move is played
on the engine's cloaked state and each page is sent its own seat's view, exactly what
the server sends (play/events.py). test_cloaking_live_browser.py plays it live."""

from __future__ import annotations

import pytest

from tests.browser.conftest import SCREENSHOTS
from tests.browser.test_board_render import (  # noqa: F401 (fixtures)
    FAKE_SOCKET,
    SEATS,
    board,
    boot_data,
    open_page,
    page,
    render_page,
    sent,
    server,
    site,
    state_event,
)
from tests.cloak_helpers import blotto_game

pytestmark = pytest.mark.browser

BLACK = [0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 0, 0, 1]  # 6, 4, 3 soldiers
WHITE = [2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 0, 0]  # 2, 5, 6


@pytest.fixture
def two_people(browser, site):  # noqa: F811
    contexts, pages = [], []
    for _ in range(2):
        context = browser.new_context(viewport={"width": 1100, "height": 900})
        context.set_default_timeout(5000)
        tab = context.new_page()
        tab.js_errors = []
        tab.on("pageerror", lambda error, p=tab: p.js_errors.append(str(error)))
        contexts.append(context)
        pages.append(tab)
    yield pages
    for tab in pages:
        assert not tab.js_errors, f"JavaScript errors: {tab.js_errors}"
    for context in contexts:
        context.close()


def seat_event(state, seat):
    over = state.is_terminal()
    event = state_event(state.view(seat), you=(seat,), status="finished" if over else "active")
    if over:
        event["outcome"] = {"type": "game:over", **state.outcome.to_dict()}
    return event


def colors_on(tab):
    return tab.evaluate(
        "() => [...document.querySelectorAll('#vf-board .vf-piece')]"
        ".map(p => [...p.classList].find(c => c.startsWith('vf-c-')))"
    )


def test_each_person_sees_only_their_own_stacks_until_the_end(two_people, site):  # noqa: F811
    game = blotto_game()
    state = game.new_initial_state(seed=1)
    for seat, tab in enumerate(two_people):
        tab.add_init_script(FAKE_SOCKET)
        html = render_page(
            "play/match.html", {"boot": boot_data(seat_event(state, seat)), "match": None}
        )
        open_page(tab, site, f"blotto-{seat}.html", html)
        tab.wait_for_function("window.__sockets && window.__sockets[0].readyState === 1")
        assert tab.locator(".vf-fog").count() == 6  # 3 boards x 2 stacks, all cloaked
    mine = ["vf-c-black", "vf-c-white"]
    for turn in range(26):
        seat = turn % 2
        tab = two_people[seat]
        field = (BLACK if seat == 0 else WHITE)[turn // 2]
        tab.locator(f".vf-cell[data-board='{field + 1}'][data-coords='{seat + 1},1']").click()
        move = sent(tab)[-1]["move"]
        assert move == f"b{field + 1}:{seat + 1},1"
        state.apply(seat, game.parse_move(move))
        for viewer, each in enumerate(two_people):
            server(each, seat_event(state, viewer))
            if not state.is_terminal():
                shown = colors_on(each)
                assert set(shown) <= {mine[viewer]}, (turn, viewer, shown)
                assert len(shown) == (turn + 2 - viewer) // 2  # every soldier of its own
        if turn == 11:
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            two_people[0].screenshot(path=str(SCREENSHOTS / "cloaking-blotto-black.png"))
    assert state.is_terminal()
    for each in two_people:
        each.wait_for_function("document.querySelectorAll('#vf-board .vf-piece').length === 26")
        assert sorted(set(colors_on(each))) == mine


def _row_view(cloaking, texts, seat):
    from tests.cloak_helpers import cloak_game
    from tests.test_cloaking_engine import CLOAKED, row_data

    game = cloak_game(row_data(cloaking), CLOAKED)
    state = game.new_initial_state(seed=1)
    for text in texts:
        state.apply(state.to_move()[0], game.parse_move(text))
    return state.view(seat)


@pytest.fixture
def fog_board(board, page):  # noqa: F811
    from tests.browser.test_board_render import board as _board  # noqa: F401

    page.evaluate("() => import('/static/js/fog.js')")
    page.add_style_tag(url="/static/css/fog.css")
    return board


def test_fog_the_revealed_piece_and_an_obscured_piece_are_drawn(fog_board, page):  # noqa: F811
    # black tried to place where white hides a circle: "there was a piece here"
    view = _row_view("hides", ["circle 1,1,1", "circle 4,1,1", "pentagon 4,1,1", "pass"], 0)
    fog_board(view)
    assert page.locator(".vf-cell.is-cloaked").count() == 2
    revealed = page.locator(".vf-cell.is-revealed")
    assert revealed.count() == 1 and revealed.get_attribute("data-coords") == "4,1,1"
    assert revealed.locator(".vf-piece.vf-c-white").count() == 1
    assert "there was a piece here" in page.get_by_test_id("fog-note").text_content()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "cloaking-revealed.png"))
    # cloaking obscures: white's pentagon shows its colour, not its shape
    view = _row_view("obscures", ["circle 1,1,1", "pentagon 4,1,1"], 0)
    fog_board(view)
    piece = page.locator("[data-coords='4,1,1'] .vf-piece")
    assert "is-obscured" in piece.get_attribute("class")
    classes = piece.get_attribute("class")
    assert "vf-s-pentagon" not in classes and "vf-s-circle" not in classes
    assert piece.locator("polygon").count() == 0 and piece.locator("rect").count() == 1
    label = page.locator("[data-coords='4,1,1']").get_attribute("aria-label")
    assert "shape unseen" in label or "Place" in label
    assert not page.get_by_test_id("fog-note").is_visible()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "cloaking-obscured.png"))
