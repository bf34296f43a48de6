"""Friends: requests sent, accepted, declined, banned and lifted; the friends page; the
start form's friend seats."""

from __future__ import annotations

import pytest

from accounts.models import FriendRequest, Player
from accounts.services import (
    FriendshipRefused,
    answer_friend_request,
    are_friends,
    ban_user,
    friend_user_ids,
    send_friend_request,
    unban,
    unfriend,
)
from play.forms import seat_options

pytestmark = pytest.mark.django_db


def test_request_accept_and_unfriend(creator, other_creator):
    row = send_friend_request(creator, other_creator)
    assert row.state == "requested" and not are_friends(creator, other_creator)
    with pytest.raises(FriendshipRefused, match="still waiting"):
        send_friend_request(creator, other_creator)
    answer_friend_request(other_creator, row.pk, "accept")
    assert are_friends(creator, other_creator) and are_friends(other_creator, creator)
    with pytest.raises(FriendshipRefused, match="already friends"):
        send_friend_request(other_creator, creator)
    unfriend(other_creator, creator)
    assert friend_user_ids(creator) == set()


def test_asking_back_accepts(creator, other_creator):
    send_friend_request(creator, other_creator)
    row = send_friend_request(other_creator, creator)
    assert row.state == "accepted" and FriendRequest.objects.count() == 1


def test_decline_then_ask_again(creator, other_creator):
    row = send_friend_request(creator, other_creator)
    answer_friend_request(other_creator, row.pk, "decline")
    assert FriendRequest.objects.get().state == "declined"
    assert send_friend_request(creator, other_creator).state == "requested"


def test_ban_stops_requests_until_lifted(creator, other_creator):
    row = send_friend_request(creator, other_creator)
    answer_friend_request(other_creator, row.pk, "ban")
    with pytest.raises(FriendshipRefused, match="cannot send"):
        send_friend_request(creator, other_creator)
    unban(other_creator, row.pk)
    assert send_friend_request(creator, other_creator).state == "requested"
    ban_user(other_creator, creator)
    assert FriendRequest.objects.get(sender=creator).state == "banned"


def test_only_the_recipient_answers(creator, other_creator, make_user):
    row = send_friend_request(creator, other_creator)
    for who in (creator, make_user("eve")):
        with pytest.raises(FriendshipRefused):
            answer_friend_request(who, row.pk, "accept")
    with pytest.raises(FriendshipRefused):
        answer_friend_request(other_creator, row.pk, "maybe")
    with pytest.raises(FriendshipRefused):
        send_friend_request(creator, creator)


def test_friends_are_seat_options(creator, other_creator):
    send_friend_request(creator, other_creator)
    assert "otto (friend)" not in dict(seat_options(creator)).values()
    send_friend_request(other_creator, creator)
    options = dict(seat_options(creator))
    assert options[f"player:{other_creator.player.pk}"] == "otto (friend)"


def test_friends_page_flow(client, creator, other_creator, make_user):
    client.force_login(creator)
    assert client.get("/friends/").status_code == 200
    response = client.post("/friends/request/", {"username": "OTTO"})
    assert response.status_code == 302 and response.url == "/friends/"
    assert "Waiting" in client.get("/friends/").content.decode()
    html = client.post("/friends/request/", {"username": "ghost"}, follow=True).content.decode()
    assert "There is no person" in html
    client.force_login(other_creator)
    html = client.get("/friends/").content.decode()
    assert 'data-testid="incoming-request"' in html and "carla" in html
    row = FriendRequest.objects.get()
    client.post(f"/friends/{row.pk}/answer/", {"answer": "accept"})
    html = client.get("/friends/").content.decode()
    assert 'data-testid="friend"' in html and 'data-testid="play-friend"' in html
    client.post(f"/friends/{creator.pk}/remove/")
    assert not FriendRequest.objects.exists()


def test_add_to_friends_from_a_leaderboard_row(client, creator, other_creator):
    persona = Player.objects.create(kind="persona", name="Alter", owner=other_creator)
    client.force_login(creator)
    back = "/games/1/leaderboard/"
    response = client.post("/friends/request/", {"player": persona.pk, "next": back})
    assert response.url == back
    assert FriendRequest.objects.get().recipient == other_creator
    response = client.post("/friends/request/", {"player": "x", "next": "https://evil.example/"})
    assert response.url == "/friends/"


def test_friend_pages_need_a_login(client):
    assert client.get("/friends/").status_code == 302
    assert client.post("/friends/request/", {"username": "x"}).status_code == 302
    assert client.get("/friends/request/").status_code in (302, 405)
