"""The server's players: a seeded agent for a bot, Random or Chaos seat."""

from __future__ import annotations

from django.conf import settings

from gamecore.bots import RandomAgent, make_agent

from .clock import turn_seconds
from .models import Match, Seat


def agent_for(match: Match, seat: Seat, state):
    # Seeded by the match and ply: the same match replays the same bot moves.
    seed = (match.seed * 7919 + match.ply * 31 + seat.index) % 2**32
    if seat.kind == Seat.Kind.CHAOS or seat.player.kind == seat.player.Kind.RANDOM:
        return RandomAgent(seed=seed)
    limit = settings.PLAY_BOT_SECONDS
    seconds = turn_seconds(match)
    if seconds:
        limit = min(limit, seconds / 3)  # think well inside the turn time
    if seat.player.kind == seat.player.Kind.AI:  # a learning AI (aiplayers)
        from aiplayers.agents import agent_for_ai

        return agent_for_ai(seat.player, seed=seed, time_limit=limit)
    return make_agent(seat.player.bot_spec, seed=seed, time_limit=limit)
