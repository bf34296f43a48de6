"""Issue 35, "Game over": the end of a game says what happened in plain words. A board
of several that nobody won (3Blotto13's tie) is nobody's, in its result and in the
count; a game every player wins without any ending matching (3P-PublicGoods: nobody has
fewer pieces than Chaos) does not say "Stalemate draws"."""

from gamecore.engine import compile_game
from variants import catalogue


def blotto(black, white):
    """3Blotto13 played to its end: ``black``/``white`` soldiers on fields 1-3."""
    game = compile_game(catalogue.get("3Blotto13"))
    state = game.new_initial_state(seed=1)
    fields = [[f for f, n in enumerate(a, 1) for _ in range(n)] for a in (black, white)]
    for b, w in zip(*fields, strict=True):
        state.apply(0, game.parse_move(f"b{b}:1,1"))
        state.apply(1, game.parse_move(f"b{w}:2,1"))
    assert state.is_terminal()
    return state


def test_a_tied_blotto_field_is_won_by_nobody():
    state = blotto((5, 4, 4), (4, 5, 4))  # field 3 tied 4-4
    boards = state.view(None)["boards"]
    assert [b["results"] for b in boards] == [["win", "loss"], ["loss", "win"], ["draw", "draw"]]
    out = state.outcome
    assert out.results == ("draw", "draw")
    assert out.detail == "Boards won: Seat 1: 1, Seat 2: 1; 1 won by nobody"


def test_blotto_counts_only_the_fields_won():
    state = blotto((5, 5, 3), (4, 4, 5))
    assert state.outcome.results == ("win", "loss")
    assert state.outcome.detail == "Boards won: Seat 1: 2, Seat 2: 1"
    state = blotto((7, 3, 3), (6, 3, 4))  # one field each, one tied
    assert state.outcome.results == ("draw", "draw")
    assert "Seat 1: 1, Seat 2: 1; 1 won by nobody" in state.outcome.detail


def test_public_goods_nobody_losing_says_every_player_wins_not_a_draw():
    game = compile_game(catalogue.get("3P-PublicGoods"))
    state = game.new_initial_state(seed=1)
    while not state.is_terminal():  # nobody gives, Chaos places nothing
        seat = state.to_move()[0]
        moves = state.legal_moves(seat)
        state.apply(seat, next((m for m in moves if str(m) == "pass"), moves[0]))
    out = state.outcome
    assert out.results == ("win", "win", "win", "loss")
    assert "draw" not in out.detail.lower()
    assert out.detail == "Less pieces than Chaos loses: no player lost, so every player wins"
