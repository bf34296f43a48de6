"""Strategic Tic-Tac-Toe (seed 002): any combination of the three rule sets (routing
chosen level by level), its canonical form, and "no sending back" as an absolute limit."""

import pytest

from gamecore.engine import IllegalMove
from gamecore.engine.nested.marks import EMPTY, OBSTACLE
from gamecore.rules import RulesError, canonical, fingerprint, parse, summary
from gamecore.rules.nested import default_level_numbers, level_routes, route_map_length
from tests.engine_helpers import game, play
from variants import catalogue

# The fingerprints (first 16 hex digits) of every catalogue game before level_routing
# existed: the new field must leave every saved game's fingerprint as it was.
FINGERPRINTS = {
    "Tic-Tac-Toe": "9505a5232833ab92", "3on15line": "6b501308556b3eda",
    "Treblecross15": "e587cdb598e2ad05", "3P-Misere-Notakto": "c5ad6f424ba64e2f",
    "3P-Notakto": "47ea1ca1bbfab968", "4on7sq": "257b99147d00fc44",
    "5on15sq": "cd8c9085da1ebec8", "Connect6-19x19": "facc4776fc11e25e",
    "Tapatan": "109493b697443861", "Achi": "18c4a7f1815a20b7",
    "9-Holes": "17caf04e80e73126", "Qubic-4": "3c7775f87409d6c4",
    "Connect4": "2cc0f01f2997ede7", "3P-MostWins-3x4": "e1ed902e64a68aca",
    "3P-LeastLoses-3x4": "b0406561c30f9dee", "Wild-TTT-6sq3143": "d2af40ce97567793",
    "3on5sq": "d45d212cb535c6d9", "Ultimate-Tic-Tac-Toe": "bfa4934b26fd992f",
    "Ultimate-Inverted": "c4f94ef6eb4c0f25", "Ultimate-Checked": "cd217ceb90a59bb1",
    "Ultimate-Quick": "f75c811d154d317e", "Ultimate-Open": "c95708662bd1c3f1",
    "Strategic-Tactical": "ce907ddc4df2cc38", "Strategic-Map": "34bcd7063dbb55fe",
    "Strategic-Hypermap": "87e072b6b36b405c", "TacticToy": "49861979ccf25447",
    "TacticToy-3D": "de32b466673194dd", "TacticToy-4D": "50ad96596166be33",
    "TacticToy-4Teams": "692485f036873360",
    # social-dilemma games (issue 19); 3P-TrolleyDilemma (its third phase) and the two
    # Dictators (no circles for an X to remove) changed on purpose in issue 35, and BoS
    # (each player's area measured against Chaos's: READINGS.md, BoS)
    "4P-TrendSetter": "7cc1b748846c6e1d", "4P-Conformist": "b71047da457fffa6",
    "3P-PublicGoods": "32e4234bbd7cbca3", "StagHunt": "dc6f9ecb2a7151e6",
    "PrisonerDilemma": "31c5f7db06ba0b91", "OptionalPD": "0238ef78f695276d",
    "ContractPD": "c834d70266e70696", "3P-Volunteer": "3b16eabadbcdd39e",
    "BoS": "99aecad8c292872a", "3P-BoS": "fd54f6f0e936eeea",
    "ContractHunt": "60d3993670c9718d", "4P-TrolleyDilemma": "055f3aa0fb4a5b97",
    "3P-TrolleyDilemma": "74d8cd91e682087b",
    # converting covers on stacks (issue 19, lane "stackpots")
    "RockPaperScissors": "2d7877b8b6548daa", "NeedyTrust": "7ddc93791155a3e3",
    "RichTrust": "3f1cdf128ff91e50", "NeedyUltimatum": "6b09d481f1abedc2",
    "RichUltimatum": "2f4b2b9a44e1ea0f", "NeedyDictator": "dd0f629b3d695d40",
    "RichDictator": "78ba2443a6300304", "Centipede9": "0e252063abcab61c",
    "NeedyCentipede4": "b1204591d5110d63",
    # cloaked games (issue 20)
    "3Blotto13": "983902417fe8edaa", "KBeauty9": "dfff5796b9134920",
    "Shopping9": "ed71b6a9dba8cb29", "3P-9X-HideSeek": "04d844bf0cd06078",
    # release 1.7's games with decks (issue 34)
    "4P-Blind-TTT": "96327e00d0fe81e3", "3P-NeedyPoker": "b54cc0978ce6f972",
    "3P-RichPoker": "ca07acef5efd59d8", "KPoker": "3432382edb12feef",
}  # fmt: skip


