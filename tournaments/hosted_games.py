"""Own-bot tournament games played in the web process that holds the bot's socket
(``ownbots.hosting``, issue 36): the worker hands a batch over and writes what comes back,
as it writes the games it plays itself.

A batch is handed over when one own bot plays every game of it against Random (or
itself), on PostgreSQL + Redis (``OWNBOT_HOSTED``). A bot that thinks against a search
bot waits on that bot, not on the mailbox, and a search would take a web process's CPU
from its sockets: such games stay on the worker. So do games of two own bots (two sockets,
perhaps two processes) and of learning AIs (their predictions stay on the worker).
Whatever goes wrong (the bot drops mid-batch, the web process dies, an error), the worker
plays the batch through the mailbox from its start, as after its own crash.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import connection
from django.utils import timezone

from accounts.models import Player
from gamecore.engine.outcome import Outcome
from ownbots import connections, fastlane, hosting
from ownbots.consumers import BotConsumer
from ownbots.turns import POLL_SECONDS as POLL
from ownbots.turns import NoAnswer, Turn
from play.recording import PlayedGame, PlayedMove
from tournaments.ownbot_games import GamesInFlight

log = logging.getLogger(__name__)
# Games stepped between two looks at the event loop's other work: a step of a game is
# ~0.05 ms on Connect4 (its view and legal moves), more on a big board.
STEP_AT_ONCE = 16
HOSTED_KINDS = (Player.Kind.OWN_BOT, Player.Kind.RANDOM)


def host_player(games: list) -> int | None:
    """The one own bot of every game of ``games`` ((number, seated) each) whose other
    seats are Random: the batch can be hosted by its socket. None if not."""
    if not (settings.OWNBOT_HOSTED and fastlane.enabled() and connection.vendor == "postgresql"):
        return None
    seated = [p for _number, players in games for p in players]
    own = {p.pk for p in seated if p.kind == Player.Kind.OWN_BOT}
    if len(own) != 1 or any(p.kind not in HOSTED_KINDS for p in seated):
        return None
    return own.pop()


def play_hosted(view, games: list, heartbeat=None) -> list | None:
    """The PlayedGames of ``games`` played by the bot's socket, in their order; None if
    they were not (not hostable, the bot not connected, or the host gave up): the caller
    plays them through the mailbox."""
    player_id = host_player(games)
    if player_id is None:
        return None
    row = connections.current(player_id)
    if row is None:
        return None  # the mailbox waits for the bot to come
    reply = hosting.new_reply()
    message = {
        "channel": row.channel_name,
        "reply": reply,
        "tournament": view.pk,
        "rule_set": view.rule_set_id,
        "games": [[number, [p.pk for p in seated]] for number, seated in games],
    }
    try:  # on the bot's channel, which its socket listens to (a channel layer's message
        # from a worker cost ~20 ms: a new event loop and connection each time)
        if not fastlane.publish_host(player_id, message):
            return None  # no socket listening
    except Exception:
        log.warning("could not hand tournament %s's games to bot %s", view.pk, player_id)
        return None
    found = hosting.wait_result(reply, heartbeat)
    if found is None:
        return None
    played = [load(game) for game in found["games"]]
    return played if len(played) == len(games) else None


# --- the socket's process ------------------------------------------------------------------


async def host_games(socket, message: dict) -> None:
    """Play the batch of ``message`` in the event loop of the bot's ``socket`` and
    deliver the PlayedGames (or that it could not). Its turns have no rows: the games'
    move logs hold what they would (the answer is the move, the view and legal moves
    follow from the position, the version is the game's, the time its think time)."""
    reply, result, host = message["reply"], {"ok": False}, None
    redis = socket.lane.redis  # (the socket's own client: no thread for Redis)
    try:
        if await hosting.renewed(redis, reply):
            host = hosting.Host()
            socket.hosts.append(host)  # (from now on the socket's closing ends it)
            setup = database_sync_to_async(_flight, thread_sensitive=False)  # (batches at once)
            flight = await setup(message, socket.player.pk)
            await _play(socket, host, flight, reply)
            result = {"ok": True, "games": [dump(game) for game in flight.results()]}
    except hosting.HostGone:
        pass  # the socket closed or the worker called the batch back
    except Exception:
        what = message.get("tournament"), socket.player.pk
        log.exception("hosting tournament %s's games for bot %s", *what)
    finally:
        if host is not None:
            socket.hosted_over(host)
        try:
            await hosting.delivered(redis, reply, result)
        except Exception:  # (the worker's lease check sends it to the mailbox meanwhile)
            log.warning("could not hand tournament %s's games back", message.get("tournament"))


def _flight(message: dict, player_id: int) -> GamesInFlight:
    """The games of ``message`` set up (their tournament, game and players read)."""
    from leaderboards.models import Tournament
    from tournaments.plans import playing
    from variants.models import RuleSet

    tournament = Tournament.objects.select_related("rule_set").get(pk=int(message["tournament"]))
    rule_set = tournament.rule_set
    if int(message["rule_set"]) != rule_set.pk:
        rule_set = RuleSet.objects.get(pk=int(message["rule_set"]))
    ids = {int(pk) for _number, seated in message["games"] for pk in seated}
    players = Player.objects.in_bulk(ids)
    games = [(int(n), [players[int(pk)] for pk in seated]) for n, seated in message["games"]]
    if host_player(games) != player_id:
        raise hosting.HostGone("not this bot's batch")
    return GamesInFlight(playing(tournament, rule_set), games)


async def _play(socket, host: hosting.Host, flight: GamesInFlight, reply: str):
    """Run the games on as the bot answers, as ``play_tournament_games`` does with the
    mailbox: every turn a step asks goes to the bot in one message."""
    loop = asyncio.get_running_loop()
    games: dict[int, int] = {}  # an open turn's game, by turn id
    ready = [(number, None) for number in flight.numbers]
    renewed = checked = loop.time()
    while flight.running:
        if host.gone:
            raise hosting.HostGone("the bot's socket closed")
        requests = []
        for i, (number, answer) in enumerate(ready, 1):
            request = flight.step(number, answer)
            if request is not None:
                requests.append((number, request))
            if i % STEP_AT_ONCE == 0:  # the process's other sockets get their turn
                await asyncio.sleep(0)
        if requests:
            opened, now = [], timezone.now()  # (a step's turns are asked together)
            deadline = now + timedelta(seconds=settings.OWNBOT_MOVE_SECONDS)
            for number, request in requests:
                turn = Turn(*request, now, deadline)
                turn.pk = hosting.new_turn_id()
                games[turn.pk] = number
                opened.append(turn)
            await socket.send_hosted(host.open(opened))
        if not flight.running:
            break
        ready = [(games.pop(t), (move, version)) for t, move, version in await host.next(POLL)]
        if loop.time() - checked >= POLL:
            checked = loop.time()
            ready += [(games.pop(turn.pk), NoAnswer("timeout")) for turn in host.expired()]
        if loop.time() - renewed >= hosting.RENEW_SECONDS:
            renewed = loop.time()
            if not await hosting.renewed(socket.lane.redis, reply):
                raise hosting.HostGone("the worker called the batch back")


class HostingBotConsumer(BotConsumer):
    """The bot socket that hosts its tournament games (``config.asgi`` routes it)."""

    host_games = staticmethod(host_games)


# --- a played game as JSON (it crosses Redis) ----------------------------------------------


def dump(game: PlayedGame) -> dict:
    outcome = game.outcome
    return {
        "seed": game.seed,
        "moves": [list(move) for move in game.moves],
        "outcome": None
        if outcome is None
        else [list(outcome.results), outcome.reason, outcome.detail, outcome.lines],
        "started": game.started.isoformat(),
        "finished": game.finished.isoformat(),
        "versions": game.versions,
    }


def load(found: dict) -> PlayedGame:
    outcome = found["outcome"]
    if outcome is not None:
        results, reason, detail, lines = outcome
        lines = tuple(tuple(tuple(cell) for cell in line) for line in lines)
        outcome = Outcome(tuple(results), reason, detail, lines)
    return PlayedGame(
        seed=found["seed"],
        moves=[PlayedMove(*move) for move in found["moves"]],
        outcome=outcome,
        started=datetime.fromisoformat(found["started"]),
        finished=datetime.fromisoformat(found["finished"]),
        versions={int(seat): version for seat, version in found["versions"].items()},
    )
