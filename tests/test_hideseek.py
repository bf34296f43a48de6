"""3P-9X-HideSeek (seed 004, issue 20), by its own rules (READINGS.md, "3P-9X-HideSeek"):
black and white each hide a circle in the nine cloaked spaces of the centre, pink's
pentagon seeks them there (it must capture what it sees, and finds a hider by stepping
onto it); Chaos's yellow pentagon roams the ring eating its pink circles, which are
scenery (issue 35: nobody's, counted for no team); Chaos has no goal, so the game ends
as any stalemate does (every seat passed, a repetition, fifty quiet moves) and "Most
circles wins" decides it: the hiders still hidden win, the seeker wins only by finding
both (all at 0 circles)."""

import random
from collections import Counter

import pytest

from gamecore.bots.arena import play_game
from gamecore.bots.specs import make_agent
from gamecore.engine import compile_game
from gamecore.engine.general.view import view as full_view
from tests.engine_helpers import game, play
from variants import catalogue

NAME = "3P-9X-HideSeek"
BLACK, WHITE, PINK, CHAOS = range(4)
COLOR = ("black", "white", "pink", "yellow")
CENTRE = {(x, y) for x in (3, 4, 5) for y in (3, 4, 5)}
LOCKED = {(1, 4), (2, 2), (2, 6), (4, 1), (4, 7), (5, 1), (5, 7)}
RING = {(x, y) for x in range(1, 6) for y in range(1, 8)} - CENTRE - LOCKED


@pytest.fixture(scope="module")
def hideseek():
    return compile_game(catalogue.get(NAME))


def pieces(view) -> dict[tuple[int, int], tuple[str, str]]:
    """(x, y) -> (colour, shape) of every piece in a view."""
    return {
        tuple(p["at"][:2]): (p["color"], p.get("shape"))
        for b in view["boards"]
        for p in b["pieces"]
    }


def centre(view) -> dict:
    return {at: piece for at, piece in pieces(view).items() if at in CENTRE}


def truth(state) -> dict:
    return pieces(full_view(state, None))


def moves(state, seat) -> set[str]:
    return {str(m) for m in state.legal_moves(seat)}


def test_the_game_is_in_the_catalogue_set_up_as_the_seed_says(hideseek):
    assert NAME in catalogue.names()
    assert catalogue.names().index(NAME) == catalogue.names().index("Shopping9") + 1
    state = hideseek.new_initial_state(seed=1)
    assert type(state).__name__ == "CloakedState"
    cloaked = {tuple(at[:2]) for _b, *at in state.view(0)["cloaking"]["cloaked"]}
    assert cloaked == CENTRE  # the non-chaos-exclusive spots
    setup = {(4, 6): ("yellow", "pentagon")} | {at: ("pink", "circle") for at in RING - {(4, 6)}}
    assert len(setup) == 19 and truth(state) == setup
    for seat in (BLACK, WHITE, PINK, CHAOS, None):  # the set-up is known to everyone
        assert pieces(state.view(seat)) == setup
    assert state.view(0)["phase"]["placement_only"] is True


def hide(state, black="3,3,1", white="5,5,1", pink="4,4,1"):
    """Phase 1: each player places its one piece in the fog; Chaos has nothing to place,
    so the phase ends (stalemate advances the phase) and phase 2 begins with Chaos."""
    play(state, f"circle {black}", f"circle {white}", f"pentagon {pink}")
    assert state.view(None)["phase"]["number"] == 2 and list(state.to_move()) == [CHAOS]
    return state


def test_hiders_and_seeker_are_invisible_to_each_other_and_to_spectators(hideseek):
    state = hide(hideseek.new_initial_state(seed=1))
    hidden = {
        (3, 3): ("black", "circle"),
        (5, 5): ("white", "circle"),
        (4, 4): ("pink", "pentagon"),
    }
    assert {at: truth(state)[at] for at in hidden} == hidden
    for seat, color in ((BLACK, "black"), (WHITE, "white"), (PINK, "pink")):
        own = {at: p for at, p in hidden.items() if p[0] == color}
        assert centre(state.view(seat)) == own, seat
    assert centre(state.view(CHAOS)) == {} and centre(state.view(None)) == {}
    assert "3,3,1" not in str(state.view(PINK)) and "5,5,1" not in str(state.view(PINK))


