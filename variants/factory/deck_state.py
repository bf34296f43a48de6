"""The factory's deck and dealt markers (release 1.7 "Batch Play"): the deck's notation
and the spaces marked dealt (common, or for a seat), to and from a rule document and the
posted form, and what ``adjust`` keeps them to.

Pure Python. A dealt space is one more thing a space may hold, like a lock or a set-up
piece (one thing a space; on stacks things fall: ``spaces.column`` holds dealt items as
``("dealt", seat)``). Dealt markers are placed in phase 1 only (``adjust.apply_action``).
The rules themselves (notation, label, variations) live in ``gamecore.rules.decks``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import SimpleNamespace

from gamecore.rules.decks import MAX_TEXT, DeckError, check_decks, count_words, label, parse_deck
from gamecore.rules.vocabulary import COLORS, PLAYER_MODES, seat_colors
from variants.bounded import bounded_int

from .checks import FactoryState

COMMON = "dealt-common"
DEALT = "dealt"  # the first element of a dealt item in a stack's column


def marker(seat: int | None) -> str:
    """The radio value of the dealt marker for ``seat`` (None: the common one)."""
    return COMMON if seat is None else f"dealt-{seat}"


def marker_seat(value: str) -> tuple[bool, int | None]:
    """(is a dealt marker, its seat or None) for a marker radio's value."""
    if value == COMMON:
        return True, None
    if value.startswith("dealt-"):
        seat = bounded_int(value.removeprefix("dealt-"), 1, 4)
        if seat:
            return True, seat
    return False, None


def markers(state: FactoryState) -> list[str]:
    """The dealt markers this game offers: common, then one per seat."""
    return [COMMON] + [marker(s) for s in range(1, state.seats + 1)]


def seat_color(state: FactoryState, seat: int | None) -> str:
    """The colour a dealt piece takes: its seat's (the engine's deal.py); common: none."""
    if seat is None or state.players not in PLAYER_MODES:
        return ""
    index = seat_colors(state.players, state.colors)[0]
    return COLORS[index[seat - 1]] if seat <= len(index) else ""


# --- to and from a document --------------------------------------------------------------


def from_doc(doc, state: FactoryState) -> None:
    state.deck = doc.deck
    state.dealt = {(d.board, *d.at): d.seat for d in doc.dealt}


def to_document(state: FactoryState) -> dict:
    """Only when there is a deck or a dealt space: a game without either keeps the
    document (and fingerprint) it had before decks existed."""
    if not state.deck and not state.dealt:
        return {}
    dealt = []
    for (b, x, y, z), seat in sorted(state.dealt.items()):
        item = {"board": b, "at": [x, y, z]}
        if seat is not None:
            item["seat"] = seat
        dealt.append(item)
    return {"deck": state.deck, "dealt": dealt}


# --- the posted form -----------------------------------------------------------------------


def from_post(data: Mapping, state: FactoryState, spot_of, problems: list) -> None:
    """The deck's text (bounded) and the hidden "dealt" field ("b,x,y,z,seat", seat 0 for
    common): only spaces of the posted board, at most one a space; junk is reported."""
    text = str(data.get("deck", "")).strip()
    if len(text) > MAX_TEXT:
        problems.append({"path": "deck", "message": f"a deck is at most {MAX_TEXT} characters"})
        text = text[:MAX_TEXT]
    state.deck = text
    posted = str(data.get("dealt", "")).split()
    most = state.spaces
    for item in posted[:most]:
        parts = item.split(",")
        spot = spot_of(",".join(parts[:4])) if len(parts) == 5 else None
        seat = bounded_int(parts[4], 0, 4) if spot else None
        if spot is None or seat is None or not state.on_board(spot):
            problems.append({"path": "dealt", "message": f"{item[:40]!r} is no dealt space"})
            break
        state.dealt[spot] = seat or None
    if len(posted) > most:
        problems.append({"path": "dealt", "message": "more dealt spaces than spaces"})


def encode(state: FactoryState) -> str:
    return " ".join(
        ",".join(map(str, (*spot, seat or 0))) for spot, seat in sorted(state.dealt.items())
    )


# --- keeping it consistent ---------------------------------------------------------------------


def adjust(state: FactoryState) -> None:
    """Dealt spaces stay on the board, on spaces holding nothing else, for seats that
    exist; a dealt marker for a seat that is gone is unselected."""
    state.dealt = {
        spot: seat
        for spot, seat in state.dealt.items()
        if state.on_board(spot)
        and spot not in state.locked
        and spot not in state.pieces
        and (seat is None or seat <= state.seats)
    }
    is_dealt, _seat = marker_seat(state.marker)
    if is_dealt and state.marker not in markers(state):
        state.marker = ""


# --- what the page says about the deck ---------------------------------------------------------


def describe(state: FactoryState) -> tuple[str, str, list[str]]:
    """(plain-words label, count of variations, errors) of the deck as typed: the same
    checks the rules make on Save (``check_decks``), so the page says them as you type."""
    doc = SimpleNamespace(
        players=state.players if state.players in PLAYER_MODES else "2",
        colors=state.colors,
        shapes=list(state.shapes),
        deck=state.deck,
        dealt=[SimpleNamespace(seat=seat) for seat in state.dealt.values()],
    )
    errors = [message for _path, message in check_decks(doc, None)]
    if not state.deck:
        return "", "", errors
    try:
        parse_deck(state.deck)
    except DeckError:
        return "", "", errors
    colours = None
    if state.colors != "choose":
        index = seat_colors(doc.players, state.colors)[0]
        colours = tuple(COLORS[i] for i in index)
    return label(state.deck, colours), count_words(state.deck, len(state.dealt) or None), errors
