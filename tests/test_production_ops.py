"""Issue 32, running in production: replacing an own bot's token asks first (it
disconnects the running client), as revoking does."""

from __future__ import annotations

import pytest

from ownbots import connections, keys

pytestmark = pytest.mark.django_db


def test_replacing_a_token_asks_first_and_says_the_client_is_disconnected(client, trainer):
    bot, token = keys.register(trainer, "Learner")
    connections.claim(bot.pk, "chan", "proc", "v7")
    client.force_login(trainer)
    bot_page = client.get(bot.get_absolute_url()).content.decode()
    assert f'href="/bots/{bot.pk}/token/"' in bot_page  # a link to the question, not a button
    asked = client.get(f"/bots/{bot.pk}/token/")
    html = asked.content.decode()
    assert asked.status_code == 200 and "Yes, replace the token" in html
    assert "is connected now (version v7)" in html and "disconnected" in html
    assert keys.bot_for_token(token) == bot  # asking is not replacing
    unconfirmed = client.post(f"/bots/{bot.pk}/token/")
    assert unconfirmed.status_code == 200
    assert "Yes, replace the token" in unconfirmed.content.decode()
    assert keys.bot_for_token(token) == bot and connections.current(bot.pk) is not None
    replaced = client.post(f"/bots/{bot.pk}/token/", {"confirm": "yes"})
    new = replaced.context["token"]
    assert keys.bot_for_token(token) is None and keys.bot_for_token(new) == bot


def test_a_revoked_bot_gets_a_new_token_at_once(client, trainer, creator):
    bot, _ = keys.register(trainer, "Learner")
    keys.revoke(trainer, bot)
    client.force_login(trainer)
    assert "Make a new token" in client.get(bot.get_absolute_url()).content.decode()
    made = client.post(f"/bots/{bot.pk}/token/")
    assert keys.bot_for_token(made.context["token"]) == bot
    client.force_login(creator)
    assert client.get(f"/bots/{bot.pk}/token/").status_code == 403
    assert client.post(f"/bots/{bot.pk}/token/", {"confirm": "yes"}).status_code == 403


# --- the evolution page --------------------------------------------------------------------


def _bot_with_versions(trainer, creator, game, versions):
    """An own bot with one rated match per entry of ``versions`` (its version that game)."""
    from ownbots.models import GameVersion
    from tests.leaderboard_helpers import finish

    bot, _ = keys.register(trainer, "Learner")
    for version in versions:
        match = finish(game, [creator.player, bot], ["win", "loss"])
        GameVersion.objects.create(match=match, seat=1, player=bot, version=version)
    return bot


def test_the_legend_counts_matches_not_the_thinned_points(client, trainer, creator, monkeypatch):
    from leaderboards import stats
    from tests.play_helpers import rule_set

    monkeypatch.setattr(stats, "MAX_POINTS", 4)  # a long history, thinned to 4 points
    game = rule_set("Tic-Tac-Toe")
    bot = _bot_with_versions(trainer, creator, game, ["v1"] * 5 + ["v2"] * 4)
    client.force_login(trainer)
    url = f"/games/{game.pk}/evolution/?players={bot.pk}&players={creator.player.pk}"
    page = client.get(url)
    learner, _carla = page.context["chart"].curves
    assert len(learner.points) == 4
    html = page.content.decode()
    assert html.count("after 9 matches") == 2  # the bot and its opponent, in the legend
    table = html[html.index("<tbody>") : html.index("</tbody>")]
    assert table.count("<td>9</td>") == 2  # the numbers' "Matches" column
    split = client.get(url + "&measure=score&versions=1")
    html = split.content.decode()
    assert "after 5 matches" in html and "after 4 matches" in html


def test_every_series_has_its_own_colour(client, trainer, creator, make_user):
    from tests.play_helpers import rule_set

    game = rule_set("Tic-Tac-Toe")
    bot = _bot_with_versions(trainer, creator, game, ["v1", "v2", "v3"])
    others = [make_user(f"rival{i}") for i in range(6)]  # 8 players: MAX_CURVES
    from tests.leaderboard_helpers import finish

    for rival in others:
        finish(game, [rival.player, creator.player], ["draw", "draw"])
    client.force_login(trainer)
    chosen = [creator.player.pk, bot.pk] + [u.player.pk for u in others]
    query = "&".join(f"players={pk}" for pk in chosen)
    curves = client.get(f"/games/{game.pk}/evolution/?{query}&versions=1").context["chart"].curves
    assert len(curves) == 10  # carla, three versions, six rivals: more than the palette
    colours = [c.color for c in curves]
    assert len(set(colours)) == len(colours), colours


# --- who may seat an own bot ------------------------------------------------------------------


def test_only_the_owner_seats_an_own_bot_unless_it_is_open_to_challenges(client, trainer, creator):
    from play.forms import seat_options
    from play.models import Match
    from tests.play_helpers import rule_set

    bot, _ = keys.register(trainer, "Learner")
    game = rule_set("Tic-Tac-Toe")
    data = {"game": game.pk, "afk_timeout": 60, "afk_warning": 20, "seat_1": "me"}
    seat_bot = {**data, "seat_2": f"player:{bot.pk}"}
    assert f"player:{bot.pk}" not in dict(seat_options(creator))
    assert f"player:{bot.pk}" in dict(seat_options(trainer))
    client.force_login(creator)
    page = client.get(bot.get_absolute_url()).content.decode()
    assert "Only its owner may seat Learner in a live match" in page
    assert "Open it to challenges" not in page  # not the creator's to change
    refused = client.post("/play/", seat_bot)
    html = refused.content.decode()
    assert refused.status_code in (200, 400) and not Match.objects.exists()
    assert "only its owner may seat it until they open it to challenges" in html
    assert client.post(f"/bots/{bot.pk}/challenges/", {"open": "1"}).status_code == 403
    assert client.post("/play/", {**data, "seat_2": "player:999999999"}).status_code in (200, 400)
    assert not Match.objects.exists()  # no such player: refused, never a server error

    client.force_login(trainer)  # the owner seats it, and opens it to challenges
    assert client.post("/play/", seat_bot).status_code == 302
    assert client.post(f"/bots/{bot.pk}/challenges/", {"open": "maybe"}).status_code == 400
    assert client.post(f"/bots/{bot.pk}/challenges/", {"open": "1"}).status_code == 302
    assert "Close it to challenges" in client.get(bot.get_absolute_url()).content.decode()

    client.force_login(creator)
    assert (
        "Open to challenges: anyone may seat Learner"
        in client.get(bot.get_absolute_url()).content.decode()
    )
    assert client.post("/play/", seat_bot).status_code == 302
    assert Match.objects.filter(seats__player=bot).count() == 2
