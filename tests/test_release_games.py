"""Release 1.7's games (issue 34; READINGS.md, "The release's games"): each in the
catalogue with its deck, each with the structure its name promises (a poker game is won
by the better hand at a showdown and by folding; a blind game hides what a seat may not
see, on the view and the live payload), each played to its end by every built-in bot and
by a person through the live services."""

import random
from collections import Counter

import pytest

from gamecore.bots import make_agent
from gamecore.bots.arena import play_game
from gamecore.bots.common import for_seat
from gamecore.engine import compile_game
from gamecore.engine.general.hands import best_hand
from gamecore.engine.general.state import GeneralState
from gamecore.rules.decks import label, variations
from gamecore.rules.validation import parse
from gamecore.rules.vocabulary import SHAPES
from variants import catalogue

RELEASE = ["4P-Blind-TTT", "3P-NeedyPoker", "3P-RichPoker", "KPoker"]
POKER = {"KPoker": 5, "3P-NeedyPoker": 7, "3P-RichPoker": 7}  # game -> the pot's x
POKER_LABEL = "4 pentagons, 4 Xs, 4 crosses, 4 triangles, and 4 stars in deck"
BOTS = ["random", "easy", "medium", "hard:1", "mcts:30"]


def game(name):
    return compile_game(catalogue.get(name))


def on_board(state, seat=None):
    return [p for b in state.view(seat)["boards"] for p in b["pieces"]]


def play_random(g, seed, before_showdown=None):
    """A random game, every seat choosing from its own position; ``before_showdown`` is
    called once with the state as the first single (showdown) round begins."""
    state, rng, called = g.new_initial_state(seed=seed), random.Random(seed), False
    while not state.is_terminal():
        for seat in state.to_move():
            if state.is_terminal() or seat not in state.to_move():
                break
            if before_showdown and not called and state.ph.single and seat != g.chaos:
                before_showdown(state)
                called = True
            state.apply(seat, rng.choice(for_seat(state, seat).legal_moves(seat)))
    return state


# --- in the catalogue, with the release's decks -------------------------------------------------
@pytest.mark.parametrize(
    "name, deck_label, count",
    [
        ("4P-Blind-TTT", "1 black circle, 1 white circle, and 7 blanks in deck", 72),
        ("KPoker", "1 pentagon, 1 X, and 1 cross in deck", 6),
        ("3P-NeedyPoker", POKER_LABEL, None),
        ("3P-RichPoker", POKER_LABEL, None),
    ],
)
def test_each_release_game_is_in_the_catalogue_with_its_deck(name, deck_label, count):
    assert name in catalogue.names()
    doc = parse(catalogue.get(name))
    g = game(name)
    colours = tuple(g.color_names[c] for c in g.seat_color)  # each seat's colour
    assert label(doc.deck, colours) == deck_label
    if count is not None:
        assert variations(doc.deck, len(doc.dealt)) == count
    assert catalogue.get(name)["story"]["how_to_play"]  # it tells itself


def test_the_two_poker_games_of_three_differ_only_in_chaos_chips():
    needy, rich = catalogue.get("3P-NeedyPoker"), catalogue.get("3P-RichPoker")
    assert needy["reserves"] == {"yellow": {"circle": 15}}
    assert rich["reserves"] == {"yellow": {"circle": 6}}
    strip = ("name", "reserves", "story")
    assert {k: v for k, v in needy.items() if k not in strip} == {
        k: v for k, v in rich.items() if k not in strip
    }


# --- a blind game is blind ----------------------------------------------------------------------
def test_blind_ttt_deals_one_black_and_one_white_circle_nobody_sees():
    g = game("4P-Blind-TTT")
    deals = set()
    for seed in range(30):
        state = g.new_initial_state(seed=seed)
        truth = on_board(state.clone(GeneralState))  # the plain GeneralState
        assert sorted(p["color"] for p in truth) == ["black", "white"]
        deals.add(tuple(sorted((tuple(p["at"]), p["color"]) for p in truth)))
        for seat in (0, 1, 2, 3, None):
            assert on_board(state, seat) == []  # dealt face down: no seat sees them
    assert len(deals) > 10  # the deal moves with the seed


