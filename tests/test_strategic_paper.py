"""What the paper game's fields are drawn from (seed 002): the nested view's move record
and route numbers, on the live page and not in every replay frame."""

from gamecore.rules.nested import default_level_numbers
from play import services
from play.replay import frames
from tests.engine_helpers import game, play
from tests.play_helpers import rule_set, start


def test_the_view_carries_the_move_record_oldest_first():
    g = game("Strategic-Tactical")
    s = play(g.new_initial_state(), "5/3/7", "3/7/1", "7/1/9")
    assert s.view(None)["record"] == [[0, "5/3/7"], [1, "3/7/1"], [0, "7/1/9"]]
    copy = s.clone()
    play(copy, "1/9/5")
    assert len(copy.view(None)["record"]) == 4 and len(s.view(None)["record"]) == 3
    assert g.new_initial_state().view(0)["record"] == []


def test_the_view_carries_each_routed_levels_numbers():
    g = game("Strategic-Map")
    routes = g.new_initial_state().view(0)["routes"]
    assert [r["kind"] for r in routes] == ["map", "tactical"]
    assert routes[0]["numbers"] == list(default_level_numbers(g.opts, "map", 1))
    assert routes[1]["numbers"] == []
    assert game("Ultimate-Open").new_initial_state().view(0)["routes"] == []


def test_the_live_state_has_the_record_and_replay_frames_do_not(creator, other_creator):
    match = start(rule_set("Strategic-Tactical"), creator, creator, other_creator)
    services.answer_invitation(match.pk, other_creator, accept=True)
    services.play(match.pk, creator, "5/3/7")
    services.play(match.pk, other_creator, "3/7/1")
    view = services.snapshot(match.pk, creator)["view"]
    assert view["record"] == [[0, "5/3/7"], [1, "3/7/1"]]
    shown = frames(match)
    assert len(shown) == 3
    assert all("record" not in f["view"] and "routes" not in f["view"] for f in shown)
