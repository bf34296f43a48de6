"""Games with typed endings, overachievers and 1 vs Chaos: every bot plays them, and a
live match of 1 vs Chaos is played to its end with Chaos moving on the server."""

import pytest

from gamecore.bots.arena import play_games
from gamecore.engine import compile_game
from play import services
from play.models import Match
from play.replay import current_state
from tests.play_helpers import later, log, rule_set, start

KINDS = ["random", "easy", "medium", {"kind": "hard", "effort": 2000}, "mcts:60"]

DOCS = [
    {"name": "One", "players": "1-vs-chaos", "board": {"type": "squares", "size": [4, 4, 1]}},
    {"name": "Needy", "players": "2-vs-chaos", "turn_checks": [],
     "board": {"type": "squares", "size": [4, 4, 1]},
     "endings": [{"measure": "in-a-row", "k": 2, "comparison": "more-than-chaos"},
                 {"measure": "in-a-row", "k": 2, "comparison": "fewer-than-chaos",
                  "result": "loses"}]},
    {"name": "Over", "players": "4", "overachievers": True,
     "board": {"type": "squares", "size": [4, 4, 1]}},
    {"name": "Trend", "players": "4", "turn_checks": [], "stalemate": "all-lose",
     "board": {"type": "squares", "size": [3, 1, 1]},
     "reserves": {"black": {"circle": 1}, "white": {"circle": 1}, "pink": {"circle": 1},
                  "yellow": {"circle": 1}},
     "endings": [{"when": "turn"}]},
]  # fmt: skip


@pytest.mark.parametrize("doc", DOCS, ids=[d["name"] for d in DOCS])
def test_every_bot_plays_games_with_typed_endings(doc):
    g = compile_game(doc)
    assert g.family == "general"
    players = g.nseats - (g.chaos is not None)
    for i, kind in enumerate(KINDS):
        specs = [kind] + ["random"] * (players - 1)
        result = play_games(g, specs, 2, seed=i)
        assert sum(result["seats"][0][k] for k in ("wins", "draws", "losses")) == 2


def test_one_vs_chaos_live_match_chaos_moves_on_the_server(creator):
    rules = rule_set(
        "One-vs-Chaos", players="1-vs-chaos", board={"type": "squares", "size": [4, 4, 1]}
    )
    match = start(rules, creator, creator)
    seats = list(match.seats.order_by("index").values_list("kind", flat=True))
    assert seats == ["player", "chaos"]
    while Match.objects.get(pk=match.pk).status == "active":
        state = current_state(Match.objects.get(pk=match.pk))
        if 0 in state.to_move():
            services.play(match.pk, creator, str(state.legal_moves(0)[0]))
        else:
            assert services.server_move(match.pk, now=later(5))
    assert 1 in {s for s, _k, _n in log(match)}  # Chaos moved
    assert current_state(Match.objects.get(pk=match.pk)).outcome is not None


def test_one_vs_chaos_tournament_rates_each_bot_against_chaos(trainer, no_broker):
    from leaderboards.models import Rating, TournamentBatch
    from leaderboards.services import default_universe
    from tests.play_helpers import bot
    from tournaments import services as tournaments

    board = {"type": "squares", "size": [3, 3, 1]}
    rules = rule_set("Solo-vs-Chaos", players="1-vs-chaos", board=board)
    assert tournaments.seats_per_game(rules) == 1
    a, b = bot("A", "easy"), bot("B", "medium")
    plan = tournaments.Plan(rules, default_universe(), "T", [([a.pk], 10), ([b.pk], 10)])
    t = tournaments.create_from_plan(plan, trainer)
    for batch in TournamentBatch.objects.filter(tournament=t).order_by("number"):
        tournaments.run_batch(batch.pk)
    assert tournaments.finalise(t.pk) is True
    games = Match.objects.filter(tournament=t)
    assert games.count() == 20
    assert all(m.seats.count() == 2 for m in games)  # the bot and Chaos
    assert Rating.objects.filter(player__in=[a, b]).count() == 2


# -- endings with phases and simultaneous rounds ------------------------------------------
def trend(**extra):
    """The seed's 4P-TrendSetter: 1x3x1 squares, 4 players with one piece each, one
    simultaneous round after another."""
    return compile_game(
        {
            "name": "Trend",
            "players": "4",
            "board": {"type": "squares", "size": [1, 3, 1]},
            "reserves": {c: {"circle": 1} for c in ("black", "white", "pink", "yellow")},
            "turn_checks": [],
            "phases": [{"order": "simultaneous"}],
            **extra,
        }
    )


def round_of(state, *texts):
    for seat, text in enumerate(texts):
        state.apply(seat, state.game.parse_move(text))
    return state


def test_any_piece_wins_counts_every_plan_of_the_round():
    g = trend(stalemate="all-lose", endings=[{"when": "turn"}])
    # white and pink collide on (1,2): destroyed; black and yellow land alone: both win
    s = round_of(g.new_initial_state(), "1,1,1", "1,2,1", "1,2,1", "1,3,1")
    assert s.outcome.results == ("win", "loss", "loss", "win")
    assert s.outcome.detail == "Any piece wins"
    # two collisions: nobody has a piece, nothing is left to place: all players lose
    s = round_of(g.new_initial_state(), "1,1,1", "1,1,1", "1,2,1", "1,2,1")
    assert s.outcome.results == ("loss",) * 4 and s.outcome.reason == "stalemate"


def test_all_win_if_stalemate_any_piece_loses():
    g = trend(stalemate="all-win", endings=[{"when": "turn", "result": "loses"}])
    s = round_of(g.new_initial_state(), "1,1,1", "1,1,1", "1,2,1", "1,3,1")
    assert s.outcome.results == ("win", "win", "loss", "loss")  # pink and yellow placed
    s = round_of(g.new_initial_state(), "1,1,1", "1,1,1", "1,2,1", "1,2,1")
    assert s.outcome.results == ("win",) * 4 and s.outcome.detail.endswith(
        "All players win if stalemate"
    )


def test_stalemate_endings_wait_for_the_last_phase():
    """NeedyTrust's endings with its three phases (only black, only white, only Chaos)."""
    g = compile_game(
        {
            "name": "Needy",
            "players": "2-vs-chaos",
            "board": {"type": "squares", "size": [4, 1, 1]},
            "reserves": {"black": {"circle": 2}, "white": {"circle": 1}, "pink": {"circle": 1}},
            "turn_checks": [],
            "endings": [
                {"comparison": "more-than-chaos"},
                {"comparison": "fewer-than-chaos", "result": "loses"},
            ],
            "phases": [
                {"locked_seats": [2, 3]},
                {"locked_seats": [1, 3]},
                {"locked_seats": [1, 2]},
            ],
        }
    )
    s = g.new_initial_state()
    for text, phase in (("1,1,1", 1), ("2,1,1", 1), ("3,1,1", 2)):
        assert s.outcome is None and s.view(0)["phase"]["number"] == phase
        s.apply(s.to_move()[0], g.parse_move(text))
    assert s.outcome is None and s.view(0)["phase"]["number"] == 3 and s.to_move() == (2,)
    s.apply(2, g.parse_move("4,1,1"))  # Chaos: then nobody can move in the last phase
    assert s.outcome.results == ("win", "draw", "draw")  # black 2 > 1; white 1 = 1
