"""Game lists: ``{% game_picture rule_set %}`` (a small drawing of the starting board) and
``rule_set|game_family`` (plain-words badges: the family, the number of players)."""

from django import template
from django.utils.html import escape
from django.utils.safestring import mark_safe

from variants.credits import game_credits
from variants.pictures import board_picture
from variants.rule_words import rule_list
from variants.stories import story_of

register = template.Library()

FAMILY_WORDS = {
    "nested": (
        "Boards in boards",
        "Ultimate-style: every square of the big board is a small board",
    ),
    "stacks": ("Gravity", "Pieces fall to the lowest empty space of a column, as in Connect4"),
    "3d": ("3-D", "Several layers: lines run across layers too"),
    "boards": ("Several boards", "Play on several boards at once"),
    "flat": ("Flat board", "One flat board"),
}
PLAYER_WORDS = {
    "3": "3 players",
    "4": "4 players",
    "partners": "2 teams of 2",
    "2-vs-chaos": "2 players + Chaos",
    "3-vs-chaos": "3 players + Chaos",
    "1-vs-chaos": "1 player + Chaos",
}


@register.simple_tag
def game_picture(rule_set) -> str:
    return mark_safe(board_picture(rule_set.document, escape(rule_set.name)))


def family_of(doc: dict) -> str:
    board = doc.get("board") or {}
    kind = board.get("type", "hash")
    if kind in ("nested", "stacks"):
        return kind
    if (doc.get("boards") or 1) > 1:
        return "boards"
    size = board.get("size") or [3, 3, 1]
    return "3d" if len(size) > 2 and size[2] > 1 else "flat"


@register.filter
def game_family(rule_set) -> list[tuple[str, str]]:
    """[(words, tooltip)] for a game's badges."""
    doc = rule_set.document
    out = [FAMILY_WORDS[family_of(doc)]]
    players = doc.get("players", "2")
    if players in PLAYER_WORDS:
        out.append((PLAYER_WORDS[players], "How many play"))
    return out


@register.filter
def credits(rule_set) -> list[dict]:
    """The credits a game's seed asks for (variants/credits.py)."""
    return game_credits(rule_set.document)


@register.filter
def rules_in_words(rule_set) -> list[tuple[str, str]]:
    """The game's rules as [(topic, sentence)] (variants/rule_words.py)."""
    return rule_list(rule_set.document)


@register.filter
def game_story(rule_set) -> dict | None:
    """The game's story, if it tells one (variants/stories.py)."""
    return story_of(rule_set)


SUMMARY_SHOWN = 4000  # characters of a summary line a page shows (the catalogue: 2,108 at most)


@register.filter
def bounded_summary(text: str) -> str:
    """A game's summary line, cut after a clause near ``SUMMARY_SHOWN`` characters. A game
    that starts with a piece (or a badge) on each of 1,536 spaces lists every one: 650 KB
    on its page and on every list of games (issue 39); the board shows them all."""
    text = str(text or "")
    if len(text) <= SUMMARY_SHOWN:
        return text
    cut = max(text.rfind("; ", 0, SUMMARY_SHOWN), text.rfind(", ", 0, SUMMARY_SHOWN))
    cut = cut if cut > 0 else SUMMARY_SHOWN
    rest = len(text) - cut
    return f"{text[:cut]} … and {rest:,} more characters of rules (the board shows every space)"
