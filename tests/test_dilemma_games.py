"""The social-dilemma games of issue 19 (the factory seed's named games from
RockPaperScissors to 3P-TrolleyDilemma): their documents, their outcome tables
(variants/catalogue/tables.py, READINGS.md "Social-dilemma games"), the engine's play of
them, the bots and ``manage.py variant play``.

Where the engine does not yet play a game as read, its table test is an expected failure
(strict: it fails loudly once the engine does) naming what is missing (GAPS below)."""

import json
import random
from fractions import Fraction
from io import StringIO

import pytest
from django.core.management import call_command

from gamecore import rules
from gamecore.bots import play_games
from gamecore.engine import compile_game
from tests.dilemma_games_model import all_tables
from tests.dilemma_lines import engine_table
from variants import catalogue
from variants.catalogue.tables import TABLES
from variants.catalogue.tables_meta import META

NAMES = list(META)
LISTED = [n for n in catalogue.names() if n in META]
PENDING = catalogue.pending()
BOTS = ("random", "easy", "medium", "hard:2", "mcts:40")

# What the engine lacks to play each game as read (READINGS.md says what each means):
# a game named here gets a strict expected failure naming the gap. None is missing now.
GAPS: dict[str, list[str]] = {}


def document(name):
    return catalogue.get(name) if name in LISTED else PENDING[name]


def known_gap(name):
    """A strict expected failure naming the gaps: a table that differs (AssertionError),
    or a pending document the rules refuse (RulesError)."""
    gaps = GAPS.get(name)
    if not gaps:
        return ()
    raises = rules.RulesError if name in PENDING else AssertionError
    return (pytest.mark.xfail(strict=True, raises=raises, reason="; ".join(gaps)),)


# -- the documents --------------------------------------------------------------------
def test_every_named_game_is_written_once_with_a_table():
    assert len(NAMES) == 22 and set(TABLES) == set(NAMES)
    assert set(LISTED) | set(PENDING) == set(NAMES)
    assert not set(LISTED) & set(PENDING)
    for name in NAMES:
        assert document(name)["name"] == name


def test_no_game_waits_and_converting_covers_validate_on_stacks_only():
    """The nine games that waited for converting covers (pending/) are in the catalogue;
    a converting cover is still refused off stacks (the captive would need its space)."""
    assert PENDING == {} and set(LISTED) == set(NAMES)
    doc = catalogue.get("RockPaperScissors")
    assert rules.parse(doc)
    flat = {**doc, "board": {"type": "squares", "size": [2, 1, 1]}}
    with pytest.raises(rules.RulesError) as refused:
        rules.parse(flat)
    assert any(e["message"].startswith("a cover takes by remove") for e in refused.value.errors)


@pytest.mark.parametrize("name", LISTED)
def test_listed_games_validate_compile_to_general_and_random_play_ends(name):
    doc = rules.parse(catalogue.get(name))
    assert rules.summary(doc)
    game = compile_game(catalogue.get(name))
    assert game.family == "general"
    for seed in range(20):
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed)
        for _ in range(500):
            if state.is_terminal():
                break
            seat = rng.choice(state.to_move())
            state.apply(seat, rng.choice(state.legal_moves(seat)))
        assert state.is_terminal() and len(state.outcome.results) == game.nseats
        json.dumps(state.view(0))


def test_listed_games_keep_the_existing_order_and_come_before_the_nested_ones():
    names = catalogue.names()
    assert names[: names.index("3on5sq") + 1][-1] == "3on5sq"
    assert names.index("3on5sq") < min(map(names.index, LISTED))
    assert max(map(names.index, LISTED)) < names.index("Ultimate-Tic-Tac-Toe")


# -- the tables: written down, and played by the engine --------------------------------
def test_written_tables_are_what_the_reading_model_computes():
    """tables.py is the model's output, not numbers typed in by hand."""
    assert all_tables() == TABLES


@pytest.mark.parametrize("name", [pytest.param(n, marks=known_gap(n)) for n in NAMES])
def test_the_engine_plays_the_written_table(name):
    assert engine_table(name, document(name)) == TABLES[name]


def win_chance(value, seat) -> Fraction:
    if isinstance(value, tuple):
        return Fraction(value[seat] == "win")
    return sum((Fraction(p) for o, p in value.items() if o[seat] == "win"), Fraction(0))


BEATS = {("pentagon", "x"), ("x", "circle"), ("circle", "pentagon")}


def rock_paper_scissors_is_the_cycle(table):
    for (a, b), value in table.items():
        if a == b:
            assert value == "again"
        else:
            assert value == (("win", "loss") if (a, b) in BEATS else ("loss", "win"))
    return True


