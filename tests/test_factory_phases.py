"""The Game Factory's phases (1 to 6, the phase selector, order, movement, pass, fold, the
phase_lock icons, locks and cloaks per phase), cloaking, and the typed endings in the
stalemate and turn-check dropdowns: forms -> documents, errors beside their controls."""

from __future__ import annotations

import pytest

from gamecore import rules
from gamecore.rules import endings
from tests.test_factory import FACTORY, REFRESH, _QueryDict, _render_body, form_fields, post_data
from variants.factory import layout as page
from variants.factory.state import (
    Check,
    adjust,
    apply_action,
    default_state,
    from_doc,
    from_post,
    to_document,
)
from variants.models import RuleSet

STAG_HUNT_LIKE = {
    "name": "Hunt",
    "players": "2-vs-chaos",
    "board": {"type": "stacks", "size": [4, 1, 3]},
    "shapes": ["circle"],
    "reserves": {"black": {"circle": 2}, "white": {"circle": 2}, "pink": {"circle": 4}},
    "exclusive": [
        {"at": [1, 1, 0], "seats": [1]},
        {"at": [2, 1, 0], "seats": [2]},
        {"at": [3, 1, 0], "seats": [1, 3]},
        {"at": [4, 1, 0], "seats": [2, 3]},
    ],
    "stalemate": "draw",
    "turn_checks": [],
    "endings": [{"measure": "in-a-row", "k": 2, "comparison": "most"}],
    "phases": [
        {"order": "simultaneous", "locked_seats": [3]},
        {"allow_pass": True, "locked_seats": [1, 2]},
    ],
}


def _posted(state) -> tuple:
    html = _render_body(page.build(state))
    fields = form_fields(html)
    return from_post(_QueryDict(fields), _QueryDict(fields).getlist)


def test_a_game_with_phases_and_endings_round_trips_through_the_form():
    doc = rules.parse(STAG_HUNT_LIKE)
    state = adjust(from_doc(doc))
    assert len(state.phases) == 2 and state.phases[0].order == "simultaneous"
    assert state.stalemate == endings.key(endings.from_key(state.stalemate))  # an ending
    assert rules.fingerprint(rules.parse(to_document(state))) == rules.fingerprint(doc)
    posted, problems = _posted(state)
    assert problems == []
    assert rules.fingerprint(rules.parse(to_document(posted))) == rules.fingerprint(doc)
    # Shown at phase 2: the reserves travel as hidden values, the game is the same.
    state.phase_shown = 1
    posted, problems = _posted(adjust(state))
    assert problems == [] and posted.phase_shown == 1
    assert rules.fingerprint(rules.parse(to_document(posted))) == rules.fingerprint(doc)


def test_one_phase_with_only_a_pass_is_the_game_without_phases():
    state = adjust(default_state())
    state.phases[0].allow_pass = True
    posted, problems = _posted(adjust(state))
    assert problems == []
    doc = to_document(adjust(posted))
    assert "phases" not in doc and doc["allow_pass"] is True
    plain = {**to_document(adjust(default_state())), "allow_pass": True}
    assert rules.fingerprint(rules.parse({**doc, "name": "T"})) == rules.fingerprint(
        rules.parse({**plain, "name": "T"})
    )


