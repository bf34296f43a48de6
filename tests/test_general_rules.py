"""Rule-document fields for moving pieces: validation names the field, the canonical
form leaves defaults out (every saved fingerprint unchanged), the summary says them."""

import pytest

from gamecore import rules
from gamecore.engine import compile_game
from gamecore.rules import RulesError, canonical, fingerprint, parse
from variants import catalogue

# Fingerprints of the catalogue as saved before the general family's fields existed
# (commit 0574646). A field added with a default must not change any of them.
SAVED = {
    "Tic-Tac-Toe": "9505a5232833ab924878fa0eaed968d234aaa8ee5d1d99f2d485d35b76aa13f8",
    "3on15line": "6b501308556b3eda89c5c8f293eb5321b125de7f5ba607b5e077b931b6bac8fa",
    "Treblecross15": "e587cdb598e2ad05788431fd8b318f48a2e1e1414e840d744de0dbfeb88c2b92",
    "3P-Misere-Notakto": "c5ad6f424ba64e2f5c2cf94908b6869e7cb3fef80d212c219ce1a55b7e0e81a7",
    "3P-Notakto": "47ea1ca1bbfab968954571a5a4dda59a6191a93bb43411fb54198581ec0df99f",
    "4on7sq": "257b99147d00fc445d970fef07b67c9eb8d1a671b7136ac91eec42a57e1261bc",
    "5on15sq": "cd8c9085da1ebec8b0ed6f686265da9f678995b0e3fd9ea47b144c3fa0802f95",
    "Connect6-19x19": "facc4776fc11e25e402c69a7cabcf09bbc670c44fb3ed2f96628a1b2ee47d4da",
    "Qubic-4": "3c7775f87409d6c4b3b59d54b3aa989cb6002a2cda46c4af2f769b19db4165c4",
    "Connect4": "2cc0f01f2997ede7f851c1c809685235a9bf7fa9a01ff65d1003922991953e5b",
    "3P-MostWins-3x4": "e1ed902e64a68acad414079ca833cea93f3f3e5ce1966fc6f6095e07ef833176",
    "3P-LeastLoses-3x4": "b0406561c30f9dee30d7cd673cee54928591992d6e0c630c8a027fdea711aa7c",
    "Wild-TTT-6sq3143": "d2af40ce9756779302ab3f7d65f00b73f87de0d9a08f0466e3b2830f85aada24",
    "3on5sq": "d45d212cb535c6d9f6c74eaaa8e6bdd7b1a5af2b8b3c59ebfa496598e74c0e4f",
    "Ultimate-Tic-Tac-Toe": "bfa4934b26fd992f975756795de7efac42210c2c0a4ebec1a325c008104bd83a",
    "Ultimate-Inverted": "c4f94ef6eb4c0f25ca90a922ea9eb38d0ef82e3899369406f38270025f3d41d1",
    "Ultimate-Checked": "cd217ceb90a59bb1d1774b35407e9477ee328b7ff582f79a73c82a740477108d",
    "Ultimate-Quick": "f75c811d154d317e53c90d2b83fbf08aa59d80f19dc00e22c3d4745edef347ea",
    "Ultimate-Open": "c95708662bd1c3f1ab12957aa6386d753efe6c5e5a0a530f30875be9b13da35b",
    "Strategic-Tactical": "ce907ddc4df2cc38950ccd707b3995beb45816f1d92c628d0c240edb1d1fa9e4",
    "Strategic-Map": "34bcd7063dbb55fea534515aa879042b970333175487742d1b9213f35d565b28",
    "Strategic-Hypermap": "87e072b6b36b405c2aa76a35967742f8cd4ad4ce1651d479e4c9851a96181ccd",
    "TacticToy": "49861979ccf25447b4404c5efb245628642ff9405557ce941223b28023bf2d89",
    "TacticToy-3D": "de32b466673194dd5f83398f93c073ff10e59df2975d91dc5cb0ddc7c1c602f3",
    "TacticToy-4D": "50ad96596166be33c727a8abfa2ebbc821418450f99811667656cafb1a23867d",
    "TacticToy-4Teams": "692485f03687336051f138daa7194bfb516c73dbb39e9f78ef92be5b9866ba5f",
}


