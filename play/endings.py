"""A finished match's ending in the words the match page uses (static/js/board_notation.js
``REASONS`` and the game-over card): the matches list said "stalemate" where the match
page says "No moves left · Most pieces wins" (issue 38)."""

from __future__ import annotations

# The same words as ``REASONS`` in static/js/board_notation.js (a test keeps them equal).
REASONS = {
    "victory": "Victory",
    "draw": "Draw",
    "stalemate": "No moves left",
    "agreed-draw": "Draw by agreement",
    "boards": "Most boards won",
    "majority": "Majority of blocks",
    "checkmate": "Checkmate",
    "resignation": "Resignation",
    "timeout": "Out of time",
    "time-limit": "Time limit reached (draw)",
    "disconnect": "Disconnected",
}
# Endings whose detail is the rule that decided them ("Most pieces wins"): the card shows
# it under the reason; other details name seats by number, which a list cannot place.
RULE_DETAIL = ("stalemate", "draw")
LONGEST_DETAIL = 80


def reason_words(reason: str | None) -> str:
    if not reason:
        return "Game over"
    return REASONS.get(reason) or str(reason).replace("-", " ")


def ending_words(outcome) -> str:
    """ "No moves left · Most pieces wins"; "" for a match without an outcome."""
    if not isinstance(outcome, dict) or not outcome.get("reason"):
        return ""
    words = reason_words(outcome["reason"])
    detail = str(outcome.get("detail") or "").strip()
    if outcome["reason"] in RULE_DETAIL and detail and len(detail) <= LONGEST_DETAIL:
        words += f" · {detail}"
    return words
