"""The factory's deck control and dealt markers (release 1.7, issue 34): documents with a
deck survive open -> save unchanged, the markers follow the seed's toggle rule (phase 1
only; on stacks things fall), the deck's label, variations and errors show as typed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gamecore import rules
from tests.test_factory import REFRESH, _QueryDict, _render_body, form_fields, post_data
from variants import catalogue
from variants.factory import layout as page
from variants.factory.state import (
    adjust,
    apply_action,
    default_state,
    from_doc,
    from_post,
    to_document,
)

DATA = Path(__file__).parent / "data" / "deck_games"
CLOAKED = [{"at": [x, y, 1]} for y in (1, 2, 3) for x in (1, 2, 3)]
# Test documents with a deck: one each of common and seat dealt spaces, on hash, squares
# and stacks, with shuffled sets and ordered sequences; the release games' copies (DATA).
DOCS = {
    "seat-and-common": {
        "name": "DealtMix",
        "board": {"type": "squares", "size": [4, 3, 1]},
        "shapes": ["circle", "x"],
        "deck": "[ X1 { O O S } X ]",
        "dealt": [{"at": [1, 1, 1], "seat": 1}, {"at": [2, 1, 1]}, {"at": [4, 3, 1], "seat": 2}],
    },
    "stacks-seat": {
        "name": "DealtStacks",
        "board": {"type": "stacks", "size": [3, 1, 3]},
        "deck": "{O O O S}",
        "dealt": [{"at": [1, 1, 1], "seat": 2}, {"at": [1, 1, 2]}, {"at": [3, 1, 1]}],
    },
    "deck-only": {"name": "DeckOnly", "deck": "[{O S} {O S}]"},
}
for path in sorted(DATA.glob("*.json")):
    DOCS[path.stem] = json.loads(path.read_text())


def deck_documents() -> dict[str, dict]:
    """The test documents and every catalogue game that has a deck (the release games)."""
    found = dict(DOCS)
    for name, doc in catalogue.documents().items():
        if doc.get("deck") or doc.get("dealt"):
            found[f"catalogue:{name}"] = doc
    return found


# --- open -> save --------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(deck_documents()))
def test_a_game_with_a_deck_survives_open_and_save_unchanged(name):
    doc = rules.parse(deck_documents()[name])
    state = adjust(from_doc(doc))
    again = rules.parse(to_document(state))
    assert again.deck == doc.deck and again.dealt == doc.dealt
    assert rules.fingerprint(again) == rules.fingerprint(doc)


@pytest.mark.parametrize("name", sorted(deck_documents()))
def test_a_game_with_a_deck_survives_render_and_post(name, monkeypatch):
    """What the page writes (the deck field, the hidden dealt field) reads back the same."""
    # (The quick estimate says nothing about the form, and costs time: left out.)
    monkeypatch.setattr("variants.factory.estimate.estimate", lambda doc: "")
    doc = rules.parse(deck_documents()[name])
    state = adjust(from_doc(doc))
    fields = form_fields(_render_body(page.build(state)))
    assert fields["deck"] == [doc.deck]
    posted, problems = from_post(_QueryDict(fields), _QueryDict(fields).getlist)
    assert problems == []
    assert to_document(posted) == to_document(state)


def test_a_game_without_a_deck_writes_no_deck_keys():
    assert "deck" not in to_document(default_state())
    assert "dealt" not in to_document(default_state())


# --- the markers -----------------------------------------------------------------------------


def _click(state, marker, spot):
    state.marker = marker
    note = apply_action(state, "toggle", ",".join(map(str, spot)))
    return note, adjust(state)


def test_dealt_markers_toggle_and_replace_what_was_there():
    state = default_state()
    _click(state, "piece-black-1", (1, 1, 1, 1))
    _click(state, "dealt-common", (1, 1, 1, 1))
    assert state.dealt == {(1, 1, 1, 1): None} and not state.pieces
    _click(state, "dealt-2", (1, 1, 1, 1))  # another dealt marker replaces it
    assert state.dealt == {(1, 1, 1, 1): 2}
    _click(state, "dealt-2", (1, 1, 1, 1))  # the same one takes it off
    assert state.dealt == {}
    _click(state, "dealt-1", (1, 2, 2, 1))
    _click(state, "lock", (1, 2, 2, 1))
    assert state.dealt == {} and state.locked == {(1, 2, 2, 1)}


def test_dealt_markers_fall_on_stacks():
    state = default_state()
    state.board_type, state.size = "stacks", (3, 1, 4)
    adjust(state)
    _click(state, "dealt-common", (1, 2, 1, 4))  # clicked high: falls to the floor
    _click(state, "dealt-1", (1, 2, 1, 3))  # lands on it
    assert state.dealt == {(1, 2, 1, 1): None, (1, 2, 1, 2): 1}
    _click(state, "dealt-common", (1, 2, 1, 1))  # taken out: the rest drops
    assert state.dealt == {(1, 2, 1, 1): 1}
    assert rules.parse({**to_document(state), "name": "S", "deck": "O"}).dealt[0].seat == 1


def test_dealt_markers_are_placed_in_phase_one_only():
    state = default_state()
    state.phases.append(type(state.phases[0])())
    state.phase_shown = 1
    note, state = _click(state, "dealt-common", (1, 1, 1, 1))
    assert state.dealt == {} and "phase 1" in note
    markers = {m.value: m for m in page.build(state).space_markers}
    assert "phase 1" in markers["dealt-common"].coming


def test_a_seat_marker_per_seat_and_none_for_seats_that_are_gone():
    state = default_state()
    state.players = "4"
    adjust(state)
    values = [m.value for m in page.build(state).space_markers]
    assert values[-5:] == ["dealt-common", "dealt-1", "dealt-2", "dealt-3", "dealt-4"]
    _click(state, "dealt-4", (1, 3, 3, 1))
    state.players = "2"
    adjust(state)
    assert state.dealt == {} and state.marker == ""


def test_the_board_names_dealt_spaces_and_colours_a_seats():
    state = adjust(from_doc(rules.parse(DOCS["seat-and-common"])))
    views = page.build(state).board_views
    cells = {c.spot: c for v in views for s in v.slices for r in s.rows for c in r}
    assert cells[(1, 1, 1, 1)].label.endswith("dealt to seat 1")
    assert cells[(1, 1, 1, 1)].dealt_color == "black"
    assert cells[(1, 4, 3, 1)].dealt_color == "white"
    assert cells[(1, 2, 1, 1)].label.endswith("dealt (common)")
    html = _render_body(page.build(state))
    assert html.count('class="fc-dealt ') == 3


# --- the deck control ------------------------------------------------------------------------


def test_the_deck_control_shows_its_label_and_variations():
    state = adjust(from_doc(rules.parse(DOCS["4P-Blind-TTT"])))
    deck = page.build(state).deck
    assert deck.label == "1 black circle, 1 white circle, and 7 blanks in deck"
    assert deck.count == "72 variations"
    assert deck.dealt == "9 dealt spaces (9 common)"
    assert deck.errors == []


@pytest.mark.parametrize(
    "text, message",
    [
        ("{O Q}", "At character 4: 'Q' is not an item"),
        ("[O O", "At character 1: this bracket is never closed"),
        ("{O ]", "At character 4: expected '}'"),
        ("S2", "At character 2: a blank has no colour"),
        ("P", "this game's shapes are circle"),
        ("O3", "this game has seats 1 to 2"),
    ],
)
def test_a_bad_deck_names_the_position_as_typed(text, message):
    state = default_state()
    state.deck = text
    deck = page.build(adjust(state)).deck
    assert any(message in m for m in deck.errors), deck.errors
    assert deck.label == "" or message.startswith("this game")


def test_too_few_items_for_the_dealt_spaces_is_said():
    state = default_state()
    _click(state, "dealt-common", (1, 1, 1, 1))
    assert any("need a deck" in m for m in page.build(state).deck.errors)
    state.deck = "S"
    _click(state, "dealt-common", (1, 2, 1, 1))
    assert any("too few" in m for m in page.build(state).deck.errors)


def test_posted_junk_is_bounded_and_reported():
    fields = form_fields(_render_body(page.build(default_state())))
    data = _QueryDict({**fields, "deck": ["O" * 2500], "dealt": ["1,9,9,1,0 x"]})
    state, problems = from_post(data, data.getlist)
    paths = {p["path"] for p in problems}
    assert paths == {"deck", "dealt"} and len(state.deck) == 2000 and state.dealt == {}
    data = _QueryDict({**fields, "dealt": ["1,1,1,1,7"]})
    state, problems = from_post(data, data.getlist)
    assert [p["path"] for p in problems] == ["dealt"]
    many = " ".join(["1,1,1,1,0"] * 50)
    data = _QueryDict({**fields, "dealt": [many]})
    state, problems = from_post(data, data.getlist)
    assert "more dealt spaces than spaces" in [p["message"] for p in problems]


@pytest.mark.django_db
def test_the_refresh_recounts_and_save_reports_at_the_deck(client, creator):
    client.force_login(creator)
    fields = form_fields(client.get("/games/new/").content.decode())
    data = post_data(fields, deck="{O O S}", dealt="1,1,1,1,0 1,2,1,1,1", name="Dealt1")
    html = client.post(REFRESH, data).content.decode()
    assert "2 circles and 1 blank in deck" in html and "3 variations" in html
    data["deck"] = "{O O Z}"
    response = client.post("/games/new/", {**data, "action": "save"})
    assert response.status_code == 400
    body = response.content.decode()
    assert "At character 6: &#x27;Z&#x27; is not an item" in body
    assert body.count("is not an item") == 1  # the save's error, not twice
    data["deck"] = "{O O S}"
    response = client.post("/games/new/", {**data, "action": "save"})
    assert response.status_code == 302
    saved = rules.parse(client.get(response.url).context["rule_set"].rule_doc())
    assert saved.deck == "{O O S}" and [d.seat for d in saved.dealt] == [None, 1]


@pytest.mark.django_db
def test_the_saved_page_shows_the_deck_read_only(client, creator):
    from variants import services

    rule_set = services.create_rule_set(DOCS["seat-and-common"], creator)
    client.force_login(creator)
    html = client.get(rule_set.get_absolute_url()).content.decode()
    assert "[ X1 { O O S } X ]" in html and 'name="deck"' not in html
    assert "3 dealt spaces (1 of seat 1, 1 of seat 2, 1 common)" in html
    # The rules card says it in words, above the read-only factory.
    assert "<dt>Dealt pieces</dt>" in html
    assert "dealt into 3 marked spaces (1 for Player 1, 1 for Player 2, 1 for nobody)" in html
    copy = client.get(f"/games/new/?copy={rule_set.pk}").content.decode()
    assert 'value="[ X1 { O O S } X ]"' in copy


@pytest.mark.django_db
# (The 3P poker games and BeerQuiche60 cloak part of a stack, which the form cannot:
# marked in test_factory_catalogue_form.)
@pytest.mark.parametrize(
    "name",
    sorted(
        set(deck_documents())
        - {f"catalogue:{n}" for n in ("3P-NeedyPoker", "3P-RichPoker", "BeerQuiche60")}
    ),
)
def test_a_game_with_a_deck_is_made_through_the_form_alone(name, client, creator, monkeypatch):
    """The controls (markers, the deck field), driven as the page's htmx sends them, make
    the document: the same fill the catalogue's games take (factory_fill.build)."""
    from tests.browser.factory_fill import SAVED, PostForm, build
    from variants.models import RuleSet

    monkeypatch.setattr("variants.factory.estimate.estimate", lambda doc: "")
    client.force_login(creator)
    doc = rules.parse(deck_documents()[name])
    form = PostForm(client)
    build(form, doc, f"Made{doc.name}")
    assert SAVED.search(form.save()), form.errors()
    saved = RuleSet.objects.get(name=f"Made{doc.name}")
    assert saved.fingerprint == rules.fingerprint(doc), saved.document
