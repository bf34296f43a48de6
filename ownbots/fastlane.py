"""The tournament mailbox's hot path in Redis, so that a turn costs one round trip.

With Redis (``REDIS_URL``) a turn lives, while it is open, in a Redis hash next to its
``BotTurn`` row: the worker writes both (the row's id is the turn's id) and publishes
the "your move" on the bot's channel; the bot's socket sends it at once (no poll, no
read), and answers it with one script (``ANSWER``) that checks what ``turns.answer``
checks (the bot's turn, still open, a legal move, in time), closes it and pushes the
move on a list the worker blocks on (``BLPOP``). No database round trip on the way: the
worker writes the game's turns as rows when it ends (``turns.record_turns``; their ids
come from the table's sequence, taken a block at a time).
The hash's status is the truth while the turn is open: answered at most once, by one
atomic script, and ``EXPIRE`` (the worker giving up) is the same script's other side.
Without Redis (the embedded shape) the web process and the worker share no channel: the
database is the mailbox and both poll (``turns``).
"""

from __future__ import annotations

import json
import os
import threading
import time

from django.conf import settings

KEEP_SECONDS = 300  # an open turn's hash outlives its deadline by this much
_clients: dict[int, object] = {}  # by process id: a prefork child makes its own
_lock = threading.Lock()

# KEYS: the turn's hash, the bot's set of open turns. ARGV: player id, move, version,
# now (epoch ms), grace (ms), turn id. Returns "ok" or the protocol's error code.
ANSWER = """
local t = redis.call('HMGET', KEYS[1], 'player', 'status', 'deadline', 'legal', 'reply')
if not t[1] then return 'missing' end
if t[1] ~= ARGV[1] then return 'unknown-turn' end
if t[2] ~= 'waiting' then return 'late' end
local legal = false
for _, m in ipairs(cjson.decode(t[4])) do
  if m == ARGV[2] then legal = true break end
end
if not legal then return 'illegal' end
if tonumber(ARGV[4]) > tonumber(t[3]) + tonumber(ARGV[5]) then return 'late' end
redis.call('HSET', KEYS[1], 'status', 'answered')
redis.call('SREM', KEYS[2], ARGV[6])
redis.call('LPUSH', t[5], cjson.encode({ARGV[2], ARGV[3]}))
redis.call('EXPIRE', t[5], 60)
return 'ok'
"""
# KEYS: the turn's hash, the bot's set. ARGV: turn id. 1 if the turn was open (now closed).
EXPIRE = """
if redis.call('HGET', KEYS[1], 'status') ~= 'waiting' then return 0 end
redis.call('HSET', KEYS[1], 'status', 'expired')
redis.call('SREM', KEYS[2], ARGV[1])
return 1
"""
# KEYS: the turn's hash. ARGV: deadline (epoch ms). Only an open turn's.
DEADLINE = """
if redis.call('HGET', KEYS[1], 'status') ~= 'waiting' then return 0 end
redis.call('HSET', KEYS[1], 'deadline', ARGV[1])
return 1
"""


def enabled() -> bool:
    return bool(settings.REDIS_URL)


def _key(*parts) -> str:
    return ":".join([settings.CHANNEL_PREFIX, "ownbot", *map(str, parts)])


def turns_channel(player_id: int) -> str:
    return _key("turns", player_id)


def turn_key(turn_id: int) -> str:
    return _key("turn", turn_id)


def open_key(player_id: int) -> str:
    return _key("open", player_id)


def game_key(tournament_id: int, number: int) -> str:
    return _key("game", tournament_id, number)


def reply_key(turn_id: int) -> str:
    return _key("reply", turn_id)


def client():
    """This process's Redis client (its pool is thread-safe: a worker's games share it)."""
    pid = os.getpid()
    found = _clients.get(pid)
    if found is None:
        import redis

        with _lock:
            found = _clients.get(pid) or redis.Redis.from_url(settings.REDIS_URL)
            _clients.clear()  # an inherited parent's client is not used after a fork
            _clients[pid] = found
    return found


def _ttl() -> int:
    """How long an open turn's hash is kept: past any deadline it may have from now."""
    return int(settings.OWNBOT_WAIT_SECONDS + settings.OWNBOT_MOVE_SECONDS) + KEEP_SECONDS


def _now_ms() -> int:
    return int(time.time() * 1000)


# --- the worker's side ---------------------------------------------------------------------


def open_turn(turn, message: dict, publish: bool) -> None:
    """The turn's hash, in the bot's set of open turns; published to its socket if
    ``publish`` (the bot is connected)."""
    pipe = client().pipeline(transaction=False)  # in order on one connection: enough
    key = turn_key(turn.pk)
    pipe.hset(
        key,
        mapping={
            "player": str(turn.player_id),
            "status": "waiting",
            "deadline": str(int(turn.deadline.timestamp() * 1000)),
            "legal": json.dumps(turn.legal),
            "reply": reply_key(turn.pk),
            "message": json.dumps(message),  # the "your move" without its times
        },
    )
    pipe.expire(key, _ttl())
    pipe.sadd(open_key(turn.player_id), turn.pk)
    pipe.sadd(game_key(turn.tournament_id, turn.game_number), turn.pk)
    pipe.expire(game_key(turn.tournament_id, turn.game_number), _ttl())
    if publish:
        pipe.publish(turns_channel(turn.player_id), json.dumps(timed(message, turn.deadline)))
    pipe.execute()