def test_a_hider_stepping_onto_the_hidden_seeker_only_finds_it(hideseek):
    state = hide(hideseek.new_initial_state(seed=1))
    play(state, "4,6,1x3,6,1")  # Chaos eats a pink circle (not its goal)
    assert "3,3,1-4,4,1" in moves(state, BLACK)  # black may attempt: it sees nothing there
    before = truth(state)
    play(state, "3,3,1-4,4,1")
    assert truth(state) == before  # nothing moved; black's turn is over
    assert list(state.to_move()) == [WHITE]
    assert centre(state.view(BLACK)) == {(3, 3): ("black", "circle"), (4, 4): ("pink", "pentagon")}
    assert centre(state.view(PINK)) == {(4, 4): ("pink", "pentagon")}  # pink learns nothing


def test_the_seeker_finds_a_hider_by_stepping_onto_it(hideseek):
    state = hide(hideseek.new_initial_state(seed=1))
    play(state, "4,6,1x3,6,1", "pass", "pass")
    assert "4,4,1-3,3,1" in moves(state, PINK)  # looks empty to pink: a plain step
    play(state, "4,4,1x3,3,1")
    assert truth(state)[(3, 3)] == ("pink", "pentagon") and (4, 4) not in truth(state)
    assert sum(1 for p in truth(state).values() if p == ("black", "circle")) == 0  # destroyed


def test_the_seeker_must_capture_a_hider_it_has_seen(hideseek):
    """Pink tries to place on white's space (refused: it now sees white's circle, and as
    the only seat still able to place it places again) and lands next to it: once its
    turn comes it has only the capture among its piece moves, although black's circle
    (unseen) is next to it too."""
    state = hideseek.new_initial_state(seed=1)
    play(state, "circle 3,3,1", "circle 5,5,1", "pentagon 5,5,1")  # pink's attempt
    assert truth(state).get((5, 5)) == ("white", "circle")
    assert centre(state.view(PINK)) == {(5, 5): ("white", "circle")}  # found, not taken
    assert list(state.to_move()) == [PINK] and state.view(None)["phase"]["number"] == 1
    play(state, "pentagon 4,4,1")
    assert state.view(None)["phase"]["number"] == 2
    play(state, "4,6,1x3,6,1", "pass", "pass")
    # must capture: no step (the phase's option to pass stands: a pass moves no piece)
    assert moves(state, PINK) == {"4,4,1x5,5,1", "pass"}
    play(state, "4,4,1x5,5,1")
    assert truth(state)[(5, 5)] == ("pink", "pentagon")


def test_chaos_must_eat_pink_circles_and_the_game_goes_on_until_a_goal_is_reached(hideseek):
    state = hide(hideseek.new_initial_state(seed=1))
    # Chaos's pentagon must capture what it sees: the pink circles next to it
    assert moves(state, CHAOS) == {"4,6,1x3,6,1", "4,6,1x5,6,1", "4,6,1x3,7,1", "pass"}
    play(state, "4,6,1x3,6,1", "pass", "pass", "pass")
    assert moves(state, CHAOS) == {"3,6,1x2,5,1", "3,6,1x2,7,1", "3,6,1x3,7,1", "pass"}
    play(state, "3,6,1x2,5,1", "pass", "pass", "pass")
    assert not state.is_terminal()  # pink's circles on y = 1 (its goal) reached nothing
    assert sum(1 for p in truth(state).values() if p == ("pink", "circle")) == 16


def test_chaos_has_no_goal_and_the_ring_circles_are_nobodys(hideseek):
    """Issue 35: Chaos's first step onto x = 5 ends nothing (Chaos plays for no side of
    the board); the ring's pink circles do not move for pink and count for nobody, so
    hiders still hidden at the end win and the seeker, with no circle, loses."""
    state = hide(hideseek.new_initial_state(seed=1))
    play(state, "4,6,1x5,6,1")  # (5,6): x = 5 was Chaos's goal before issue 35
    assert not state.is_terminal()
    assert sum(1 for p in truth(state).values() if p == ("pink", "circle")) == 17
    play(state, "pass", "pass")
    assert {m.split("-")[0].split("x")[0] for m in moves(state, PINK)} <= {"4,4,1", "pass"}
    play(state, "pass", "pass")  # every seat passed: stalemate
    out = state.outcome
    assert out.reason == "stalemate" and "Most circles wins" in out.detail
    assert out.results == ("win", "win", "loss", "loss")  # 1, 1 against 0 and 0


