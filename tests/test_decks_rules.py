"""Decks and dealt markers in the rule document (issue 34): the notation's parser and
its errors, the label and the count of variations, validation, and fingerprints."""

import pytest

from gamecore.rules import RulesError
from gamecore.rules.canonical import fingerprint
from gamecore.rules.decks import DeckError, label, parse_deck, size, variations
from gamecore.rules.moving import needs_general
from gamecore.rules.validation import parse

BLACK_AT_1_1 = {"at": [1, 1, 1], "color": "black"}
BLIND = "[{ O3 O4 S S S S S S S }]"


@pytest.mark.parametrize(
    "text, position, words",
    [
        ("[{O}", 1, "never closed"),
        ("{O]]", 3, "expected '}'"),
        ("O Q", 3, "'Q' is not an item"),
        ("O9", 2, "seat from 1 to 4"),
        ("S2", 2, "a blank has no colour"),
        ("[ ]", 3, "empty brackets"),
        ("O}", 2, "closes nothing"),
        ("[[[[[[[O]]]]]]]", 7, "nest at most"),
        ("O" * 513, 513, "at most 512 items"),
    ],
)
def test_parser_errors_name_the_position(text, position, words):
    with pytest.raises(DeckError) as exc:
        parse_deck(text)
    assert exc.value.position == position
    assert words in str(exc.value) and f"at character {position}" in str(exc.value)


def test_label_and_variations_of_the_release_games():
    colours = ("black", "white", "black", "white")  # partners share colours
    assert label(BLIND, colours) == "1 black circle, 1 white circle, and 7 blanks in deck"
    assert variations(BLIND) == 72
    poker = "[{ PPPP **** ++++ XXXX ^^^^ }]"
    assert label(poker) == "4 pentagons, 4 Xs, 4 crosses, 4 triangles, and 4 stars in deck"
    assert variations(poker) == 305_540_235_000  # 20! / 4!^5
    assert variations("[{ P+X }]", 2) == 6
    beer = "[{ [OOOOOOOOOO], [OOOOOOOOOO], [PPPPPPPPPP], [PPPPPPPPPP], [PPPPPPPPPP] }]"
    assert size(beer) == 50 and variations(beer, 3) == 2
    assert variations("[O X S]") == 1 and variations("") == 1


def _doc(**extra):
    return {"name": "Dealt", "board": {"type": "hash", "size": [3, 3, 1]}, **extra}


def test_validation_of_deck_and_dealt():
    doc = parse(_doc(deck="{O1 O2 S}", dealt=[{"at": [1, 1, 1], "seat": 1}, {"at": [2, 1, 1]}]))
    assert needs_general(doc) and doc.reserves == {"black": {"circle": 4}, "white": {"circle": 3}}
    cases = [
        (_doc(deck="{O Q}"), "deck", "at character 4"),
        (_doc(dealt=[{"at": [1, 1, 1]}]), "deck", "need a deck"),
        (_doc(deck="O", dealt=[{"at": [1, 1, 1]}, {"at": [2, 1, 1]}]), "deck", "too few"),
        (_doc(deck="O", dealt=[{"at": [4, 1, 1]}]), "dealt[0]", "off the"),
        (_doc(deck="O", dealt=[{"at": [1, 1, 1], "seat": 3}]), "dealt[0].seat", "seats 1 to 2"),
        (_doc(deck="P"), "deck", "shapes are circle"),
        (_doc(deck="O3"), "deck", "seats 1 to 2"),
        (
            _doc(deck="OO", dealt=[{"at": [1, 1, 1]}], initial_pieces=[BLACK_AT_1_1]),
            "dealt[0]",
            "the same space",
        ),
    ]
    for data, path, words in cases:
        with pytest.raises(RulesError) as exc:
            parse(data)
        found = [e for e in exc.value.errors if e["path"] == path]
        assert found and words in found[0]["message"], exc.value.errors


def test_no_deck_leaves_every_catalogue_fingerprint_unchanged():
    # the golden fingerprints of test_general_rules.py pin the values; here: every
    # catalogue game's canonical form has no deck key, and writing the defaults out
    # changes nothing
    from variants.catalogue import documents  # noqa: PLC0415

    docs = {n: d for n, d in documents().items() if not d.get("deck")}  # the release's
    assert len(docs) > 20  # six games with decks (test_release_games.py) are left out
    for doc in docs.values():
        plain = fingerprint(doc)
        assert fingerprint({**doc, "deck": "", "dealt": []}) == plain
        dumped = parse(doc).model_dump(exclude_defaults=True)
        assert "deck" not in dumped and "dealt" not in dumped


def test_summary_names_the_dealt_spaces_and_the_deck():
    from gamecore.rules.summary import summary  # noqa: PLC0415

    dealt = [{"at": [x, y, 1]} for x in (1, 2, 3) for y in (1, 2, 3)]
    doc = parse(
        {**_doc(deck=BLIND, dealt=dealt), "players": "partners", "colors": "partners-share"}
    )
    text = summary(doc)
    assert "9 dealt (9 common)" in text
    assert "1 black circle, 1 white circle, and 7 blanks in deck, 72 variations" in text
