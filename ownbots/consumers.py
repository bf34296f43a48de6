"""``/ws/bot/``: an own bot's client. It says ``hello`` with its token (or sends it as
``Authorization: Bearer``) and its version; then it is sent "your move" for every seat
the bot holds (live matches and tournament games) and answers with ``move``.

Every check is the server's: the answer must be for a turn of this bot, in time, and a
legal move (live moves go through ``play.services.play``, like a person's). A token is
never logged nor echoed. See play/PROTOCOL.md, "Bring your own bot".
"""

from __future__ import annotations

import asyncio
import logging

from channels.db import database_sync_to_async

from play import notify, services, timekeeper, withdrawn
from play.consumers import JsonConsumer
from play.errors import MatchError

from . import connections, fastlane, hosting, keys, live, turns
from .protocol import MAX_BATCH, MAX_MESSAGE, parse_bot_message, parse_turn_id

log = logging.getLogger(__name__)

HELLO_SECONDS = 10.0  # a connection that has not said hello by then is closed
POLL_SECONDS = 0.25  # look for new turns (tournaments) and matches this often
SWEEP_SECONDS = 2.0  # and re-offer every followed match (a lost group message)
UNAUTHORIZED, REPLACED, DROPPED = 4401, 4409, 4403
HOSTED_KEPT = 20_000  # hosted turns remembered after their batch (an answer is "late")
HOSTED_CLOSE_SECONDS = 2.0  # a closing socket waits this long for its batches to hand back


def _bearer(scope) -> str | None:
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            text = value.decode("latin1").strip()
            if text[:7].lower() == "bearer ":
                return text[7:].strip()
    return None


def db(function, *args, **kwargs):
    return database_sync_to_async(function, thread_sensitive=False)(*args, **kwargs)