def defection_dominates_yet_cooperation_pays(table):
    """PrisonerDilemma: 1/3 and 5 are black's and white's own stacks (defect) and the
    open stack (cooperate)."""
    black = {k: win_chance(v, 0) for k, v in table.items()}
    white = {k: win_chance(v, 1) for k, v in table.items()}
    for w in (3, 5):
        assert black[(1, w)] > black[(5, w)]  # defecting is better whatever white does
    for b in (1, 5):
        assert white[(b, 3)] > white[(b, 5)]
    assert black[(5, 5)] > black[(1, 3)] and white[(5, 5)] > white[(1, 3)]
    return True


def stag_hunt_has_two_equilibria(table):
    black = {k: win_chance(v, 0) for k, v in table.items()}
    white = {k: win_chance(v, 1) for k, v in table.items()}
    stag, hare = (3, 4), (1, 2)
    assert black[stag] > black[(hare[0], stag[1])] and white[stag] > white[(stag[0], hare[1])]
    assert black[hare] > black[(stag[0], hare[1])] and white[hare] > white[(hare[0], stag[1])]
    assert black[stag] > black[hare] and white[stag] > white[hare]  # stag pays more
    return True


PROPERTIES = {
    "RockPaperScissors": rock_paper_scissors_is_the_cycle,
    "PrisonerDilemma": defection_dominates_yet_cooperation_pays,
    "OptionalPD": defection_dominates_yet_cooperation_pays,
    "StagHunt": stag_hunt_has_two_equilibria,
}


@pytest.mark.parametrize("name", sorted(PROPERTIES))
def test_the_written_tables_are_the_dilemmas(name):
    assert PROPERTIES[name](TABLES[name])


@pytest.mark.parametrize("name", [pytest.param(n, marks=known_gap(n)) for n in sorted(PROPERTIES)])
def test_the_engine_plays_the_dilemmas(name):
    assert PROPERTIES[name](engine_table(name, document(name)))


def test_a_round_is_judged_whole_by_typed_turn_endings():
    """4P-TrendSetter: black and white collide, pink and yellow stand alone: both win
    (the ending is checked once the round has resolved, not after pink's move)."""
    game = compile_game(catalogue.get("4P-TrendSetter"))
    state = game.new_initial_state(seed=1)
    for seat, y in enumerate((1, 1, 2, 3)):
        state.apply(seat, game.parse_move(f"1,{y},1"))
    assert state.outcome.results == ("loss", "loss", "win", "win")


# -- bots and the command ---------------------------------------------------------------
@pytest.mark.parametrize("bot", BOTS)
@pytest.mark.parametrize("name", LISTED)
def test_every_bot_plays_every_listed_game_to_the_end(name, bot):
    game = compile_game(catalogue.get(name))
    players = game.nseats - (game.chaos is not None)
    report = play_games(game, [bot] * players, 2, seed=3)
    assert report["games"] == 2
    for seat in report["seats"]:
        assert seat["wins"] + seat["draws"] + seat["losses"] == 2


@pytest.mark.django_db
@pytest.mark.parametrize("name", LISTED)
def test_variant_play_plays_every_listed_game(name):
    game = compile_game(catalogue.get(name))
    players = game.nseats - (game.chaos is not None)
    out = StringIO()
    seats = ",".join(["random", "easy", "mcts:20", "medium"][:players])
    call_command(
        "variant", "play", name, "--seats", seats, "--games", "3", "--json",
        stdout=out, stderr=StringIO(),
    )  # fmt: skip
    data = json.loads(out.getvalue())
    assert data["games"] == 3 and len(data["seats"]) == game.nseats
    if game.chaos is not None:
        assert data["seats"][game.chaos]["spec"] == "chaos"


@pytest.mark.django_db
def test_load_catalogue_saves_the_listed_games():
    from variants.models import RuleSet
    from variants.services import load_catalogue

    load_catalogue()
    saved = set(RuleSet.objects.values_list("name", flat=True))
    assert set(LISTED) <= saved and not set(PENDING) & saved


def test_a_bot_never_sees_the_plans_of_the_other_seats():
    """variant play (play_game) hands a bot of a simultaneous round the state without the
    plans registered before its turn to plan."""
    from gamecore.bots.arena import play_game
    from gamecore.bots.base import RandomAgent

    seen = []

    class Spy(RandomAgent):
        def choose(self, state, seat):
            seen.append(dict(state.pending_plans()))
            return super().choose(state, seat)

    game = compile_game(catalogue.get("PrisonerDilemma"))
    state, _moves = play_game(game, [Spy(seed=1), Spy(seed=2)], seed=4)
    assert state.is_terminal() and len(seen) >= 2
    assert all(not plans for plans in seen)


def test_a_draw_agreed_in_the_simultaneous_round_of_optional_pd():
    game = compile_game(catalogue.get("OptionalPD"))
    state = game.new_initial_state(seed=1)
    state.apply(0, game.parse_move("draw"))
    assert state.to_move() == (1,)
    state.apply(1, game.parse_move("accept"))
    assert state.outcome.results == ("draw", "draw", "draw")
