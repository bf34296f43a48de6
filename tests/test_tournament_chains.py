"""A worker's chain (``run_batches``): one message per chain, queued batches claimed in
groups that grow with the pace, each batch taken once, every game written once, the
last chain rating the games itself, and a chain out of time handing on with one
message."""

from __future__ import annotations

import pytest

from accounts.services import random_player
from leaderboards.models import RatingHistory, Tournament, TournamentBatch
from leaderboards.services import default_universe
from play.models import Match
from tests.play_helpers import bot, rule_set
from tournaments import chains as tournament_chains
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db


def make(trainer, games=60):
    players = [bot("A", "easy").pk, random_player().pk]
    plan = tournaments.Plan(rule_set("Tic-Tac-Toe"), default_universe(), "T", [(players, games)])
    return tournaments.create_from_plan(plan, trainer)


def batch_ids(t):
    return list(
        TournamentBatch.objects.filter(tournament=t).order_by("number").values_list("id", flat=True)
    )


def test_start_sends_one_message_a_chain(trainer, no_broker, settings):
    settings.TOURNAMENT_CHAINS = 3
    t = make(trainer)
    tournaments.start(t.pk)
    assert [s[1] for s in no_broker if s[0] == "run_batch"] == batch_ids(t)[:3]


def test_group_size_doubles_at_most_and_shrinks_at_once():
    fast, slow = 0.001, 10 * tournament_chains.GROUP_SECONDS
    assert tournament_chains._group_size(1, 1, fast) == 2
    assert tournament_chains._group_size(4, 4, fast) == 8
    assert tournament_chains._group_size(16, 16, fast) == tournament_chains.MAX_GROUP
    assert tournament_chains._group_size(8, 8, slow) == 1
    # half the target per batch: two batches fit
    assert tournament_chains._group_size(8, 1, tournament_chains.GROUP_SECONDS / 2) == 2


def test_claims_take_the_lowest_queued_batches_once(trainer, no_broker):
    t = make(trainer)
    ids = batch_ids(t)
    first = tournaments.claim_next(t.pk, 2)
    second = tournaments.claim_next(t.pk, 3)
    assert [c.id for c in first] == ids[:2] and [c.id for c in second] == ids[2:5]
    assert tournaments.claim_next(t.pk, 10) and tournaments.claim_next(t.pk, 1) == []
    assert not TournamentBatch.objects.filter(tournament=t, state="queued").exists()
    Tournament.objects.filter(pk=t.pk).update(status="failed")
    TournamentBatch.objects.filter(pk=ids[0]).update(state="queued")
    assert tournaments.claim_next(t.pk, 5) == []  # not from a stopped tournament


def test_a_claim_near_the_end_takes_a_share_of_what_is_left(trainer, no_broker):
    t = make(trainer, games=100)  # 10 batches
    sizes = [len(tournaments.claim_next(t.pk, 8, share=4)) for _ in range(6)]
    # ceil(10/4)=3, ceil(7/4)=2, ceil(5/4)=2, ceil(3/4)=1, 1, 1: never more than a
    # quarter of the queued batches, rounded up, and never more than asked for
    assert sizes == [3, 2, 2, 1, 1, 1]
    assert tournaments.claim_next(t.pk, 8, share=4) == []
    again = make(trainer, games=100)
    assert len(tournaments.claim_next(again.pk, 2, share=2)) == 2  # the size still bounds it
    assert len(tournaments.claim_next(again.pk, 8)) == 8  # no share: the whole group


