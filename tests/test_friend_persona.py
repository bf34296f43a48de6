"""Seed 004's leaderboard: "initiate a game (if a friend or non-human)". A friend's
persona is the friend playing under another name, so its row offers Play New Game
(issue 35: it showed neither Play New Game nor Add to Friends), the start form lists it,
and the match invites its owner, who answers for it."""

from __future__ import annotations

import pytest

from accounts.models import Player
from accounts.services import send_friend_request
from leaderboards.services import default_universe, leaderboard
from play import create
from play.models import Match
from play.reads import invitations_for
from tests.leaderboard_helpers import finish
from tests.play_helpers import bot, rule_set

pytestmark = pytest.mark.django_db


@pytest.fixture
def friends(creator, other_creator):
    send_friend_request(creator, other_creator)
    send_friend_request(other_creator, creator)  # accepts
    return creator, other_creator


def test_a_friends_persona_row_offers_play_new_game(client, friends, make_user):
    me, friend = friends
    game = rule_set("Tic-Tac-Toe")
    masked = Player.objects.create(kind="persona", name="Masked", owner=friend)
    stranger = Player.objects.create(kind="persona", name="Veiled", owner=make_user("stan"))
    b = bot("Bot")
    for p in (masked, stranger):
        finish(game, [p, b], ["win", "loss"])
    action = {
        r.player.display_name: r.action for r in leaderboard(game, default_universe(), me).rows
    }
    assert action["Masked"] == "play" and action["Veiled"] == "friend"
    client.force_login(me)
    html = client.get(f"/games/{game.pk}/leaderboard/").content.decode()
    link = f"seat2=player:{masked.pk}"
    assert link in html and 'aria-label="Play New Game against Masked"' in html
    # The link's start form has the persona chosen in seat 2.
    start = client.get(f"/play/?game={game.pk}&{link}").content.decode()
    assert f'<option value="player:{masked.pk}" selected>' in start
    assert "Masked (a friend&#x27;s persona)" in start


def test_the_match_invites_the_personas_owner(client, friends, make_user):
    me, friend = friends
    game = rule_set("Tic-Tac-Toe")
    masked = Player.objects.create(kind="persona", name="Masked", owner=friend)
    client.force_login(me)
    form = {"game": game.pk, "seat_1": "me", "seat_2": f"player:{masked.pk}"}
    response = client.post("/play/", {**form, "afk_timeout": 60, "afk_warning": 20})
    assert response.status_code == 302, response.content.decode()[:2000]
    match = Match.objects.get()
    assert match.status == Match.Status.INVITED
    assert [s.invitation for s in match.seats.order_by("index")] == ["accepted", "pending"]
    assert invitations_for(friend) == [match] and invitations_for(me) == []
    with pytest.raises(create.MatchError):
        create.answer_invitation(match.pk, make_user("eve"), True)
    create.answer_invitation(match.pk, friend, True)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    # A stranger's persona is still refused.
    veiled = Player.objects.create(kind="persona", name="Veiled", owner=make_user("stan"))
    response = client.post(
        "/play/", {**form, "seat_2": f"player:{veiled.pk}", "afk_timeout": 60, "afk_warning": 20}
    )
    assert response.status_code == 400
    assert Match.objects.count() == 1
