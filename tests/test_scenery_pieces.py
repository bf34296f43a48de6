"""Issue 35: a set-up piece may be written as nobody's (``"nobody": true``): scenery in a
seat's colour that moves for no seat and counts for no team (3P-9X-HideSeek's ring).
Both engine families read it; the default (a seat's colour is that seat's) is unchanged."""

from gamecore.engine import compile_game
from gamecore.rules.summary import summary
from gamecore.rules.validation import parse
from tests.engine_helpers import play


def _doc(nobody: bool, **extra) -> dict:
    piece = {"at": [1, 1, 1], "color": "black"} | ({"nobody": True} if nobody else {})
    return {
        "name": "Scenery",
        "board": {"type": "squares", "size": [3, 3, 1]},
        "initial_pieces": [piece],
        "turn_checks": [],
        "stalemate": "most-pieces-wins",
        **extra,
    }


def _fill(game):
    """Black and white fill the other eight spaces, four each."""
    state = game.new_initial_state()
    spaces = [f"{x},{y},1" for y in (1, 2, 3) for x in (1, 2, 3)][1:]
    return play(state, *spaces)


def test_the_flat_family_counts_scenery_for_nobody():
    seated, scenery = compile_game(_doc(False)), compile_game(_doc(True))
    assert type(scenery).__module__ == "gamecore.engine.game"  # the flat family
    assert seated.decode(_fill(seated).board[0])[0] == 0
    assert _fill(seated).outcome.results == ("win", "loss")  # 5 against 4
    state = _fill(scenery)
    assert scenery.decode(state.board[0])[0] is None
    assert state.outcome.results == ("win", "win")  # 4 against 4: tied for most


def test_the_general_family_neither_moves_nor_counts_scenery():
    moving = {  # black has only its set-up piece to move (pieces move once none is left)
        "shape_rules": {"circle": {"move": "adjacent"}},
        "allow_pass": True,
        "reserves": {"black": {"circle": 0}, "white": {"circle": 1}},
    }
    seated, scenery = compile_game(_doc(False, **moving)), compile_game(_doc(True, **moving))
    assert type(scenery).__module__ == "gamecore.engine.general.game"
    assert any(str(m).startswith("1,1,1-") for m in seated.new_initial_state().legal_moves(0))
    state = scenery.new_initial_state()
    assert not any(str(m).startswith("1,1,1-") for m in state.legal_moves(0))
    assert [str(m) for m in state.legal_moves(0)] == ["pass"]
    play(state, "pass", "2,2,1", "pass", "pass")  # white's one circle against none
    assert state.outcome.results == ("loss", "win")


def test_the_summary_says_whose_the_set_up_piece_is():
    assert "black (nobody's) at (1,1,1)" in summary(parse(_doc(True)))
    assert "black at (1,1,1)" in summary(parse(_doc(False)))


def test_the_rules_card_says_the_scenery_is_nobodys():
    from variants.rule_words import rule_list  # noqa: PLC0415

    pieces = dict(rule_list(_doc(True)))["Pieces"]
    assert "The black circles set up belong to nobody" in pieces
    assert "belong to nobody" not in dict(rule_list(_doc(False)))["Pieces"]
