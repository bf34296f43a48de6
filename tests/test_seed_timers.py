"""Seeds 000 and 003's timers: the AFK timer is optional (off where a game has no time
control, unless the match starts with it), never shorter than the turn time (so every
timeout consequence is reachable), and every move that clears it says so. Fake clocks."""

from __future__ import annotations

import pytest

from play import clock, services
from play.models import Match
from play.socketio_server import _afk, seed_reason
from tests.play_helpers import log, near, rule_set, start

pytestmark = pytest.mark.django_db

TIME_CONTROLS = (10, 30, 60, 300, 900, 1800, 3600, 10800, 21600, 43200, 86400)


def fresh(match) -> Match:
    return Match.objects.get(pk=match.pk)


def people(rules, a, b, **options) -> Match:
    match = start(rules, a, a, b, **options)
    services.answer_invitation(match.pk, b, accept=True)
    return fresh(match)


def timed(seconds: int, timeout: str):
    return rule_set(f"TTT-{seconds}-{timeout}", seconds_per_turn=seconds, timeout=timeout)


def test_no_time_control_no_afk_by_default(creator, other_creator):
    match = people(rule_set("Tic-Tac-Toe"), creator, other_creator)
    assert not match.afk_on and match.afk_seat is None and match.wake_at is None
    services.expire_timers(match.pk, near(match.turn_started, 86400 * 7))
    assert fresh(match).status == "active"  # seed 000: as long as they want


def test_a_match_started_with_afk_forfeits_the_idle_player(creator, other_creator):
    match = people(rule_set("Tic-Tac-Toe"), creator, other_creator, afk=True, afk_timeout=30)
    assert match.afk_on and match.afk_seat == 0
    services.expire_timers(match.pk, near(match.afk_since, 31))
    assert fresh(match).status == "finished"


@pytest.mark.parametrize("timeout", ["loss", "random-move", "skip"])
def test_every_consequence_comes_before_afk(timeout, creator, other_creator):
    """A 5-minute time control with AFK at 60 s: nothing at 61 s, the rules' consequence
    at the turn deadline (it was a loss at 60 s, and Skip never happened)."""
    match = people(timed(300, timeout), creator, other_creator, afk=True, afk_timeout=60)
    assert clock.afk_seconds(match) == 300
    services.expire_timers(match.pk, near(match.turn_started, 61))
    assert fresh(match).status == "active" and log(match) == []
    services.expire_timers(match.pk, near(match.turn_deadline, 1))
    after = fresh(match)
    kinds = [k for _s, k, _n in log(after)]
    expected = {"loss": ["timeout"], "random-move": ["move"], "skip": ["skip"]}[timeout]
    assert kinds == expected
    assert after.status == ("finished" if timeout == "loss" else "active")


@pytest.mark.parametrize("seconds", TIME_CONTROLS)
def test_afk_never_runs_out_before_any_listed_time_control(seconds):
    from variants.models import RuleSet

    rules = RuleSet(document={"seconds_per_turn": seconds, "timeout": "skip"})
    match = Match(rule_set=rules, afk_on=True, afk_timeout=60, afk_warning=20)
    assert clock.afk_seconds(match) >= seconds


def test_the_start_form_switches_afk_on_and_off(client, creator):
    from tests.play_helpers import bot

    easy = bot()
    client.force_login(creator)
    base = {"game": rule_set("Tic-Tac-Toe").pk, "afk_timeout": 60, "afk_warning": 20}
    base |= {"seat_1": "me", "seat_2": f"player:{easy.pk}"}
    client.post("/play/", base)
    client.post("/play/", base | {"afk": "on"})
    assert [m.afk_on for m in Match.objects.order_by("pk")] == [False, True]


def test_a_move_clears_the_afk_timer_and_says_so(monkeypatch, creator, other_creator):
    """Seed 003: "Making a move clears the timer and emits tictactoe:afk_warning_cleared"
    (before, only after a warning)."""
    from play import notify

    told = []
    monkeypatch.setattr(notify, "match_changed", lambda m, events, views=None: told.append(events))
    match = people(rule_set("Tic-Tac-Toe"), creator, other_creator, afk=True)
    services.play(match.pk, creator, "1,1,1")
    assert {"type": "tictactoe:afk_warning_cleared", "seat": 0} in told[-1]


def test_socketio_join_has_afk_unless_switched_off():
    from play.errors import MatchError

    assert _afk({})["afk"] is True  # seed 003: "AFK timeout is supported. Defaults: 60s"
    assert _afk({"afk": False})["afk"] is False
    with pytest.raises(MatchError):
        _afk({"afk": "no"})


def test_an_afk_end_is_one_of_the_seeds_reasons():
    assert seed_reason("timeout", 5) == "disconnect"
    assert seed_reason("stalemate", None) == "draw"
    assert seed_reason("victory", 5) == "victory"


# -- seed 001: turn time is any value from 5,000 to 60,000 ms -------------------------------


def test_a_rule_document_holds_any_turn_time_in_milliseconds():
    from gamecore.rules.canonical import fingerprint
    from gamecore.rules.errors import RulesError
    from gamecore.rules.validation import parse

    doc = parse({"name": "T", "turn_ms": 7500, "timeout": "skip"})
    assert doc.turn_ms == 7500 and doc.timeout == "skip"
    whole = parse({"name": "T", "turn_ms": 15000})  # whole seconds keep their old form
    assert whole.turn_ms is None and whole.seconds_per_turn == 15
    assert fingerprint(whole) == fingerprint(parse({"name": "T", "seconds_per_turn": 15}))
    assert fingerprint(parse({"name": "T"})) == fingerprint({"name": "T"})
    for bad in (4999, 60001):
        with pytest.raises(RulesError):
            parse({"name": "T", "turn_ms": bad})
    with pytest.raises(RulesError, match="once"):
        parse({"name": "T", "turn_ms": 7500, "seconds_per_turn": 10})


def test_the_clock_honours_a_turn_time_in_milliseconds(creator, other_creator):
    rules = rule_set("TTT-7500ms", turn_ms=7500, timeout="skip")
    match = people(rules, creator, other_creator)
    assert (match.turn_deadline - match.turn_started).total_seconds() == 7.5
    services.expire_timers(match.pk, near(match.turn_deadline, -0.1))
    assert log(fresh(match)) == []
    services.expire_timers(match.pk, near(match.turn_deadline, 0.01))
    assert [k for _s, k, _n in log(fresh(match))] == ["skip"]


def test_the_factory_keeps_a_millisecond_turn_time_through_an_edit():
    from gamecore.rules.validation import parse
    from variants.factory.nested_state import from_doc, from_post, to_document

    doc = parse({"name": "U", "board": {"type": "nested"}, "turn_ms": 7500, "timeout": "skip"})
    again = parse(to_document("U", from_doc(doc)))
    assert again.turn_ms == 7500 and again.timeout == "skip"
    state, problems = from_post({"n_seconds": "4"})  # the select's number, out of range
    assert any(p["path"] == "seconds_per_turn" or "seconds" in str(p) for p in problems)
