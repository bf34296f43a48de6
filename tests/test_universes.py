"""Universes made by players: putting personas in and out, starting matches in one, and
the ratings landing there only."""

from __future__ import annotations

import pytest

from accounts.personas import create_persona
from leaderboards.models import Rating, Universe
from leaderboards.services import default_universe, rate_match
from leaderboards.universes import MAX_PER_PERSONA, UniverseError, join, leave
from play.models import Match
from tests.play_helpers import bot, rule_set
from tests.test_play_pages import post_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def ttt(db):
    return rule_set("Tic-Tac-Toe")


def test_naming_a_universe_makes_it_and_others_join_it_by_name(creator, other_creator):
    mine = create_persona(creator, "Alter")
    universe, persona, made = join(creator, "  Night   Club ", mine.pk)
    assert made and persona == mine
    assert universe.name == "Night Club" and universe.slug == "night-club"
    assert universe.created_by == creator and list(universe.members.all()) == [mine]
    theirs = create_persona(other_creator, "Shadow")
    again, _, made = join(other_creator, "night club", theirs.pk)
    assert again == universe and not made and universe.members.count() == 2
    assert leave(other_creator, "night-club", theirs.pk) == (universe, theirs)
    assert list(universe.members.all()) == [mine]


@pytest.mark.parametrize(
    "name, message",
    [
        ("x", "2 to 64 characters"),
        ("!!", "needs a letter or a digit"),
        ("Public Universe", "Everyone is in the Public Universe"),
        ("main", "Everyone is in the Public Universe"),
    ],
)
def test_bad_universe_names_are_refused(creator, name, message):
    persona = create_persona(creator, "Alter")
    with pytest.raises(UniverseError, match=message):
        join(creator, name, persona.pk)
    assert not Universe.objects.exclude(pk=default_universe().pk).exists()


def test_only_your_own_personas_and_not_twice(creator, other_creator):
    theirs = create_persona(other_creator, "Shadow")
    with pytest.raises(UniverseError, match="one of your personas"):
        join(creator, "Lab", theirs.pk)
    with pytest.raises(UniverseError, match="one of your personas"):
        join(creator, "Lab", creator.player.pk)  # the person themself is not a persona
    with pytest.raises(UniverseError, match="one of your personas"):
        join(creator, "Lab", "1; drop")
    mine = create_persona(creator, "Alter")
    join(creator, "Lab", mine.pk)
    with pytest.raises(UniverseError, match="in Lab already"):
        join(creator, "LAB", mine.pk)
    for n in range(2, MAX_PER_PERSONA + 1):
        join(creator, f"World {n}", mine.pk)
    with pytest.raises(UniverseError, match=f"{MAX_PER_PERSONA} universes already"):
        join(creator, "One Too Many", mine.pk)
    assert not Universe.objects.filter(name="One Too Many").exists()


def test_the_personas_page_puts_a_persona_in_and_takes_it_out(client, creator, ttt):
    persona = create_persona(creator, "Alter")
    client.force_login(creator)
    page = client.post(
        "/personas/",
        {"action": "join", "universe": "Lab", "persona": persona.pk},
        follow=True,
    ).content.decode()
    assert "You made Lab; Alter is in it" in page and 'data-testid="leave-universe"' in page
    lab = Universe.objects.get(name="Lab")
    refused = client.post(
        "/personas/", {"action": "join", "universe": "x", "persona": persona.pk}, follow=True
    )
    assert refused.status_code == 200 and "2 to 64 characters" in refused.content.decode()
    page = client.post(
        "/personas/",
        {"action": "leave", "universe": "lab", "persona": persona.pk},
        follow=True,
    ).content.decode()
    assert "Alter left Lab; its ratings stay" in page and not lab.members.exists()
    page = client.post(
        "/personas/",
        {"action": "leave", "universe": "lab", "persona": persona.pk},
        follow=True,
    ).content.decode()
    assert "is not in that universe" in page


def test_a_match_started_in_a_universe_is_rated_there_only(client, creator, ttt):
    client.force_login(creator)
    assert 'data-testid="start-universe"' not in client.get("/play/").content.decode()
    persona = create_persona(creator, "Alter")
    lab, _, _ = join(creator, "Lab", persona.pk)
    assert 'data-testid="start-universe"' in client.get("/play/").content.decode()
    easy = bot()
    response = post_start(client, ttt, f"player:{persona.pk}", f"player:{easy.pk}", universe="lab")
    match = Match.objects.get()
    assert response.status_code == 302 and match.universe == lab
    page = client.get(match.get_absolute_url()).content.decode()
    assert "Rated in Lab" in page
    seats = list(match.seats.order_by("index"))
    seats[0].result, seats[0].rank, seats[1].result, seats[1].rank = "win", 1, "loss", 2
    for seat in seats:
        seat.save()
    match.status, match.outcome = Match.Status.FINISHED, {"reason": "victory"}
    match.save()
    assert rate_match(match.pk)
    assert Rating.objects.filter(universe=lab, player=persona).exists()
    assert not Rating.objects.filter(universe=default_universe()).exists()


def test_matchmaking_and_strange_universes_are_refused(client, creator, ttt):
    persona = create_persona(creator, "Alter")
    join(creator, "Lab", persona.pk)
    client.force_login(creator)
    response = post_start(client, ttt, "me", "open", universe="lab")
    assert "Public Universe only" in response.content.decode()
    response = post_start(client, ttt, "me", f"player:{bot().pk}", universe="elsewhere")
    assert "Select a valid choice" in response.content.decode()
    assert not Match.objects.exists()
