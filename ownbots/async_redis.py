"""The bot sockets' asyncio Redis client, its commands packed by hiredis.

redis-py's synchronous connections pack a command with hiredis when it is installed (a
requirement here); its asyncio connections always pack in Python, argument by argument.
A socket's answers go to Redis as one script call of a few dozen arguments a message
(``fastlane.ANSWER``), and packing them was about half of daphne's CPU for an own bot's
turns (benchmarks/own_bot_speed.py). The bytes are the same (tests/test_async_redis.py).
"""

from __future__ import annotations

import redis.asyncio as aioredis
from redis.asyncio import connection as aio
from redis.exceptions import DataError

try:
    import hiredis

    if not hasattr(hiredis, "pack_command"):  # (before hiredis 2.1): Python's packing
        hiredis = None
except ImportError:  # pragma: no cover - a requirement; without it, Python's packing
    hiredis = None


class _HiredisPacking:
    def pack_command(self, *args):
        """As the asyncio connection's, by hiredis (as ``redis.connection``'s own
        ``HiredisRespSerializer``): a first argument with spaces is split into words."""
        if hiredis is None:
            return super().pack_command(*args)
        if isinstance(args[0], str):
            args = (*args[0].encode().split(), *args[1:])
        elif b" " in args[0]:
            args = (*args[0].split(), *args[1:])
        try:
            return [hiredis.pack_command(args)]
        except TypeError as exc:
            raise DataError(exc) from exc


class Connection(_HiredisPacking, aio.Connection):
    pass


def from_url(url: str) -> aioredis.Redis:
    """``redis.asyncio.Redis.from_url(url)``, its TCP connections (redis://) packing with
    hiredis. (For rediss:// and unix:// the URL's own connection class wins over one
    given: those keep Python's packing.)"""
    return aioredis.Redis.from_url(url, connection_class=Connection)
