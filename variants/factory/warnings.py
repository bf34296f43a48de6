"""Warnings, in words, about games that are allowed but that nobody can win (or that the
first player wins at once). The factory shows them before Save and the saved game's page
repeats them: such games are variants too, so they are never refused, only flagged."""

from __future__ import annotations

from gamecore import rules
from gamecore.rules.vocabulary import PLAYER_SEATS

# Seats played by a person or a bot, by player mode (Chaos, when there is one, is extra).
_SEATS = PLAYER_SEATS  # every player mode (rules/vocabulary.py)
_ORDINAL = {1: "Player 1", 2: "Player 2", 3: "Player 3", 4: "Player 4"}


def warnings_for_state(state) -> list[str]:
    """The warnings for a factory form's state (nothing when it cannot be read yet: the
    form's own errors say why)."""
    from .state import to_document

    try:
        doc = to_document(state)
    except Exception:  # a half-filled form: the page's errors speak for it
        return []
    return warnings_for(doc)


def warnings_for(doc: dict) -> list[str]:
    """Plain-English warnings for a rule document; [] for a valid, winnable game."""
    data = dict(doc)
    data["name"] = data.get("name") or "unnamed"
    try:
        rd = rules.parse(data)
    except Exception:
        return []
    if rd.board.type == "nested":
        return []  # the nested family clamps its own limits: every option can be won
    out: list[str] = []
    wins = [c for c in rd.turn_checks if c.result == "wins"]
    loses = [c for c in rd.turn_checks if c.result == "loses"]
    x, y, z = rd.board.size
    longest = max(x, y, z)
    spaces = x * y * z * rd.boards - len(rd.locked)

    # The end names no winner (an ending of the phases vocabulary, "Most 2-same-color-in-
    # a-row wins", names one even when the stalemate dropdown's rule says "draws").
    undecided = rd.stalemate in ("draw", "all-win", "all-lose") and not rd.endings
    if not rd.turn_checks and undecided:
        out.append(
            f"No line wins or loses and the game ends when the board is full: "
            f"{_stalemate_words(rd.stalemate)}."
        )
    elif rd.turn_checks and all(c.k > longest for c in rd.turn_checks):
        k = min(c.k for c in rd.turn_checks)
        out.append(
            f"No line of {k} fits on a {x}×{y}×{z} board, so no line can ever win or lose"
            + (f": {_stalemate_words(rd.stalemate)}." if undecided else ".")
        )
    # Captures with nothing to decide the end: the seed's RockPaperScissors text alone
    # (every match a draw); the catalogue adds "Most pieces wins" (issue 35).
    no_line = not rd.turn_checks or all(c.k > longest for c in rd.turn_checks)
    captures = any(r.power != "none" for r in rd.shape_rules.values())
    if no_line and rd.stalemate == "draw" and not rd.endings and captures:
        out.append(
            "Captures alone decide nothing here: every ending can only be a draw. Choose "
            "“Most pieces wins” as the stalemate rule so that the capturing side wins, as "
            "the catalogue's RockPaperScissors does (the seed's text alone draws every match)."
        )
    if wins and rd.colors == "assigned" and rd.players in _SEATS:
        k = min(c.k for c in wins)
        counts = _pieces_by_color(rd)
        for seat in range(_SEATS[rd.players]):
            color = rules.COLORS[seat]
            have = counts.get(color, 0)
            if have < k:
                out.append(
                    f"{_ORDINAL[seat + 1]} ({color}) has {have} piece{'s' if have != 1 else ''}: "
                    f"too few to make {k} in a row."
                )
    if (
        wins
        and rd.players == "2"
        and rd.colors == "assigned"
        and rd.pieces_per_turn == 1
        and rd.board.type == "squares"
        and not rd.locked
        and not loses
        and all(c.diagonal for c in wins)
        and min(c.k for c in wins) <= 3
        and sorted((x, y))[0] >= 4
    ):
        k = min(c.k for c in wins)
        out.append(
            f"{k} in a row on a {x}×{y} board: whoever moves first can force a win in a few "
            "moves, so the game is decided before it starts."
        )
    if spaces <= 0:
        out.append("Every space is locked: nobody can place a piece.")
    return out


def _stalemate_words(stalemate: str) -> str:
    return {
        "draw": "every match is a draw",
        "all-win": "every match ends with everyone winning",
        "all-lose": "every match ends with everyone losing",
        "most-in-a-row-wins": "the longest line at the end decides",
        "least-in-a-row-loses": "the shortest line at the end decides",
        "most-pieces-wins": "the most pieces on the board decides",
    }.get(stalemate, "the stalemate rule decides")


def _pieces_by_color(rd) -> dict[str, int]:
    counts: dict[str, int] = {}
    for color, shapes in (rd.reserves or {}).items():
        counts[color] = counts.get(color, 0) + sum(shapes.values())
    for piece in rd.initial_pieces:
        counts[piece.color] = counts.get(piece.color, 0) + 1
    return counts
