"""The factory's state to and from a rule document: a fresh page (``default_state``), a
saved game shown (``from_doc``), the reserves the rules derive, and ``to_document``."""

from __future__ import annotations

from dataclasses import replace

from gamecore import rules

from . import deck_state, moving_state, nested_state, phase_state
from .form import FLAT_BOARDS, Check, FactoryState
from .moving_state import MovingState

# --- from a saved document ---------------------------------------------------------------


def default_state() -> FactoryState:
    """A fresh factory page: the rules' defaults (Tic-Tac-Toe) and their derived reserves."""
    state = FactoryState()
    state.reserves = derived_reserves(state)
    return state


def from_doc(doc: rules.RuleDoc) -> FactoryState:
    """The factory page showing a saved (or catalogue) game."""
    if doc.board.type == "nested":
        return FactoryState(name=doc.name, family="nested", nested=nested_state.from_doc(doc))
    row = {shape: i + 1 for i, shape in enumerate(doc.shapes)}
    state = FactoryState(
        name=doc.name,
        stalemate=doc.stalemate,
        checks=[Check(c.k, c.result, c.diagonal) for c in doc.turn_checks],
        players=doc.players,
        colors=doc.colors,
        shapes=list(doc.shapes),
        pieces_per_turn=doc.pieces_per_turn,
        boards=doc.boards,
        board_type=doc.board.type,
        size=tuple(doc.board.size),
        reserves={
            c: {row[s]: (doc.reserves or {}).get(c, {}).get(s, 0) for s in doc.shapes}
            for c in rules.color_names(doc)
        },
        locked={(s.board, *s.at) for s in doc.locked},
        pieces={(p.board, *p.at): (p.color, row[p.shape]) for p in doc.initial_pieces},
        nobody={(p.board, *p.at) for p in doc.initial_pieces if p.nobody},
        allow_pass=doc.allow_pass,
        agree_draw=doc.agree_draw,
        seconds=doc.seconds_per_turn,
        turn_ms=doc.turn_ms,
        timeout=doc.timeout,
        moving=moving_state.from_doc(doc),
    )
    phase_state.from_doc(doc, state)
    deck_state.from_doc(doc, state)
    # A game whose reserves are the derived default keeps following the board when copied.
    state.reserves_auto = state.board_type in FLAT_BOARDS and state.reserves == derived_reserves(
        state
    )
    return state


# --- the reserves the rules derive ---------------------------------------------------------


def derived_reserves(state: FactoryState) -> dict[str, dict[int, int]]:
    """What ``rules.parse`` fills in when a document leaves the reserves out (the open
    spaces dealt round-robin over the colours, first shape) — asked of the rules
    themselves, so the factory's default can never drift from the schema's."""
    rows = range(1, len(state.shapes) + 1)
    plain = replace(state, name="derived", reserves_auto=False, moving=MovingState())
    doc = to_document(plain, reserves=False)
    try:
        parsed = rules.parse(doc)
    except rules.RulesError:
        return {
            c: {r: state.reserves.get(c, {}).get(r, 0) for r in rows} for c in state.color_names
        }
    derived = parsed.reserves or {}
    return {
        c: {r: derived.get(c, {}).get(state.shapes[r - 1], 0) for r in rows}
        for c in state.color_names
    }


# --- to a rule document ----------------------------------------------------------------------


def to_document(state: FactoryState, reserves: bool = True) -> dict:
    """The rule document (gamecore/rules/README.md) the form describes, not yet validated."""
    if state.family == "nested":
        return nested_state.to_document(state.name, state.nested)

    def shape_of(row: int) -> str:
        return state.shapes[row - 1] if 1 <= row <= len(state.shapes) else f"row-{row}"

    doc = {
        "name": state.name,
        "players": state.players,
        "colors": state.colors,
        "shapes": list(state.shapes),
        "pieces_per_turn": state.pieces_per_turn,
        "boards": state.boards,
        "board": {"type": state.board_type, "size": list(state.size)},
        "initial_pieces": [
            {"board": b, "at": [x, y, z], "color": color, "shape": shape_of(row)}
            | ({"nobody": True} if (b, x, y, z) in state.nobody else {})
            for (b, x, y, z), (color, row) in sorted(state.pieces.items())
        ],
        "locked": [{"board": b, "at": [x, y, z]} for b, x, y, z in sorted(state.locked)],
        "turn_checks": [
            {"k": c.k, "result": c.result, "diagonal": c.diagonal}
            for c in state.checks
            if not c.ending
        ],
        "stalemate": phase_state.document_stalemate(state),
        "agree_draw": state.agree_draw,
        "seconds_per_turn": state.seconds,
        "timeout": state.timeout if state.seconds is not None or state.turn_ms else "loss",
        **moving_state.to_document(state, shape_of),
        **phase_state.to_document(state),
        **deck_state.to_document(state),
    }
    if state.seconds is None and state.turn_ms is not None:
        doc["turn_ms"] = state.turn_ms  # only when set: other documents keep their form
    if reserves:
        doc["reserves"] = {
            color: {shape_of(row): count for row, count in sorted(by_row.items())}
            for color, by_row in state.reserves.items()
            if color in state.color_names
        }
    return doc
