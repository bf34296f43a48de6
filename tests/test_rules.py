"""The rule document: defaults, validation messages, canonical form, fingerprint, summary."""

import pytest

from gamecore import rules
from gamecore.rules import RulesError, fingerprint, parse
from variants import catalogue


def errors_of(data) -> dict[str, str]:
    with pytest.raises(RulesError) as info:
        parse(data)
    return {e["path"]: e["message"] for e in info.value.errors}


TTT_SPELLED_OUT = {
    "name": "Spelled-Out",
    "players": "2",
    "colors": "assigned",
    "shapes": ["circle"],
    "pieces_per_turn": 1,
    "boards": 1,
    "board": {"type": "hash", "size": [3, 3, 1]},
    "reserves": {"black": {"circle": 5}, "white": {"circle": 4}},
    "initial_pieces": [],
    "locked": [],
    "turn_checks": [{"k": 3, "result": "wins", "diagonal": True}],
    "stalemate": "draw",
    "allow_pass": False,
    "agree_draw": False,
    "seconds_per_turn": None,
    "timeout": "loss",
}


def test_defaults_written_out_or_left_implicit_share_a_fingerprint():
    assert fingerprint(parse(TTT_SPELLED_OUT)) == fingerprint(parse({"name": "Tic-Tac-Toe"}))


def test_name_is_not_part_of_the_fingerprint():
    a = parse(catalogue.get("Connect4"))
    b = parse({**catalogue.get("Connect4"), "name": "Gravity-Four"})
    assert fingerprint(a) == fingerprint(b)
    assert "name" not in rules.canonical(a)


@pytest.mark.parametrize(
    "change",
    [
        {"players": "3"},
        {"colors": "shared"},
        {"pieces_per_turn": 2},
        {"board": {"type": "squares", "size": [3, 3, 1]}},
        {"reserves": {"black": {"circle": 4}, "white": {"circle": 4}}},
        {"locked": [{"at": [2, 2, 1]}]},
        {"initial_pieces": [{"at": [2, 2, 1], "color": "white"}]},
        {"turn_checks": [{"k": 3, "result": "loses"}]},
        {"turn_checks": [{"k": 3, "diagonal": False}]},
        {"turn_checks": []},
        {"stalemate": "all-win"},
        {"allow_pass": True},
        {"agree_draw": True},
        {"seconds_per_turn": 30},
    ],
)
def test_every_real_difference_changes_the_fingerprint(change):
    base = fingerprint(parse({"name": "Tic-Tac-Toe"}))
    assert fingerprint(parse({"name": "Other", **change})) != base


def test_a_timeout_rule_without_a_timer_is_no_difference():
    assert fingerprint(parse({"name": "A", "timeout": "skip"})) == fingerprint(parse({"name": "B"}))
    timed = {"seconds_per_turn": 30}
    assert fingerprint(parse({"name": "A", "timeout": "skip", **timed})) != fingerprint(
        parse({"name": "B", **timed})
    )


def test_order_free_lists_are_sorted():
    a = {"name": "A", "board": {"type": "squares", "size": [4, 4, 1]}}
    one = {**a, "locked": [{"at": [1, 1, 1]}, {"at": [4, 4, 1]}]}
    two = {**a, "locked": [{"at": [4, 4, 1]}, {"at": [1, 1, 1]}, {"at": [1, 1, 1]}]}
    assert fingerprint(parse(one)) == fingerprint(parse(two))
    checks = [{"k": 3}, {"k": 4, "result": "loses"}]
    assert fingerprint(parse({**a, "turn_checks": checks})) == fingerprint(
        parse({**a, "turn_checks": checks[::-1]})
    )


def test_default_reserves_deal_the_open_spaces_round_robin():
    doc = parse({"name": "X", "board": {"type": "squares", "size": [15, 1, 1]}})
    assert doc.reserves == {"black": {"circle": 8}, "white": {"circle": 7}}
    doc = parse(
        {"name": "Y", "players": "2-vs-chaos", "board": {"type": "squares", "size": [4, 2, 1]}}
    )
    assert doc.reserves == {"black": {"circle": 3}, "white": {"circle": 3}, "pink": {"circle": 2}}


