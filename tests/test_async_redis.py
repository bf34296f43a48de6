"""The bot sockets' asyncio Redis connections pack commands with hiredis
(ownbots/async_redis.py): the same bytes as redis-py's own asyncio packing, and a
socket's client works against the real Redis."""

import asyncio

import pytest
from django.conf import settings
from redis.asyncio import connection as aio
from redis.exceptions import DataError

from ownbots import async_redis

COMMANDS = [
    ("SET", "a", "b"),
    ("EVALSHA", "ab" * 20, 2, "key:1", "key:2", "é ü", b"\x00\xff", 3.5, 1e20, 0.1 + 0.2, -7),
    ("CONFIG GET", "maxmemory"),  # a first argument of two words goes as two
    (b"CLIENT SETNAME", "x" * 70_000),  # a value past the Python packer's cutoff
]


@pytest.mark.parametrize("args", COMMANDS)
def test_hiredis_packs_the_bytes_redis_pys_own_packing_makes(args):
    python = b"".join(bytes(part) for part in aio.Connection().pack_command(*args))
    assert b"".join(async_redis.Connection().pack_command(*args)) == python


def test_a_value_redis_cannot_take_is_refused_as_redis_py_refuses_it():
    with pytest.raises(DataError):
        async_redis.Connection().pack_command("SET", "a", object())


@pytest.mark.skipif(not settings.REDIS_URL, reason="needs Redis (REDIS_URL)")
def test_a_socket_client_talks_to_redis_through_the_packed_connections():
    async def round_trip():
        client = async_redis.from_url(settings.REDIS_URL)
        try:
            assert client.connection_pool.connection_class is async_redis.Connection
            script = client.register_script("return {KEYS[1], ARGV[1], #ARGV}")
            return await script(keys=["vf-test:packed"], args=["é", *range(40)])
        finally:
            await client.aclose()

    key, first, count = asyncio.run(round_trip())
    assert (key, first.decode(), count) == (b"vf-test:packed", "é", 41)
