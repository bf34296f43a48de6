"""Live matches in headless Chromium: a browser context per person, daphne serving the
site (its timekeeper moves the bots and Chaos), every move through the websocket."""

from __future__ import annotations

import time

import pytest
from django.conf import settings
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from play import services
from play.models import Match
from tests.play_helpers import bot, rule_set, start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OVER = "!document.querySelector('#vf-game-over').hidden"
MY_TURN = (
    "document.querySelector('[data-testid=board] [data-testid=cell][data-move]') &&"
    " !document.querySelector('#vf-board').classList.contains('is-pending')"
)


def open_match(page, match):
    page.goto(match.get_absolute_url())
    page.wait_for_selector("[data-testid=board] [data-testid=cell]")
    return page


def click(page, move: str):
    page.locator(f'[data-testid=board] [data-testid=cell][data-move="{move}"]').click()


def pieces(page) -> int:
    return page.locator("[data-testid=board] .vf-piece").count()


def follow(page, selector: str, url: str, tries: int = 3) -> None:
    """Click a link and wait for its page. The game-over card scrolls itself into view
    (smoothly, on a short screen) as it first shows: on a loaded machine a click can
    land where the link was a frame before, and no page comes (seen once in a full CI
    run: 10 s and no navigation). A link that leads elsewhere still fails."""
    for _ in range(tries):
        page.locator(selector).click()
        try:
            page.wait_for_url(url, timeout=4000)
            return
        except PlaywrightTimeout:
            continue
    raise AssertionError(f"{selector} never led to {url} (at {page.url})")


def over_reason(page) -> str:
    page.wait_for_function(OVER)
    return page.locator("[data-testid=game-over]").get_attribute("data-reason")


def play_until_over(pages, deadline_s: float = 60):
    """Each page plays its first legal move whenever it is its turn, until all see the end."""
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        if all(p.evaluate(OVER) for p in pages):
            return
        for page in pages:
            if not page.evaluate(OVER) and page.evaluate(MY_TURN):
                # A dispatched click: the board may re-render at once (a bot's or Chaos's
                # answer), and a normal click would then wait for the next legal cell.
                page.locator(
                    "[data-testid=board] [data-testid=cell][data-move]"
                ).first.dispatch_event("click")
                try:
                    page.wait_for_function(f"!({MY_TURN}) || {OVER}", timeout=3000)
                except PlaywrightTimeout:
                    pass  # the click fell between two renders: try again
        time.sleep(0.05)
    raise AssertionError("the match did not end in time")


def two_humans(person, rules):
    x, o = person("xena"), person("oscar")
    match = start(rules, x.user, x.user, o.user)
    services.answer_invitation(match.pk, o.user, accept=True)
    return match, open_match(x, match), open_match(o, match)


def test_two_humans_play_tic_tac_toe_to_a_win(person):
    match, x, o = two_humans(person, rule_set("Tic-Tac-Toe"))
    for page, move in [(x, "1,1,1"), (o, "1,2,1"), (x, "2,1,1"), (o, "2,2,1"), (x, "3,1,1")]:
        click(page, move)
    for page in (x, o):
        assert over_reason(page) == "victory"
        assert "xena" in page.locator("[data-testid=game-over-winners]").inner_text()
        assert page.locator("[data-testid=win-line]").count() >= 1
    assert Match.objects.get(pk=match.pk).outcome["winner"] == 0


def test_two_humans_play_tic_tac_toe_to_a_draw(person):
    match, x, o = two_humans(person, rule_set("Tic-Tac-Toe"))
    moves = ["1,1,1", "2,1,1", "3,1,1", "2,2,1", "2,3,1", "3,2,1", "1,2,1", "1,3,1", "3,3,1"]
    for ply, move in enumerate(moves):
        click((x, o)[ply % 2], move)
    for page in (x, o):
        assert over_reason(page) in ("draw", "stalemate")
        assert "No winner" in page.locator("[data-testid=game-over-winners]").inner_text()
    assert Match.objects.get(pk=match.pk).outcome["winner"] is None