def test_blind_ttt_a_seat_sees_only_its_own_marks_even_its_partners_are_hidden():
    g = game("4P-Blind-TTT")
    state = g.new_initial_state(seed=3)
    placed = {}
    for seat in range(4):
        mine = for_seat(state, seat).legal_moves(seat)[0]
        state.apply(seat, mine)
        if state.is_terminal():
            break
        placed[seat] = [p for p in on_board(state, seat) if p.get("owner") == seat]
    for seat in placed:  # its own marks, and a dealt circle it bumped into; not its partner's
        seen = on_board(state, seat)
        assert all(p.get("owner") in (seat, None) for p in seen), (seat, seen)
    assert on_board(state, None) == []  # a spectator sees nothing while play goes on
    # a seat's own position (what its bots search) holds only its own marks
    board = for_seat(state, 0).board
    assert sum(1 for c in board if c > 0) == len(on_board(state, 0)) < 4


def test_blind_ttt_a_blind_mark_on_a_taken_square_only_reveals_it():
    g = game("4P-Blind-TTT")
    state = g.new_initial_state(seed=0)
    truth = {tuple(p["at"]) for p in on_board(state.clone(GeneralState))}
    target = sorted(truth)[0]
    text = ",".join(map(str, target))
    state.apply(0, g.parse_move(text))  # seat 1 tries a square a dealt circle holds
    assert state.turn == 1 and state.ply == 1  # its turn is spent, nothing placed
    assert [tuple(p["at"]) for p in on_board(state, 0)] == [target]  # now it sees it
    assert on_board(state, 1) == []


# --- a poker game: better hands win showdowns, and folding wins ---------------------------------
def kpoker_deal(seed):
    g = game("KPoker")
    state = g.new_initial_state(seed=seed)
    full = on_board(state.clone(GeneralState))
    cards = {p["owner"]: p["shape"] for p in full if p["shape"] != "circle"}
    return g, state, cards


def seed_where(pred):
    return next(s for s in range(200) if pred(kpoker_deal(s)[2]))


def pot(state, x):
    return Counter(p["color"] for p in on_board(state) if p["at"][0] == x)


def test_kpoker_the_better_card_wins_the_showdown():
    seed = seed_where(lambda c: SHAPES.index(c[0]) < SHAPES.index(c[1]))  # white holds better
    g, state, _ = kpoker_deal(seed)
    for seat, text in ((0, "1,1,1-5,1"), (1, "3,1,1-5,1")):  # bet, call
        state.apply(seat, g.parse_move(text))
    assert state.ph.single  # both in: the showdown round
    state.apply(0, g.parse_move("2,1,1-5,1"))
    state.apply(1, g.parse_move("4,1,1-5,1"))
    assert pot(state, 5) == Counter(white=6)  # both cards, both antes and bets: white's
    while not state.is_terminal():
        state.apply(2, g.parse_move("pass"))
    assert state.outcome.results[:2] == ("loss", "win")


def test_kpoker_folding_wins_with_the_worse_card():
    seed = seed_where(lambda c: SHAPES.index(c[0]) < SHAPES.index(c[1]))  # black holds worse
    g, state, _ = kpoker_deal(seed)
    for seat, text in ((0, "1,1,1-5,1"), (1, "pass"), (0, "pass")):  # black bets, white checks
        state.apply(seat, g.parse_move(text))
    assert state.folded == 0b10  # white put less in the pot: it folds
    assert state.to_move() == (0,)  # only black pushes its card
    state.apply(0, g.parse_move("2,1,1-5,1"))
    assert pot(state, 5) == Counter(black=4)  # white's ante taken by black's worse card
    while not state.is_terminal():
        state.apply(2, g.parse_move("pass"))
    assert state.outcome.results[:2] == ("win", "loss")


@pytest.mark.parametrize("name", ["3P-NeedyPoker", "3P-RichPoker", "KPoker"])
def test_poker_random_games_show_both_folds_and_showdowns_the_best_hand_taking_the_pot(name):
    g, x = game(name), POKER[name]
    seen = Counter()
    for seed in range(120):
        hands = {}

        def read_hands(state, hands=hands):
            pieces = on_board(state.clone(GeneralState))
            common = [p for p in pieces if p["owner"] is None and p["shape"] != "circle"]
            for seat in range(g.nseats):
                if seat == g.chaos or state.folded >> seat & 1:
                    continue
                own = [p for p in pieces if p["owner"] == seat and p["shape"] != "circle"]
                hands[seat] = best_hand([SHAPES.index(p["shape"]) for p in own + common])[0]

        state = play_random(g, seed, read_hands)
        if len(hands) < 2:
            seen["fold"] += 1  # everyone else folded: the last one in took the pot
            continue
        best = max(hands.values())
        winners = {s for s, h in hands.items() if h == best}
        chips = Counter(p["owner"] for p in on_board(state) if p["at"][0] == x)
        taker = chips.most_common(1)[0][0]
        seen["showdown"] += 1
        assert taker in winners, (seed, hands, chips)
    assert seen["fold"] >= 5 and seen["showdown"] >= 5, seen


