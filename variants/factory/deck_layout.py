"""What the factory page shows of the deck (release 1.7): the deck control with its
plain-words label and count of variations (live: every refresh recounts), its errors,
and the dealt markers in the palette (phase 1 only)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from gamecore.rules.decks import MAX_TEXT

from . import deck_state
from .pieces import Marker
from .state import FactoryState

Errors = Callable[[str], list[str]]
PHASE_ONE = "Only in phase 1: choose Phase 1 to place it."
HELP = (
    "{ } a shuffled set, [ ] an ordered sequence; O circle, P pentagon, X x, + cross, "
    "^ triangle, * star, S blank; a digit 1-4 after a shape: that seat's colour (O3)."
)


@dataclass
class DeckView:
    text: str
    label: str  # "1 black circle, 1 white circle, and 7 blanks in deck"
    count: str  # "72 variations"
    dealt: str  # "9 dealt spaces (9 common)"
    errors: list[str] = field(default_factory=list)
    max_length: int = MAX_TEXT
    help: str = HELP


def apply(layout, state: FactoryState, err: Errors) -> None:
    """Fill ``layout.deck``, add the dealt markers and the hidden "dealt" field."""
    words, count, live = deck_state.describe(state)
    saved = err("deck")
    seen = {m.lower() for m in saved}
    errors = saved + [_sentence(m) for m in live if m.lower() not in seen]
    layout.deck = DeckView(state.deck, words, count, _dealt_words(state), errors)
    for value in deck_state.markers(state):
        _is, seat = deck_state.marker_seat(value)
        name = f"Dealt seat {seat} marker" if seat else "Dealt common marker"
        color = deck_state.seat_color(state, seat)
        marker = Marker(value, name, icon="fa-question", color=color or "common")
        if state.phase_shown > 0:
            marker.coming = PHASE_ONE
        layout.space_markers.append(marker)
    layout.hidden["dealt"] = deck_state.encode(state)


def _dealt_words(state: FactoryState) -> str:
    if not state.dealt:
        return "No dealt spaces: mark some with a dealt marker."
    common = sum(1 for s in state.dealt.values() if s is None)
    seats = sorted({s for s in state.dealt.values() if s is not None})
    who = [f"{sum(1 for s in state.dealt.values() if s == seat)} of seat {seat}" for seat in seats]
    who += [f"{common} common"] if common else []
    n = len(state.dealt)
    return f"{n} dealt space{'s' if n != 1 else ''} ({', '.join(who)})"


def _sentence(message: str) -> str:
    return message[:1].upper() + message[1:]