def test_a_human_plays_connect4_against_a_bot_to_the_end(person):
    human = person("hugo")
    match = start(rule_set("Connect4"), human.user, human.user, bot("Medium", "medium"))
    open_match(human, match)
    play_until_over([human], deadline_s=90)
    match = Match.objects.get(pk=match.pk)
    assert match.status == "finished"
    reason = over_reason(human)
    assert reason == match.outcome["reason"]
    text = human.locator("[data-testid=game-over-winners]").inner_text()
    winner = match.outcome["winner"]
    assert ("hugo" in text) == (winner == 0) and ("Medium" in text) == (winner == 1)


def test_two_humans_against_chaos(person):
    rules = rule_set(
        "Chaos-4x4", players="2-vs-chaos", board={"type": "squares", "size": [4, 4, 1]}
    )
    match, a, b = two_humans(person, rules)
    play_until_over([a, b])
    match = Match.objects.get(pk=match.pk)
    assert match.moves.filter(seat=2).exists()  # Chaos moved, on the server
    shown = {p.locator("[data-testid=game-over-winners]").inner_text() for p in (a, b)}
    assert len(shown) == 1  # everyone is told the same outcome
    assert {over_reason(p) for p in (a, b)} == {match.outcome["reason"]}


def test_partners_game_ends_for_every_seat(person):
    rules = rule_set(
        "Partners-5x5",
        players="partners",
        colors="partners-share",
        board={"type": "squares", "size": [5, 5, 1]},
    )
    people = [person(n) for n in ("ann", "bob", "cid", "dee")]
    match = start(rules, people[0].user, *[p.user for p in people])
    for p in people[1:]:
        services.answer_invitation(match.pk, p.user, accept=True)
    pages = [open_match(p, match) for p in people]
    play_until_over(pages)
    match = Match.objects.get(pk=match.pk)
    if match.outcome["winners"]:
        assert match.outcome["winners"] in ([0, 2], [1, 3])  # a team wins together
        names = [people[i].user.username for i in match.outcome["winners"]]
        for page in pages:
            text = page.locator("[data-testid=game-over-winners]").inner_text()
            assert all(name in text for name in names)
    assert {over_reason(p) for p in pages} == {match.outcome["reason"]}


def test_a_reload_in_mid_game_restores_the_board(person):
    match, x, o = two_humans(person, rule_set("Tic-Tac-Toe"))
    click(x, "2,2,1")
    click(o, "1,1,1")
    x.wait_for_function(MY_TURN)
    assert pieces(x) == 2
    x.reload()
    x.wait_for_selector("[data-testid=board] [data-testid=cell]")
    x.wait_for_function(MY_TURN)
    assert pieces(x) == 2
    click(x, "3,3,1")
    o.wait_for_function(MY_TURN)
    assert pieces(o) == 3


def test_resign_with_confirmation_and_replay(person):
    match, x, o = two_humans(person, rule_set("Tic-Tac-Toe"))
    click(x, "2,2,1")
    o.wait_for_function(MY_TURN)
    o.locator("[data-testid=resign]").click()
    o.locator("[data-testid=resign-confirm]").click()  # a confirmation comes first
    assert over_reason(x) == "resignation"
    follow(x, "[data-testid=replay-link]", f"**/matches/{match.pk}/replay/")
    x.wait_for_selector("[data-testid=board] [data-testid=cell]")
    assert pieces(x) in (0, 1)


def test_an_invitation_is_accepted_from_the_match_page(person):
    x, o = person("inez"), person("omar")
    match = start(rule_set("Tic-Tac-Toe"), x.user, x.user, o.user)
    open_match(x, match)
    assert x.locator("[data-testid=status]").get_attribute("data-status") == "invited"
    o.goto(match.get_absolute_url())
    o.locator("[data-testid=accept-invitation]").click()
    x.wait_for_function(MY_TURN)  # the creator's page starts without a reload
    click(x, "1,1,1")
    o.wait_for_function(MY_TURN)