@pytest.mark.parametrize(
    "data, path, message",
    [
        ({"name": "a b"}, "name", "whitespace"),
        ({"name": "a*b"}, "name", "'*'"),
        ({"name": "a(b)"}, "name", "'('"),
        ({"name": ""}, "name", "required"),
        ({}, "name", "required"),
        (
            {"name": "A", "board": {"type": "squares", "size": [20, 1, 1]}},
            "board.size[0]",
            "at most 19",
        ),
        (
            {"name": "A", "board": {"type": "squares", "size": [19, 19, 2]}},
            "board.size[2]",
            "at most 1",
        ),
        (
            {"name": "A", "board": {"type": "squares", "size": [0, 1, 1]}},
            "board.size[0]",
            "at least 1",
        ),
        ({"name": "A", "board": {"type": "hash", "size": [4, 4, 1]}}, "board.size", "3×3×1"),
        (
            {"name": "A", "board": {"type": "stacks", "size": [7, 1, 1]}},
            "board.size[2]",
            "at least 2",
        ),
        ({"name": "A", "players": "5"}, "players", "one of"),
        ({"name": "A", "colour": "red"}, "colour", "not an option"),
        ({"name": "A", "turn_checks": [{"k": 7}]}, "turn_checks[0].k", "at most 6"),
        ({"name": "A", "boards": 4}, "boards", "at most 3"),
        (
            {"name": "A", "reserves": {"black": {"circle": 6}}},
            "reserves.black.circle",
            "from 0 to 5",
        ),
        ({"name": "A", "reserves": {"pink": {"circle": 1}}}, "reserves.pink", "black, white"),
        ({"name": "A", "reserves": {"black": {"star": 1}}}, "reserves.black.star", "shapes"),
        ({"name": "A", "colors": "partners-share"}, "colors", "partners"),
        ({"name": "A", "locked": [{"at": [4, 1, 1]}]}, "locked[0]", "off the 3×3×1 board"),
        ({"name": "A", "locked": [{"board": 2, "at": [1, 1, 1]}]}, "locked[0]", "board 2"),
        (
            {"name": "A", "initial_pieces": [{"at": [1, 1, 1], "color": "pink"}]},
            "initial_pieces[0].color",
            "black, white",
        ),
        (
            {
                "name": "A",
                "board": {"type": "stacks", "size": [3, 1, 3]},
                "initial_pieces": [{"at": [1, 1, 2], "color": "black"}],
            },
            "initial_pieces[0].at",
            "floats",
        ),
        (
            {
                "name": "A",
                "locked": [{"at": [1, 1, 1]}],
                "initial_pieces": [{"at": [1, 1, 1], "color": "black"}],
            },
            "initial_pieces[0]",
            "same space as locked[0]",
        ),
        ({"name": "A", "seconds_per_turn": 1}, "seconds_per_turn", "at least 5"),
    ],
)
def test_invalid_documents_name_the_field(data, path, message):
    found = errors_of(data)
    assert path in found, found
    assert message in found[path]


def test_not_an_object():
    assert errors_of(["name"]) == {"": "a rule document is a JSON object"}


def test_every_error_is_reported_at_once():
    found = errors_of({"name": "a b", "board": {"type": "squares", "size": [20, 20, 1]}})
    assert {"name", "board.size[0]", "board.size[1]"} <= set(found)


def test_dimension_limits_follow_the_other_two():
    assert rules.dimension_limit((19, 19, 1), 2) == 1
    assert rules.dimension_limit((8, 8, 8), 0) == 8
    assert rules.dimension_limit((1, 1, 1), 0) == 19
    parse({"name": "A", "board": {"type": "squares", "size": [8, 8, 8]}})


def test_summary_reads_like_the_seed():
    line = rules.summary(parse(catalogue.get("Treblecross15")))
    assert line == (
        "Played on 15x1x1 squares, 15 black start in reserve; Shared color; "
        "Stalemate draws; First 3-same-color-in-a-row wins"
    )
    assert "Option to Agree Draw" in rules.summary(parse(catalogue.get("4on7sq")))


def test_catalogue_fingerprints_are_distinct():
    prints = {fingerprint(parse(d)) for d in catalogue.documents().values()}
    assert len(prints) == len(catalogue.names()) == 59  # 29 + 22 dilemmas + 4 + 4 decks
