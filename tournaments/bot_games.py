"""Playing a tournament's game with bots: each game is seeded from the tournament's seed
and its number (``game_seed``) and played by bot agents (``play_timed``), within a
wall-clock bound (``out_of_time``). ``games`` plays a game number and writes batches;
``ownbot_games`` plays a game with own bots over their sockets.
"""

from __future__ import annotations

import copy
import random
import time

from django.conf import settings

from accounts.models import Player
from gamecore.bots import RandomAgent
from gamecore.bots.common import checked, for_seat
from gamecore.bots.specs import agent_maker
from leaderboards.models import Tournament


def game_seed(tournament: Tournament, number: int) -> int:
    return (tournament.seed * 1_000_003 + number * 7_919) % 2**31


def position_seed(seed: int) -> int:
    """The seed a game played from ``seed`` set its position up from (``play_timed``'s
    first draw): the match's seed, so that its log replays on the same position (a
    random set-up, such as obstacles, differs from seed to seed)."""
    return random.Random(seed).randrange(2**32)


def predictions_of(agents: list, chaos: int | None) -> tuple:
    """The learning AIs' predictions, by seat (Chaos, if any, takes its seat index)."""
    out = []
    for i, agent in enumerate(agents):
        seat = i + (chaos is not None and i >= chaos)
        out += [(seat, ply, made) for ply, made in getattr(agent, "made", ())]
    return tuple(out)


def agent_for(player: Player, seed: int):
    if player.kind == Player.Kind.RANDOM:
        return RandomAgent(seed=seed)
    if player.kind == Player.Kind.AI:  # a learning AI (aiplayers): it keeps what it predicted
        from aiplayers.agents import agent_for_ai

        agent = agent_for_ai(player, seed=seed, time_limit=settings.TOURNAMENT_BOT_SECONDS)
        agent.made = []  # (ply, prediction), filled by play_timed
        return agent
    # The spec checked once per player object and spec (a tournament's chain keeps its
    # players: two agents a game, and the check cost more than making the agent).
    known = getattr(player, "_agent_maker", None)
    if known is None or known[0] != player.bot_spec:
        known = (copy.deepcopy(player.bot_spec), agent_maker(player.bot_spec))
        player._agent_maker = known
    return known[1](seed, settings.TOURNAMENT_BOT_SECONDS)


def game_deadline(seconds: float | None = None) -> tuple[float, float]:
    """(when a tournament game started now must end, its seconds): ``seconds`` or
    ``TOURNAMENT_GAME_SECONDS``."""
    limit = settings.TOURNAMENT_GAME_SECONDS if seconds is None else seconds
    return time.perf_counter() + limit, limit


def out_of_time(state, deadline: tuple[float, float], played: int) -> bool:
    """Past ``deadline`` with the game still on: end it as a draw, said in words (the
    state is the tournament's own copy: nothing else reads it). A game may be bounded in
    moves and still take too long (a bot's every move at its time limit): one game must
    never hold a worker for longer than this, nor the reconciler send it again."""
    at, limit = deadline
    if state.is_terminal() or time.perf_counter() < at:
        return False
    from gamecore.engine.outcome import DRAW, Outcome

    detail = f"Time limit reached ({limit:g} s for the game, {played:,} moves): draw"
    state.outcome = Outcome((DRAW,) * state.game.nseats, TIME_LIMIT, detail)
    return True


TIME_LIMIT = "time-limit"  # the outcome's reason for a game ended by out_of_time


def play_timed(game, agents: list, seed: int, heartbeat=None, seconds: float | None = None):
    """Play one game to its end (Chaos, if any, at random): the final state and the moves
    as (seat, notation, think ms). The position is seeded from ``seed``. The game lasts
    at most ``seconds`` (``TOURNAMENT_GAME_SECONDS``; then ``out_of_time``: a draw);
    ``heartbeat()`` is called after every move (the batch's runner is alive)."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed=rng.randrange(2**32))
    seats = list(agents)
    if game.chaos is not None:
        seats.insert(game.chaos, RandomAgent(seed=rng.randrange(2**32)))
    moves = []
    deadline = game_deadline(seconds)
    while not state.is_terminal() and not out_of_time(state, deadline, len(moves)):
        for seat in state.to_move():
            if state.is_terminal() or seat not in state.to_move():
                break
            clock = time.perf_counter()
            move = seats[seat].choose(for_seat(state, seat), seat)  # cloaked: the seat's view
            think = int((time.perf_counter() - clock) * 1000)
            move = checked(state, seat, move)
            state.apply(seat, move)
            moves.append((seat, str(move), think))
            keep_prediction(seats[seat], len(moves))
            if heartbeat is not None:
                heartbeat()
    return state, moves


def keep_prediction(agent, ply: int) -> None:
    made = getattr(agent, "made", None)
    if made is not None:
        from aiplayers.predictions import taken

        prediction = taken(agent)
        if prediction is not None:
            made.append((ply, prediction))
