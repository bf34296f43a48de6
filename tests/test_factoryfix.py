"""Issue 35's factory details: per-seat entry-only and exit-only locks, the reserve
selects' stable maximum, seed 001's turn time in milliseconds, and the warning for a
game whose every ending can only draw (RockPaperScissors from the seed's text alone)."""

from __future__ import annotations

import pytest

from gamecore import rules
from tests.test_factory import REFRESH, form_fields, post_data
from variants.factory import layout as page
from variants.factory.state import adjust, apply_action, default_state, from_doc, to_document


@pytest.fixture
def ann(db, django_user_model, client):
    u = django_user_model.objects.create_user("ann", password=None)
    u.role = "creator"
    u.save()
    client.force_login(u)
    return u


def _state(**changes):
    state = default_state()
    for k, v in changes.items():
        setattr(state, k, v)
    return adjust(state)


# --- 1. per-seat entry-only and exit-only locks -------------------------------------------


def test_the_lock_marker_locks_entry_only_or_exit_only_for_a_seat():
    state = _state(players="3", board_type="squares", size=(3, 3, 1))
    state.marker = "lock"
    state.moving.marker_seat = 2
    state.moving.lock_flags = "e"
    apply_action(state, "toggle", "1,1,1,1")
    state.moving.marker_seat = 3
    state.moving.lock_flags = "x"
    apply_action(state, "toggle", "1,1,1,1")
    assert state.moving.seat_locks == {
        ((1, 1, 1, 1), "e"): frozenset({2}),
        ((1, 1, 1, 1), "x"): frozenset({3}),
    }
    # The same seat with other flags replaces its lock there; the same flags remove it.
    state.moving.lock_flags = "ex"
    apply_action(state, "toggle", "1,1,1,1")
    assert state.moving.seat_locks[((1, 1, 1, 1), "ex")] == frozenset({3})
    assert ((1, 1, 1, 1), "x") not in state.moving.seat_locks
    apply_action(state, "toggle", "1,1,1,1")
    assert state.moving.seat_locks == {((1, 1, 1, 1), "e"): frozenset({2})}
    doc = to_document(adjust(state))
    assert doc["space_locks"] == [
        {"board": 1, "at": [1, 1, 1], "seats": [2], "entry": True, "exit": False}
    ]
    again = from_doc(rules.parse({**doc, "name": "EntryOnly"}))
    assert to_document(again)["space_locks"] == doc["space_locks"]
    label = page.build(adjust(again)).board_views[0]
    assert "entry locked to seat 2" in str(label)


def test_the_page_offers_the_lock_flags_and_keeps_the_choice(ann, client):
    fields = form_fields(client.get("/games/new/").content.decode())
    assert "lock_flags" in fields, "no control for entry-only / exit-only locks"
    data = post_data(
        fields,
        players="3",
        board_type="squares",
        marker="lock",
        marker_seat="2",
        lock_flags="x",
        action="toggle",
        toggle="1,2,2,1",
    )
    html = client.post(REFRESH, data).content.decode()
    again = form_fields(html)
    assert again["lock_flags"] == ["x"]
    assert again["space_locks"] == ["1,2,2,1:2:x"]
    assert "exit locked to seat 2" in html and ">2out<" in html
    # Junk flags fall back to both (never a server error).
    html = client.post(REFRESH, post_data(fields, lock_flags="zz")).content.decode()
    assert form_fields(html)["lock_flags"] == ["ex"]


# --- 2. the reserve selects' maximum ----------------------------------------------------------


def _pink_circles(state):
    built = page.build(adjust(state))
    cells = dict(built.reserves)["pink"]
    return built, next(c.control for c in cells if c.marker.piece == ("pink", "circle"))


def test_the_reserve_maximum_is_the_boards_share_whatever_the_powers():
    from variants import catalogue

    state = adjust(from_doc(rules.parse(catalogue.get("StagHunt"))))
    built, pink = _pink_circles(state)
    plain = [o.value for o in pink.options if "⚔" not in o.label]
    # 4x1x3 stacks = 12 spaces over black, white and pink: 4, the seed's example.
    assert plain == [str(n) for n in range(5)] and pink.max == "4"
    assert pink.value == "6"  # the catalogue's 6 circles are kept, marked
    assert pink.selected_label == "6 ⚔"
    assert "up to 12" in built.reserve_note and "12 spaces ÷ 3 colours" in built.reserve_note
    # An unrelated edit (the pentagon no longer captures) leaves the maximum where it was.
    pentagon = state.shapes.index("pentagon") + 1
    state.moving.rules[pentagon].power = "none"
    built, pink = _pink_circles(state)
    assert [o.value for o in pink.options] == [str(n) for n in range(5)]
    assert pink.max == "4" and built.reserve_note == ""
    # Nothing captures any more: the rules accept 4 at most, so the 6 are brought down.
    assert pink.value == "4"


