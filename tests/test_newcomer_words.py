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


# --- Related games in words -----------------------------------------------------------------


def catalogue() -> dict[str, dict]:
    import json

    out = {}
    for path in sorted((BASE / "variants/catalogue/games").glob("*.json")):
        doc = json.loads(path.read_text())
        out[doc.pop("name")] = doc
    return out


@pytest.mark.parametrize(
    "game, other, said",
    [
        ("3on5sq", "Tic-Tac-Toe", "a 5×5 board instead of 3×3"),
        ("3P-Notakto", "3P-Misere-Notakto", "making 3 in a row loses instead of winning"),
        ("3P-Misere-Notakto", "3P-Notakto", "making 3 in a row wins instead of losing"),
        ("9-Holes", "Tapatan", "diagonal lines do not count"),
        ("Tapatan", "Achi", "3 pieces each instead of 4"),
        ("Ultimate-Tic-Tac-Toe", "TacticToy-3D", "15 seconds a turn instead of no time limit"),
        ("Ultimate-Open", "Ultimate-Tic-Tac-Toe", "you may play in any unfinished small board"),
        (
            "3P-LeastLoses-3x4",
            "3P-MostWins-3x4",
            "when nobody can move, the shortest longest line loses instead of the longest "
            "line wins",
        ),
    ],
)
def test_a_catalogue_game_s_difference_as_a_person_says_it(game, other, said):
    from variants.related_words import differences

    games = catalogue()
    assert said in differences(games[game], games[other])


def test_a_longer_line_and_a_bigger_board_in_one_sentence():
    from variants.related_words import sentence

    ttt = {"board": {"type": "squares", "size": [3, 3, 1]}}
    four = {"board": {"type": "squares", "size": [4, 4, 1]}, "turn_checks": [{"k": 4}]}
    assert sentence("Three", four, ttt) == (
        "Like Three, but a 4×4 board instead of 3×3 and 4 in a row to win instead of 3"
    )
    assert sentence("Three", ttt, ttt) == "Like Three, with the same rules in other words"
    assert sentence("Broken", {"board": {"type": "nonsense"}}, ttt).startswith("Like Broken")


def test_no_related_game_reads_as_a_raw_rule_diff():
    """Every catalogue game against its three nearest: words, never the summary's
    tokens ("3x3x1 hash", "2-same-color-in-a-row", "not: …")."""
    from variants.analysis.related import nearest

    games = catalogue()
    others = [(i, name, doc, "") for i, (name, doc) in enumerate(games.items())]
    for name, doc in games.items():
        rest = [o for o in others if o[1] != name]
        for near in nearest(doc, "", rest):
            words = near["words"]
            assert words.startswith(f"Like {near['name']}, but ") and len(words) < 400, words
            said = words.removeprefix(f"Like {near['name']}, but ")
            assert not re.search(r"\dx\d|same-color|not: |Played on|/turn", said), words
