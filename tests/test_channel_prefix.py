"""Two sites on one Redis server never hear each other (issue 39): Redis pub/sub ignores
the database number, so the channel layer's names carry a prefix per site
(``CHANNEL_PREFIX``, by default made from the Redis database number and the site's
database name)."""

from __future__ import annotations

import asyncio
import os
import runpy
import uuid
import warnings

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import site_channel_prefix
from tests.conftest import BASE_DIR

REDIS_URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"


def test_the_default_prefix_differs_by_redis_database_and_site_database():
    a = site_channel_prefix("redis://h:6379/1", "vf_one")
    assert a == site_channel_prefix("redis://h:6379/1", "vf_one")  # stable across processes
    assert a != site_channel_prefix("redis://h:6379/2", "vf_one")
    assert a != site_channel_prefix("redis://h:6379/1", "vf_two")
    assert site_channel_prefix("redis://h:6379", "x") == site_channel_prefix("redis://h/0", "x")
    assert a.isascii() and len(a) <= 40 and " " not in a


def _settings_with(monkeypatch, **env) -> tuple[dict, str]:
    """The channel layer settings.py makes under ``env`` (read afresh, not imported)."""
    for name, value in env.items():
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    made = runpy.run_path(str(BASE_DIR / "config" / "settings.py"))
    return made["CHANNEL_LAYERS"]["default"], made["CHANNEL_PREFIX"]


def test_the_layer_gets_the_prefix_and_it_can_be_set(monkeypatch):
    redis = "redis://127.0.0.1:6379/5"
    layer, prefix = _settings_with(monkeypatch, REDIS_URL=redis, CHANNEL_PREFIX=None)
    assert layer["CONFIG"]["prefix"] == prefix and prefix.startswith("vf5-")
    layer, prefix = _settings_with(monkeypatch, REDIS_URL=redis, CHANNEL_PREFIX="siteb")
    assert layer["CONFIG"]["prefix"] == prefix == "siteb"
    with pytest.raises(ImproperlyConfigured, match="CHANNEL_PREFIX"):
        _settings_with(monkeypatch, REDIS_URL=redis, CHANNEL_PREFIX="site b:1")


def _redis_or_skip() -> None:
    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
    except Exception as exc:
        message = f"NO REDIS at {REDIS_URL} ({exc}): the two-sites test did not run"
        warnings.warn(message, stacklevel=2)
        pytest.skip(message)


@pytest.mark.asyncio
async def test_two_sites_with_different_prefixes_do_not_hear_each_other():
    _redis_or_skip()
    from channels_redis.pubsub import RedisPubSubChannelLayer

    run = uuid.uuid4().hex[:8]
    site_a = RedisPubSubChannelLayer(hosts=[REDIS_URL], prefix=f"a{run}")
    site_a_too = RedisPubSubChannelLayer(hosts=[REDIS_URL], prefix=f"a{run}")
    site_b = RedisPubSubChannelLayer(hosts=[REDIS_URL], prefix=f"b{run}")
    try:
        channel = await site_a.new_channel()
        await site_a.group_add("match-1", channel)
        await asyncio.sleep(0.2)  # the subscription is live
        await site_b.group_send("match-1", {"type": "match.changed", "from": "b"})
        await site_a_too.group_send("match-1", {"type": "match.changed", "from": "a"})
        got = await asyncio.wait_for(site_a.receive(channel), timeout=5)
        assert got["from"] == "a"  # its own site's message, not the other's
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(site_a.receive(channel), timeout=0.5)
    finally:
        for layer in (site_a, site_a_too, site_b):
            await layer.flush()
