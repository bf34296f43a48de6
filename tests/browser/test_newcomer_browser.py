"""A newcomer's first ten minutes (issue 22), in Chromium: sign up, find Play at once, play
a standard bot that answers within seconds, save a game and be told so, and a match page
that shows board, clock, players and actions together at laptop and phone sizes, with the
rating change at game over."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from accounts.services import DEFAULT_OPPONENT, standard_bots
from play.models import Match
from tests.browser.conftest import screenshot
from tests.play_helpers import rule_set, start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_sign_up_and_play_a_bot_from_the_navbar(anonymous):
    ttt = rule_set("Tic-Tac-Toe")
    page = anonymous
    page.goto("/")
    page.get_by_role("link", name="Sign up", exact=True).click()
    page.fill("input[name=username]", "newbie")
    page.fill("input[name=password1]", "a-Long-pass-4321")
    page.fill("input[name=password2]", "a-Long-pass-4321")
    with page.expect_navigation():
        page.click("main button[type=submit]")
    assert page.url.endswith("/")  # the play form, not a list without Play buttons
    expect(page.locator(".messages")).to_contain_text("a bot answers at once")
    expect(page.get_by_test_id("start-form")).to_be_visible()

    page.get_by_test_id("nav-play").click()
    page.wait_for_url(re.compile(r"/play/$"))
    medium = next(b for b in standard_bots() if b.name == DEFAULT_OPPONENT)
    assert page.input_value("[data-testid=seat-2]") == f"player:{medium.pk}"
    page.select_option("[data-testid=start-game]", str(ttt.pk))
    with page.expect_navigation():
        page.click("[data-testid=play-new]")
    expect(page.get_by_test_id("turn")).to_have_text("Your move")
    page.locator(".vf-cell.is-legal").first.click()
    # The bot answers by itself, within a few seconds: it is our move again.
    expect(page.get_by_test_id("status")).to_contain_text("move 3", timeout=8_000)
    expect(page.get_by_test_id("turn")).to_have_text("Your move")
    match = Match.objects.get()
    assert [s.player.name for s in match.seats.order_by("index")][1] == DEFAULT_OPPONENT


def test_every_game_list_and_page_offers_play(person):
    c4 = rule_set("Connect4")
    page = person("carla", width=390, height=844)
    page.goto("/games/")
    page.get_by_role("link", name="Play Connect4").click()
    page.wait_for_url(re.compile(rf"/play/\?game={c4.pk}$"))
    assert page.input_value("[data-testid=start-game]") == str(c4.pk)

    page.goto(f"/games/{c4.pk}/")
    expect(page.get_by_test_id("play-game")).to_be_visible()
    page.goto(f"/games/{c4.pk}/leaderboard/")
    expect(page.get_by_test_id("play-game")).to_be_visible()
    # The standard bots are on the leaderboard as AI, ready to play.
    for bot in standard_bots():
        row = page.locator(f"[data-testid=row][data-player='{bot.pk}']")
        expect(row.get_by_test_id("ai-badge")).to_have_text("AI")
        expect(row.get_by_test_id("play-new-game")).to_have_count(1)
    screenshot(page, "newcomer-leaderboard-phone")


def test_saving_a_game_confirms_it_with_a_play_link(person):
    page = person("carla")
    page.goto("/games/new/")
    page.fill("#id_name", "MyFirstGame")
    page.select_option("#id_board_type", "squares")
    page.wait_for_load_state("networkidle")
    page.select_option("#id_size_x", "4")
    page.wait_for_load_state("networkidle")
    with page.expect_navigation():
        page.click("#fc-save")
    message = page.locator(".messages .alert-success")
    expect(message).to_contain_text("Saved MyFirstGame — play it now.")
    with page.expect_navigation():
        message.get_by_role("link", name="play it now").click()
    assert page.input_value("[data-testid=start-game]") != ""


def test_factory_warns_before_saving_a_game_nobody_can_win(person):
    page = person("carla")
    page.goto("/games/new/")
    page.fill("#id_name", "Hopeless")
    expect(page.get_by_test_id("game-warnings")).to_have_count(0)
    page.click("#fc-delete-check-0")
    warning = page.get_by_test_id("game-warnings")
    expect(warning).to_be_visible()
    expect(warning).to_contain_text("every match is a draw")
    expect(page.get_by_test_id("game-warnings-reminder")).to_be_visible()  # by Save
    with page.expect_navigation():
        page.click("#fc-save")
    saved = page.get_by_test_id("game-warnings")
    expect(saved).to_be_visible()  # above the rules, not inside "Show as factory"
    expect(saved).to_contain_text("This game is allowed, but:")
    expect(saved).to_contain_text("every match is a draw")


def _inside(page, testid: str) -> None:
    box = page.get_by_test_id(testid).bounding_box()
    view = page.viewport_size
    assert box is not None, testid
    assert box["y"] >= 0 and box["y"] + box["height"] <= view["height"] + 1, (testid, box, view)
    assert box["x"] >= 0 and box["x"] + box["width"] <= view["width"] + 1, (testid, box, view)


@pytest.mark.parametrize("size", [(1366, 768), (1366, 900), (390, 844)])
def test_board_clock_players_and_actions_fit_the_screen(person, size):
    timed = rule_set(
        "Connect4-Timed",
        board={"type": "stacks", "size": [7, 1, 6]},
        turn_checks=[{"k": 4}],
        seconds_per_turn=120,
    )
    width, height = size
    page = person("carla", width=width, height=height)
    medium = next(b for b in standard_bots() if b.name == DEFAULT_OPPONENT)
    match = start(timed, page.user, page.user, medium)
    page.goto(match.get_absolute_url())
    expect(page.get_by_test_id("turn-timer")).to_contain_text("Time for this move")
    for testid in ("board", "turn", "turn-timer", "seats", "resign"):
        _inside(page, testid)
    screenshot(page, f"newcomer-match-{width}x{height}")

    page.get_by_test_id("resign").click()
    page.get_by_test_id("resign-confirm").click()
    expect(page.get_by_test_id("game-over")).to_be_visible()
    changes = page.get_by_test_id("rating-change")
    expect(changes).to_have_count(2, timeout=10_000)
    expect(changes.first).to_contain_text("carla: rating 1000 → ")
    expect(page.get_by_test_id("game-over-detail")).to_contain_text("carla left the game")
    _inside(page, "game-over")
    again = f"/play/?game={timed.pk}&seat2=player:{medium.pk}"  # the same bot, one click
    expect(page.get_by_test_id("play-new")).to_have_attribute("href", again)
    screenshot(page, f"newcomer-over-{width}x{height}")


def test_evolution_chart_has_round_axes_hover_values_a_legend_and_zoom(person):
    from tests.leaderboard_helpers import finish
    from tests.play_helpers import bot

    c4 = rule_set("Connect4")
    strong, weak = bot("Strong", "medium"), bot("Weak", "easy")
    for n in range(40):
        finish(c4, [strong, weak], ["win", "loss"] if n % 4 else ["loss", "win"])
    page = person("carla", width=1366, height=768)
    page.goto(f"/games/{c4.pk}/evolution/?players={strong.pk}&players={weak.pk}")
    page.wait_for_function("window.vfCharts && window.vfCharts.length === 1")
    chart = "window.vfCharts[0]"
    assert page.evaluate(f"{chart}.legend.legendItems.map((i) => i.text)") == ["Strong", "Weak"]
    for axis in ("x", "y"):
        ticks = page.evaluate(f"{chart}.scales.{axis}.ticks.map((t) => t.value)")
        steps = {round(b - a, 6) for a, b in zip(ticks, ticks[1:], strict=False)}
        assert len(steps) == 1, (axis, ticks)  # evenly spaced: no 0, 25, 50, 76, 101
        step = steps.pop()
        mantissa = step / 10 ** len(str(int(step))[1:])
        assert mantissa in (1, 2, 2.5, 5) and all(t % step == 0 for t in ticks), (axis, ticks)
    assert page.evaluate(f"{chart}.options.scales.x.title.text") == "Rated matches played"

    # Hover a point: the tooltip names the match, the player and the value.
    box = page.get_by_test_id("chart-canvas").bounding_box()
    x, y = page.evaluate(
        f"(() => {{ const p = {chart}.getDatasetMeta(0).data[10]; return [p.x, p.y]; }})()"
    )
    page.mouse.move(box["x"] + x, box["y"] + y)
    page.wait_for_function(f"{chart}.tooltip.opacity > 0")
    title = page.evaluate(f"{chart}.tooltip.title")
    lines = page.evaluate(f"{chart}.tooltip.body.flatMap((b) => b.lines)")
    assert title == ["After match 10"], title
    assert any(line.strip().startswith("Strong: ") for line in lines), lines

    # Drag across the chart to zoom in; Reset zoom shows the whole history again.
    area = page.evaluate(
        f"(() => {{ const a = {chart}.chartArea; return [a.left, a.right, a.top, a.bottom]; }})()"
    )
    left, right, top, bottom = area
    page.mouse.move(box["x"] + left + (right - left) * 0.2, box["y"] + (top + bottom) / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + left + (right - left) * 0.5, box["y"] + (top + bottom) / 2, steps=8)
    page.mouse.up()
    page.wait_for_function(f"{chart}.getZoomLevel() > 1.5")
    assert page.evaluate(f"{chart}.scales.x.min") > 0
    page.get_by_test_id("reset-zoom").click()
    page.wait_for_function(f"{chart}.scales.x.min === 0 && {chart}.getZoomLevel() < 1.01")
    screenshot(page, "newcomer-evolution")
