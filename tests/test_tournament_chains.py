"""A worker's chain (``run_batches``): one message per chain, queued batches claimed in
groups that grow with the pace, each batch taken once, every game written once, the
last chain rating the games itself, and a chain out of time handing on with one
message."""

from __future__ import annotations

import pytest

from accounts.services import random_player
from leaderboards import tournaments
from leaderboards.models import RatingHistory, Tournament, TournamentBatch
from leaderboards.services import default_universe
from play.models import Match
from tests.play_helpers import bot, rule_set

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
    fast, slow = 0.001, 10 * tournaments.GROUP_SECONDS
    assert tournaments._group_size(1, 1, fast) == 2
    assert tournaments._group_size(4, 4, fast) == 8
    assert tournaments._group_size(16, 16, fast) == tournaments.MAX_GROUP
    assert tournaments._group_size(8, 8, slow) == 1
    # half the target per batch: two batches fit
    assert tournaments._group_size(8, 1, tournaments.GROUP_SECONDS / 2) == 2


def test_claims_take_the_lowest_queued_batches_once(trainer, no_broker):
    t = make(trainer)
    ids = batch_ids(t)
    first = tournaments._claim_next(t.pk, 2)
    second = tournaments._claim_next(t.pk, 3)
    assert [c.id for c in first] == ids[:2] and [c.id for c in second] == ids[2:5]
    assert tournaments._claim_next(t.pk, 10) and tournaments._claim_next(t.pk, 1) == []
    assert not TournamentBatch.objects.filter(tournament=t, state="queued").exists()
    Tournament.objects.filter(pk=t.pk).update(status="failed")
    TournamentBatch.objects.filter(pk=ids[0]).update(state="queued")
    assert tournaments._claim_next(t.pk, 5) == []  # not from a stopped tournament


def test_one_chain_plays_every_game_once_in_growing_groups_and_rates_them(
    trainer, no_broker, monkeypatch
):
    t = make(trainer, games=100)
    groups = []
    run = tournaments._run_claimed

    def recording(tournament, batches, known=None):
        groups.append([b.id for b in batches])
        return run(tournament, batches, known)

    monkeypatch.setattr(tournaments, "_run_claimed", recording)
    monkeypatch.setattr(tournaments, "GROUP_SECONDS", 1e6)  # every group may double
    assert tournaments.run_batches(batch_ids(t)[0]) == 100
    assert [len(g) for g in groups] == [1, 2, 4, 3]
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
    tournaments._claim_next(t.pk, 1)  # the first chain holds batch 1
    assert tournaments.run_batches(ids[0]) == 20  # batches 2 and 3
    assert TournamentBatch.objects.get(pk=ids[0]).state == "running"
    assert Tournament.objects.get(pk=t.pk).status == "running"  # game 1-10 still missing


def test_a_tournament_with_an_own_bot_is_claimed_a_batch_at_a_time(
    trainer, no_broker, monkeypatch, settings
):
    """Its games wait on a client: each batch is written (progress shown) on its own.
    Here the bot never connects and each game forfeits after a short wait."""
    from tests.ownbot_helpers import own_bot

    settings.OWNBOT_WAIT_SECONDS = 0.01
    player, _ = own_bot(trainer)
    plan = tournaments.Plan(
        rule_set("Tic-Tac-Toe"), default_universe(), "T", [([player.pk, random_player().pk], 30)]
    )
    t = tournaments.create_from_plan(plan, trainer)
    groups = []
    run = tournaments._run_claimed

    def recording(tournament, batches, known=None):
        groups.append(len(batches))
        return run(tournament, batches, known)

    monkeypatch.setattr(tournaments, "_run_claimed", recording)
    monkeypatch.setattr(tournaments, "GROUP_SECONDS", 1e6)
    assert tournaments.run_batches(batch_ids(t)[0]) == 30
    assert groups == [1, 1, 1]
    assert Tournament.objects.get(pk=t.pk).status == "done"