def test_one_chain_plays_every_game_once_in_growing_groups_and_rates_them(
    trainer, no_broker, monkeypatch, settings
):
    t = make(trainer, games=100)
    groups = []
    run = tournament_chains._run_claimed

    def recording(tournament, batches, known=None):
        groups.append([b.id for b in batches])
        return run(tournament, batches, known)

    monkeypatch.setattr(tournament_chains, "_run_claimed", recording)
    monkeypatch.setattr(tournament_chains, "GROUP_SECONDS", 1e6)  # every group may double
    settings.TOURNAMENT_CHAINS = 2  # a group takes at most half of what is queued
    assert tournaments.run_batches(batch_ids(t)[0]) == 100
    # 1 (its message's), then doubling (2, 4) until half of what is queued, rounded up,
    # is less (2 of 3, then 1 of 1)
    assert [len(g) for g in groups] == [1, 2, 4, 2, 1]
    assert [i for g in groups for i in g] == batch_ids(t)
    assert sorted(Match.objects.filter(tournament=t).values_list("game_number", flat=True)) == (
        list(range(1, 101))
    )
    t.refresh_from_db()
    assert t.status == "done" and t.ratings_through == 100
    assert RatingHistory.objects.filter(match__tournament=t).count() == 200
    assert not [s for s in no_broker if s[0] == "finalise"]  # rated here, not sent


def test_a_chain_out_of_time_hands_on_with_one_message(trainer, no_broker):
    t = make(trainer)
    ids = batch_ids(t)
    assert tournaments.run_batches(ids[0], seconds=0) == 10
    assert [s for s in no_broker if s[0] == "run_batch"] == [("run_batch", ids[1])]
    assert Tournament.objects.get(pk=t.pk).status == "running"


def test_a_second_chain_finds_its_batch_taken_and_takes_the_next(trainer, no_broker):
    t = make(trainer, games=30)
    ids = batch_ids(t)
    tournaments.claim_next(t.pk, 1)  # the first chain holds batch 1
    assert tournaments.run_batches(ids[0]) == 20  # batches 2 and 3
    assert TournamentBatch.objects.get(pk=ids[0]).state == "running"
    assert Tournament.objects.get(pk=t.pk).status == "running"  # game 1-10 still missing


@pytest.mark.parametrize("at_once, groups", [(10, [1, 1, 1, 1, 1]), (20, [2, 2, 1]), (50, [5])])
def test_a_tournament_with_an_own_bot_is_claimed_about_its_games_at_once(
    trainer, no_broker, monkeypatch, settings, at_once, groups
):
    """Its games wait on a client: a chain claims about ``OWNBOT_GAMES_AT_ONCE`` games
    (whole batches of 10) from its first group on (its own batch and as many more: a
    first batch alone left most of a small tournament waiting for it), and writes each
    group as it ends,
    whatever the pace (never the large groups of games that do not wait). Here the bot
    never connects and each game forfeits after a short wait."""
    from tests.ownbot_helpers import own_bot

    settings.OWNBOT_WAIT_SECONDS = 0.01
    settings.OWNBOT_GAMES_AT_ONCE = at_once
    player, _ = own_bot(trainer)
    plan = tournaments.Plan(
        rule_set("Tic-Tac-Toe"), default_universe(), "T", [([player.pk, random_player().pk], 50)]
    )
    t = tournaments.create_from_plan(plan, trainer)
    claimed = []
    run = tournament_chains._run_claimed

    def recording(tournament, batches, known=None):
        claimed.append(len(batches))
        return run(tournament, batches, known)

    monkeypatch.setattr(tournament_chains, "_run_claimed", recording)
    monkeypatch.setattr(tournament_chains, "GROUP_SECONDS", 1e6)
    assert tournaments.run_batches(batch_ids(t)[0]) == 50
    assert claimed == groups
    assert Tournament.objects.get(pk=t.pk).status == "done"


def board():
    """Every rating row and history row of the tournament games, comparable."""
    from leaderboards.models import Rating

    rows = Rating.objects.order_by("player_id").values_list(
        "player_id", "mu", "sigma", "ordinal", "top_burst", "score", "matches", "last_match",
        "level_since",
    )  # fmt: skip
    history = RatingHistory.objects.order_by("id").values_list(
        "match__game_number", "player_id", "mu_before", "mu_after", "sigma_after", "at"
    )
    return list(rows), list(history)


def one_by_one(t):
    """The reference: each game rated alone by ``rate_match``, in game order."""
    from leaderboards.models import Rating
    from leaderboards.services import rate_match

    Rating.objects.all().delete()  # and their history
    for pk in Match.objects.filter(tournament=t).order_by("game_number").values_list("pk"):
        rate_match(pk[0])
    return board()


