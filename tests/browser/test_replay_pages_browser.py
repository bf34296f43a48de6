"""The replay page fetches further frames a page at a time as one steps (issue 39: a long
game's every view at once was an 83 MB page); the JSON pages are served by a route."""

import json
from urllib.parse import parse_qs, urlparse

from tests.browser.test_board_render import (  # noqa: F401 (fixtures)
    open_page,
    page,
    render_page,
    replay_data,
    site,
)

MOVES = ["1,1,1", "1,2,1", "2,2,1", "1,3,1", "3,3,1"]


def test_replay_fetches_pages_of_frames_as_it_steps(page, site):  # noqa: F811
    data = replay_data("Tic-Tac-Toe", MOVES)
    every = data["frames"]
    data.update(frames=every[:2], total=len(every), pageSize=2, framesUrl="/frames/")
    asked = []

    def serve(route):
        start = int(parse_qs(urlparse(route.request.url).query)["start"][0])
        asked.append(start)
        body = {"start": start, "total": len(every), "frames": every[start : start + 2]}
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    page.route("**/frames/**", serve)
    open_page(page, site, "replay-paged.html", render_page("play/replay.html", {"replay": data}))
    pieces = page.locator("#vf-board .vf-piece")
    text = page.get_by_test_id("move-text")
    assert page.get_by_test_id("position").text_content() == "Position 0 of 5"
    assert page.locator("[data-testid=move-item]").count() == 2  # what is loaded
    page.get_by_test_id("next").click()
    assert pieces.count() == 1
    page.get_by_test_id("next").click()  # frame 2: fetched
    page.wait_for_function("document.querySelectorAll('#vf-board .vf-piece').length === 2")
    assert text.text_content() == "2. bob: left (1,2,1)"
    assert asked == [2]
    page.get_by_test_id("last").click()  # frame 5: its page fetched
    page.wait_for_function("document.querySelectorAll('#vf-board .vf-piece').length === 5")
    assert asked == [2, 4] and page.get_by_test_id("next").is_disabled()
    assert page.get_by_test_id("outcome").is_visible()
    page.keyboard.press("ArrowLeft")  # frame 4: loaded already
    assert pieces.count() == 4 and asked == [2, 4]
    assert page.locator("[data-testid=move-item]").count() == 6