def test_the_phase_selector_shows_another_phase_and_keeps_the_shown_ones_controls():
    data = {"phase_count": "3", "order": "single", "movement": "1", "allow_pass": "1"}
    state, problems = from_post(_QueryDict({k: [v] for k, v in data.items()}))
    assert problems == []
    state = adjust(state)
    assert len(state.phases) == 3
    # Added phases copy the last one.
    assert [p.order for p in state.phases] == ["single"] * 3
    layout = page.build(state)
    assert [o.label for o in layout.phase.options] == ["Phase 1", "Phase 2", "Phase 3"]
    assert not layout.phase.disabled
    # The phase selector moves to phase 2: the controls posted were phase 1's.
    fields = form_fields(_render_body(layout))
    fields.update(phase=["1"], order=["sequential"], movement=["0"], allow_pass=["0"])
    state, problems = from_post(_QueryDict(fields), _QueryDict(fields).getlist)
    state = adjust(state)
    assert state.phase_shown == 1
    assert state.phases[0].order == "sequential" and not state.phases[0].allow_pass
    assert state.phases[1].order == "single" and state.phases[1].allow_pass
    layout = page.build(state)
    assert layout.order.value == "single" and layout.allow_pass.value == "1"
    # Reserve selects are read-only after phase 1, but keep their values.
    cell = layout.reserves[0][1][0]
    assert cell.control.disabled and cell.control.keep
    assert "Only in phase 1" in cell.marker.coming
    html = _render_body(layout)
    assert f'<input type="hidden" name="{cell.control.name}"' in html
    # The last phase has no fold.
    assert page.build(state).fold.disabled is False
    state.phase_shown = 2
    assert page.build(adjust(state)).fold.disabled


def test_phase_locks_toggle_and_locks_and_cloaks_are_per_phase():
    state = default_state()
    state.players = "2-vs-chaos"
    state.phases = [state.phases[0], state.phases[0].copy()]
    state = adjust(state)
    apply_action(state, "phase_lock-3")
    assert state.phases[0].locked_seats == {3}
    layout = page.build(state)
    assert [(lk.name, lk.locked) for lk in layout.phase_lock_states] == [
        ("Player 1", False),
        ("Player 2", False),
        ("Chaos", True),
    ]
    apply_action(state, "phase_lock-3")
    assert state.phases[0].locked_seats == frozenset()
    # Phase 2: the lock marker locks for this phase; exclusive waits for phase 1.
    state.phase_shown = 1
    state.marker = "lock"
    apply_action(state, "toggle", "1,2,2,1")
    assert state.phases[1].locked == {(1, 2, 2, 1)} and state.locked == set()
    state.marker = "exclusive"
    state.moving.marker_seat = 1
    assert "only the cloak and lock" in apply_action(state, "toggle", "1,1,1,1")
    state.marker = "cloak"
    apply_action(state, "toggle", "1,3,3,1")
    assert state.phases[1].cloaked == {(1, 3, 3, 1)}
    state.cloaking = "hides"
    doc = to_document(adjust(state))
    assert doc["cloaking"] == "hides"
    assert doc["phases"][1]["locked"] == [{"board": 1, "at": [2, 2, 1]}]
    assert doc["phases"][1]["cloaked"] == [{"board": 1, "at": [3, 3, 1]}]
    parsed = rules.parse({**doc, "name": "Phased"})
    assert parsed.cloaking == "hides" and len(parsed.phases) == 2


def test_endings_in_the_stalemate_and_check_dropdowns_become_the_documents_endings():
    more = endings.key(endings.Ending(measure="pieces", comparison="more-than-chaos"))
    less = endings.key(
        endings.Ending(measure="pieces", comparison="fewer-than-chaos", result="loses")
    )
    data = {"players": "2-vs-chaos", "stalemate": more, "check": less}
    state, problems = from_post(_QueryDict({k: [v] for k, v in data.items()}))
    assert problems == []
    assert state.checks == [Check(ending=less)]
    doc = to_document(adjust(state))
    assert doc["stalemate"] == "draw" and doc["turn_checks"] == []
    assert len(doc["endings"]) == 2
    parsed = rules.parse({**doc, "name": "Needy"})
    assert {endings.label(e) for e in parsed.endings} == {
        "More pieces than Chaos wins",
        "Less pieces than Chaos loses",
    }
    # Read back from the saved document: the same dropdowns.
    again = adjust(from_doc(parsed))
    assert again.stalemate in (more, less) and len(again.checks) == 1


def test_junk_endings_and_phase_values_are_reported():
    data = {"stalemate": '{"measure": "magic"}', "check": "{", "order": "random", "fold": "x"}
    state, problems = from_post(_QueryDict({k: [v] for k, v in data.items()}))
    paths = {p["path"] for p in problems}
    assert {"stalemate", "turn_checks[0]", "phases[0].order", "phases[0].fold"} <= paths


