"""A tournament game with own bots, played on a Celery worker: the built-in bots think
here; an own bot is asked through the mailbox (``ownbots.asking``) and sent only its seat's
``state.view(seat)`` and legal moves. A bot that does not answer in time gets the rules'
turn-timer consequence (loss, a random move, or a skipped turn); one that stays away
longer than the wait forfeits (reason "disconnect"). Each such event is a row of the
game's log, as in a live match, so the replay and the ratings read it the same way."""

from __future__ import annotations

import random
import time

from django.utils import timezone

from accounts.models import Player
from ownbots.asking import Asking
from ownbots.turns import NoAnswer, ViewText, start_games
from play.models import Move
from play.secrecy import seen_ply
from tournaments.bot_games import (
    agent_for,
    game_deadline,
    game_seed,
    keep_prediction,
    out_of_time,
    position_seed,
    predictions_of,
)

SPECIAL = ("draw", "accept", "decline", "pass")
# Turns opened together, at most (about ``OWNBOT_GAMES_AT_ONCE`` are in flight: in effect
# a step's turns all at once). Ten at a time kept the bot busy sooner, but on two shared
# cores the messages' own cost was the limit: 15 turns a message rather than 8 took the
# socket's and the client's CPU a game from 0.9 to 0.5 ms (benchmarks/own_bot_speed.py).
OPEN_AT_ONCE = 50


class RemoteAgent:
    """An own bot's seat in a tournament game (one agent per game)."""

    def __init__(self, player: Player, tournament_id: int, number: int, heartbeat=None):
        self.player = player
        self.tournament_id = tournament_id
        self.number = number
        self.heartbeat = heartbeat
        self.version = ""  # of the first answer: the game's version
        self.spec = {"kind": "ownbot"}
        self.asked = []  # the turns asked, written at the game's end (with Redis)
        self.legal, self.legal_moves = [], []  # the legal moves last sent, text and moves

    def request(self, state, seat: int, ply: int) -> tuple:
        """What the bot is sent: its seat's view (never the state itself) and legal moves;
        the flat family's view as JSON text, made straight (``State.view_text``). The
        moves sent are kept by their text: the answer is one of them."""
        moves = state.legal_moves(seat)
        legal = [str(m) for m in moves]
        self.legal, self.legal_moves = legal, moves
        text = getattr(state, "view_text", None)
        view = state.view(seat) if text is None else ViewText(text(seat, legal))
        ply = seen_ply(ply, state, seat)  # cloaked: the moves this seat observed
        return self.player.pk, self.tournament_id, self.number, seat, ply, view, legal

    def move_of(self, text: str):
        """The move of the legal moves last sent whose text is ``text`` (None if none:
        an answer is checked against them first, but a move is parsed if need be)."""
        try:
            return self.legal_moves[self.legal.index(text)]
        except ValueError:
            return None


def game_steps(game, agents: list, seed: int, timeout_rule: str = "loss"):
    """A game with own bots among ``agents``, as a generator: when an own bot is to move
    it yields (agent, state, seat, ply) and is sent back (move text, version) or the
    ``NoAnswer``. Returns (``StopIteration.value``) the final state, the log as (seat,
    notation, think ms, log kind), and each own bot seat's version."""
    from gamecore.bots import RandomAgent
    from gamecore.bots.common import checked, for_seat

    rng = random.Random(seed)
    state = game.new_initial_state(seed=rng.randrange(2**32))
    seats = list(agents)
    if game.chaos is not None:
        seats.insert(game.chaos, RandomAgent(seed=rng.randrange(2**32)))
    moves = []
    deadline = game_deadline()
    while not state.is_terminal() and not out_of_time(
        state, deadline, len(moves)
    ):  # a game's wall-clock bound
        for seat in state.to_move():
            if state.is_terminal() or seat not in state.to_move():
                break
            agent = seats[seat]
            clock = time.perf_counter()
            if not isinstance(agent, RemoteAgent):
                # as play_timed: a built-in bot thinks on its seat's position (cloaked
                # games), never the truth, and its move is checked on the truth
                move = checked(state, seat, agent.choose(for_seat(state, seat), seat))
                state.apply(seat, move)
                moves.append((seat, str(move), _ms(clock), Move.Kind.MOVE))
                keep_prediction(agent, len(moves))  # a learning AI's (aiplayers)
                continue
            reply = yield agent, state, seat, len(moves)
            if isinstance(reply, NoAnswer):
                moves.append(_consequence(state, seat, reply.why, timeout_rule, rng, clock))
                continue
            text, version = reply
            agent.version = agent.version or version
            move = agent.move_of(text) or game.parse_move(text)
            state.apply(seat, move)  # the engine checks it, as any move
            moves.append((seat, str(move), _ms(clock), Move.Kind.MOVE))
    versions = {
        i: a.version for i, a in enumerate(seats) if isinstance(a, RemoteAgent) and a.version
    }
    return state, moves, versions