def two_sets(trainer, games=30, rules=None):
    a, b, r = bot("A", "easy").pk, bot("B", "medium").pk, random_player().pk
    plan = tournaments.Plan(
        rules or rule_set("Tic-Tac-Toe"), default_universe(), "T",
        [([a, r], games), ([a, b], games)],
    )  # fmt: skip
    return tournaments.create_from_plan(plan, trainer)


@pytest.mark.parametrize("chaos", [False, True])
def test_chains_rate_their_games_as_they_write_them_in_game_order(trainer, no_broker, chaos):
    """A group written behind a gap waits; the chain that fills the gap rates its own
    games from memory and the waiting ones read back: the ratings of one game at a time
    in game order (with a Chaos seat too, which is never rated)."""
    rules = rule_set("Chaos-TTT", players="2-vs-chaos") if chaos else None
    t = two_sets(trainer, rules=rules)
    ids = batch_ids(t)
    held = tournaments.claim_next(t.pk, 1)  # another chain holds games 1-10
    assert tournaments.run_batches(ids[1]) == 50  # this one plays 11-60
    t.refresh_from_db()
    assert t.ratings_through == 0 and not RatingHistory.objects.exists()  # behind a gap
    assert tournament_chains._run_claimed(t, held).written == 10
    t.refresh_from_db()
    # 1-10 and the waiting 50: the last game rated, the tournament is done (no finaliser)
    assert t.status == "done" and t.ratings_through == 60
    assert RatingHistory.objects.count() == 120
    chained = board()
    assert [h[0] for h in chained[1][::2]] == list(range(1, 61))
    assert chained == one_by_one(t)


def test_a_failed_rating_leaves_the_games_to_the_finaliser(trainer, no_broker, monkeypatch):
    from leaderboards import chain_ratings

    def broken(todo):
        raise RuntimeError("rating failed")

    t = two_sets(trainer, games=10)
    monkeypatch.setattr(chain_ratings, "rate_entries", broken)
    monkeypatch.setattr(tournament_chains, "finalise", lambda pk: False)  # not yet
    assert tournaments.run_batches(batch_ids(t)[0]) == 20
    t.refresh_from_db()
    assert t.status == "finalising" and t.ratings_through == 0
    assert Match.objects.filter(tournament=t).count() == 20 and not RatingHistory.objects.exists()
    monkeypatch.undo()
    assert tournaments.finalise(t.pk)
    assert board() == one_by_one(t) and RatingHistory.objects.count() == 40


def test_a_batch_sent_again_with_every_game_written_writes_nothing(trainer, no_broker):
    t = make(trainer, games=20)
    first = batch_ids(t)[0]
    assert tournaments.run_batch(first) == 10
    TournamentBatch.objects.filter(pk=first).update(state="queued", sends=2)  # the reconciler
    assert tournaments.run_batch(first) == 0
    assert Match.objects.filter(tournament=t).count() == 10
    assert Tournament.objects.get(pk=t.pk).ratings_through == 10


@pytest.mark.django_db(transaction=True)  # real commits: SET LOCAL ends with its transaction
def test_a_chains_commit_does_not_wait_for_the_disk_but_the_finishing_one_does(
    trainer, no_broker, monkeypatch
):
    """PostgreSQL: the chain's transaction sets synchronous_commit off for itself only
    (SET LOCAL); the transaction that marks the tournament done sets it back (its commit
    waits for the disk, and with it every commit before it), and everything after the
    chain keeps the server's."""
    from django.db import connection

    from tournaments import finishing

    if connection.vendor != "postgresql":
        pytest.skip("synchronous_commit is PostgreSQL's")

    def show() -> str:
        with connection.cursor() as cursor:
            cursor.execute("SHOW synchronous_commit")
            return cursor.fetchone()[0]

    seen = []
    rate, results = tournament_chains.rate_written, finishing.results
    monkeypatch.setattr(
        tournament_chains, "rate_written", lambda *a: (seen.append(("chain", show())), rate(*a))[1]
    )
    monkeypatch.setattr(
        finishing, "results", lambda *a: (seen.append(("done", show())), results(*a))[1]
    )
    before = show()
    t = make(trainer, games=20)
    assert tournaments.run_batches(batch_ids(t)[0]) == 20
    assert seen[0] == ("chain", "off") and seen[-1] == ("done", before) and before != "off"
    assert show() == before and Tournament.objects.get(pk=t.pk).status == "done"


