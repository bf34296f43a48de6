"""Issue 38: the matches list ends a match in the match page's words; related games say
their difference as a person would."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from play.endings import REASONS, ending_words

BASE = Path(__file__).resolve().parent.parent


def test_the_list_s_reasons_are_the_match_page_s():
    js = (BASE / "static/js/board_notation.js").read_text()
    block = js[js.index("const REASONS = {") : js.index("};", js.index("const REASONS = {"))]
    pairs = dict(re.findall(r'^\s*"?([\w-]+)"?: "([^"]+)",', block, re.M))
    assert pairs == REASONS


def test_an_ending_in_words():
    stalemate = {"reason": "stalemate", "detail": "Most pieces wins"}
    assert ending_words(stalemate) == "No moves left · Most pieces wins"
    assert ending_words({"reason": "resignation", "detail": "Seat 1 left (resignation)"}) == (
        "Resignation"
    )
    assert ending_words({"reason": "strange-end"}) == "strange end"
    assert ending_words(None) == "" and ending_words({"reason": ""}) == ""


@pytest.mark.django_db
def test_the_matches_list_says_no_moves_left_not_stalemate(client, creator):
    from tests.api_helpers import play_out
    from tests.play_helpers import bot, rule_set, start

    stag = rule_set("StagHunt")
    match = play_out(start(stag, creator, bot("Ann", "random"), bot("Bob", "random")))
    assert match.outcome["reason"] == "stalemate"
    client.force_login(creator)
    html = client.get("/matches/").content.decode()
    ending = re.search(r'data-testid="match-ending">([^<]+)<', html).group(1)
    assert ending == f"No moves left · {match.outcome['detail']}"
    assert "stalemate" not in html.lower()