def test_the_seeker_wins_only_by_finding_both_hiders(hideseek):
    """One hider found: the other wins alone. Both found: every circle left is nobody's,
    all tie at 0 and the three players win (Chaos loses)."""
    state = hide(hideseek.new_initial_state(seed=1), black="3,3,1", white="5,3,1")
    play(state, "4,6,1x3,6,1", "pass", "pass", "4,4,1x3,3,1")  # black found
    play(state, "pass", "pass", "pass", "pass")
    assert state.outcome.results == ("loss", "win", "loss", "loss")
    state = hide(hideseek.new_initial_state(seed=1), black="3,3,1", white="5,3,1")
    play(state, "4,6,1x3,6,1", "pass", "pass", "4,4,1x3,3,1")
    play(state, "pass", "pass", "pass", "3,3,1-4,3,1")
    play(state, "pass", "pass", "pass", "4,3,1x5,3,1")  # white found
    play(state, "pass", "pass", "pass", "pass")
    assert state.outcome.results == ("win", "win", "win", "loss")


def test_random_games_are_played_and_won_by_the_most_circles(hideseek):
    """Whole random games (Chaos random as always): the game runs past the set-up (the
    pink circles on pink's goal end nothing), and the winners are exactly the teams with
    the most circles on the board at the end, counted here from the truth."""
    lengths, chaos_moved = [], 0
    for seed in range(60):
        state, rng, n = hideseek.new_initial_state(seed=seed), random.Random(seed), 0
        while not state.is_terminal():
            seat = state.to_move()[0]
            move = rng.choice(state.legal_moves(seat))
            chaos_moved += seat == CHAOS and str(move) != "pass"
            state.apply(seat, move)
            n += 1
        lengths.append(n)
        circles = Counter(c for c, shape in truth(state).values() if shape == "circle")
        circles["pink"] = 0  # the ring's pink circles are scenery: nobody's
        most = max(circles[c] for c in COLOR[:3])
        winners = {s for s in range(3) if circles[COLOR[s]] == most}
        assert "Most circles wins" in state.outcome.detail, state.outcome.detail
        assert {s for s in range(3) if state.outcome.results[s] == "win"} == winners
    assert min(lengths) >= 4 and sum(lengths) / len(lengths) > 10 and chaos_moved


def test_a_seats_sampled_world_holds_the_pieces_it_cannot_see_and_no_more(hideseek):
    """What a bot of a seat searches (``determinise``): the set-up is public (nothing to
    guess: the truth itself), and later the same pieces as the truth, the hidden ones put
    where their owners could be."""
    state = hideseek.new_initial_state(seed=1)
    for seat in (BLACK, WHITE, PINK, CHAOS):
        assert pieces(full_view(state.determinise(seat, random.Random(seat)), None)) == truth(state)
    hide(state)
    everything = Counter(truth(state).values())
    for seat in (BLACK, WHITE, PINK, CHAOS):
        world = pieces(full_view(state.determinise(seat, random.Random(seat)), None))
        assert Counter(world.values()) == everything, seat
        assert {at for at, p in world.items() if p[1] == "circle" and p[0] != "pink"} <= CENTRE


@pytest.mark.parametrize("kind", ["easy", "medium", "hard", "mcts"])
def test_every_built_in_bot_plays_it_from_its_seats_view(hideseek, kind):
    agents = [make_agent({"kind": kind}, seed=i, time_limit=0.02) for i in range(3)]
    for seed in range(2):
        state, n = play_game(hideseek, agents, seed=seed)
        assert state.is_terminal() and n >= 4


def test_a_goal_is_reached_by_a_move_not_by_a_set_up_piece_standing_on_it():
    """The reading of "Stalemate if goal is reached" (any game): a set-up piece on a
    goal line has reached nothing; a piece placed or moved there has."""
    doc = {
        "board": {"type": "squares", "size": [3, 3, 1]},
        "initial_pieces": [{"at": [1, 3, 1], "color": "black"}],
        "turn_checks": [],
        "stalemate": "most-pieces-wins",
        "endings": [{"measure": "goal", "when": "turn", "result": "stalemate"}],
    }
    s = play(game(doc).new_initial_state(), "2,2,1", "3,2,1")
    assert s.outcome is None  # black's (1,3) stands on its goal (y = 3) from the start
    play(s, "2,3,1")  # black places on its goal
    assert s.outcome.reason == "stalemate" and s.outcome.results == ("win", "loss")