def test_ultimate_against_a_bot_to_the_end(person):
    human = person("uma")
    match = start(rule_set("Ultimate-Tic-Tac-Toe"), human.user, human.user, bot("Easy", "easy"))
    open_match(human, match)
    assert human.locator("[data-testid=board] [data-testid=cell]").count() == 81
    play_until_over([human], deadline_s=120)
    match = Match.objects.get(pk=match.pk)
    assert match.status == "finished"
    assert over_reason(human) == match.outcome["reason"]
    notations = list(match.moves.values_list("notation", flat=True))
    assert all(len(n.split("/")) == 2 for n in notations)  # block/cell, level by level


@pytest.mark.skipif(
    not settings.REDIS_URL,
    reason="the invitation is made in the test process: only a Redis layer reaches daphne",
)
def test_an_invitation_arrives_while_browsing(person):
    x, o = person("ivan"), person("olga")
    o.goto("/games/")
    o.wait_for_selector("body[data-lobby=open]", state="attached")  # the lobby socket is open
    match = start(rule_set("Tic-Tac-Toe"), x.user, x.user, o.user)
    toast = o.locator("[data-testid=invitation-toast]")
    toast.wait_for()
    assert "ivan invites you" in toast.inner_text()
    toast.locator("a").click()
    o.wait_for_url(f"**{match.get_absolute_url()}")
    o.locator("[data-testid=accept-invitation]").click()
    o.wait_for_selector("[data-testid=board] [data-testid=cell]")


def test_a_crew_takes_turns_on_an_ultimate_board(person):
    """Ann plays X alone; Bob and Cat share O and take its turns in order (seed 000's
    in-turn crew order): the page of the crewmate who is not due says who is, and offers
    no move."""
    from play.services import SeatChoice, create_match
    from tests.play_helpers import human

    ann, bob, cat = person("ann"), person("bob"), person("cat")
    choices = [
        SeatChoice("player", human(ann.user)),
        SeatChoice("player", human(bob.user), (human(cat.user),)),
    ]
    match = create_match(rule_set("Ultimate-Tic-Tac-Toe"), choices, ann.user, seed=5)
    for p in (bob, cat):
        services.answer_invitation(match.pk, p.user, accept=True)
    pages = [open_match(p, match) for p in (ann, bob, cat)]
    ann_page, bob_page, cat_page = pages
    turn_text = "document.querySelector('[data-testid=turn]').textContent"
    for due, idle, name in [(bob_page, cat_page, "bob"), (cat_page, bob_page, "cat")]:
        ann_page.wait_for_function(MY_TURN)
        ann_page.locator("[data-testid=board] [data-testid=cell][data-move]").first.click()
        due.wait_for_function(MY_TURN)
        idle.wait_for_function(f"{turn_text}.includes('plays it')")
        turn = idle.locator("[data-testid=turn]").inner_text()
        assert f"Your team's move: {name} plays it" in turn
        assert idle.locator("[data-testid=board] [data-testid=cell][data-move]").count() == 0
        crew = idle.locator("[data-testid=seat][data-seat='1'] [data-testid=crew]")
        assert crew.locator("[data-due]").inner_text() == name
        due.locator("[data-testid=board] [data-testid=cell][data-move]").first.click()
        idle.wait_for_function(f"!{turn_text}.includes('plays it')")
    assert [m.seat for m in Match.objects.get(pk=match.pk).moves.order_by("ply")] == [0, 1, 0, 1]


def test_a_big_board_can_be_zoomed_on_a_phone(person):
    phone = person("pia", width=390, height=844)
    big = start(rule_set("TacticToy-3D"), phone.user, phone.user, bot())
    open_match(phone, big)
    zoom = phone.locator("[data-testid=zoom]")
    zoom.click()  # 729 cells: the button shows on a phone
    assert zoom.get_attribute("aria-pressed") == "true"
    wrap = phone.locator("[data-testid=board]")
    assert wrap.evaluate("node => node.scrollWidth > node.clientWidth * 2")
    zoom.press("Enter")  # the keyboard works too: back to the whole board
    assert zoom.get_attribute("aria-pressed") == "false"
    assert wrap.evaluate("node => node.scrollWidth <= node.clientWidth + 1")
    small = start(rule_set("Tic-Tac-Toe"), phone.user, phone.user, bot())
    open_match(phone, small)
    assert not zoom.is_visible()