@pytest.mark.parametrize("name", sorted(SAVED))
def test_saved_fingerprints_are_unchanged(name):
    assert fingerprint(parse(catalogue.get(name))) == SAVED[name]


@pytest.mark.parametrize("name", sorted(SAVED))
def test_writing_the_new_defaults_out_changes_no_fingerprint(name):
    doc = catalogue.get(name)
    if parse(doc).board.type == "nested":
        return  # moving pieces are not an option of nested boards
    shapes = parse(doc).shapes
    explicit = {
        **doc,
        "shape_rules": {
            s: {"move": "stationary", "power": "none", "condition": "cover", "result": "remove"}
            for s in shapes
        },
        "sticky": [],
        "exclusive": [],
        "space_locks": [],
    }
    assert fingerprint(parse(explicit)) == SAVED[name]


def errors_of(data) -> dict[str, str]:
    with pytest.raises(RulesError) as info:
        parse({"name": "A", **data})
    return {e["path"]: e["message"] for e in info.value.errors}


@pytest.mark.parametrize(
    "data, path, message",
    [
        ({"shape_rules": {"circle": {"move": "hop"}}}, "shape_rules.circle.move", "'adjacent'"),
        ({"shape_rules": {"x": {"move": "adjacent"}}}, "shape_rules.x", "shapes are circle"),
        (
            {"shape_rules": {"circle": {"move": "adjacent", "result": "reincarnate"}}},
            "shape_rules.circle.result",
            "only with power",
        ),
        (
            {"shape_rules": {"circle": {"condition": "jump"}}},
            "shape_rules.circle.condition",
            "only with power",
        ),
        (
            {"shape_rules": {"circle": {"power": "can-capture"}}},
            "shape_rules.circle.power",
            "stationary piece captures only by surround",
        ),
        (
            {
                "shape_rules": {
                    "circle": {"move": "knight", "power": "can-capture", "condition": "jump"}
                }
            },
            "shape_rules.circle.condition",
            "knight jumps nothing",
        ),  # fmt: skip
        (
            {
                "shape_rules": {
                    "circle": {"move": "adjacent", "power": "can-capture", "result": "paralyse"}
                }
            },
            "shape_rules.circle.result",
            "cannot be paralysed",
        ),  # fmt: skip
        (
            {
                "board": {"type": "stacks", "size": [3, 1, 3]},
                "shape_rules": {
                    "circle": {"move": "adjacent", "power": "can-capture", "condition": "jump"}
                },
            },
            "shape_rules.circle.condition",
            "on stacks boards pieces capture by 'cover' or 'cover-by-rank'",
        ),  # fmt: skip
        (
            {
                "shape_rules": {
                    "circle": {"move": "adjacent", "power": "can-capture", "result": "convert"}
                },
            },
            "shape_rules.circle.result",
            "convert: only on stacks",
        ),  # fmt: skip
        (
            {"shape_rules": {"circle": {"move": "orthogonal-by-full-stack"}}},
            "shape_rules.circle.move",
            "needs a stacks board",
        ),
        (
            {"shape_rules": {"circle": {"move": "orthogonal-by-stack"}}},
            "shape_rules.circle.move",
            "needs a stacks board",
        ),
        ({"sticky": [{"at": [4, 1, 1]}]}, "sticky[0]", "off the 3×3×1 board"),
        ({"exclusive": [{"at": [1, 1, 1], "seats": [3]}]}, "exclusive[0].seats", "1 to 2"),
        (
            {"space_locks": [{"at": [1, 1, 1], "seats": [1], "entry": False, "exit": False}]},
            "space_locks[0]",
            "entry, exit or both",
        ),
        (
            {"boards": 2, "shape_rules": {"circle": {"move": "adjacent"}}},
            "boards",
            "1 board",
        ),
        (
            {"board": {"type": "nested"}, "shape_rules": {"circle": {"move": "adjacent"}}},
            "shape_rules",
            "not an option of nested boards",
        ),
    ],
)
def test_invalid_moving_fields_name_the_field(data, path, message):
    found = errors_of(data)
    assert path in found, found
    assert message in found[path]


