"""The live board, the match page and the replay in a real Chromium, without a server.

Views come from the engine (pure Python), the pages are the real templates rendered with
Django's template engine (no database, no daphne), and static/ is served by Python's
http.server (ES modules do not load from file:// URLs). The match page talks to a fake
WebSocket installed before its scripts run: the test reads what the page sends and injects
what a server would say.
"""

from __future__ import annotations

import functools
import http.server
import threading
import time

import pytest

from tests.browser import board_views as bv
from tests.conftest import BASE_DIR

pytestmark = pytest.mark.browser

HARNESS = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<link rel="stylesheet" href="/static/vendor/bootstrap/css/bootstrap.min.css">
<link rel="stylesheet" href="/static/css/board.css">
</head><body><div id="board" style="width: 720px; margin: 10px"></div>
<script type="module">
import { renderBoard } from "/static/js/board.js";
window.moves = [];
window.draw = (view, interactive = true) => renderBoard(
  document.getElementById("board"), view,
  { onMove: interactive ? (move) => window.moves.push(move) : null });
window.harnessReady = true;
</script></body></html>
"""

# A WebSocket that never leaves the page: window.__sent holds what the page sent,
# window.__server(event) delivers an event, window.__drop() closes the socket.
FAKE_SOCKET = """
(() => {
  window.__sent = [];
  window.__sockets = [];
  class FakeSocket extends EventTarget {
    constructor(url) {
      super();
      this.url = url;
      this.readyState = 0;
      window.__sockets.push(this);
      setTimeout(() => { this.readyState = 1; this.dispatchEvent(new Event("open")); }, 0);
    }
    send(data) { window.__sent.push(JSON.parse(data)); }
    close() { this.readyState = 3; this.dispatchEvent(new Event("close")); }
  }
  FakeSocket.CONNECTING = 0; FakeSocket.OPEN = 1; FakeSocket.CLOSING = 2; FakeSocket.CLOSED = 3;
  window.WebSocket = FakeSocket;
  window.__server = (event) => {
    const socket = window.__sockets[window.__sockets.length - 1];
    socket.dispatchEvent(new MessageEvent("message", { data: JSON.stringify(event) }));
  };
  window.__drop = () => window.__sockets[window.__sockets.length - 1].close();
})();
"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """http://127.0.0.1:<port>/ serving a folder with static/ (the repo's) and test pages."""
    root = tmp_path_factory.mktemp("site")
    (root / "static").symlink_to(BASE_DIR / "static", target_is_directory=True)
    (root / "harness.html").write_text(HARNESS)
    handler = functools.partial(_Quiet, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield root, f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    context.set_default_timeout(5000)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.js_errors = errors
    yield page
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.fixture
def board(page, site):
    """draw(view, interactive=True) -> the page, with the board drawn."""
    _root, url = site
    page.goto(f"{url}/harness.html")
    page.wait_for_function("window.harnessReady === true")

    def draw(view, interactive=True):
        page.evaluate(
            "([view, on]) => { window.moves = []; window.draw(view, on); }", [view, interactive]
        )
        return page

    return draw


def cells(page):
    return page.locator("[data-testid=cell]")


def moves(page):
    return page.evaluate("window.moves")


def in_area(view, index):
    edge, area = view["edge"], view["area"]
    coords = [(index // edge**k) % edge for k in range(view["dimensions"])]
    return all(lo <= c <= hi for c, (lo, hi) in zip(coords, area, strict=True))


# --- what is drawn --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "count"),
    [
        ("Tic-Tac-Toe", 9),
        ("3on15line", 15),
        ("Connect4", 7),  # one cell per column: a click drops into it
        ("Wild-TTT-6sq3143", 36),
        ("Qubic-4", 64),
        ("Ultimate-Tic-Tac-Toe", 81),
        ("TacticToy-3D", 729),
        ("TacticToy-4D", 81),
    ],
)
def test_one_cell_per_space(board, name, count):
    page = board(bv.view_after(name))
    assert cells(page).count() == count


def _blotto_state(black, white):
    moves = []
    fields = [[f for f, n in enumerate(a, 1) for _ in range(n)] for a in (black, white)]
    for b, w in zip(*fields, strict=True):
        moves += [f"b{b}:1,1", f"b{w}:2,1"]
    state = bv.play("3Blotto13", moves)
    assert state.is_terminal()
    return state


def _blotto_view(black, white):
    return _blotto_state(black, white).view(None)


def _boxes(page, selector):
    found = page.locator(selector)
    return [found.nth(i).bounding_box() for i in range(found.count())]


def _apart(a, b):
    return a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]


@pytest.mark.parametrize("width", [720, 330])
def test_blotto_fields_say_who_won_each_and_a_tie_is_nobodys(board, page, width):
    """Issue 35: a tied field read "won by Player 1 & Player 2" (READINGS: nobody), and
    the three narrow fields' results ran into each other."""
    page.evaluate("w => { document.getElementById('board').style.width = w + 'px'; }", width)
    board(_blotto_view((5, 4, 4), (4, 5, 4)), interactive=False)  # field 3 tied 4-4
    results = page.locator("[data-testid=board-result]").all_text_contents()
    assert results == ["won by Player 1", "won by Player 2", "won by nobody"]
    boxes = _boxes(page, "[data-testid=board-result]")
    labels = _boxes(page, ".vf-board-label")
    for row in (boxes, labels):
        for a, b in zip(row, row[1:], strict=False):
            assert _apart(a, b), (a, b)
    page.screenshot(path=f"/tmp/shots/named/blotto-fields-{width}.png")


def test_several_boards_side_by_side(board):
    first_board = ["b1:1,1,1", "b1:1,2,1", "b1:2,1,1", "b1:2,2,1", "b1:3,1,1"]
    view = bv.view_after(bv.TWO_BOARDS, first_board)
    page = board(view)
    assert cells(page).count() == 18
    assert page.locator(".vf-board-label").all_text_contents() == ["Board 1", "Board 2"]
    assert page.locator("[data-testid=board-result]").all_text_contents() == ["won by Player 1"]
    # Board 1 is decided: only board 2's spaces are legal.
    legal = page.locator(".vf-cell.is-legal")
    assert legal.count() == 9
    assert {legal.nth(i).get_attribute("data-board") for i in range(9)} == {"2"}
    box1 = page.locator("[data-board='1'].vf-board-one").bounding_box()
    box2 = page.locator("[data-board='2'].vf-board-one").bounding_box()
    assert box2["x"] >= box1["x"] + box1["width"]  # side by side


def test_pieces_and_locked_spaces(board):
    view = bv.view_after("Wild-TTT-6sq3143", ["black 1,1,1", "white 2,2,1"])
    page = board(view)
    assert page.locator(".vf-cell.is-locked").count() == 2
    assert page.locator("[data-coords='3,1,1'].is-locked").count() == 1
    assert page.locator("[data-coords='1,1,1'] .vf-piece.vf-c-black.vf-s-circle").count() == 1
    assert page.locator("[data-coords='2,2,1'] .vf-piece.vf-c-white").count() == 1
    # y grows upwards: y=6 is the top row, y=1 the bottom one.
    top = page.locator("[data-coords='1,6,1']").bounding_box()["y"]
    bottom = page.locator("[data-coords='1,1,1']").bounding_box()["y"]
    assert top < bottom
    assert page.locator("[data-coords='3,1,1']").get_attribute("tabindex") is None


def test_stacks_show_pieces_at_their_heights(board):
    view = bv.view_after("Connect4", ["4,1", "4,1", "3,1"])
    page = board(view)
    column = page.locator("[data-coords='4,1']")
    assert column.get_attribute("data-move") == "4,1"
    pieces = column.locator(".vf-piece")
    assert pieces.count() == 2
    # The first piece (black) is at the bottom, the second (white) above it.
    black = column.locator(".vf-c-black").bounding_box()
    white = column.locator(".vf-c-white").bounding_box()
    assert white["y"] < black["y"]
    assert page.locator("[data-coords='3,1'].is-last").count() == 1


def test_3d_is_drawn_as_labelled_slices(board):
    page = board(bv.view_after("Qubic-4", ["1,1,1", "2,2,2", "4,4,4"]))
    assert page.locator(".vf-slice-label").all_text_contents() == ["z=1", "z=2", "z=3", "z=4"]
    assert page.locator("[data-coords='4,4,4'] .vf-piece").count() == 1
    assert page.locator("[data-coords='4,4,4']").get_attribute("class").count("is-last") == 1
    z1 = page.locator("[data-coords='1,1,1']").bounding_box()
    z4 = page.locator("[data-coords='1,1,4']").bounding_box()
    assert z4["x"] > z1["x"] and abs(z4["y"] - z1["y"]) < 1  # side by side


def test_ultimate_has_nine_blocks(board):
    page = board(bv.view_after("Ultimate-Tic-Tac-Toe"))
    assert cells(page).count() == 81
    # Block borders: two inner thick lines each way (3×3 blocks), the frame thicker still.
    assert page.locator(".vf-grid-line.vf-level-1").count() == 4
    assert page.locator(".vf-grid-line.vf-level-2").count() == 4
    assert page.locator(".vf-grid-line.vf-level-0").count() == 12


def test_4d_is_a_matrix_of_slices(board):
    page = board(bv.view_after("TacticToy-4D", ["41"]))
    labels = page.locator(".vf-slice-label")
    assert labels.count() == 9
    boxes = {}
    for i in range(9):
        text = labels.nth(i).text_content()
        boxes[text] = labels.nth(i).bounding_box()
    # Rows by t, columns by z.
    assert abs(boxes["z=1, t=1"]["y"] - boxes["z=3, t=1"]["y"]) < 1
    assert boxes["z=1, t=2"]["y"] > boxes["z=1, t=1"]["y"] + 20
    assert abs(boxes["z=2, t=1"]["x"] - boxes["z=2, t=3"]["x"]) < 1
    # Move 41 is the centre of the tesseract: (2,2,2,2).
    assert page.locator("[data-coords='2,2,2,2'] .vf-mark[data-symbol='X']").count() == 1


def test_tactictoy_3d_slices(board):
    view = bv.view_after("TacticToy-3D", ["5/14", "14/5"])
    page = board(view)
    assert page.locator(".vf-slice-label").count() == 9
    assert page.locator(".vf-mark[data-symbol='X']").count() == 1
    assert page.locator("[data-coords='5,5,2'] .vf-mark[data-symbol='X']").count() == 1
    assert page.locator("[data-coords='5,5,4'] .vf-mark[data-symbol='O']").count() == 1
    highlighted = page.locator(".vf-cell.is-area")
    assert highlighted.count() == sum(in_area(view, i) for i in range(729)) == 27


# --- playing on it --------------------------------------------------------------------------


def test_click_legal_cell_plays_its_notation(board):
    view = bv.view_after("Tic-Tac-Toe", ["2,2,1"])
    page = board(view)
    page.locator("[data-coords='1,3,1']").click()
    assert moves(page) == ["1,3,1"]
    assert "1,3,1" in view["legal_moves"]


def test_illegal_cells_do_nothing(board):
    view = bv.view_after("Tic-Tac-Toe", ["2,2,1"])
    page = board(view)
    occupied = page.locator("[data-coords='2,2,1']")
    occupied.click()
    assert moves(page) == []
    assert occupied.get_attribute("tabindex") is None
    assert occupied.get_attribute("role") == "img"
    # A read-only board (a spectator, a replay) plays nothing at all.
    board(view, interactive=False)
    page.locator("[data-coords='1,1,1']").click()
    assert moves(page) == []
    assert page.locator(".vf-cell[tabindex]").count() == 0


def test_stack_click_drops_into_the_column(board):
    view = bv.view_after("Connect4", ["4,1"])
    page = board(view)
    page.locator("[data-coords='6,1']").click(position={"x": 5, "y": 5})  # top of the column
    assert moves(page) == ["6,1"]
    assert page.locator("[data-coords='6,1']").get_attribute("aria-label") == "Drop in column 6"


def test_nested_click_plays_the_legal_move(board):
    state = bv.play("Ultimate-Tic-Tac-Toe", ["5/3"])
    view = bv.mover_view(state)
    page = board(view)
    legal = dict(zip(view["legal_cells"], view["legal_moves"], strict=True))
    index = view["legal_cells"][4]
    page.locator(f"[data-testid=cell][data-index='{index}']").click()
    assert moves(page) == [legal[index]]
    assert state.game.parse_move(legal[index]).target == index
    # Outside the allowed area nothing happens.
    outside = next(i for i in range(81) if not in_area(view, i))
    page.locator(f"[data-testid=cell][data-index='{outside}']").click()
    assert moves(page) == [legal[index]]


def test_allowed_area_is_highlighted(board):
    view = bv.view_after("Ultimate-Tic-Tac-Toe", ["5/3"])
    page = board(view)
    expected = {i for i in range(81) if in_area(view, i)}
    highlighted = page.locator(".vf-cell.is-area")
    got = {int(highlighted.nth(i).get_attribute("data-index")) for i in range(highlighted.count())}
    assert got == expected and len(expected) == 9
    assert page.locator("[data-testid=area]").count() == 1
    assert set(view["legal_cells"]) <= expected
    legal = page.locator(".vf-cell.is-legal")
    assert {int(legal.nth(i).get_attribute("data-index")) for i in range(legal.count())} == set(
        view["legal_cells"]
    )


def test_keyboard_enter_and_space_play(board):
    view = bv.view_after("Tic-Tac-Toe", ["2,2,1"])
    page = board(view)
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.getAttribute('data-move')")
    assert focused in view["legal_moves"]
    page.keyboard.press("Enter")
    assert moves(page) == [focused]
    # Arrow keys move between legal spaces (skipping the occupied centre); Space plays too.
    page.locator("[data-coords='1,2,1']").focus()
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.getAttribute('data-coords')") == "3,2,1"
    page.keyboard.press("ArrowUp")
    assert page.evaluate("document.activeElement.getAttribute('data-coords')") == "3,3,1"
    page.keyboard.press(" ")
    assert moves(page) == [focused, "3,3,1"]
    label = page.locator("[data-coords='1,3,1']").get_attribute("aria-label")
    assert label == "Place at 1,3"


def test_several_pieces_for_one_space_offer_a_chooser(board):
    view = bv.view_after(bv.SHAPES_CHOSEN)
    page = board(view)
    cell = page.locator("[data-coords='2,3,1']")
    cell.click()
    assert moves(page) == []
    choices = page.locator("[data-testid=choice]")
    expected = [m for m in view["legal_moves"] if m.endswith(" 2,3,1")]
    assert len(expected) == 4
    assert [choices.nth(i).get_attribute("data-move") for i in range(choices.count())] == expected
    page.locator("[data-testid=choice][data-move='white triangle 2,3,1']").click()
    assert moves(page) == ["white triangle 2,3,1"]
    assert page.locator("[data-testid=chooser]").count() == 0
    # Escape closes the chooser without playing.
    cell.focus()
    page.keyboard.press("Enter")
    assert page.locator("[data-testid=chooser]").count() == 1
    page.keyboard.press("Escape")
    assert page.locator("[data-testid=chooser]").count() == 0
    assert moves(page) == ["white triangle 2,3,1"]


# --- finished games -------------------------------------------------------------------------


def test_finished_game_marks_last_move_and_winning_line(board):
    view = bv.view_after("Tic-Tac-Toe", ["1,1,1", "1,2,1", "2,2,1", "1,3,1", "3,3,1"])
    assert view["outcome"]["lines"] == [[[1, 1, 1, 1], [1, 2, 2, 1], [1, 3, 3, 1]]]
    page = board(view)
    assert page.locator(".vf-cell.is-last").get_attribute("data-coords") == "3,3,1"
    assert page.locator("[data-testid=win-line]").count() == 1
    won = page.locator(".vf-cell[data-win='true']")
    assert {won.nth(i).get_attribute("data-coords") for i in range(won.count())} == {
        "1,1,1",
        "2,2,1",
        "3,3,1",
    }
    assert page.locator(".vf-cell.is-legal").count() == 0


def test_connect4_winning_line(board):
    view = bv.view_after("Connect4", ["1,1", "2,1", "1,1", "2,1", "1,1", "2,1", "1,1"])
    page = board(view)
    assert page.locator("[data-testid=win-line]").count() == 1
    assert page.locator("[data-coords='1,1'].is-last").count() == 1
    assert page.locator(".vf-piece.is-win").count() == 4


def test_nested_winning_line(board):
    state = bv.random_until(
        "Ultimate-Tic-Tac-Toe", lambda s: s.is_terminal() and s.outcome.reason == "victory"
    )
    view = bv.mover_view(state)
    page = board(view)
    assert page.locator("[data-testid=win-unit]").count() == 3
    assert page.locator("[data-testid=win-line]").count() == 1
    assert page.locator(".vf-cell.is-last").count() == 1
    last = ",".join(map(str, view["last_cell"]))
    assert page.locator(".vf-cell.is-last").get_attribute("data-coords") == last


def test_obstacles_protected_and_drawn_blocks(board):
    def wanted(s):
        v = s.view(None)
        return "%" in v["cells"] and "*" in "".join(v["blocks"])

    state = bv.random_until(bv.OBSTACLES, wanted)
    view = bv.mover_view(state)
    page = board(view)
    cells_text = view["cells"]
    assert page.locator("[data-testid=obstacle]").count() == cells_text.count("#") > 0
    assert page.locator("[data-testid=protected]").count() == cells_text.count("%") > 0
    blocks = "".join(view["blocks"])
    assert page.locator("[data-testid=block-mark][data-symbol='*']").count() == blocks.count("*")
    captured = sum(blocks.count(s) for s in view["symbols"])
    marks = page.locator("[data-testid=block-mark].is-captured")
    assert marks.count() == captured > 0
    for i, symbol in enumerate(cells_text):
        if symbol in view["symbols"]:
            cell = page.locator(f"[data-testid=cell][data-index='{i}']")
            assert cell.locator(f".vf-mark[data-symbol='{symbol}']").count() == 1
            break


# --- the replay -----------------------------------------------------------------------------


def render_page(template: str, context: dict) -> str:
    from django.contrib.auth.models import AnonymousUser
    from django.template.loader import render_to_string
    from django.test import RequestFactory

    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    return render_to_string(template, context, request=request)


def replay_data(name, texts):
    game = bv.game(name)
    state = game.new_initial_state(seed=1)
    frames = [{"ply": 0, "seat": None, "move": None, "view": state.view(None)}]
    for ply, text in enumerate(texts, start=1):
        seat = state.to_move()[0]
        state.apply(seat, game.parse_move(text))
        frames.append({"ply": ply, "seat": seat, "move": text, "view": state.view(None)})
    outcome = state.outcome.to_dict() if state.outcome else None
    return {
        "matchId": 42,
        "name": name,
        "rulesLine": "First 3-same-color-in-a-row wins",
        "seats": [
            {"index": 0, "name": "alice", "color": "black"},
            {"index": 1, "name": "bob", "color": "white"},
        ],
        "frames": frames,
        "outcome": outcome,
    }


def open_page(page, site, name, html):
    root, url = site
    (root / name).write_text(html)
    page.goto(f"{url}/{name}")


def test_replay_steps_with_buttons_keys_slider_and_list(page, site):
    data = replay_data("Tic-Tac-Toe", ["1,1,1", "1,2,1", "2,2,1", "1,3,1", "3,3,1"])
    open_page(page, site, "replay.html", render_page("play/replay.html", {"replay": data}))
    pieces = page.locator("#vf-board .vf-piece")
    text = page.get_by_test_id("move-text")
    assert page.get_by_test_id("title").text_content().startswith("Tic-Tac-Toe")
    assert pieces.count() == 0 and text.text_content() == "The start"
    assert page.get_by_test_id("prev").is_disabled()
    page.get_by_test_id("next").click()
    assert pieces.count() == 1 and text.text_content() == "1. alice: bottom-left (1,1,1)"
    page.keyboard.press("ArrowRight")
    assert pieces.count() == 2 and text.text_content() == "2. bob: left (1,2,1)"
    page.keyboard.press("ArrowLeft")
    assert pieces.count() == 1
    page.get_by_test_id("last").click()
    assert pieces.count() == 5
    assert page.get_by_test_id("next").is_disabled()
    assert page.locator("[data-testid=win-line]").count() == 1
    assert page.get_by_test_id("outcome").is_visible()
    assert "alice" in page.get_by_test_id("outcome").text_content()
    page.get_by_test_id("first").click()
    assert pieces.count() == 0
    page.locator("[data-testid=move-item][data-ply='3']").click()
    assert pieces.count() == 3 and text.text_content() == "3. alice: centre (2,2,1)"
    current = page.locator("[data-testid=move-item][aria-current='true']")
    assert current.get_attribute("data-ply") == "3"
    page.keyboard.press("End")
    assert pieces.count() == 5
    page.keyboard.press("Home")
    assert pieces.count() == 0
    page.get_by_test_id("slider").fill("4")
    assert pieces.count() == 4 and text.text_content() == "4. bob: top-left (1,3,1)"
    assert page.locator("#vf-board .vf-cell.is-legal").count() == 0  # read-only


def test_replay_of_a_nested_game_shows_moves_as_written(page, site):
    data = replay_data("Ultimate-Tic-Tac-Toe", ["5/3", "3/5", "5/7"])
    open_page(page, site, "replay-nested.html", render_page("play/replay.html", {"replay": data}))
    items = page.locator("[data-testid=move-item]")
    assert items.count() == 4
    assert items.nth(1).locator("code").text_content() == "5/3"
    page.get_by_test_id("last").click()
    words = "3. alice: centre block, bottom-left cell (5/7)"
    assert page.get_by_test_id("move-text").text_content() == words
    assert page.locator("#vf-board .vf-mark[data-symbol='X']").count() == 2
    assert not page.get_by_test_id("outcome").is_visible()


# --- the match page against a fake socket ---------------------------------------------------

SEATS = [
    {"index": 0, "name": "alice", "kind": "human", "playerId": 11, "color": "black", "team": 0,
     "connected": True, "invitation": "accepted", "result": None},
    {"index": 1, "name": "bob", "kind": "human", "playerId": 12, "color": "white", "team": 1,
     "connected": True, "invitation": "accepted", "result": None},
]  # fmt: skip


def state_event(view, you=(0,), status="active", timers=None, seats=SEATS):
    return {
        "type": "state",
        "status": status,
        "you": list(you),
        "seats": seats,
        "view": view,
        "timers": timers
        or {"turnDeadline": None, "turnSeconds": None, "afk": None, "disconnected": [],
            "inviteDeadline": None},
        "ply": view["ply"],
    }  # fmt: skip


def boot_data(event):
    state = {k: v for k, v in event.items() if k != "type"}
    return {
        "matchId": 7,
        "wsUrl": "/ws/match/7/",
        "name": state["view"]["game"],
        "rulesLine": "Stalemate draws; First 3-same-color-in-a-row wins",
        "replayUrl": "/play/7/replay/",
        "playNewUrl": "/play/new/?rules=1",
        "homeUrl": "/",
        "state": state,
    }


@pytest.fixture
def match_page(page, site):
    """open(view, **state) -> the match page booted with that state, its socket open."""

    def open_match(view, name="match.html", **kwargs):
        event = state_event(view, **kwargs)
        page.add_init_script(FAKE_SOCKET)
        html = render_page("play/match.html", {"boot": boot_data(event), "match": None})
        open_page(page, site, name, html)
        page.wait_for_function("window.__sockets && window.__sockets.length === 1")
        page.wait_for_function("window.__sockets[0].readyState === 1")
        return page

    return open_match


def sent(page):
    return page.evaluate("window.__sent")


def server(page, event):
    page.evaluate("event => window.__server(event)", event)


def test_match_renders_state_and_sends_moves(match_page):
    view = bv.view_after("Tic-Tac-Toe")
    page = match_page(view)
    _root_url = page.url.rsplit("/", 1)[0].replace("http://", "ws://")
    assert page.evaluate("window.__sockets[0].url") == _root_url + "/ws/match/7/"
    assert page.get_by_test_id("title").text_content() == "Tic-Tac-Toe"
    assert "Stalemate draws" in page.get_by_test_id("rules-line").text_content()
    assert cells(page).count() == 9
    assert page.get_by_test_id("turn").text_content() == "Your move"
    seats = page.locator("[data-testid=seat]")
    assert seats.count() == 2
    assert "alice" in seats.nth(0).text_content() and "you" in seats.nth(0).text_content()
    reserve = seats.nth(0).locator(".vf-reserve")
    assert reserve.get_attribute("data-color") == "black"
    assert reserve.get_attribute("data-count") == "5"
    assert page.get_by_test_id("resign").is_visible()
    assert not page.get_by_test_id("offer-draw").is_visible()
    assert not page.get_by_test_id("pass").is_visible()
    page.locator("[data-coords='2,2,1']").click()
    assert sent(page) == [{"type": "move", "move": "2,2,1", "ply": 0}]
    # Until the server answers, a second click sends nothing, and says why.
    page.locator("[data-coords='1,1,1']").click()
    assert len(sent(page)) == 1
    assert "on its way" in page.get_by_test_id("note").text_content()

    # The server's answer: bob to move; alice can no longer play.
    after = bv.play("Tic-Tac-Toe", ["2,2,1"])
    server(page, state_event(after.view(0)))
    assert page.get_by_test_id("turn").text_content() == "Player 2 Moving"
    assert page.locator("[data-coords='2,2,1'] .vf-piece").count() == 1
    assert page.locator(".vf-cell.is-legal").count() == 0
    page.locator("[data-coords='1,1,1']").click()
    assert len(sent(page)) == 1
    assert "is-moving" in page.locator("[data-testid=seat][data-seat='1']").get_attribute("class")


def test_match_error_alert_is_shown_and_dismissed(match_page):
    page = match_page(bv.view_after("Tic-Tac-Toe"))
    page.locator("[data-coords='2,2,1']").click()
    server(page, {"type": "error", "code": "stale", "reason": "The board changed: try again."})
    alert = page.get_by_test_id("error")
    assert alert.is_visible()
    assert alert.text_content().strip() == "The board changed: try again."
    assert alert.get_attribute("data-code") == "stale"
    # The error clears the pending move: the board plays again.
    page.locator("[data-coords='1,1,1']").click()
    assert [m["move"] for m in sent(page)] == ["2,2,1", "1,1,1"]
    page.get_by_test_id("error-dismiss").click()
    assert page.get_by_test_id("error").count() == 0


def test_match_game_over_panel(match_page):
    page = match_page(bv.view_after("Tic-Tac-Toe", ["1,1,1", "1,2,1", "2,2,1", "1,3,1"]))
    assert not page.get_by_test_id("game-over").is_visible()
    final = bv.play("Tic-Tac-Toe", ["1,1,1", "1,2,1", "2,2,1", "1,3,1", "3,3,1"])
    server(
        page,
        {
            "type": "game:over",
            "reason": "victory",
            "winner": 0,
            "winners": [0],
            "results": ["win", "loss"],
            "winningLine": [[1, 1, 1, 1], [1, 2, 2, 1], [1, 3, 3, 1]],
            "winningLines": [[[1, 1, 1, 1], [1, 2, 2, 1], [1, 3, 3, 1]]],
            "detail": "alice completed a line",
        },
    )
    server(page, state_event(final.view(0), status="finished"))
    panel = page.get_by_test_id("game-over")
    assert panel.is_visible()
    assert page.get_by_test_id("game-over-reason").text_content() == "Victory"
    assert page.get_by_test_id("game-over-winners").text_content() == "Winner: alice"
    assert page.get_by_test_id("game-over-detail").text_content() == "alice completed a line"
    assert page.get_by_test_id("replay-link").get_attribute("href") == "/play/7/replay/"
    assert page.get_by_test_id("play-new").get_attribute("href") == "/play/new/?rules=1"
    assert page.get_by_test_id("turn").text_content() == "Game over"
    assert page.locator("[data-testid=win-line]").count() == 1
    assert not page.get_by_test_id("resign").is_visible()
    results = page.locator("[data-testid=seat-result]").all_text_contents()
    assert results == ["won", "lost"]


def _over_event(state):
    out = state.outcome
    return {"type": "game:over", "reason": out.reason, "winner": (out.winners or [None])[0],
            "winners": list(out.winners), "results": list(out.results), "winningLine": None,
            "winningLines": [], "detail": out.detail}  # fmt: skip


def test_match_game_over_card_says_a_tied_blotto_field_is_nobodys(match_page):
    """Issue 35: the card and the fields agree: one field each, the third tied."""
    page = match_page(bv.view_after("3Blotto13"))
    final = _blotto_state((5, 4, 4), (4, 5, 4))
    server(page, _over_event(final))
    server(page, state_event(final.view(0), status="finished"))
    assert page.get_by_test_id("game-over-reason").text_content() == "Most boards won"
    assert page.get_by_test_id("game-over-winners").text_content() == "No winner"
    detail = page.get_by_test_id("game-over-detail").text_content()
    assert detail == "Boards won: alice: 1, bob: 1; 1 won by nobody"
    results = page.locator("[data-testid=board-result]").all_text_contents()
    assert results == ["won by Player 1", "won by Player 2", "won by nobody"]
    for w, h in ((1366, 768), (390, 844)):
        page.set_viewport_size({"width": w, "height": h})
        boxes = _boxes(page, "[data-testid=board-result]")
        assert all(_apart(a, b) for a, b in zip(boxes, boxes[1:], strict=False)), boxes
        page.screenshot(path=f"/tmp/shots/named/blotto-over-{w}.png", full_page=True)


def test_match_game_over_card_public_goods_every_player_wins_without_a_draw(match_page):
    """Issue 35: "Winners: all three" stood above "Stalemate draws"."""
    state = bv.play("3P-PublicGoods")
    while not state.is_terminal():  # nobody gives, Chaos places nothing
        seat = state.to_move()[0]
        moves = state.legal_moves(seat)
        state.apply(seat, next((m for m in moves if str(m) == "pass"), moves[0]))
    seats = [*SEATS, {**SEATS[1], "index": 2, "name": "carol", "playerId": 13, "color": "pink",
                      "team": 2}, {**SEATS[1], "index": 3, "name": "Chaos", "kind": "chaos",
                      "playerId": None, "color": "yellow", "team": 3}]  # fmt: skip
    page = match_page(bv.view_after("3P-PublicGoods"), seats=seats)
    server(page, _over_event(state))
    server(page, state_event(state.view(0), status="finished", seats=seats))
    assert page.get_by_test_id("game-over-winners").text_content() == (
        "Winners: alice & bob & carol"
    )
    detail = page.get_by_test_id("game-over-detail").text_content()
    assert "draw" not in detail.lower() and "every player wins" in detail
    page.screenshot(path="/tmp/shots/named/public-goods-over.png", full_page=True)


def test_match_resignation_shown_in_words(match_page):
    page = match_page(bv.view_after("Connect4", ["4,1"]), you=(1,))
    page.get_by_test_id("resign").click()
    page.get_by_test_id("resign-confirm").click()
    assert sent(page) == [{"type": "game:resign"}]
    server(page, {"type": "game:over", "reason": "resignation", "winner": 0, "winners": [0],
                  "results": ["win", "loss"], "winningLine": None, "winningLines": [],
                  "detail": "bob resigned"})  # fmt: skip
    assert page.get_by_test_id("game-over-reason").text_content() == "Resignation"
    assert page.get_by_test_id("game-over-winners").text_content() == "Winner: alice"


def test_match_afk_warning_counts_down_and_pings(match_page):
    page = match_page(bv.view_after("Tic-Tac-Toe"))
    assert not page.get_by_test_id("afk-warning").is_visible()
    now_ms = page.evaluate("Date.now()")
    server(page, {"type": "tictactoe:afk_warning", "seat": 0, "deadline": now_ms + 15000,
                  "secondsLeft": 15})  # fmt: skip
    warning = page.get_by_test_id("afk-warning")
    assert warning.is_visible()
    first = page.get_by_test_id("afk-countdown").text_content()
    assert first.startswith("0:1")  # 15 s, less what a slow machine took to get here
    countdown = "document.querySelector('[data-testid=afk-countdown]').textContent"
    page.wait_for_function(f"{countdown} !== {first!r}", timeout=3000)  # it counts down
    page.keyboard.press("Shift")
    assert {"type": "afk:ping"} in sent(page)
    server(page, {"type": "tictactoe:afk_warning_cleared", "seat": 0})
    assert not warning.is_visible()
    # From the state's timers too, once warnAt has passed.
    timers = {"turnDeadline": now_ms + 30000, "turnSeconds": 30, "disconnected": [],
              "afk": {"seat": 0, "warnAt": now_ms - 1000, "deadline": now_ms + 9000},
              "inviteDeadline": None}  # fmt: skip
    server(page, state_event(bv.view_after("Tic-Tac-Toe"), timers=timers))
    assert warning.is_visible()
    assert page.get_by_test_id("turn-timer").text_content().startswith("Time for this move: 0:")


def test_match_disconnect_banner_and_reconnect(match_page):
    page = match_page(bv.view_after("Tic-Tac-Toe"))
    now_ms = page.evaluate("Date.now()")
    server(page, {"type": "player:disconnected", "seat": 1, "playerId": 12,
                  "deadline": now_ms + 45000})  # fmt: skip
    banner = page.get_by_test_id("disconnected-banner")
    assert banner.is_visible()
    assert "bob disconnected" in banner.text_content() and "0:4" in banner.text_content()
    server(page, {"type": "player:reconnected", "seat": 1, "playerId": 12})
    assert page.get_by_test_id("disconnected-banner").count() == 0

    # Our own socket drops: "Reconnecting…", a new socket, then game:reconnect.
    page.evaluate("window.__drop()")
    assert page.get_by_test_id("connection").is_visible()
    page.wait_for_function("window.__sockets.length === 2 && window.__sockets[1].readyState === 1")
    assert sent(page)[-1] == {"type": "game:reconnect", "playerId": 11}
    assert not page.get_by_test_id("connection").is_visible()


def test_match_draw_pass_buttons(match_page):
    view = bv.view_after(bv.SHAPES_CHOSEN)
    assert {"draw", "pass"} <= set(view["legal_moves"])
    page = match_page(view)
    assert page.get_by_test_id("offer-draw").is_visible()
    assert page.get_by_test_id("pass").is_visible()
    page.get_by_test_id("offer-draw").click()
    assert sent(page) == [{"type": "draw:offer"}]
    # bob answers an offer: Accept/Decline, and no board moves.
    state = bv.play(bv.SHAPES_CHOSEN, ["draw"])
    server(page, state_event(state.view(1), you=(1,)))
    assert page.get_by_test_id("accept-draw").is_visible()
    assert page.get_by_test_id("decline-draw").is_visible()
    assert not page.get_by_test_id("offer-draw").is_visible()
    assert page.get_by_test_id("draw-note").is_visible()
    page.get_by_test_id("decline-draw").click()
    assert sent(page)[-1] == {"type": "draw:answer", "accept": False}
    page.get_by_test_id("accept-draw").click()
    assert sent(page)[-1] == {"type": "draw:answer", "accept": True}


def test_match_pass_sends_a_move(match_page):
    page = match_page(bv.view_after(bv.SHAPES_CHOSEN))
    page.get_by_test_id("pass").click()
    assert sent(page) == [{"type": "move", "move": "pass", "ply": 0}]


def test_match_invitations_pending(match_page):
    seats = [dict(SEATS[0]), dict(SEATS[1], invitation="pending", connected=False)]
    now_ms = int(time.time() * 1000)
    timers = {"turnDeadline": None, "turnSeconds": None, "afk": None, "disconnected": [],
              "inviteDeadline": now_ms + 90000}  # fmt: skip
    page = match_page(bv.view_after("Tic-Tac-Toe"), status="invited", seats=seats, timers=timers)
    assert page.get_by_test_id("status").text_content() == "Waiting for invitations: bob (pending)"
    assert page.get_by_test_id("turn").text_content() == "Waiting for players"
    assert page.get_by_test_id("turn-timer").text_content().startswith("Invitations expire in 1:")
    assert page.locator(".vf-cell.is-legal").count() == 0
    assert not page.get_by_test_id("resign").is_visible()


def test_match_nested_game_plays_from_the_page(match_page):
    view = bv.view_after("Ultimate-Tic-Tac-Toe", ["5/3"])
    seats = [dict(SEATS[0], color="blue"), dict(SEATS[1], color="red")]
    page = match_page(view, you=(1,), seats=seats)
    assert page.get_by_test_id("turn").text_content() == "Your move"
    index = view["legal_cells"][0]
    page.locator(f"[data-testid=cell][data-index='{index}']").click()
    assert sent(page) == [{"type": "move", "move": view["legal_moves"][0], "ply": 1}]


def test_pages_fit_a_phone(page, site, match_page):
    page.set_viewport_size({"width": 375, "height": 800})
    page = match_page(bv.view_after("Ultimate-Tic-Tac-Toe", ["5/3"]))
    board_box = page.get_by_test_id("board").bounding_box()
    svg_box = page.locator("[data-testid=board-svg]").bounding_box()
    assert svg_box["width"] <= 375
    assert svg_box["x"] >= 0
    seats_box = page.get_by_test_id("seats").bounding_box()
    assert seats_box["y"] > board_box["y"] + board_box["height"] - 1  # the panel under the board
    assert page.evaluate("document.documentElement.scrollWidth") <= 375


def test_match_keyboard_player_keeps_their_place(match_page):
    page = match_page(bv.view_after("Tic-Tac-Toe"))
    page.locator("[data-coords='2,2,1']").focus()
    page.keyboard.press("Enter")
    assert sent(page)[-1]["move"] == "2,2,1"
    # The opponent's turn: the space is taken, focus stays on the board (not the page).
    server(page, state_event(bv.play("Tic-Tac-Toe", ["2,2,1"]).view(0)))
    assert page.evaluate("document.activeElement.dataset.testid") == "board-svg"
    # Our turn again: focus comes back to the legal space nearest to where we were.
    after = bv.play("Tic-Tac-Toe", ["2,2,1", "1,1,1"])
    server(page, state_event(after.view(0)))
    focused = page.evaluate("document.activeElement.getAttribute('data-coords')")
    assert focused in ("2,1,1", "1,2,1", "3,2,1", "2,3,1")
    page.keyboard.press("Enter")
    assert sent(page)[-1] == {"type": "move", "move": focused, "ply": 2}


def test_3d_line_across_slices_marks_each_space(board):
    # Black fills x=1,y=1 up through the four z slices; white plays elsewhere.
    texts = ["1,1,1", "4,4,1", "1,1,2", "4,3,1", "1,1,3", "3,4,1", "1,1,4"]
    view = bv.view_after("Qubic-4", texts)
    assert view["outcome"]["reason"] == "victory"
    page = board(view)
    won = page.locator(".vf-cell[data-win='true']")
    assert {won.nth(i).get_attribute("data-coords") for i in range(won.count())} == {
        "1,1,1",
        "1,1,2",
        "1,1,3",
        "1,1,4",
    }
    assert page.locator("[data-testid=win-line]").count() == 0  # no slice holds the whole line


def test_quick_win_is_drawn_inside_its_block(board):
    state = bv.random_until("Ultimate-Quick", lambda s: s.is_terminal() and s.outcome.lines)
    view = bv.mover_view(state)
    page = board(view)
    units = page.locator("[data-testid=win-unit]")
    assert units.count() == 3
    captured = next(j for j, s in enumerate(view["blocks"][0]) if s in view["symbols"])
    bx, by = captured % 3, captured // 3
    for i in range(3):
        x, y = (int(v) - 1 for v in units.nth(i).get_attribute("data-point").split(","))
        cell = page.locator(f"[data-testid=cell][data-index='{(by * 3 + y) * 9 + bx * 3 + x}']")
        assert "is-win" in cell.get_attribute("class")
        assert cell.get_attribute("data-symbol") in view["symbols"]


def test_match_countdowns_follow_the_server_clock(match_page):
    page = match_page(bv.view_after("Tic-Tac-Toe"))
    now_ms = page.evaluate("Date.now()")
    # The server's clock is 10 minutes ahead of this browser's; its deadline is 20 s away.
    server_now = now_ms + 600_000
    timers = {"turnDeadline": server_now + 20_000, "turnSeconds": 30, "afk": None,
              "disconnected": [], "inviteDeadline": None}  # fmt: skip
    event = state_event(bv.view_after("Tic-Tac-Toe"), timers=timers)
    server(page, {**event, "serverTime": server_now})
    assert page.get_by_test_id("turn-timer").text_content() in (
        "Time for this move: 0:20",
        "Time for this move: 0:19",
    )
