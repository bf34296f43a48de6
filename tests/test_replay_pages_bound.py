"""A replay page builds a bounded number of frames (issue 39: one anonymous GET of a
36,000-move game built a view per move, an 83 MB page): the page holds the first
REPLAY_PAGE_FRAMES frames and a JSON endpoint the others, a page at a time."""

import json
import random

import pytest
from django.utils import timezone

from gamecore.engine import compile_game
from play.recording import PlayedGame, PlayedMove, record_game
from play.replay import frame_window, frames
from tests.play_helpers import bot, rule_set
from tests.test_endless_games import ENDLESS

pytestmark = pytest.mark.django_db
PAGE = 50


@pytest.fixture
def long_match(settings):
    """A finished game of 1,800 moves (the endless breeder to its move limit)."""
    settings.REPLAY_PAGE_FRAMES = PAGE
    rules = rule_set("Endless", **{k: v for k, v in ENDLESS.items() if k != "name"})
    state = compile_game(rules.document).new_initial_state(seed=0)
    rng, moves = random.Random(0), []
    while not state.is_terminal():
        seat = state.to_move()[0]
        move = state.random_move(rng)
        state.apply(seat, move)
        moves.append(PlayedMove(seat, str(move)))
    assert len(moves) == 1800
    now = timezone.now()
    played = PlayedGame(seed=0, moves=moves, outcome=state.outcome, started=now, finished=now)
    return record_game(rules, [bot("A"), bot("B")], None, played)


def page_data(client, url: str) -> dict:
    html = client.get(url).content.decode()
    return json.loads(
        html.split('id="replay-data" type="application/json">')[1].split("</script>")[0]
    )


def test_the_page_holds_one_page_of_frames_and_says_how_many_there_are(client, long_match):
    response = client.get(f"/matches/{long_match.pk}/replay/")
    assert response.status_code == 200 and len(response.content) < 500_000
    data = page_data(client, f"/matches/{long_match.pk}/replay/")
    assert len(data["frames"]) == PAGE and data["total"] == 1801
    assert data["pageSize"] == PAGE
    assert data["framesUrl"] == f"/matches/{long_match.pk}/replay/frames/"
    assert [f["ply"] for f in data["frames"]] == list(range(PAGE))


def test_further_frames_come_a_page_at_a_time_as_json(client, long_match):
    url = f"/matches/{long_match.pk}/replay/frames/"
    page = client.get(url, {"start": "1780"}).json()
    assert page["start"] == 1780 and page["total"] == 1801
    assert [f["ply"] for f in page["frames"]] == list(range(1780, 1801))  # the last 21
    assert all(f["view"]["boards"] for f in page["frames"])
    assert client.get(url, {"start": "100"}).json()["frames"][0]["ply"] == 100
    assert client.get(url, {"start": "5000"}).json()["frames"] == []


@pytest.mark.parametrize("start", ["abc", "-1", "1.5", "", "1" * 12, "٣"])
def test_a_bad_start_is_a_clear_400(client, long_match, start):
    response = client.get(f"/matches/{long_match.pk}/replay/frames/", {"start": start})
    assert response.status_code == 400
    assert response.json() == {"error": "start: a frame number, 0 or more"}


def test_a_window_is_the_same_frames_as_the_whole_replay(long_match):
    whole = frames(long_match)
    assert len(whole) == 1801
    for start in (0, 7, 1790):
        window = frame_window(long_match, (), start, 13)
        assert window["frames"] == whole[start : start + 13] and window["total"] == 1801


def test_a_first_page_replays_its_own_rows_only(long_match, monkeypatch):
    from play import replay

    applied = []
    original = replay.apply_record
    monkeypatch.setattr(replay, "apply_record", lambda *a: applied.append(1) or original(*a))
    window = frame_window(long_match, (), 0, PAGE)
    assert window["total"] == 1801 and len(window["frames"]) == PAGE
    assert len(applied) < PAGE  # not the 1,800 rows of the game


def test_windows_of_a_game_of_rounds_are_its_frames(settings):
    """Simultaneous rounds: several rows make one frame, so the whole log is replayed."""
    rules = rule_set("Rounds", board={"type": "squares", "size": [4, 4, 1]},
                     phases=[{"order": "simultaneous"}])  # fmt: skip
    state = compile_game(rules.document).new_initial_state(seed=0)
    rng, moves = random.Random(0), []
    while not state.is_terminal():
        for seat in state.to_move():
            move = rng.choice(state.legal_moves(seat))
            state.apply(seat, move)
            moves.append(PlayedMove(seat, str(move)))
    now = timezone.now()
    played = PlayedGame(seed=0, moves=moves, outcome=state.outcome, started=now, finished=now)
    match = record_game(rules, [bot("A"), bot("B")], None, played)
    whole = frames(match)
    assert len(whole) < len(moves) + 1  # rounds: fewer frames than rows
    for start in range(0, len(whole) + 1, 3):
        window = frame_window(match, (), start, 3)
        assert window["frames"] == whole[start : start + 3] and window["total"] == len(whole)