def _consequence(state, seat, why, rule, rng, clock):
    """The rules' answer to a missed move (``play.clock._timeout``'s, for a worker)."""
    if why == "timeout" and rule == "skip":
        state.skip(seat)
        return seat, "", _ms(clock), Move.Kind.SKIP
    if why == "timeout" and rule == "random-move":
        options = [m for m in state.legal_moves(seat) if str(m) not in SPECIAL]
        options = options or state.legal_moves(seat)
        if options:
            move = rng.choice(options)
            state.apply(seat, move)
            return seat, str(move), _ms(clock), Move.Kind.MOVE
    kind = Move.Kind.DISCONNECT if why == "disconnect" else Move.Kind.TIMEOUT
    state.forfeit(seat, "disconnect" if why == "disconnect" else "timeout")
    return seat, "", _ms(clock), kind


def _ms(clock: float) -> int:
    return int((time.perf_counter() - clock) * 1000)


def _agents(tournament, number: int, seated: list[Player], heartbeat=None):
    seed = game_seed(tournament, number)
    agents = [
        RemoteAgent(p, tournament.pk, number, heartbeat)
        if p.kind == Player.Kind.OWN_BOT
        else agent_for(p, seed + i)
        for i, p in enumerate(seated)
    ]
    return seed, agents


def _played(game, seed, agents, started, ended):
    from play.recording import PlayedGame, PlayedMove

    state, moves, versions = ended
    return PlayedGame(
        seed=position_seed(seed),  # game_steps sets the position up as play_timed does
        moves=[PlayedMove(*m) for m in moves],
        outcome=state.outcome,
        started=started,
        finished=timezone.now(),
        versions=versions,
        predictions=predictions_of(agents, game.chaos),
    )


def play_tournament_game(tournament, number: int, seated: list[Player], heartbeat=None):
    """Game ``number`` of ``tournament`` on its own (a PlayedGame, not written yet)."""
    return play_tournament_games(tournament, [(number, seated)], heartbeat)[0]


class GamesInFlight:
    """``game_steps`` of several games of ``tournament`` ((number, seated) each), run on
    as their own bots' answers come: ``step`` a game with its answer (None to start it)
    to the request its own bot is sent next, or None when it has ended. Whoever holds the
    bot's answers drives it: a worker through the mailbox (``play_tournament_games``),
    the bot's socket when its process hosts the games (``hosted_games``)."""

    def __init__(self, tournament, games: list, heartbeat=None):
        from play.services import game_of_rule_set

        self.game = game_of_rule_set(tournament.rule_set)
        rule = tournament.rule_set.document.get("timeout", "loss")
        self.numbers = [number for number, _seated in games]
        self.running, self.played = {}, {}
        for number, seated in games:
            seed, agents = _agents(tournament, number, seated, heartbeat)
            steps = game_steps(self.game, agents, seed, rule)
            self.running[number] = (steps, seed, agents, timezone.now())

    def step(self, number: int, reply) -> tuple | None:
        steps, seed, agents, started = self.running[number]
        try:
            agent, state, seat, ply = steps.send(reply)
        except StopIteration as done:
            self.played[number] = _played(self.game, seed, agents, started, done.value)
            del self.running[number]
            return None
        return agent.request(state, seat, ply)

    def results(self) -> list:
        """The PlayedGames, in the order of the games given."""
        return [self.played[number] for number in self.numbers]


def play_tournament_games(tournament, games: list, heartbeat=None) -> list:
    """``game_steps`` for each (number, seated) of ``games``, all in flight at once on
    this thread: a game runs until an own bot is to move; then ``Asking`` opens every
    turn asked together and hands each answer (or its absence) to its game as it comes,
    which runs on to its next turn. A bot answers by turn id, so no game waits for
    another. The PlayedGames in the order of ``games``; a game's error is raised."""
    flight = GamesInFlight(tournament, games, heartbeat)
    asking = Asking(heartbeat)
    start_games(tournament.pk, flight.numbers)
    ready = [(number, None) for number in flight.numbers]  # what each game is sent next
    while ready or flight.running:
        for number, reply in ready:
            request = flight.step(number, reply)
            if request is not None:
                asking.ask(number, *request)
                if len(asking.queued) >= OPEN_AT_ONCE:
                    asking.send()
        ready = asking.wait() if flight.running else []
    asking.finish()
    return flight.results()