def test_the_stag_hunt_round_trips_with_its_six_pink_circles():
    from variants import catalogue

    doc = rules.parse(catalogue.get("StagHunt"))
    state = adjust(from_doc(doc))
    assert rules.parse(to_document(state)).reserves == doc.reserves


# --- 4. seed 001: any turn time from 5,000 to 60,000 ms ------------------------------------


def test_the_flat_factory_takes_any_turn_time_in_milliseconds(ann, client):
    from tests.test_factory import FACTORY
    from variants.models import RuleSet

    html = client.get(FACTORY).content.decode()
    assert 'name="turn_ms"' in html, "no control for a turn time in milliseconds"
    fields = form_fields(html)
    data = post_data(fields, name="TTT-7500ms", seconds="ms", turn_ms="7500", timeout="skip")
    data["action"] = "save"
    response = client.post(FACTORY, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    saved = rules.parse(RuleSet.objects.get(name="TTT-7500ms").document)
    assert saved.turn_ms == 7500 and saved.timeout == "skip"
    # The saved game shown again (Copy): the select says milliseconds, the field 7500.
    built = page.build(adjust(from_doc(saved)))
    assert built.seconds.value == "ms" and built.turn_ms.value == "7500"
    assert not built.turn_ms.disabled and not built.timeout.disabled
    for bad in ("4999", "60001", "", "7.5s"):
        data = post_data(fields, name="TTT-bad", seconds="ms", turn_ms=bad, action="save")
        response = client.post(FACTORY, data)
        html = response.content.decode()
        assert response.status_code == 400, bad
        assert "Turn time: a whole number of milliseconds from 5,000 to 60,000" in html, bad
        assert 'id="id_turn_ms-error"' in html, bad
    assert not RuleSet.objects.filter(name="TTT-bad").exists()


def test_the_nested_factory_takes_any_turn_time_in_milliseconds():
    from variants.factory import nested_layout, nested_state

    state, problems = nested_state.from_post(
        {"n_seconds": "ms", "n_turn_ms": "12345", "n_timeout": "random-move"}
    )
    assert state.turn_ms == 12345 and state.seconds is None
    doc = rules.parse(nested_state.to_document("U", state))
    assert doc.turn_ms == 12345 and doc.timeout == "random-move"
    built = nested_layout.build(nested_state.from_doc(doc), lambda key: [])
    assert built.turn_ms.value == "12345" and not built.turn_ms.disabled
    seconds = next(c for c in built.controls() if c.name == "n_seconds")
    assert seconds.value == "ms"
    state, problems = nested_state.from_post({"n_seconds": "ms", "n_turn_ms": "70000"})
    assert state.turn_ms == 60000
    assert [p["path"] for p in problems if "milliseconds" in p["message"]] == ["turn_ms"]
    # Without the "ms" option the field is off and says how to turn it on.
    built = nested_layout.build(nested_state.NestedState(), lambda key: [])
    assert built.turn_ms.disabled and "milliseconds" in built.turn_ms.reason


# --- 5. RockPaperScissors from the seed's text alone -----------------------------------------


def _seed_rock_paper_scissors(checks):
    """The seed's words: 1x1x2 stacks, simultaneous, three shapes that capture by rank and
    convert, one of each per player; nothing about how the game is won."""
    from variants.factory.moving_state import ShapeMoves
    from variants.factory.state import Check

    state = _state(board_type="stacks", size=(1, 1, 2), shapes=["circle", "x", "pentagon"])
    state.reserves = {c: {1: 1, 2: 1, 3: 1} for c in ("black", "white")}
    state.reserves_auto = False
    for row in (1, 2, 3):
        state.moving.rules[row] = ShapeMoves(
            "stationary", "can-capture", "cover-by-rank", "convert"
        )
    state.phases[0].order = "simultaneous"
    state.checks = [Check(k) for k in checks]
    return adjust(state)


@pytest.mark.parametrize("checks", [(), (3,)])
def test_the_seeds_rock_paper_scissors_alone_is_warned_before_save(checks):
    from variants.factory.warnings import warnings_for_state

    state = _seed_rock_paper_scissors(checks)
    said = " ".join(warnings_for_state(state))
    assert "Most pieces wins" in said and "RockPaperScissors" in said
    # The catalogue's reading: "Most pieces wins" decides it, and the warning is gone.
    state.stalemate = "most-pieces-wins"
    assert "Most pieces wins" not in " ".join(warnings_for_state(state))
    assert rules.parse({**to_document(state), "name": "RPS"}).stalemate == "most-pieces-wins"


def test_the_catalogues_rock_paper_scissors_is_not_warned():
    from variants import catalogue
    from variants.factory.warnings import warnings_for

    assert warnings_for(catalogue.get("RockPaperScissors")) == []


def test_the_factory_page_shows_the_warning_before_save(ann, client):
    state = _seed_rock_paper_scissors(())
    html = client.post(REFRESH, _posted(state)).content.decode()
    assert 'data-testid="game-warnings"' in html and "Most pieces wins" in html


def _posted(state) -> dict:
    from tests.test_factory import _render_body

    return post_data(form_fields(_render_body(page.build(state))), name="RPS-seed")


# --- 5. set-up pieces of nobody's (scenery) ---------------------------------------------------


def test_a_piece_marker_places_a_piece_of_nobodys_while_the_owner_says_so():
    state = _state(players="2-vs-chaos", board_type="squares", size=(3, 3, 1))
    state.marker, state.piece_owner = "piece-pink-1", "nobody"
    apply_action(state, "toggle", "1,2,2,1")
    assert state.pieces == {(1, 2, 2, 1): ("pink", 1)} and state.nobody == {(1, 2, 2, 1)}
    doc = to_document(state)
    assert doc["initial_pieces"] == [
        {"board": 1, "at": [2, 2, 1], "color": "pink", "shape": "circle", "nobody": True}
    ]
    assert rules.parse(doc | {"name": "Scenery"}).initial_pieces[0].nobody
    assert from_doc(rules.parse(doc | {"name": "Scenery"})).nobody == {(1, 2, 2, 1)}
    # The seat's marker on the same space makes it an owned piece; again removes it.
    state.piece_owner = "seat"
    apply_action(state, "toggle", "1,2,2,1")
    assert state.pieces == {(1, 2, 2, 1): ("pink", 1)} and not state.nobody
    apply_action(state, "toggle", "1,2,2,1")
    assert not state.pieces and not state.nobody


def test_nobodys_pieces_fall_with_their_stack():
    state = _state(players="2-vs-chaos", board_type="stacks", size=(2, 1, 3))
    state.marker = "piece-pink-1"
    state.piece_owner = "nobody"
    apply_action(state, "toggle", "1,1,1,1")
    state.piece_owner = "seat"
    apply_action(state, "toggle", "1,1,1,2")  # on top of it
    state.piece_owner = "nobody"
    apply_action(state, "toggle", "1,1,1,1")  # the bottom one out: the owned one falls
    assert state.pieces == {(1, 1, 1, 1): ("pink", 1)} and not state.nobody


def test_the_page_keeps_nobodys_pieces_and_names_bad_ones(ann, client):
    fields = form_fields(client.get("/games/new/").content.decode())
    assert "piece_owner" in fields, "no control for pieces of nobody's"
    data = post_data(
        fields, players="2-vs-chaos", marker="piece-pink-1", piece_owner="nobody",
        action="toggle", toggle="1,3,3,1",
    )  # fmt: skip
    html = client.post(REFRESH, data).content.decode()
    again = form_fields(html)
    assert again["pieces"] == ["1,3,3,1,pink,1,n"] and again["piece_owner"] == ["nobody"]
    assert "pink circle (nobody&#x27;s)" in html and "fc-nobody" in html
    # A junk owner falls back to the seat's; a junk flag on a piece is named, never a 500.
    html = client.post(REFRESH, post_data(again, piece_owner="zz")).content.decode()
    assert form_fields(html)["piece_owner"] == ["seat"]
    response = client.post("/games/new/", post_data(again, name="Junk", pieces="1,3,3,1,pink,1,q"))
    assert response.status_code == 400  # refused on save, naming the piece
    assert "1,3,3,1,pink,1,q&#x27; is no piece" in response.content.decode()


# --- 6. the cloak marker on part of a stack (issue 34) ----------------------------------------


def test_the_cloak_marker_cloaks_a_whole_stack_or_only_the_space_clicked():
    state = _state(players="2-vs-chaos", board_type="stacks", size=(3, 1, 4), cloaking="hides")
    state.marker = "cloak"
    apply_action(state, "toggle", "1,1,1,1")
    assert state.phases[0].cloaked == {(1, 1, 1, z) for z in range(1, 5)}
    state.cloak_reach = "space"
    apply_action(state, "toggle", "1,2,1,3")
    apply_action(state, "toggle", "1,2,1,4")
    apply_action(state, "toggle", "1,2,1,4")  # again: that space alone is shown again
    assert state.phases[0].cloaked - {(1, 1, 1, z) for z in range(1, 5)} == {(1, 2, 1, 3)}
    doc = rules.parse(to_document(state) | {"name": "Part"})
    assert {(s.at[0], s.at[2]) for s in doc.phases[0].cloaked if s.at[0] == 2} == {(2, 3)}


def test_the_page_offers_the_cloak_reach_on_stacks_and_keeps_it(ann, client):
    fields = form_fields(client.get("/games/new/").content.decode())
    assert "cloak_reach" not in fields  # a flat board: a click is one space anyway
    data = post_data(fields, board_type="stacks", cloak_reach="space")
    html = client.post(REFRESH, data).content.decode()
    assert form_fields(html)["cloak_reach"] == ["space"]
    html = client.post(REFRESH, post_data(form_fields(html), cloak_reach="zz")).content.decode()
    assert form_fields(html)["cloak_reach"] == ["stack"]  # junk: the whole stack, no error