def test_three_handed_poker_reveals_the_board_card_by_card():
    g = game("3P-NeedyPoker")
    state = g.new_initial_state(seed=4)
    # black and white call pink's chip in the pot, then everyone checks to the showdown
    script = ["1,1,5-7,1", "3,1,5-7,1"] + ["pass"] * 30
    shown = {}
    while not state.ph.single:
        community = [p for p in on_board(state, 0) if p["at"][0] == 7 and p["at"][2] <= 5]
        shown[state.phase] = sum(1 for p in community if "shape" in p)
        state.apply(state.to_move()[0], g.parse_move(script.pop(0)))
    assert state.folded == 0  # all in: every bet matched
    assert shown == {0: 0, 1: 3, 2: 4, 3: 5}  # pre-flop, flop, turn, river


# --- every bot and a person play each to the end ------------------------------------------------
@pytest.mark.parametrize("name", RELEASE)
@pytest.mark.parametrize("spec", BOTS)
def test_every_bot_plays_each_release_game_to_the_end(name, spec):
    g = game(name)
    players = g.nseats - (g.chaos is not None)
    agents = [make_agent(spec, seed=1)] + [
        make_agent("random", seed=i) for i in range(2, players + 1)
    ]
    state, moves = play_game(g, agents, seed=7)
    assert state.is_terminal() and moves > 0
    assert len(state.outcome.results) == g.nseats


@pytest.mark.django_db
@pytest.mark.parametrize("name", RELEASE)
def test_a_person_plays_each_release_game_live_to_the_end(name, creator):
    from play import services
    from play.models import Match
    from tests.play_helpers import bot, later, rule_set, start

    rules = rule_set(name)
    g = compile_game(rules.document)
    others = [bot(f"R{i}", "random") for i in range(1, g.nseats - (g.chaos is not None))]
    match = start(rules, creator, creator, *others, seed=5)
    rng = random.Random(5)
    for _ in range(500):
        if Match.objects.get(pk=match.pk).is_over:
            break
        event = services.snapshot(match.pk, creator)
        legal = event["view"]["legal_moves"]
        if legal:  # the person's seat: chosen from what it is shown
            services.play(match.pk, creator, rng.choice(legal), seat=0)
        else:
            assert services.server_move(match.pk, now=later(5))
    final = Match.objects.get(pk=match.pk)
    assert final.is_over and final.outcome["results"]


def _pieces_in(payload) -> list[dict]:
    """Every piece anywhere in a payload (a dict with "at" and "color")."""
    if isinstance(payload, dict):
        found = [payload] if "at" in payload and "color" in payload else []
        return found + [p for v in payload.values() for p in _pieces_in(v)]
    if isinstance(payload, list):
        return [p for v in payload for p in _pieces_in(v)]
    return []


@pytest.mark.django_db
def test_blind_ttt_live_payloads_hold_no_piece_a_seat_may_not_see(creator, client):
    """The state event of a person's seat and a spectator's replay page, mid-game: the
    person sees its own marks only (and a dealt circle it bumped into); the spectator
    nothing; with three random bots placing blind marks meanwhile."""
    import json
    import re

    from play import services
    from play.models import Match
    from tests.play_helpers import bot, later, rule_set, start

    match = start(
        rule_set("4P-Blind-TTT"), creator, creator, *[bot(f"B{i}", "random") for i in range(3)]
    )
    rng, checked, own = random.Random(2), 0, 0
    while not Match.objects.get(pk=match.pk).is_over and checked < 3:
        event = services.snapshot(match.pk, creator)
        mine = _pieces_in(event)
        assert all(p.get("owner") in (0, None) for p in mine), mine
        assert sum(p.get("owner") is None for p in mine) <= 2
        own = max(own, sum(p.get("owner") == 0 for p in mine))
        html = client.get(f"/matches/{match.pk}/replay/").content.decode()
        data = re.search(
            r'<script id="replay-data" type="application/json">(.*?)</script>', html, re.S
        )
        assert data and _pieces_in(json.loads(data.group(1))) == []  # a spectator: nothing
        legal = event["view"]["legal_moves"]
        if legal:
            services.play(match.pk, creator, rng.choice(legal), seat=0)
            checked += 1
        else:
            assert services.server_move(match.pk, now=later(5))
    assert checked == 3 or Match.objects.get(pk=match.pk).is_over
    assert own >= 1  # the person's own marks were in its payload (the check can fail)
