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
