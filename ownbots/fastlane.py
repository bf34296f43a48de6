"""The tournament mailbox's hot path in Redis, so that a turn costs no database round trip.

With Redis (``REDIS_URL``) a turn lives, while it is open, in a Redis hash next to its
``BotTurn`` row: the worker writes the hash (the row's id is the turn's id) and publishes
the "your move" on the bot's channel, every turn its games ask in a step in one message;
the bot's socket sends them at once (no poll, no read), and answers them with one script
(``ANSWER``) that checks what ``turns.answer`` checks (the bot's turn, still open, a legal
move, in time), closes them and pushes the moves on the list the worker blocks on
(``BLPOP``). The worker writes the game's turns as rows when it ends
(``turns.record_turns``; their ids come from the table's sequence, a block at a time).
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
import uuid

from django.conf import settings

from play import json_text

KEEP_SECONDS = 300  # an open turn's hash outlives its deadline by this much
_clients: dict[int, object] = {}  # by process id: a prefork child makes its own
_lock = threading.Lock()

# KEYS: the bot's set of open turns, then each answered turn's hash. ARGV: player id,
# version, now (epoch ms), grace (ms), then each turn's id and move. Returns, per turn, "ok"
# or the protocol's error code. One script for a message's answers: the worker finds them
# on its list all at once (its games carry on together), and one round trip for all.
ANSWER = """
local codes = {}
for i = 2, #KEYS do
  local id, move = ARGV[2 * i + 1], ARGV[2 * i + 2]
  local t = redis.call('HMGET', KEYS[i], 'player', 'status', 'deadline', 'legal', 'reply')
  local code = 'ok'
  if not t[1] then code = 'missing'
  elseif t[1] ~= ARGV[1] then code = 'unknown-turn'
  elseif t[2] ~= 'waiting' then code = 'late'
  else
    local legal = false
    for _, m in ipairs(cjson.decode(t[4])) do
      if m == move then legal = true break end
    end
    if not legal then code = 'illegal'
    elseif tonumber(ARGV[3]) > tonumber(t[3]) + tonumber(ARGV[4]) then code = 'late' end
  end
  if code == 'ok' then
    redis.call('HSET', KEYS[i], 'status', 'answered')
    redis.call('SREM', KEYS[1], id)
    redis.call('LPUSH', t[5], cjson.encode({tonumber(id), move, ARGV[2]}))
    redis.call('EXPIRE', t[5], 60)
  end
  codes[#codes + 1] = code
end
return codes
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


def _prefix() -> str:
    """What every key of the mailbox starts with (the settings read once a call: a step
    opening 50 turns reads it once, not three times a turn)."""
    return f"{settings.CHANNEL_PREFIX}:ownbot:"


def _key(*parts) -> str:
    return _prefix() + ":".join(map(str, parts))


def turns_channel(player_id: int) -> str:
    return _key("turns", player_id)


def turn_key(turn_id: int, prefix: str | None = None) -> str:
    return f"{prefix or _prefix()}turn:{turn_id}"


def open_key(player_id: int, prefix: str | None = None) -> str:
    return f"{prefix or _prefix()}open:{player_id}"


def game_key(tournament_id: int, number: int, prefix: str | None = None) -> str:
    return f"{prefix or _prefix()}game:{tournament_id}:{number}"


def reply_key(name) -> str:
    """The list a worker takes answers from: one per asker (``new_reply_key``)."""
    return _key("reply", name)


def new_reply_key() -> str:
    return reply_key(f"{os.getpid()}.{uuid.uuid4().hex}")


def client():
    """This process's Redis client (its pool is thread-safe)."""
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


def now_ms() -> int:
    return int(time.time() * 1000)


def _ms(deadline) -> int:
    return deadline if isinstance(deadline, int) else int(deadline.timestamp() * 1000)


# --- the worker's side ---------------------------------------------------------------------


# KEYS: each turn's hash, its bot's set of open turns and its game's set, in threes, then
# the channels to publish on. ARGV: the keys' time to live (s), the reply list, how many
# turns, then each turn's id, player id, deadline (epoch ms), legal moves (JSON), message
# ("your move" without its times, JSON) and the index of its channel (0: not published).
# Each channel gets its turns in one message (``_published``'s shape), made here: the
# messages cross the network once.
OPEN = r"""
local ttl, reply, n = ARGV[1], ARGV[2], tonumber(ARGV[3])
local texts, deadlines, ids = {}, {}, {}
for i = 0, n - 1 do
  local turn, bots, game = KEYS[3 * i + 1], KEYS[3 * i + 2], KEYS[3 * i + 3]
  local a = 4 + 6 * i
  redis.call('HSET', turn, 'player', ARGV[a + 1], 'status', 'waiting', 'deadline', ARGV[a + 2],
             'legal', ARGV[a + 3], 'reply', reply, 'message', ARGV[a + 4])
  redis.call('EXPIRE', turn, ttl)
  redis.call('SADD', bots, ARGV[a])
  redis.call('SADD', game, ARGV[a])
  redis.call('EXPIRE', game, ttl)
  local channel = tonumber(ARGV[a + 5])
  if channel > 0 then
    texts[channel] = texts[channel] or {}
    deadlines[channel] = deadlines[channel] or {}
    ids[channel] = ids[channel] or {}
    table.insert(texts[channel], ARGV[a + 4])
    table.insert(deadlines[channel], ARGV[a + 2])
    table.insert(ids[channel], ARGV[a])
  end
end
for channel, found in pairs(texts) do
  redis.call('PUBLISH', KEYS[3 * n + channel], '{"ids": [' .. table.concat(ids[channel], ', ') ..
    '], "deadlines": [' .. table.concat(deadlines[channel], ', ') .. ']}\n' ..
    table.concat(found, '\n'))
end
return n
"""


def open_turns(opened: list, reply: str) -> None:
    """Each (turn, message text, publish) of ``opened``: its hash, in its bot's set of
    open turns and its game's; the answer goes on the list ``reply``. The turns to
    ``publish`` (their bot is connected) go to each bot's socket in one message. One
    script: one round trip for all."""
    keys, args, channels = [], [_ttl(), reply, len(opened)], {}
    prefix = _prefix()  # (read for each of three keys a turn, ~40% of this call's time)
    for turn, text, publish in opened:
        game = game_key(turn.tournament_id, turn.game_number, prefix)
        keys += [turn_key(turn.pk, prefix), open_key(turn.player_id, prefix), game]
        legal = getattr(turn, "legal_json", None) or json_text.dumps(turn.legal)
        channel = channels.setdefault(turn.player_id, len(channels) + 1) if publish else 0
        args += [turn.pk, turn.player_id, _ms(turn.deadline), legal, text, channel]
    keys += [turns_channel(player_id) for player_id in channels]  # (in their numbers' order)
    client().eval(OPEN, len(keys), *keys, *args)


HOST_MARK = "host\n"  # a message on a bot's channel that hands its socket games to host


def publish_host(player_id: int, message: dict) -> int:
    """A batch of games for the bot's socket to host (``hosting``), on its channel; how
    many sockets heard it (0: none is listening)."""
    return client().publish(turns_channel(player_id), HOST_MARK + json_text.dumps(message))


def _published(ids: list[int], deadlines: list[int], texts: list[str]) -> str:
    """What a bot's channel carries: a line of the turns' ids and deadlines (JSON), then
    each turn's message (JSON, as stored), a line each. A socket passes the messages on
    as they are (``timed_text``): it never parses nor re-encodes a view."""
    return "\n".join([json.dumps({"ids": ids, "deadlines": deadlines}), *texts])


def _unpublished(data) -> list[tuple[int, int, str]]:
    """(turn id, deadline, message text) of each turn of a message ``_published`` made."""
    head, *texts = (data.decode() if isinstance(data, bytes) else data).split("\n")
    found = json.loads(head)
    return list(zip(found["ids"], found["deadlines"], texts, strict=True))


def timed_text(text: str, deadline: int, now: int | None = None) -> str:
    """A turn's message (JSON text, an object) with its deadline (epoch ms) and the
    seconds left (from ``now``, epoch ms; read here if not given), put in front without
    parsing it."""
    return "{" + times_text(deadline, now) + text[1:]


def times_text(deadline: int, now: int | None = None) -> str:
    """A turn's times as the first members of its message's JSON object."""
    left = max(0.0, (deadline - (now_ms() if now is None else now)) / 1000)
    return f'"deadline": {deadline}, "timeLeft": {left:.3f}, '


def republish(turn, text: str) -> None:
    """The bot (re)connected: its turn (``message`` text) again, with its fresh time."""
    found = _published([turn.pk], [_ms(turn.deadline)], [text])
    client().publish(turns_channel(turn.player_id), found)


def set_deadline(turn) -> None:
    if client().eval(DEADLINE, 1, turn_key(turn.pk), _ms(turn.deadline)):
        client().expire(turn_key(turn.pk), _ttl())


def status(turn_id: int) -> str | None:
    found = client().hget(turn_key(turn_id), "status")
    return None if found is None else found.decode()


def open_ids(player_id: int) -> list[int]:
    return sorted(int(i) for i in client().smembers(open_key(player_id)))


def answers(reply: str, seconds: float, gather: float = 0.0, expect: int = 1) -> list[tuple]:
    """The answers on the list ``reply``, (turn id, move, version): waits up to
    ``seconds`` for the first, takes every other there already (a bot's message of
    several answers pushes them all at once), then, until ``expect`` have come, waits up
    to ``gather`` seconds at a time for more: the games they free then go on together,
    and their next turns reach the bot in one message rather than a trickle of small ones."""
    got = client().blpop([reply], timeout=seconds)
    found = []
    while got is not None:
        found += [got[1], *(client().lpop(reply, 1000) or [])]
        if not gather or len(found) >= expect:
            break
        got = client().blpop([reply], timeout=gather)
    return [tuple(json_text.loads(raw)) for raw in found]


def expire(turn) -> bool:
    """Close the turn unanswered; False if an answer got in first."""
    keys = (turn_key(turn.pk), open_key(turn.player_id))
    return bool(client().eval(EXPIRE, 2, *keys, turn.pk))


def expire_games(tournament_id: int, numbers: list[int]) -> None:
    """Close every turn of these games still open (an earlier try's: its worker died)."""
    keys = [game_key(tournament_id, number) for number in numbers]
    pipe = client().pipeline(transaction=False)
    for key in keys:
        pipe.smembers(key)
    left = [int(raw) for members in pipe.execute() for raw in members]
    for turn_id in left:  # (rare: a game sent again)
        player = client().hget(turn_key(turn_id), "player")
        if player is not None:
            client().eval(EXPIRE, 2, turn_key(turn_id), open_key(int(player)), turn_id)
    if keys:
        client().delete(*keys)


# --- the bot's socket ----------------------------------------------------------------------


def _answer_args(player_id: int, answered: list, version: str, grace: float):
    """KEYS and ARGV of ``ANSWER`` for ``answered``, (turn id, move) each."""
    keys = [open_key(player_id), *(turn_key(turn_id) for turn_id, _ in answered)]
    args = [str(player_id), version, now_ms(), int(grace * 1000)]
    for turn_id, move in answered:
        args += [turn_id, move]
    return keys, args


def _codes(found) -> list[str]:
    return [c.decode() if isinstance(c, bytes) else c for c in found]


def answer(player_id: int, answered: list, version: str, grace: float) -> list[str]:
    """Per (turn id, move) of ``answered``: "ok", an error code, or "missing" (no open
    hash: the database knows)."""
    keys, args = _answer_args(player_id, answered, version, grace)
    return _codes(client().eval(ANSWER, len(keys), *keys, *args))


class Socket:
    """A bot socket's async Redis: its channel's messages and its answers."""

    def __init__(self, player_id: int):
        from .async_redis import from_url

        self.player_id = player_id
        self.redis = from_url(settings.REDIS_URL)
        self.script = self.redis.register_script(ANSWER)
        self.pubsub = None

    async def subscribe(self):
        self.pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self.pubsub.subscribe(turns_channel(self.player_id))

    async def next_turns(self, timeout: float) -> tuple[list[tuple[int, int, str]], dict | None]:
        """The turns of the next message on the bot's channel: (turn id, deadline, message
        text) each; or, when it hands the socket games to host, that message."""
        message = await self.pubsub.get_message(timeout=timeout)
        if message is None:
            return [], None
        data = message["data"]
        if data.startswith(HOST_MARK.encode()):
            return [], json_text.loads(data[len(HOST_MARK) :])
        return _unpublished(data), None

    async def answer(self, answered: list, version: str, grace: float) -> list[str]:
        keys, args = _answer_args(self.player_id, answered, version, grace)
        return _codes(await self.script(keys=keys, args=args))

    async def open_turns(self, skip: set[int]) -> list[tuple[int, int, str]]:
        """The bot's open turns that ``skip`` does not hold, as ``next_turns``."""
        ids = [int(i) for i in await self.redis.smembers(open_key(self.player_id))]
        ids = sorted(i for i in ids if i not in skip)[:50]
        out = []
        now = now_ms()
        for turn_id in ids:
            status, deadline, message = await self.redis.hmget(
                turn_key(turn_id), "status", "deadline", "message"
            )
            if status is None:  # its hash expired: a worker that died long ago
                await self.redis.srem(open_key(self.player_id), turn_id)
            elif status == b"waiting" and int(deadline) > now:
                out.append((turn_id, int(deadline), message.decode()))
        return out

    async def close(self):
        try:
            if self.pubsub is not None:
                await self.pubsub.aclose()
            await self.redis.aclose()
        except Exception:
            pass
