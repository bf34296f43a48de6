"""Issue 38, "Fits the screen": at a laptop's 1366x768 and a phone's 390x844, Resign on the
dilemma games, the RockPaperScissors piece chooser (its Cancel too) and the Ultimate replay
controls are inside the viewport: no sideways scroll, nothing below the fold to find."""

from __future__ import annotations

from pathlib import Path

import pytest

from play import services
from tests.leaderboard_helpers import finish
from tests.play_helpers import human, rule_set, start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [(1366, 768), (390, 844)]
SHOTS = Path("/tmp/shots/factorylabels")


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def off_screen(page, selector: str, top: bool = True) -> str:
    """'' when the element's box is inside the viewport (the page scrolled to its top,
    unless ``top`` is false: a chooser is measured where its click left the page), else
    where it is."""
    if top:
        page.evaluate("window.scrollTo(0, 0)")
    box = page.locator(selector).first.bounding_box()
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    if box is None:
        return f"{selector}: not shown"
    inside = (
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= width + 0.5
        and box["y"] + box["height"] <= height + 0.5
    )
    return "" if inside else f"{selector}: {box} outside {width}x{height}"


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def open_match(person, game: str, width: int, height: int, tag: str):
    x = person(f"x{tag}", width=width, height=height)
    o = person(f"o{tag}")
    match = start(rule_set(game), x.user, x.user, o.user)
    services.answer_invitation(match.pk, o.user, accept=True)
    x.goto(match.get_absolute_url())
    x.wait_for_selector("[data-testid=board] [data-testid=cell]")
    x.wait_for_selector("[data-testid=resign]", state="visible")
    return x


@pytest.mark.parametrize("width,height", SIZES)
def test_resign_and_the_chooser_are_on_screen(person, width, height):
    problems = []
    for game in ("StagHunt", "RockPaperScissors"):
        page = open_match(person, game, width, height, f"{game[:4]}{width}")
        shoot(page, f"{game}-{width}x{height}")
        problems.append(off_screen(page, "[data-testid=resign]"))
        assert no_sideways_scroll(page), game
        if game == "RockPaperScissors":
            page.locator("[data-testid=board] [data-testid=cell]").first.click()
            page.wait_for_selector("[data-testid=chooser]")
            shoot(page, f"{game}-chooser-{width}x{height}")
            problems.append(off_screen(page, "[data-testid=chooser]", top=False))
            problems.append(off_screen(page, ".vf-choice-cancel", top=False))
            assert no_sideways_scroll(page), game
    assert [p for p in problems if p] == []


@pytest.mark.parametrize("width,height", SIZES)
def test_the_ultimate_replay_controls_are_on_screen(person, width, height):
    page = person(f"r{width}", width=width, height=height)
    me = human(page.user)
    other = human(person(f"s{width}").user)
    moves = [(0, "5/3", 10), (1, "3/5", 10), (0, "5/7", 10)]
    over = finish(rule_set("Ultimate-Tic-Tac-Toe"), [me, other], ["win", "loss"], moves=moves)
    page.goto(f"/matches/{over.pk}/replay/")
    page.wait_for_selector("[data-testid=next]")
    shoot(page, f"Ultimate-replay-{width}x{height}")
    problems = [off_screen(page, f"[data-testid={t}]") for t in ("next", "position")]
    assert [p for p in problems if p] == []
    assert no_sideways_scroll(page)
