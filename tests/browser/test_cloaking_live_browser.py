"""3Blotto13 (issue 20) live: two people, each in a browser, daphne serving the site and
every move through the websocket. Each sees only their own stacks until the end; then
both armies are shown to both."""

from __future__ import annotations

import pytest

from play import services
from play.models import Match
from tests.play_helpers import rule_set, start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MY_TURN = (
    "document.querySelector('[data-testid=board] [data-testid=cell][data-move]') &&"
    " !document.querySelector('#vf-board').classList.contains('is-pending')"
)
OVER = "!document.querySelector('#vf-game-over').hidden"
COLORS = "() => [...document.querySelectorAll('#vf-board .vf-piece')].map(p => [...p.classList].find(c => c.startsWith('vf-c-')))"  # noqa: E501
BLACK = [0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 0, 0, 1]  # 6, 4, 3 soldiers
WHITE = [2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 0, 0]  # 2, 5, 6: white wins boards 2 and 3


def test_two_people_play_3blotto13_each_seeing_only_their_own_stacks(person):
    alice, bob = person("alice"), person("bob")
    match = start(rule_set("3Blotto13"), alice.user, alice.user, bob.user)
    services.answer_invitation(match.pk, bob.user, accept=True)
    pages = [alice, bob]
    for page in pages:
        page.goto(match.get_absolute_url())
        page.wait_for_selector("[data-testid=board] [data-testid=cell]")
        assert page.locator(".vf-fog").count() == 6  # every stack under fog
    own = ["vf-c-black", "vf-c-white"]
    for turn in range(26):
        seat = turn % 2
        page = pages[seat]
        page.wait_for_function(MY_TURN)
        field = (BLACK if seat == 0 else WHITE)[turn // 2]
        move = f"b{field + 1}:{seat + 1},1"
        page.locator(f'[data-testid=board] [data-testid=cell][data-move="{move}"]').click()
        page.wait_for_function(f"!({MY_TURN}) || {OVER}")
        if turn < 25:
            for viewer, each in enumerate(pages):
                shown = each.evaluate(COLORS)
                assert set(shown) <= {own[viewer]}, (turn, viewer, shown)
    for page in pages:
        page.wait_for_function(OVER)
        page.wait_for_function("document.querySelectorAll('#vf-board .vf-piece').length === 26")
        assert sorted(set(page.evaluate(COLORS))) == own
    match = Match.objects.get(pk=match.pk)
    assert match.status == "finished", match.outcome
    assert match.outcome["results"] == ["loss", "win"], match.outcome