def timed(message: dict, deadline) -> dict:
    """``message`` with its deadline (epoch ms) and the seconds left."""
    at = deadline if isinstance(deadline, int) else int(deadline.timestamp() * 1000)
    return {**message, "deadline": at, "timeLeft": max(0.0, (at - _now_ms()) / 1000)}


def republish(turn, message: dict) -> None:
    """The bot (re)connected: its turn again, with its fresh time."""
    client().publish(turns_channel(turn.player_id), json.dumps(timed(message, turn.deadline)))


def set_deadline(turn) -> None:
    if client().eval(DEADLINE, 1, turn_key(turn.pk), int(turn.deadline.timestamp() * 1000)):
        client().expire(turn_key(turn.pk), _ttl())


def status(turn_id: int) -> str | None:
    found = client().hget(turn_key(turn_id), "status")
    return None if found is None else found.decode()


def open_ids(player_id: int) -> list[int]:
    return sorted(int(i) for i in client().smembers(open_key(player_id)))


def wait(turn_id: int, seconds: float) -> tuple[str, str] | None:
    """The answer (move, version) if it comes within ``seconds``, else None."""
    got = client().blpop([reply_key(turn_id)], timeout=seconds)
    if got is None:
        return None
    move, version = json.loads(got[1])
    return move, version


def expire(turn) -> bool:
    """Close the turn unanswered; False if an answer got in first."""
    keys = (turn_key(turn.pk), open_key(turn.player_id))
    return bool(client().eval(EXPIRE, 2, *keys, turn.pk))


def expire_game(tournament_id: int, number: int) -> None:
    """Close every turn of this game still open (an earlier try's: its worker died)."""
    key = game_key(tournament_id, number)
    for raw in client().smembers(key):
        turn_id = int(raw)
        player = client().hget(turn_key(turn_id), "player")
        if player is not None:
            client().eval(EXPIRE, 2, turn_key(turn_id), open_key(int(player)), turn_id)
    client().delete(key)


# --- the bot's socket ----------------------------------------------------------------------


def _answer_args(player_id: int, turn_id: int, move: str, version: str, grace: float):
    keys = (turn_key(turn_id), open_key(player_id))
    args = (str(player_id), move, version, _now_ms(), int(grace * 1000), turn_id)
    return keys, args


def answer(player_id: int, turn_id: int, move: str, version: str, grace: float) -> str:
    """ "ok", an error code, or "missing" (no open hash: the database knows)."""
    keys, args = _answer_args(player_id, turn_id, move, version, grace)
    found = client().eval(ANSWER, 2, *keys, *args)
    return found.decode() if isinstance(found, bytes) else found


class Socket:
    """A bot socket's async Redis: its channel's messages and its answers."""

    def __init__(self, player_id: int):
        import redis.asyncio as aioredis

        self.player_id = player_id
        self.redis = aioredis.Redis.from_url(settings.REDIS_URL)
        self.script = self.redis.register_script(ANSWER)
        self.pubsub = None

    async def subscribe(self):
        self.pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self.pubsub.subscribe(turns_channel(self.player_id))

    async def next_turn(self, timeout: float) -> dict | None:
        message = await self.pubsub.get_message(timeout=timeout)
        return None if message is None else json.loads(message["data"])

    async def answer(self, turn_id: int, move: str, version: str, grace: float) -> str:
        keys, args = _answer_args(self.player_id, turn_id, move, version, grace)
        found = await self.script(keys=list(keys), args=list(args))
        return found.decode() if isinstance(found, bytes) else found

    async def open_turns(self, skip: set[int]) -> list[dict]:
        """The bot's open turns that ``skip`` does not hold, with their times."""
        ids = [int(i) for i in await self.redis.smembers(open_key(self.player_id))]
        ids = sorted(i for i in ids if i not in skip)[:50]
        out = []
        now = _now_ms()
        for turn_id in ids:
            status, deadline, message = await self.redis.hmget(
                turn_key(turn_id), "status", "deadline", "message"
            )
            if status is None:  # its hash expired: a worker that died long ago
                await self.redis.srem(open_key(self.player_id), turn_id)
            elif status == b"waiting" and int(deadline) > now:
                out.append(timed(json.loads(message), int(deadline)))
        return out

    async def close(self):
        try:
            if self.pubsub is not None:
                await self.pubsub.aclose()
            await self.redis.aclose()
        except Exception:
            pass
