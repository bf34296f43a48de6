"""Own bots' pages: registering (Trainers and Admins only), the token shown once,
replacing it, revoking it after a confirmation, and the bot's page (connected or not,
its version, its games, its record per version), the start form and the benchmark."""

from __future__ import annotations

import pytest

from accounts.models import Player
from ownbots import connections, keys
from ownbots.models import BotKey, GameVersion
from play import services
from tests.play_helpers import rule_set, start

pytestmark = pytest.mark.django_db


def test_only_trainers_and_admins_see_and_use_the_bot_pages(client, creator, trainer):
    assert client.get("/bots/").status_code == 302  # to log in
    client.force_login(creator)
    assert client.get("/bots/").status_code == 403
    assert client.post("/bots/", {"name": "Sneaky"}).status_code == 403
    assert not Player.objects.filter(kind="ownbot").exists()
    assert "My bots" not in client.get(creator.player.get_absolute_url()).content.decode()
    client.force_login(trainer)
    assert "My bots" in client.get(trainer.player.get_absolute_url()).content.decode()
    assert client.get("/bots/").status_code == 200
    page = client.post("/bots/", {"name": "x"})
    assert page.status_code == 400 and "name: 3 to 40 characters." in page.content.decode()


def test_the_token_is_shown_once_and_can_be_replaced_and_revoked(client, trainer, creator):
    client.force_login(trainer)
    page = client.post("/bots/", {"name": "Learner"})
    assert page.status_code == 200 and page["Cache-Control"] == "no-store"
    bot = Player.objects.get(kind="ownbot", name="Learner")
    token = page.context["token"]
    assert token in page.content.decode() and keys.bot_for_token(token) == bot
    bot_page = client.get(bot.get_absolute_url()).content.decode()
    assert token not in bot_page and "Not connected" in bot_page and "Replace the token" in bot_page
    replaced = client.post(f"/bots/{bot.pk}/token/", {"confirm": "yes"})
    new = replaced.context["token"]
    assert new != token and keys.bot_for_token(token) is None and keys.bot_for_token(new) == bot
    confirm = client.get(f"/bots/{bot.pk}/revoke/")
    assert "Yes, revoke the token" in confirm.content.decode()
    assert keys.bot_for_token(new) == bot  # asking is not revoking
    client.post(f"/bots/{bot.pk}/revoke/", {"confirm": "yes"})
    assert keys.bot_for_token(new) is None and BotKey.objects.get(player=bot).revoked
    client.force_login(creator)
    assert client.post(f"/bots/{bot.pk}/token/").status_code == 403
    assert client.get(f"/bots/{bot.pk}/revoke/").status_code == 403
    assert "Replace the token" not in client.get(bot.get_absolute_url()).content.decode()


def test_the_bot_page_shows_connection_version_games_and_record_per_version(
    client, trainer, creator
):
    bot, _ = keys.register(trainer, "Learner")
    connections.claim(bot.pk, "chan", "proc", "v3.1")
    game = rule_set("Tic-Tac-Toe")
    for version in ("v1", "v2"):
        match = start(game, creator, creator, bot)
        GameVersion.objects.create(match=match, seat=1, player=bot, version=version)
        for text, who in [("1,1,1", 0), ("1,2,1", 1), ("2,1,1", 0), ("2,2,1", 1), ("3,1,1", 0)]:
            if who == 0:
                services.play(match.pk, creator, text)
            else:
                from ownbots.live import play

                play(bot, match.pk, match.moves.count(), 1, text)
    page = client.get(bot.get_absolute_url())
    html = page.content.decode()
    assert "Connected" in html and "v3.1" in html
    rows = page.context["bot_versions"]
    assert [(r.version, r.games, r.losses) for r in rows] == [("v1", 1, 1), ("v2", 1, 1)]
    assert len(page.context["bot_games"]) == 2 and "version v2" in html


def test_a_match_against_an_own_bot_starts_from_the_start_form(client, trainer, creator):
    from play.models import Match

    bot, _ = keys.register(trainer, "Learner")
    keys.set_open_to_challenges(trainer, bot, True)  # others may seat it (test_production_ops)
    game = rule_set("Tic-Tac-Toe")
    client.force_login(creator)
    data = {"game": game.pk, "afk_timeout": 60, "afk_warning": 20}
    response = client.post("/play/", {**data, "seat_1": "me", "seat_2": f"player:{bot.pk}"})
    match = Match.objects.get()
    assert response.status_code == 302 and match.status == "active"  # no invitation
    assert [s.player for s in match.seats.order_by("index")] == [creator.player, bot]
    # the creator cannot move for it: only the bot's own client can
    services.play(match.pk, creator, "1,1,1")
    with pytest.raises(services.MatchError) as refused:
        services.play(match.pk, creator, "2,2,1", seat=1)
    assert refused.value.code == "not-seated"


def test_own_bots_are_in_the_start_form_and_the_benchmark_form(trainer, creator):
    from play.forms import seat_options
    from tournaments.forms import PlanForm

    bot, _ = keys.register(trainer, "Learner")
    keys.set_open_to_challenges(trainer, bot, True)
    assert (f"player:{bot.pk}", "Learner (own bot, not connected)") in seat_options(creator)
    connections.claim(bot.pk, "chan", "proc", "v1")
    assert (f"player:{bot.pk}", "Learner (own bot)") in seat_options(creator)
    form = PlanForm(user=trainer)
    assert (str(bot.pk), "Learner") in form.fields["set1_seat1"].choices


def test_the_evolution_page_draws_a_curve_per_version(client, trainer, creator):
    """The learning curve: an own bot's rating history cut by the version that played."""
    from leaderboards.services import rate_match
    from ownbots.live import play

    bot, _ = keys.register(trainer, "Learner")
    game = rule_set("Tic-Tac-Toe")
    for version in ("v1", "v1", "v2"):
        match = start(game, creator, creator, bot)
        GameVersion.objects.create(match=match, seat=1, player=bot, version=version)
        for text, who in [("1,1,1", 0), ("1,2,1", 1), ("2,1,1", 0), ("2,2,1", 1), ("3,1,1", 0)]:
            if who == 0:
                services.play(match.pk, creator, text)
            else:
                play(bot, match.pk, match.moves.count(), 1, text)
        rate_match(match.pk)  # the commit hook's work (this test runs in one transaction)
    client.force_login(trainer)
    url = f"/games/{game.pk}/evolution/?players={bot.pk}"
    whole = client.get(url).context["chart"].curves
    assert [c.name for c in whole] == ["Learner"] and len(whole[0].points) == 4
    split = client.get(url + "&versions=1").context["chart"].curves
    assert [c.name for c in split] == ["Learner v1", "Learner v2"]
    assert [x for x, _ in split[0].points] == [0, 1, 2]
    assert [x for x, _ in split[1].points] == [2, 3]  # joined at the last v1 match
    assert split[1].points[-1] == whole[0].points[-1]