def test_validation_errors_of_phases_and_endings_go_beside_their_controls(db):
    state = default_state()
    state.cloaking = "none"
    state.phases = [state.phases[0].copy(), state.phases[0].copy()]
    state.phases[0].cloaked = {(1, 1, 1, 1)}  # needs a cloaking type
    state.stalemate = endings.key(endings.Ending(measure="pieces", comparison="more-than-chaos"))
    state = adjust(state)
    try:
        rules.parse({**to_document(state), "name": "Bad"})
    except rules.RulesError as exc:
        errors = exc.errors
    else:
        pytest.fail("validation should refuse this game")
    layout = page.build(state, errors)
    assert layout.stalemate.errors  # more than Chaos needs a Chaos seat
    assert layout.phase_space_errors  # cloaked spaces need a cloaking type


@pytest.fixture
def ann(db, django_user_model, client):
    u = django_user_model.objects.create_user("ann", password=None)
    u.role = "creator"
    u.save()
    client.force_login(u)
    return u


def test_a_game_with_phases_saved_through_the_views(ann, client):
    fields = form_fields(client.get(FACTORY).content.decode())
    html = client.post(
        REFRESH, post_data(fields, players="2-vs-chaos", phase_count="2", order="simultaneous")
    ).content.decode()
    assert 'id="fc-phase-lock-3"' in html
    fields = form_fields(html)
    html = client.post(
        REFRESH, post_data(fields, action="phase_lock-3", cloaking="hides")
    ).content.decode()
    assert 'id="fc-phase-lock-3"' in html and 'aria-pressed="true"' in html
    fields = form_fields(html)
    response = client.post(FACTORY, post_data(fields, name="Phased"))
    assert response.status_code == 302, response.content.decode()[-2000:]
    saved = RuleSet.objects.get(name="Phased").rule_doc()
    assert saved.cloaking == "hides"
    assert [p.order for p in saved.phases] == ["simultaneous", "simultaneous"]
    # Phase 2 was added (copying phase 1) before Chaos was locked in phase 1.
    assert saved.phases[0].locked_seats == (3,) and saved.phases[1].locked_seats == ()


@pytest.mark.parametrize(
    "junk",
    [
        "not json",
        "[]",
        "[1, 2]",
        '{"order": "single"}',
        '[{"order": 5, "locked_seats": [true, 9, "1"], "locked": [1, "9,9,9,9", "1,1,1,1"]}]',
        "[" + ",".join(['{"order": "single"}'] * 50) + "]",
    ],
)
def test_a_hand_made_phases_field_never_breaks_the_page(junk):
    data = {"phases": junk, "phase_shown": "5", "phase": "9", "phase_count": "99"}
    state, _problems = from_post(_QueryDict({k: [v] for k, v in data.items()}))
    state = adjust(state)
    assert 1 <= len(state.phases) <= 6 and 0 <= state.phase_shown < len(state.phases)
    assert all(p.locked_seats <= {1, 2} for p in state.phases)
    _render_body(page.build(state))
    rules.parse({**to_document(state), "name": "Junk"})


def test_endings_the_board_cannot_have_are_offered_only_where_chosen():
    """Lines "on posts" need stacks: a flat board's dropdowns leave them out (choosing one
    was an error, and it was the last stalemate option), unless a saved game has it."""
    from gamecore.rules import endings as ending_words
    from variants.factory.phase_state import check_extras, stalemate_choices

    def posts(choices):  # (the seed's own stalemate values are words, not endings' keys)
        return [k for k, _ in choices if k.startswith("{") and ending_words.from_key(k).posts]

    on_stacks = posts(stalemate_choices("stacks"))
    assert len(on_stacks) == 1 and posts(check_extras("stacks")) == on_stacks
    assert posts(stalemate_choices("hash")) == [] and posts(check_extras("squares")) == []
    assert posts(stalemate_choices("hash", keep=on_stacks[0])) == on_stacks
    assert posts(check_extras("hash", keep={on_stacks[0]})) == on_stacks