class BotConsumer(JsonConsumer):
    parse = staticmethod(parse_bot_message)
    max_message = MAX_MESSAGE  # a ``moves`` message carries up to 200 answers
    # What plays a batch of tournament games handed to this socket (``hosting``): an
    # async function of the consumer and the worker's message; None: this socket hosts
    # none (the worker then asks through the mailbox). The tournaments app sets it
    # (config.asgi routes its consumer): the games are its business.
    host_games = None

    async def connect(self):
        self.player = None
        self.version = ""
        self.batch = False  # the client takes several turns in one message
        self.header_token = _bearer(self.scope)
        self.sent: set[int] = set()  # tournament turns sent on this connection
        self.offered: set[str] = set()  # live turns sent on this connection
        self.matches: set[int] = set()  # live matches followed
        self.closing = False
        self.tasks: list[asyncio.Task] = []
        self.lane: fastlane.Socket | None = None  # with Redis: tournament turns' hot path
        self.hosts: list[hosting.Host] = []  # batches of games played here (``_host``)
        self.hosting: set[asyncio.Task] = set()
        self.hosted_ids: dict[int, None] = {}  # turns of batches over (answered "late")
        await self.accept()
        self.tasks.append(asyncio.create_task(self._expect_hello()))

    async def _expect_hello(self):
        await asyncio.sleep(HELLO_SECONDS)
        if self.player is None and not self.closing:
            await self._refuse("unauthorized", "No hello within 10 s: send hello first.")

    async def _refuse(self, code: str, reason: str, close_code: int = UNAUTHORIZED):
        self.closing = True
        await self.send_json({"type": "error", "code": code, "reason": reason})
        await self.close(code=close_code)

    async def disconnect(self, code):
        self.closing = True
        for task in self.tasks:
            task.cancel()
        for host in self.hosts:  # their games go back to the mailbox
            host.close()
        if self.hosting:  # (they tell their workers so through the lane's Redis)
            await asyncio.wait(self.hosting, timeout=HOSTED_CLOSE_SECONDS)
        if self.lane is not None:
            await self.lane.close()
        if self.player is None:
            return
        await self.channel_layer.group_discard(
            connections.bot_group(self.player.pk), self.channel_name
        )
        for match_id in self.matches:
            await self.channel_layer.group_discard(notify.match_group(match_id), self.channel_name)
        await db(connections.release, self.player.pk, self.channel_name)
        await db(services.disconnect, self.channel_name)  # the reconnect windows open

    async def receive(self, text_data=None, bytes_data=None):
        if self.closing:
            return
        await super().receive(text_data=text_data, bytes_data=bytes_data)

    # -- hello ---------------------------------------------------------------------------

    async def on_hello(self, token, version: str, batch: bool = False):
        if self.player is not None:
            raise MatchError("malformed", "hello: this connection said hello already.")
        player = await db(keys.bot_for_token, token or self.header_token)
        if player is None:
            return await self._refuse(
                "unauthorized", "That token opens no bot (wrong, replaced or revoked)."
            )
        self.player, self.version, self.batch = player, version, batch
        self.lane = fastlane.Socket(player.pk) if fastlane.enabled() else None
        previous = await db(
            connections.claim, player.pk, self.channel_name, timekeeper.PROCESS, version
        )
        if previous:  # told now if it lives; else its own poll finds the row taken
            try:
                await self.channel_layer.send(previous, {"type": "bot.close", "code": "replaced"})
            except Exception:
                log.warning("could not tell bot %s's older connection it was replaced", player.pk)
        await self.channel_layer.group_add(connections.bot_group(player.pk), self.channel_name)
        await self.send_json(
            {
                "type": "welcome",
                "bot": player.name,
                "playerId": player.pk,
                "version": version,
                "replaced": bool(previous),
            }
        )
        self.results_after = await db(live.last_match_id)  # tournament games from now on
        self.tasks.append(asyncio.create_task(self._watch()))
        if self.lane is not None:
            self.tasks.append(asyncio.create_task(self._listen()))

    # -- finding turns -------------------------------------------------------------------

    async def _watch(self):
        loop = asyncio.get_running_loop()
        touched = swept = 0.0
        while not self.closing:
            try:
                if loop.time() - touched >= connections.TOUCH_SECONDS:
                    touched = loop.time()
                    why = await db(connections.still_mine, self.player.pk, self.channel_name)
                    if why:
                        return await self.bot_close({"code": why})
                sweep = loop.time() - swept >= SWEEP_SECONDS
                if sweep:
                    swept = loop.time()
                await self._follow_matches(sweep=sweep)
                await self._send_tournament_turns()
                if sweep:
                    await self._send_tournament_results()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("bot socket of player %s", getattr(self.player, "pk", None))
            await asyncio.sleep(POLL_SECONDS)

    async def _follow_matches(self, sweep: bool):
        active = set(await db(live.active_matches, self.player.pk))
        for match_id in sorted(active - self.matches):
            self.matches.add(match_id)
            await self.channel_layer.group_add(notify.match_group(match_id), self.channel_name)
            await db(live.connect, match_id, self.player, self.channel_name, timekeeper.PROCESS)
            await self._offer(match_id)
        for match_id in sorted(self.matches - active):
            await self._offer(match_id)  # it ended: tell the bot
        if sweep:
            for match_id in sorted(self.matches & active):
                await self._offer(match_id)

    async def _offer(self, match_id: int):
        due, over = await db(live.turns, match_id, self.player, self.version)
        for turn in due:
            if turn["turn"] not in self.offered:
                self.offered.add(turn["turn"])
                await self.send_json(turn)
        if over is not None and match_id in self.matches:
            self.matches.discard(match_id)
            await self.channel_layer.group_discard(notify.match_group(match_id), self.channel_name)
            await self.send_json(
                {"type": "game:over", "match": match_id, "outcome": over.get("outcome")}
            )

    async def _listen(self):
        """Turns a worker publishes for this bot (``fastlane``), sent as they come: no
        poll, no read. The watch loop's look at the open turns still finds any this
        missed (published before the subscription, or while Redis was away)."""
        try:
            await self.lane.subscribe()
            while not self.closing:
                found, host = await self.lane.next_turns(timeout=1.0)
                if host is not None:
                    await self._host(host)
                await self.send_turns(found)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning("bot %s: no turn pushes (the poll carries on)", self.player.pk)

    async def send_turns(self, found: list[tuple[int, int, str]]):
        """Tournament turns, (id, deadline, message text) each, not sent yet on this
        connection (a push and a look may both find one), passed on as text with their
        times: several in one ``your-moves`` to a client that said it takes them."""
        new, now = [], fastlane.now_ms()
        for turn_id, deadline, text in found:
            if turn_id not in self.sent:
                self.sent.add(turn_id)
                new.append(fastlane.timed_text(text, deadline, now))
        await self._send_texts(new)

    async def send_hosted(self, found: list[tuple[int, str]]):
        """A hosted batch's new turns, (id, message text with its times) each
        (``hosting.Host.open``), sent as ``send_turns`` sends (no look finds them twice:
        they are never in the mailbox)."""
        await self._send_texts([text for _turn_id, text in found])

    async def _send_texts(self, new: list[str]):
        if self.closing or not new:
            return
        if self.batch and len(new) > 1:
            for i in range(0, len(new), MAX_BATCH):  # (as many as it may answer at once)
                chunk = ", ".join(new[i : i + MAX_BATCH])
                await self.send_text(f'{{"type": "your-moves", "turns": [{chunk}]}}')
        else:
            for text in new:
                await self.send_text(text)

    async def _send_tournament_turns(self):
        if self.lane is not None:
            found = await self.lane.open_turns(self.sent)
        else:
            found = await db(turns.waiting, self.player.pk, self.sent)
        await self.send_turns(found)

    async def _send_tournament_results(self):
        events, self.results_after = await db(
            live.tournament_results, self.player.pk, self.results_after
        )
        for event in events:
            await self.send_json(event)

    # -- group and channel messages ------------------------------------------------------

    async def match_changed(self, message):
        if self.player is None or self.closing:
            return
        match_id = message.get("match")
        for followed in [match_id] if match_id in self.matches else sorted(self.matches):
            await self._offer(followed)

    async def match_withdrawn(self, message):
        """Its game was hidden or removed: the bot is told and stops following it (its
        moves there are refused, ``live.active_matches`` leaves it out)."""
        match_id = message.get("match")
        if self.player is None or self.closing or match_id not in self.matches:
            return
        self.matches.discard(match_id)
        await self.channel_layer.group_discard(notify.match_group(match_id), self.channel_name)
        await self.send_json({**withdrawn.error_event(), "match": match_id})

    async def bot_wake(self, message):
        if self.player is not None and not self.closing:
            await self._send_tournament_turns()

    async def _host(self, message):
        """A worker hands this socket a batch of games to play here (``hosting``): a task
        of this event loop plays them. A socket that cannot says so at once, and the
        worker asks through the mailbox."""
        play = type(self).host_games
        if message.get("channel") != self.channel_name:
            return  # for a newer connection of the bot (this one is closing)
        if self.player is None or self.closing or play is None:
            return await hosting.delivered(self.lane.redis, message["reply"], {"ok": False})
        task = asyncio.create_task(play(self, message))
        self.hosting.add(task)  # (a task nothing refers to may be collected)
        task.add_done_callback(self.hosting.discard)

    def _hosted_answer(self, turn_id: int, move: str, hosted: set) -> str | None:
        """The code of a hosted turn's answer (None: no hosted batch's turn); the host
        that took it is added to ``hosted`` (its answers are handed over together)."""
        for host in self.hosts:
            code = host.answer(turn_id, move, self.version)
            if code is not None:
                hosted.add(host)
                return code
        return "late" if turn_id in self.hosted_ids else None

    def hosted_over(self, host) -> None:
        """A hosted batch is over: its turns (no rows) are remembered a while, so that
        an answer to one is "late" (as a mailbox turn's), not an unknown turn."""
        self.hosts.remove(host)
        self.hosted_ids.update(dict.fromkeys(host.turns))
        if len(self.hosted_ids) > HOSTED_KEPT:  # the oldest go (a dict keeps its order)
            for turn_id in list(self.hosted_ids)[: len(self.hosted_ids) - HOSTED_KEPT]:
                del self.hosted_ids[turn_id]

    async def bot_close(self, message):
        if self.closing:
            return
        if message.get("code") == "replaced":
            reason = (
                "This bot connected again: the newest connection wins (a client that "
                "reconnects must not wait for its old socket to time out). This one closes."
            )
            return await self._refuse("replaced", reason, REPLACED)
        await self._refuse("unauthorized", "The bot's token was replaced or revoked.", DROPPED)

    # -- messages from the bot -----------------------------------------------------------

    async def _answer(self, answered: list[tuple[int, str]]) -> list[str]:
        """Tournament answers through Redis: one script for all, no database unless one
        is no longer open there (then the database says why). A code per answer."""
        codes = await self.lane.answer(answered, self.version, turns.GRACE_SECONDS)
        for i, ((turn_id, _move), code) in enumerate(zip(answered, codes, strict=True)):
            if code == "missing":
                mine = await db(turns.is_mine, self.player.pk, turn_id)
                codes[i] = "late" if mine else "unknown-turn"
            elif code == "ok":
                self.sent.discard(turn_id)  # closed: no look offers it again
        return codes

    async def on_ping(self):
        self._need_hello()
        await self.send_json({"type": "pong"})

    def _need_hello(self):
        if self.player is None:
            raise MatchError("unauthorized", "Say hello (with your token) first.")

    async def on_move(self, turn: str, move: str):
        self._need_hello()
        if await self._moves([(turn, move)]):
            await self.send_json({"type": "moved", "turn": turn, "move": move})

    async def on_moves(self, moves: list[tuple[str, str]]):
        """Several answers in one message: one ``moved`` names those taken; each refused
        one gets its own ``error``, as a ``move`` would."""
        self._need_hello()
        taken = await self._moves(moves)
        if taken:
            await self.send_json({"type": "moved", "turns": taken})

    async def _moves(self, moves: list[tuple[str, str]]) -> list[str]:
        """Play each (turn, move); the turns taken. Refusals are sent as errors."""
        taken, lane, hosted = [], [], set()
        for turn, move in moves:
            try:
                kind, parts = parse_turn_id(turn)
                if kind == "live":
                    match_id, ply, seat = parts
                    await db(live.play, self.player, match_id, ply, seat, move)
                elif code := self._hosted_answer(parts[0], move, hosted):
                    if code != "ok":
                        raise turns.refused(code, parts[0], move)
                elif self.lane is not None:
                    lane.append((parts[0], move, turn))
                    continue
                else:
                    await db(turns.answer, self.player.pk, parts[0], move, self.version)
                taken.append(turn)
            except MatchError as exc:
                await self.send_json({**exc.event(), "turn": turn})
        for host in hosted:  # a message's answers reach each batch at once
            host.flush()
        if lane:
            codes = await self._answer([(number, move) for number, move, _turn in lane])
            for (number, move, turn), code in zip(lane, codes, strict=True):
                if code == "ok":
                    taken.append(turn)
                else:
                    event = turns.refused(code, number, move).event()
                    await self.send_json({**event, "turn": turn})
        return taken
