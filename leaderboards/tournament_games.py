"""Playing and recording a tournament's games: each game is seeded from the tournament's
seed and its number (``game_seed``), played by bot agents (``play_timed``) or over an
own bot's socket, and written a batch at a time (``_rows``, ``_record``).
"""

from __future__ import annotations

import random
import time
from dataclasses import replace

from django.conf import settings
from django.utils import timezone

from accounts.models import Player
from leaderboards.models import Tournament


def game_seed(tournament: Tournament, number: int) -> int:
    return (tournament.seed * 1_000_003 + number * 7_919) % 2**31


def position_seed(seed: int) -> int:
    """The seed a game played from ``seed`` set its position up from (``play_timed``'s
    first draw): the match's seed, so that its log replays on the same position (a
    random set-up, such as obstacles, differs from seed to seed)."""
    return random.Random(seed).randrange(2**32)


def _play(tournament: Tournament, number: int, seated: list[Player], heartbeat=None):
    """Play game ``number`` (a PlayedGame, not written yet)."""
    from play.recording import PlayedGame
    from play.replay import game_of_rule_set

    if any(p.kind == Player.Kind.OWN_BOT for p in seated):  # asked over their sockets
        from ownbots.remote import play_tournament_game

        return play_tournament_game(tournament, number, seated, heartbeat)

    game = game_of_rule_set(tournament.rule_set)
    seed = game_seed(tournament, number)
    started = timezone.now()
    agents = [agent_for(p, seed + i) for i, p in enumerate(seated)]
    state, moves = play_timed(game, agents, seed, heartbeat=heartbeat)
    return PlayedGame(
        seed=position_seed(seed),
        moves=moves,  # (seat, notation, think ms) tuples, as record_games takes them
        outcome=state.outcome,
        started=started,
        finished=timezone.now(),
        predictions=_predictions(agents, game.chaos),
    )


def _predictions(agents: list, chaos: int | None) -> tuple:
    """The learning AIs' predictions, by seat (Chaos, if any, takes its seat index)."""
    out = []
    for i, agent in enumerate(agents):
        seat = i + (chaos is not None and i >= chaos)
        out += [(seat, ply, made) for ply, made in getattr(agent, "made", ())]
    return tuple(out)


def _common(tournament: Tournament) -> dict:
    return {"by": tournament.created_by, "rated": tournament.rated,
            "universe": tournament.universe, "tournament": tournament}  # fmt: skip


def _rows(tournament: Tournament, played: list):
    from play.recording import prepare_games
    from play.replay import game_of_rule_set

    chaos = game_of_rule_set(tournament.rule_set).chaos
    return prepare_games(tournament.rule_set, chaos, played, **_common(tournament))


def _record(tournament: Tournament, played: list, rows) -> dict[int, int]:
    """Write a batch's games (``rows``: ``_rows``): one insert per table; if one of them
    was written meanwhile (a batch sent twice), one by one, skipping those. The match ids
    of the games written, by game number."""
    from play.recording import PlayedMove, record_game, write_games
    from play.replay import game_of_rule_set

    matches = write_games(rows)
    if matches is not None:
        return {number: pk for (_, _, number), pk in zip(played, matches, strict=True)}
    chaos, written = game_of_rule_set(tournament.rule_set).chaos, {}
    for seated, game, number in played:
        game = replace(game, moves=[PlayedMove(*m) for m in game.moves])
        match = record_game(
            tournament.rule_set, seated, chaos, game, game_number=number, **_common(tournament)
        )
        if match is not None:
            written[number] = match.pk
    return written


def agent_for(player: Player, seed: int):
    from gamecore.bots import RandomAgent, make_agent

    if player.kind == Player.Kind.RANDOM:
        return RandomAgent(seed=seed)
    if player.kind == Player.Kind.AI:  # a learning AI (aiplayers): it keeps what it predicted
        from aiplayers.agents import agent_for_ai

        agent = agent_for_ai(player, seed=seed, time_limit=settings.TOURNAMENT_BOT_SECONDS)
        agent.made = []  # (ply, prediction), filled by play_timed
        return agent
    return make_agent(player.bot_spec, seed=seed, time_limit=settings.TOURNAMENT_BOT_SECONDS)


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
    from gamecore.bots import RandomAgent
    from gamecore.bots.common import checked, for_seat

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
            _keep_prediction(seats[seat], len(moves))
            if heartbeat is not None:
                heartbeat()
    return state, moves


def _keep_prediction(agent, ply: int) -> None:
    made = getattr(agent, "made", None)
    if made is not None:
        from aiplayers.predictions import taken

        prediction = taken(agent)
        if prediction is not None:
            made.append((ply, prediction))
