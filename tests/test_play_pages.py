"""The match pages over HTTP: start form, invitations, match list, match and replay pages."""

from __future__ import annotations

import pytest

from play import services
from play.models import Match
from tests.play_helpers import bot, rule_set, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def ttt(db):
    return rule_set("Tic-Tac-Toe")


def post_start(client, rules, *seats, **extra):
    data = {"game": rules.pk, "afk_timeout": 60, "afk_warning": 20}
    for n, seat in enumerate(seats, 1):
        if isinstance(seat, tuple):
            data[f"seat_{n}"], data[f"invite_{n}"] = seat
        else:
            data[f"seat_{n}"] = seat
    data.update(extra)
    return client.post("/play/", data)


def test_start_against_a_bot(client, creator, ttt):
    easy = bot()
    client.force_login(creator)
    response = post_start(client, ttt, "me", f"player:{easy.pk}")
    match = Match.objects.get()
    assert response.status_code == 302 and response.url == match.get_absolute_url()
    assert match.status == "active"
    assert [s.player for s in match.seats.all()] == [creator.player, easy]


def test_invite_a_person_by_name(client, creator, other_creator, ttt):
    client.force_login(creator)
    post_start(client, ttt, "me", ("invite", other_creator.username.upper()))
    match = Match.objects.get()
    assert match.status == "invited"
    client.force_login(other_creator)
    page = client.get("/matches/")
    assert b"invites you to" in page.content and b"Tic-Tac-Toe" in page.content
    assert client.post(f"/matches/{match.pk}/answer/", {"answer": "accept"}).status_code == 302
    assert Match.objects.get().status == "active"


@pytest.mark.parametrize(
    "seats, field, message",
    [
        (["me", ("invite", "nobody")], "invite_2", "there is no user"),
        (["me", "player:999999"], "seat_2", "valid choice"),
    ],
)
def test_bad_start_forms_say_what_is_wrong(client, creator, ttt, seats, field, message):
    client.force_login(creator)
    response = post_start(client, ttt, *seats)
    assert response.status_code == 400
    assert message in str(response.context["form"].errors[field])
    assert not Match.objects.exists()


def test_bad_game_and_timers(client, creator, ttt):
    client.force_login(creator)
    response = post_start(client, ttt, "me", "open", game="abc", afk_warning=90)
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert "game" in errors
    response = post_start(client, ttt, "me", "open", afk_warning=90)
    assert "afk_warning" in response.context["form"].errors


def test_me_against_next_available_human_pairs_people(client, creator, other_creator, ttt):
    client.force_login(creator)
    post_start(client, ttt, "me", "open")
    client.force_login(other_creator)
    post_start(client, ttt, "me", "open")
    match = Match.objects.get()
    assert match.status == "active"


def test_home_page_prefills_play_new_links(client, creator, ttt):
    client.force_login(creator)
    easy = bot()
    page = client.get(f"/play/?game={ttt.pk}&seat2=player:{easy.pk}")
    form = page.context["form"]
    assert form["game"].value() == ttt.pk and form["seat_2"].value() == f"player:{easy.pk}"
    assert b'data-seats="2"' in client.get("/").content


def test_start_needs_login(client, ttt):
    response = client.get("/play/")
    assert response.status_code == 302 and "/login" in response.url


def test_answer_junk_is_refused_without_error(client, creator, other_creator, ttt, make_user):
    match = start(ttt, creator, creator, other_creator)
    client.force_login(make_user("stranger"))
    response = client.post(f"/matches/{match.pk}/answer/", {"answer": "accept"}, follow=True)
    assert b"no invitation" in response.content
    response = client.post(f"/matches/{match.pk}/answer/", {"answer": "maybe"}, follow=True)
    assert response.status_code == 200
    assert client.post("/matches/999999/answer/", {"answer": "accept"}).status_code == 404
    assert Match.objects.get().status == "invited"


def test_creator_can_call_a_match_off(client, creator, other_creator, ttt):
    match = start(ttt, creator, creator, other_creator)
    client.force_login(creator)
    client.post(f"/matches/{match.pk}/answer/", {"answer": "cancel"})
    assert Match.objects.get().status == "aborted"
    with pytest.raises(services.MatchError):
        services.answer_invitation(match.pk, other_creator, True)


def test_personas_are_made_and_play_for_their_owner(client, creator, other_creator, ttt):
    client.force_login(creator)
    assert client.post("/personas/", {"name": "  Poorer   Novice "}).status_code == 302
    response = client.post("/personas/", {"name": "poorer novice"})
    assert response.status_code == 400 and b"already have a persona" in response.content
    assert client.post("/personas/", {"name": ""}).status_code == 400
    persona = creator.owned_players.get()
    assert persona.name == "Poorer Novice" and persona.kind == "persona"
    response = post_start(client, ttt, "me", f"player:{persona.pk}")
    match = Match.objects.get()
    assert match.status == "active"  # one's own persona needs no invitation
    services.play(match.pk, creator, "1,1,1")
    services.play(match.pk, creator, "2,2,1")  # the persona's move, by its owner
    assert match.moves.count() == 2
    client.force_login(other_creator)
    response = post_start(client, ttt, "me", f"player:{persona.pk}")
    assert response.status_code == 400  # not a choice for anyone else