def strategic(**nested):
    return {
        "name": "S",
        "board": {"type": "nested"},
        "nested": {"side": 3, "depth": 3, "draws_count_for_all": True, **nested},
    }


def problems(doc) -> dict[str, str]:
    with pytest.raises(RulesError) as info:
        parse(doc)
    return {e["path"]: e["message"] for e in info.value.errors}


# -- the canonical form ----------------------------------------------------------------------
def test_every_catalogue_fingerprint_is_unchanged():
    docs = catalogue.documents()
    assert set(docs) == set(FINGERPRINTS)
    for name, doc in docs.items():
        assert fingerprint(doc)[:16] == FINGERPRINTS[name], name
        assert "level_routing" not in canonical(doc).get("nested", {})


@pytest.mark.parametrize(
    "levels, named",
    [
        (["tactical", "tactical"], "Strategic-Tactical"),
        (["map", "tactical"], "Strategic-Map"),
        (["hypermap", "tactical"], "Strategic-Hypermap"),
    ],
)
def test_the_three_named_rule_sets_written_level_by_level_are_the_same_game(levels, named):
    doc = strategic(level_routing=levels)
    assert fingerprint(doc) == fingerprint(catalogue.get(named))
    assert parse(doc).nested.level_routing is None


def test_a_combination_keeps_its_levels_and_routing_names_the_top_level():
    doc = parse(strategic(level_routing=["tactical", "map"]))
    assert doc.nested.level_routing == ("tactical", "map")
    assert doc.nested.routing == "tactical"
    other = parse(strategic(level_routing=["hypermap", "map"]))
    assert other.nested.routing == "hypermap"
    # Written with or without the (matching) top-level routing: one game, one fingerprint.
    assert fingerprint(strategic(level_routing=["map", "map"])) == fingerprint(
        strategic(routing="map", level_routing=["map", "map"])
    )
    assert fingerprint(strategic(level_routing=["map", "map"])) != fingerprint(
        strategic(routing="map")
    )


def test_default_numbers_written_out_are_left_out():
    n = parse(strategic(level_routing=["map", "hypermap"])).nested
    assert route_map_length(n) == 81 + 729
    written = strategic(level_routing=["map", "hypermap"])
    written["nested"]["route_map"] = list(
        default_level_numbers(n, "map", 1) + default_level_numbers(n, "hypermap", 2)
    )
    assert fingerprint(written) == fingerprint(strategic(level_routing=["map", "hypermap"]))


# -- validation names the field ----------------------------------------------------------------
def test_level_routing_validation_names_the_field():
    assert "needs 2 entries" in problems(strategic(level_routing=["map"]))["nested.level_routing"]
    assert (
        "open"
        in problems(strategic(routing="open", level_routing=["map", "map"]))["nested.level_routing"]
    )
    assert (
        "'map' here"
        in problems(strategic(routing="map", level_routing=["hypermap", "map"]))[
            "nested.level_routing"
        ]
    )
    cube = strategic(level_routing=["tactical", "map"])
    cube["nested"] |= {"side": 2, "dimensions": 3}
    assert "2 dimensions" in problems(cube)["nested.level_routing"]
    short = strategic(level_routing=["tactical", "map"], route_map=[1] * 81)
    assert problems(short)["nested.route_map"] == "needs 243 numbers"
    bad = problems(strategic(level_routing=["map", "diagonal"]))
    assert any(path.startswith("nested.level_routing") for path in bad)
    flat = strategic(level_routing=["map"])
    flat["nested"]["depth"] = 1
    assert "nested.level_routing" in problems(flat)


def test_the_summary_says_the_routing_of_each_level():
    line = summary(parse(strategic(level_routing=["map", "hypermap"])))
    assert "Routing level by level: Map-like, then Hypermap-like" in line
    assert "Map-like routing" in summary(parse(catalogue.get("Strategic-Map")))


