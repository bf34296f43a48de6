"""Turn any ``choose(view, legal_moves) -> move`` into a bot playing on Variant Foundry.

    from foundry_bot import run
    run("wss://example.org/ws/bot/", token, lambda view, legal: legal[0], version="v1")

The client connects to ``/ws/bot/``, says ``hello`` with the token and the version, and
answers every ``your-move`` with ``choose(view, legal)`` (run on a thread, so a slow
choice never blocks the socket; a choice that would miss the deadline is still sent: the
server then says ``late``). It says it takes several turns at once (``batch``): the
tournament turns that came together arrive as one ``your-moves`` and are answered with
one ``moves``, so a trainer's bot plays many games of a tournament at full speed.
It reconnects with a growing pause (0.5 s up to 30 s) when the
connection drops, and stops for good on a refused token or when a newer connection of
the same bot replaced it. SIGINT/SIGTERM (Ctrl-C) close the socket cleanly.
Uses only the ``websockets`` library (pip install websockets); reads the server's
messages with ``orjson`` when it is installed (several times faster on a batch of views).
"""

from __future__ import annotations

import asyncio
import json
import logging
import signal
from collections.abc import Callable

import websockets

try:  # optional: a batch of turns is mostly views, and orjson reads them several times faster
    from orjson import loads as _loads
except ImportError:  # pragma: no cover - the standard library's does the same, slower
    _loads = json.loads

log = logging.getLogger("foundry_bot")

FINAL_CODES = {"unauthorized", "replaced"}  # reconnecting would not help
MAX_BATCH = 200  # answers the server takes in one ``moves`` message


class Stopped(Exception):
    """The server ended this bot's session for good (the reason is the message)."""


class BotClient:
    def __init__(
        self,
        url: str,
        token: str,
        choose: Callable,
        version: str = "0",
        *,
        reconnect: bool = True,
        max_pause: float = 30.0,
        on_event: Callable[[dict], None] | None = None,
    ):
        self.url, self.token, self.choose, self.version = url, token, choose, version
        self.reconnect, self.max_pause = reconnect, max_pause
        self.on_event = on_event or (lambda event: None)
        self._stop = asyncio.Event()
        self._socket = None
        self.moves = 0  # answered turns, over every connection
        self.games_over = 0

    def stop(self) -> None:
        """Ask the client to close and return (safe from a signal handler)."""
        self._stop.set()

    async def run_async(self) -> None:
        pause = 0.5
        while not self._stop.is_set():
            try:
                await self._session()
                pause = 0.5  # a session that ended normally: try again soon
            except Stopped as final:
                log.error("stopped: %s", final)
                raise
            except (OSError, websockets.ConnectionClosed, websockets.InvalidHandshake) as exc:
                log.warning("connection lost (%s); again in %.1f s", type(exc).__name__, pause)
            if not self.reconnect or self._stop.is_set():
                return
            try:
                await asyncio.wait_for(self._stop.wait(), pause)
            except TimeoutError:
                pass
            pause = min(self.max_pause, pause * 2)

    async def _session(self) -> None:
        headers = {"Authorization": f"Bearer {self.token}"}
        async with websockets.connect(self.url, additional_headers=headers) as socket:
            self._socket = socket
            hello = {"type": "hello", "version": self.version, "batch": True}
            await socket.send(json.dumps(hello))
            stopper = asyncio.ensure_future(self._stop.wait())
            try:
                while True:
                    receiving = asyncio.ensure_future(socket.recv())
                    done, _ = await asyncio.wait(
                        {receiving, stopper}, return_when=asyncio.FIRST_COMPLETED
                    )
                    if stopper in done:
                        receiving.cancel()
                        await socket.close(1000, "bot stopping")
                        return
                    await self._handle(socket, _loads(receiving.result()))
            finally:
                stopper.cancel()
                self._socket = None

    async def _handle(self, socket, event: dict) -> None:
        self.on_event(event)
        kind = event.get("type")
        if kind == "your-move":
            try:
                move = await asyncio.to_thread(self.choose, event["view"], event["legal"])
            except Exception:  # the bot's own bug: say so, keep the connection (its timer runs)
                log.exception("choose() failed on turn %s", event.get("turn"))
                return
            await socket.send(json.dumps({"type": "move", "turn": event["turn"], "move": move}))
            self.moves += 1
        elif kind == "your-moves":
            await self._handle_many(socket, event["turns"])
        elif kind == "game:over":
            self.games_over += 1
        elif kind == "welcome":
            log.info("connected as %s (%s)", event.get("bot"), event.get("version"))
        elif kind == "error":
            log.warning("server: %s: %s", event.get("code"), event.get("reason"))
            if event.get("code") in FINAL_CODES:
                raise Stopped(f"{event.get('code')}: {event.get('reason')}")

    async def _handle_many(self, socket, asked: list[dict]) -> None:
        """Several turns: chosen on one thread hop, answered in one message."""

        def choose_all():
            out = []
            for turn in asked:
                try:
                    move = self.choose(turn["view"], turn["legal"])
                    out.append({"turn": turn["turn"], "move": move})
                except Exception:  # the bot's own bug on one turn: the others still go
                    log.exception("choose() failed on turn %s", turn.get("turn"))
            return out

        answers = await asyncio.to_thread(choose_all)
        for i in range(0, len(answers), MAX_BATCH):
            chunk = answers[i : i + MAX_BATCH]
            await socket.send(json.dumps({"type": "moves", "moves": chunk}))
        self.moves += len(answers)

    def run(self) -> None:
        """Run until stopped (SIGINT/SIGTERM) or refused for good."""

        async def main():
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGINT, signal.SIGTERM):
                try:
                    loop.add_signal_handler(sig, self.stop)
                except (NotImplementedError, RuntimeError):  # not the main thread, Windows
                    pass
            await self.run_async()

        try:
            asyncio.run(main())
        except Stopped:
            raise SystemExit(2) from None


def run(url: str, token: str, choose: Callable, version: str = "0", **options) -> None:
    """Play as the bot ``token`` opens until stopped: see ``BotClient``."""
    BotClient(url, token, choose, version, **options).run()


def main_options(description: str, more: Callable | None = None):
    """The examples' command line: --url, --token (or FOUNDRY_BOT_TOKEN), --version, and
    whatever ``more(parser)`` adds."""
    import argparse
    import os

    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--url", default="ws://127.0.0.1:8000/ws/bot/")
    parser.add_argument("--token", default=os.environ.get("FOUNDRY_BOT_TOKEN", ""))
    parser.add_argument("--version", default="1")
    parser.add_argument("--once", action="store_true", help="do not reconnect")
    if more is not None:
        more(parser)
    options = parser.parse_args()
    if not options.token:
        parser.error("give --token or set FOUNDRY_BOT_TOKEN (the token from the bot's page)")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    return options
