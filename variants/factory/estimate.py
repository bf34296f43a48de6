"""The factory's quick estimate: a few hundred random games of the game being designed,
played in the request (bounded in time), said in one line before Save ("In 300 random
games, Player 1 wins 58%, Player 2 29%; nobody wins 13%")."""

from __future__ import annotations

from gamecore.engine import RulesError, compile_game
from variants.analysis.sampling import random_games

GAMES = 300
SECONDS = 0.15  # the longest the estimate may add to a redraw of the form


def estimate(doc: dict) -> str:
    """The line for a rule document, or "" when it is not a valid game yet."""
    data = {**doc, "name": doc.get("name") or "unnamed"}
    try:
        game = compile_game(data)
    except (RulesError, ValueError, TypeError):
        return ""
    tally = random_games(game, GAMES, seed=0, seconds=SECONDS)
    if not tally.games:
        return ""
    n = tally.games
    wins = ", ".join(f"Player {s + 1} wins {100 * w / n:.0f}%" for s, w in enumerate(tally.wins))
    if tally.draws == n:
        return f"Nobody won any of {n} random games: check how a game is won."
    return f"In {n} random games, {wins}; nobody wins {100 * tally.draws / n:.0f}%."