def test_all_default_shape_rules_and_lock_order_normalise_away():
    a = parse({"name": "A", "shape_rules": {"circle": {}}})
    assert "shape_rules" not in canonical(a)
    locks = [{"at": [2, 2, 1], "seats": [2, 1]}, {"at": [1, 1, 1], "seats": [1]}]
    b = parse({"name": "B", "space_locks": locks, "sticky": [{"at": [3, 3, 1]}] * 2})
    c = parse({"name": "C", "space_locks": locks[::-1], "sticky": [{"at": [3, 3, 1]}]})
    assert fingerprint(b) == fingerprint(c)
    assert canonical(b)["space_locks"][1]["seats"] == [1, 2]


def test_moving_rules_change_the_fingerprint():
    base = catalogue.get("Tic-Tac-Toe")
    moved = {**base, "shape_rules": {"circle": {"move": "adjacent"}}}
    assert fingerprint(parse(moved)) != SAVED["Tic-Tac-Toe"]


def test_summary_says_the_new_fields_in_the_seeds_words():
    doc = parse(
        {
            "name": "S",
            "shapes": ["circle", "pentagon"],
            "players": "2-vs-chaos",
            "board": {"type": "squares", "size": [4, 4, 1]},
            "shape_rules": {
                "pentagon": {"move": "adjacent", "power": "must-capture", "result": "remove"},
                "circle": {"move": "linear-or-knight"},
            },
            "sticky": [{"at": [1, 1, 1]}],
            "exclusive": [{"at": [2, 2, 1], "seats": [1, 3]}],
            "space_locks": [{"at": [3, 3, 1], "seats": [2], "entry": False}],
            "stalemate": "most-area-wins",
        }
    )
    line = rules.summary(doc)
    for words in (
        "Circle: Moves linear or knight",
        "Pentagon: Must capture, Cover, Removes captive(s), Moves adjacent",
        "(1,1,1) sticky",
        "(2,2,1) exclusive to black, chaos",
        "(3,3,1) locked for exit to white",
        "Most area wins",
    ):
        assert words in line, line


def test_summary_says_stack_captures_and_pawns_and_castling_is_refused():
    doc = parse(
        {
            "name": "P",
            "shapes": ["circle", "x", "pentagon"],
            "board": {"type": "stacks", "size": [3, 3, 3]},
            "shape_rules": {
                "circle": {"move": "pawn-forward-center"},
                "x": {"move": "orthogonal-by-full-stack", "power": "can-capture",
                      "condition": "cover-by-rank", "result": "convert"},
                "pentagon": {"move": "orthogonal-by-stack", "power": "must-capture",
                             "result": "reincarnate-x2"},
            },
        }
    )  # fmt: skip
    line = rules.summary(doc)
    for words in (
        "Circle: Pawn move forward/center",
        "X: Can capture, Cover by rank, Converts captive(s), Moves orth by full stack",
        "Pentagon: Must capture, Cover, Reincarnates captive(s) x2, Moves orth by stack",
    ):
        assert words in line, line
    castle = {"shape_rules": {"circle": {"move": "rook-orthogonal-castle"}}}
    assert "shape_rules.circle.move" in errors_of(castle)


def test_compile_picks_the_fastest_family_and_can_be_forced():
    assert compile_game(catalogue.get("Tic-Tac-Toe")).family == "flat"
    assert compile_game(catalogue.get("Tic-Tac-Toe"), family="general").family == "general"
    assert compile_game(catalogue.get("TacticToy")).family == "nested"
    moving = {"name": "M", "shape_rules": {"circle": {"move": "adjacent"}}}
    assert compile_game(moving).family == "general"
    with pytest.raises(RulesError, match="only the general family"):
        compile_game(moving, family="flat")
    with pytest.raises(RulesError, match="nested"):
        compile_game(catalogue.get("TacticToy"), family="general")
    with pytest.raises(RulesError, match="family"):
        compile_game(moving, family="fast")


def test_a_piece_that_cannot_move_backwards_needs_a_shape_to_become():
    found = errors_of({"shape_rules": {"circle": {"move": "forward-orthogonal"}}})
    assert "needs a shape that can" in found["shape_rules.circle.move"]
    found = errors_of(
        {
            "players": "3",
            "board": {"type": "squares", "size": [5, 1, 1]},
            "shapes": ["circle", "x"],
            "shape_rules": {"circle": {"move": "forward-orthogonal"}, "x": {"move": "linear"}},
        }
    )
    assert "2 rows" in found["shape_rules.circle.move"]