# -- the engine routes each level by its own rule ------------------------------------------------
def test_each_level_is_routed_by_its_own_rule():
    g = game(strategic(level_routing=["map", "hypermap"]))
    n = g.opts
    assert level_routes(n) == ("map", "hypermap")
    maps, hyper = default_level_numbers(n, "map", 1), default_level_numbers(n, "hypermap", 2)
    for text in ("4/8/2", "1/1/1", "9/5/3", "6/2/9"):
        i = g.parse_move(text).target
        x, y = g.geometry.coords[i]
        s = play(g.new_initial_state(), text)
        top = maps[(int(text[0]) - 1) * 9 + y % 9]  # left of the row, in its strategic cell
        assert s.view(1)["area_path"] == [top, hyper[x + 27 * y]], text


def test_tactical_then_map_keeps_the_strategic_cell_and_maps_the_tactical_one():
    g = game(strategic(level_routing=["tactical", "map"]))
    numbers = default_level_numbers(g.opts, "map", 2)
    i = g.parse_move("4/8/2").target
    x, y = g.geometry.coords[i]
    tactical = g.geometry.block_id((3, 7)) - g.geometry.offset[2]  # the move's tactical cell
    s = play(g.new_initial_state(), "4/8/2")
    assert s.view(1)["area_path"] == [8, numbers[tactical * 3 + y % 3]]


def test_a_custom_route_map_is_cut_level_by_level():
    numbers = [9] * 81 + [1] * 729
    g = game(strategic(level_routing=["map", "hypermap"], route_map=numbers))
    s = play(g.new_initial_state(), "5/5/5")
    assert s.view(1)["area_path"] == [9, 1]


def test_combined_games_play_to_the_end():
    import random

    rng = random.Random(3)
    for levels in (["map", "hypermap"], ["hypermap", "map"], ["tactical", "hypermap"]):
        g = game(strategic(level_routing=levels, no_send_back=True))
        s = g.new_initial_state(seed=1)
        while not s.is_terminal():
            seat = s.to_move()[0]
            moves = s.legal_moves(seat)
            assert moves
            s.apply(seat, rng.choice(moves))


# -- no sending back is absolute ----------------------------------------------------------------
def ultimate_no_send_back():
    return game({"board": {"type": "nested"}, "nested": {"no_send_back": True}})


def test_no_sending_back_frees_the_area_when_every_move_there_would_send_back():
    g = ultimate_no_send_back()
    s = play(g.new_initial_state(), "2/5")
    geo = g.geometry
    for i in range(geo.ncells):  # block 1 keeps only its centre, which would send O back
        if geo.path[i][0] == 0 and geo.path[i][1] != 4:
            s._block(i, OBSTACLE)
    play(s, "5/1")  # X is sent to block 1; O's last move was in block 5
    legal = s.view(0)["legal_moves"]
    assert "1/5" not in legal  # never allowed, even as the last move of the area
    assert "3/1" in legal and all(not m.endswith("/5") for m in legal)
    assert len(legal) == 81 - 9 - 2 - 7  # anywhere else but a centre (2/5 is taken)
    with pytest.raises(IllegalMove, match="no sending back"):
        s.apply(0, g.parse_move("1/5"))
    s.apply(0, g.parse_move("3/1"))  # outside block 1: the released area allows it
    assert s.view(1)["area_path"] == [1]


def test_no_move_that_keeps_the_limit_draws_the_game():
    g = game({"board": {"type": "nested"}, "nested": {"side": 2, "depth": 2, "no_send_back": True}})
    s = play(g.new_initial_state(), "1/2")  # O is sent to block 2
    keep = {g.parse_move(t).target for t in ("2/3", "2/2", "3/2", "4/2")}
    for i in range(g.geometry.ncells):
        if s.cell[i] == EMPTY and i not in keep:
            s._block(i, OBSTACLE)
    assert not s.is_terminal()
    play(s, "2/3")  # X is sent to block 3; every cell left sends O back to block 2
    assert s.is_terminal()
    assert s.outcome.reason == "stalemate"
    assert s.outcome.results == ("draw", "draw") or len(set(s.outcome.results)) == 1
    assert "send the next team back" in s.outcome.detail