def test_the_chain_that_rates_the_last_game_marks_the_tournament_done_itself(
    trainer, no_broker, monkeypatch, settings
):
    """In the transaction that rated the last game: no empty claim, count or finaliser
    after it."""

    def never(*args, **kwargs):
        raise AssertionError("not after the last game was rated")

    claims = []
    claim = tournament_chains.claim_next

    def counted(*args):
        claims.append(claim(*args))
        return claims[-1]

    monkeypatch.setattr(tournament_chains, "finalise", never)
    monkeypatch.setattr(tournament_chains, "maybe_finalise", never)
    monkeypatch.setattr(tournament_chains, "claim_next", counted)
    monkeypatch.setattr(tournament_chains, "GROUP_SECONDS", 1e6)
    settings.TOURNAMENT_CHAINS = 1
    t = make(trainer, games=30)
    assert tournaments.run_batches(batch_ids(t)[0]) == 30
    assert [len(c) for c in claims] == [2]  # batches 2-3, and no claim after them
    t.refresh_from_db()
    assert t.status == "done" and t.ratings_through == 30 and t.finished is not None
    assert t.results["games"] == 30 and t.touched is None
    assert not TournamentBatch.objects.filter(tournament=t).exclude(state="done").exists()
    assert not [s for s in no_broker if s[0] == "finalise"]


def test_a_failed_finish_in_the_chain_leaves_it_to_the_finaliser(trainer, no_broker, monkeypatch):
    from tournaments import finishing

    calls = []
    results = finishing.results

    def first_fails(t, *more):
        calls.append(t.pk)
        if len(calls) == 1:
            raise RuntimeError("results failed")
        return results(t, *more)

    monkeypatch.setattr(finishing, "results", first_fails)
    t = make(trainer, games=20)
    assert tournaments.run_batches(batch_ids(t)[0]) == 20
    t.refresh_from_db()
    assert len(calls) == 2  # the chain's, rolled back; then the finaliser's
    assert t.status == "done" and t.results["games"] == 20 and t.ratings_through == 20
    assert RatingHistory.objects.filter(match__tournament=t).count() == 40


def test_the_results_count_every_game_from_its_rows(trainer, no_broker):
    """The results' one statement against the rows read one by one."""
    t = make(trainer, games=40)
    assert tournaments.run_batches(batch_ids(t)[0]) == 40
    t.refresh_from_db()
    r = t.results
    matches = list(Match.objects.filter(tournament=t).prefetch_related("seats"))
    draws = sum(1 for m in matches if not any(s.result == "win" for s in m.seats.all()))
    first, last = min(m.started for m in matches), max(m.finished for m in matches)
    assert r["games"] == 40 and r["draw_rate"] == draws / 40
    assert r["average_moves"] == round(sum(m.ply for m in matches) / 40, 2)
    assert (r["started"], r["finished"]) == (first.isoformat(), last.isoformat())
    assert r["seconds"] == (last - first).total_seconds()
    names = {p["name"]: p["games"] for p in r["players"]}
    assert names == {"A": 40, "Random": 40}


def test_a_chains_claims_are_prepared_on_postgresql(trainer, no_broker):
    """The claim (``play.prepared``): its text is the same every time, and PostgreSQL
    plans it once a connection has run it ``prepare_threshold`` times."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    threshold = connection.settings_dict["OPTIONS"]["prepare_threshold"]
    t = make(trainer, games=10 * (threshold + 2))
    for _ in range(threshold + 1):
        assert len(tournaments.claim_next(t.pk, 1, share=2)) == 1
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any(s.startswith('UPDATE "leaderboards_tournamentbatch" SET "state"') for s in prepared)
