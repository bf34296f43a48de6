"""Playing and recording a tournament's games: game ``number`` is played by bots
(``bot_games``) or, with own bots among its players, over their sockets
(``ownbot_games``), and a batch of games is written at a time (``prepare_rows``,
``record_rows``).
"""

from __future__ import annotations

from dataclasses import replace

from django.utils import timezone

from accounts.models import Player
from leaderboards.models import Tournament
from play.recording import PlayedGame
from play.replay import game_of_rule_set
from tournaments.bot_games import agent_for, game_seed, play_timed, position_seed, predictions_of
from tournaments.ownbot_games import play_tournament_game


def play_number(tournament: Tournament, number: int, seated: list[Player], heartbeat=None):
    """Play game ``number`` (a PlayedGame, not written yet)."""
    if any(p.kind == Player.Kind.OWN_BOT for p in seated):  # asked over their sockets
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
        predictions=predictions_of(agents, game.chaos),
    )


def _common(tournament: Tournament) -> dict:
    return {"by": tournament.created_by, "rated": tournament.rated,
            "universe": tournament.universe, "tournament": tournament}  # fmt: skip


def prepare_rows(tournament: Tournament, played: list):
    from play.recording import prepare_games
    from play.replay import game_of_rule_set

    chaos = game_of_rule_set(tournament.rule_set).chaos
    return prepare_games(tournament.rule_set, chaos, played, **_common(tournament))


def record_rows(tournament: Tournament, played: list, rows) -> dict[int, int]:
    """Write a batch's games (``rows``: ``prepare_rows``): one insert per table; if one of them
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
