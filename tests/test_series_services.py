"""Seed 001's intermissions through ``play.services``: up to 30 s after a game for every
player to say Ready; the next game then starts with the same players, colours swapped.
The deadline is a column (a restarted process keeps it), fired with a fake clock."""

from __future__ import annotations

from datetime import timedelta

import pytest

from play import services
from play.errors import MatchError
from play.models import Match
from tests.play_helpers import bot, human, later, near, rule_set, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def ultimate(db):
    return rule_set("Ultimate-Tic-Tac-Toe")


def fresh(match) -> Match:
    return Match.objects.get(pk=match.pk)


def finished(rule, creator, other_creator) -> Match:
    match = start(rule, creator, creator, other_creator)
    services.answer_invitation(match.pk, other_creator, accept=True)
    services.resign(match.pk, other_creator)
    return fresh(match)


def players(match) -> list[int]:
    return [s.player_id for s in match.seats.order_by("index")]


def test_a_finished_game_opens_a_30_second_intermission(ultimate, creator, other_creator):
    match = finished(ultimate, creator, other_creator)
    assert match.status == "finished" and match.series_game == 1
    left = (match.intermission_deadline - match.finished).total_seconds()
    assert left == services.INTERMISSION_SECONDS == 30
    assert match.wake_at == match.intermission_deadline  # the timekeeper looks then
    assert match.pk not in services.due_matches(near(match.intermission_deadline, -1))
    assert match.pk in services.due_matches(near(match.intermission_deadline, 1))


def test_everyone_ready_starts_the_next_game_with_colours_swapped(ultimate, creator, other_creator):
    match = finished(ultimate, creator, other_creator)
    services.series_ready(match.pk, creator)
    assert fresh(match).series_ready == [human(creator).pk]
    assert not Match.objects.filter(previous=match).exists()  # still waiting for Otto
    services.series_ready(match.pk, creator)  # twice: no harm
    services.series_ready(match.pk, other_creator)
    old = fresh(match)
    assert old.series_end == "next" and old.intermission_deadline is None and old.wake_at is None
    new = Match.objects.get(previous=match)
    assert new.status == "active" and new.series_game == 2
    assert players(new) == players(match)[::-1]  # X and O swap
    assert all(s.invitation == "accepted" for s in new.seats.all())  # nobody re-invited
    assert new.rule_set == match.rule_set and new.rated == match.rated
    assert new.afk_timeout == match.afk_timeout and new.turn_deadline is not None
    # The new game has its own series: game 2 ends, game 3 swaps back.
    services.resign(new.pk, creator)
    for user in (creator, other_creator):
        services.series_ready(new.pk, user)
    third = Match.objects.get(previous=new)
    assert third.series_game == 3 and players(third) == players(match)


def test_the_intermission_runs_out_and_the_series_ends(ultimate, creator, other_creator):
    match = finished(ultimate, creator, other_creator)
    services.series_ready(match.pk, creator)  # Otto never says Ready
    services.expire_timers(match.pk, near(match.intermission_deadline, -1))
    assert fresh(match).intermission_deadline is not None  # not yet
    # Another process (or this one, restarted) reads the deadline from the row.
    services.expire_timers(match.pk, later(31))
    old = fresh(match)
    assert old.series_end == "expired" and old.intermission_deadline is None
    assert old.wake_at is None and match.pk not in services.due_matches(later(60))
    assert not Match.objects.filter(previous=match).exists()
    with pytest.raises(MatchError) as err:
        services.series_ready(match.pk, other_creator)
    assert err.value.code == "not-allowed"


def test_bots_are_always_ready(ultimate, creator):
    easy = bot()
    match = start(ultimate, creator, creator, easy)
    services.resign(match.pk, creator)
    assert fresh(match).intermission_deadline is not None
    services.series_ready(match.pk, creator)  # the only person
    new = Match.objects.get(previous=match)
    assert players(new) == [easy.pk, human(creator).pk] and new.status == "active"


def test_spectators_cannot_say_ready(ultimate, creator, other_creator, make_user):
    match = finished(ultimate, creator, other_creator)
    with pytest.raises(MatchError) as err:
        services.series_ready(match.pk, make_user("wendy"))
    assert err.value.code == "not-seated"
    with pytest.raises(MatchError):  # nor anyone before the game is over
        live = start(ultimate, creator, creator, bot())
        services.series_ready(live.pk, creator)


def test_no_series_for_bots_alone_a_called_off_match_or_a_classic_game(
    ultimate, creator, other_creator
):
    match = start(ultimate, creator, bot("A"), bot("B"))
    for _ in range(200):
        if fresh(match).status == "finished":
            break
        services.server_move(match.pk, later(60))
    match = fresh(match)
    assert match.status == "finished" and match.intermission_deadline is None
    invited = start(ultimate, creator, creator, other_creator)
    services.cancel(invited.pk, creator)
    assert fresh(invited).intermission_deadline is None
    # The classic games keep seed 003's protocol: no series.
    classic = finished(rule_set("Tic-Tac-Toe"), creator, other_creator)
    assert classic.intermission_deadline is None and classic.wake_at is None


def test_the_state_event_tells_the_series(ultimate, creator, other_creator):
    match = finished(ultimate, creator, other_creator)
    series = services.snapshot(match.pk, creator)["series"]
    deadline = int(fresh(match).intermission_deadline.timestamp() * 1000)
    assert series["game"] == 1 and series["deadline"] == deadline
    assert sorted(series["people"]) == sorted(players(match)) and series["ready"] == []
    for user in (creator, other_creator):
        services.series_ready(match.pk, user)
    series = services.snapshot(match.pk, creator)["series"]
    new = Match.objects.get(previous=match)
    assert series["end"] == "next" and series["next"] == new.get_absolute_url()
    assert services.snapshot(new.pk, creator)["series"]["game"] == 2
    assert (new.started - fresh(match).finished) < timedelta(seconds=30)
