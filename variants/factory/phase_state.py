"""The factory's phases (1 to 6), cloaking, and the typed endings in the stalemate and
turn-check dropdowns: read from the posted form, written into the rule document's
``phases``, ``cloaking``, ``endings`` and ``overachievers`` (gamecore/rules/phases.py and
endings.py say what they mean).

The page shows one phase at a time (the phase selector); the others travel in one hidden
field ("phases", JSON). The shown phase's controls (order, movement, pass, fold) are
posted as selects and apply to the phase that was shown (``phase_shown``); the phase
selector then picks the phase to show next. The lock marker of phase 1 locks spaces for
the whole game (``doc.locked``, as before phases); after phase 1 it locks spaces for that
phase (``Phase.locked``). The cloak marker cloaks spaces for the shown phase.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field

from gamecore.rules import endings as ending_words
from gamecore.rules.vocabulary import (
    CLOAKING_LABELS,
    FOLD_LABELS,
    MAX_PHASES,
    ORDER_LABELS,
    STALEMATE_LABELS,
)
from variants import json_input
from variants.bounded import bounded_int

from .checks import Check, FactoryState, Spot, is_ending, read_ending


@dataclass
class PhaseState:
    order: str = "sequential"
    allow_pass: bool = False
    placement_only: bool = False
    locked_seats: frozenset[int] = frozenset()  # 1-based seats that may not move
    locked: set[Spot] = field(default_factory=set)  # locked to everyone this phase
    cloaked: set[Spot] = field(default_factory=set)
    fold: str = "none"

    def copy(self) -> PhaseState:
        return PhaseState(
            self.order,
            self.allow_pass,
            self.placement_only,
            self.locked_seats,
            set(self.locked),
            set(self.cloaked),
            self.fold,
        )

    def only_pass(self) -> bool:
        """Whether it says nothing but (maybe) an option to pass: the game without phases."""
        return self.copy_with_pass(False) == PhaseState()

    def copy_with_pass(self, allow_pass: bool) -> PhaseState:
        other = self.copy()
        other.allow_pass = allow_pass
        return other


# --- endings as dropdown values ---------------------------------------------------------------


def read_stalemate(data: Mapping, problems: list) -> str:
    """A posted stalemate value ("draw", ...) or a stalemate ending's key."""
    value = str(data.get("stalemate", "draw"))
    if value in STALEMATE_LABELS:
        return value
    found = read_ending(value, "stalemate") if is_ending(value) else None
    if found is None:
        problems.append({"path": "stalemate", "message": f"{value[:40]!r} is not an option"})
        return "draw"
    return found


def stalemate_choices(board_type: str | None = None, keep: str = "") -> list[tuple[str, str]]:
    """The stalemate dropdown: the seed's values, then its "can extend" endings — but
    not those the board cannot have (lines "on posts" need stacks), unless chosen
    (``keep``: a saved game's value is shown, and its error says why)."""
    words = set(map(ending_words.key, ending_words.WORDS.values()))
    extra = [
        (k, lab)
        for k, lab in ending_words.offered(when="stalemate")
        if k not in words and (k == keep or fits(k, board_type))
    ]
    return list(STALEMATE_LABELS.items()) + extra


def fits(key: str, board_type: str | None) -> bool:
    """Whether an offered ending can be had on this kind of board at all."""
    return board_type is None or board_type == "stacks" or not ending_words.from_key(key).posts


def check_extras(board_type: str | None = None, keep=()) -> list[tuple[str, str]]:
    """Endings a turn-check dropdown offers besides "First k-same-color-in-a-row": the turn
    endings of the seed's "can extend" list, then more stalemate endings (a game may have
    several: "More pieces than Chaos wins" and "Less pieces than Chaos loses"); those the
    board cannot have only where chosen (``keep``), as ``stalemate_choices``."""
    words = set(map(ending_words.key, ending_words.WORDS.values()))
    turn = [
        (k, lab)
        for k, lab in ending_words.offered(when="turn")
        if ending_words.as_check(ending_words.from_key(k)) is None
    ]
    stalemate = [
        (k, f"{lab} (at stalemate)")
        for k, lab in ending_words.offered(when="stalemate")
        if k not in words and (k in keep or fits(k, board_type))
    ]
    return turn + stalemate


# --- from a document ----------------------------------------------------------------------


CLOAK_REACH_LABELS = {"stack": "The whole stack", "space": "Only the space clicked"}


def from_doc(doc, state: FactoryState) -> None:
    if doc.phases:
        state.phases = [
            PhaseState(
                p.order,
                p.allow_pass,
                p.placement_only,
                frozenset(p.locked_seats),
                {(s.board, *s.at) for s in p.locked},
                {(s.board, *s.at) for s in p.cloaked},
                p.fold,
            )
            for p in doc.phases
        ]
    else:
        state.phases = [PhaseState(allow_pass=doc.allow_pass)]
    state.cloaking = doc.cloaking
    state.overachievers = doc.overachievers
    # Endings: a stalemate ending fills an unused stalemate dropdown; the rest are checks.
    for e in doc.endings:
        k = ending_words.key(e)
        if e.when == "stalemate" and state.stalemate == "draw":
            state.stalemate = k
        else:
            state.checks.append(Check(ending=k))


# --- from the posted form ------------------------------------------------------------------


def from_post(data: Mapping, state: FactoryState, spot_of, problems: list) -> None:
    """The phases from the hidden field, the shown phase's controls over the phase that was
    shown, then the phase to show and the count of phases."""
    phases = _read_phases(str(data.get("phases", "")), spot_of, problems)
    shown = bounded_int(data.get("phase_shown", 0), 0, MAX_PHASES - 1) or 0
    while len(phases) <= shown:
        phases.append(phases[-1].copy() if phases else PhaseState())
    p = phases[shown]
    order = str(data.get("order", p.order))
    if order in ORDER_LABELS:
        p.order = order
    else:
        problems.append({"path": f"phases[{shown}].order", "message": f"{order[:20]!r}: no"})
    p.placement_only = str(data.get("movement", "1" if p.placement_only else "0")) == "1"
    p.allow_pass = state.allow_pass
    fold = str(data.get("fold", p.fold))
    if fold in FOLD_LABELS:
        p.fold = fold
    else:
        problems.append({"path": f"phases[{shown}].fold", "message": f"{fold[:20]!r}: no"})
    count = bounded_int(data.get("phase_count", len(phases)), 1, MAX_PHASES) or len(phases)
    while len(phases) < count:
        phases.append(phases[-1].copy())  # an added phase copies the last one
    state.phases = phases[:count]
    picked = bounded_int(data.get("phase", shown), 0, MAX_PHASES - 1)
    state.phase_shown = min(shown if picked is None else picked, count - 1)
    cloaking = str(data.get("cloaking", "none"))
    if cloaking in CLOAKING_LABELS:
        state.cloaking = cloaking
    else:
        problems.append({"path": "cloaking", "message": f"{cloaking[:20]!r} is not an option"})
    state.overachievers = data.get("overachievers") == "1"
    reach = str(data.get("cloak_reach", "stack"))
    state.cloak_reach = reach if reach in CLOAK_REACH_LABELS else "stack"


MAX_PHASES_JSON = 300_000  # 6 phases locking and cloaking all 1,536 spaces: ~230 KB


def _read_phases(text: str, spot_of, problems: list) -> list[PhaseState]:
    if not text:
        return [PhaseState()]
    try:
        raw = json_input.loads(text, max_bytes=MAX_PHASES_JSON, max_depth=4)
    except json_input.InvalidJson as exc:
        message = f"the phases could not be read ({exc})"
        problems.append({"path": "phases", "message": message})
        return [PhaseState()]
    if not isinstance(raw, list) or not raw:
        return [PhaseState()]
    out = []
    for item in raw[:MAX_PHASES]:
        item = item if isinstance(item, dict) else {}
        p = PhaseState()
        if item.get("order") in ORDER_LABELS:
            p.order = item["order"]
        if item.get("fold") in FOLD_LABELS:
            p.fold = item["fold"]
        p.allow_pass = item.get("allow_pass") is True
        p.placement_only = item.get("placement_only") is True
        seats = item.get("locked_seats") if isinstance(item.get("locked_seats"), list) else []
        p.locked_seats = frozenset(s for s in seats[:4] if type(s) is int and 1 <= s <= 4)
        for name in ("locked", "cloaked"):
            spots = item.get(name)
            if isinstance(spots, str):  # "b,x,y,z b,x,y,z ..." (as encoded below)
                spots = spots.split()
            spots = spots if isinstance(spots, list) else []
            found = {spot_of(str(s)) for s in spots[:2000]}
            getattr(p, name).update(s for s in found if s)
        out.append(p)
    return out


def encode(state: FactoryState) -> str:
    """Every phase, for the hidden field (the shown one's controls override its entry)."""

    def where(spots):  # one string, not a list: the field is half the size once escaped
        return " ".join(",".join(map(str, s)) for s in sorted(spots))

    return json.dumps(
        [
            {
                "order": p.order,
                "allow_pass": p.allow_pass,
                "placement_only": p.placement_only,
                "locked_seats": sorted(p.locked_seats),
                "locked": where(p.locked),
                "cloaked": where(p.cloaked),
                "fold": p.fold,
            }
            for p in state.phases
        ],
        separators=(",", ":"),
    )


# --- the seed's rules between controls ------------------------------------------------------------


def adjust(state: FactoryState) -> None:
    seats = state.seats
    state.phases = state.phases[:MAX_PHASES] or [PhaseState()]
    state.phase_shown = min(max(state.phase_shown, 0), len(state.phases) - 1)
    for p in state.phases:
        p.locked_seats = frozenset(s for s in p.locked_seats if 1 <= s <= seats)
        p.locked = {s for s in p.locked if state.on_board(s)}
        p.cloaked = {s for s in p.cloaked if state.on_board(s)}
    state.phases[-1].fold = "none"  # a fold applies at the end of a phase: not the last's
    state.allow_pass = state.phases[0].allow_pass
    if state.players != "4":
        state.overachievers = False


def toggle(state: FactoryState, spot: Spot, marker: str) -> str:
    """The lock marker after phase 1 and the cloak marker: this phase's spaces."""
    p = state.phases[state.phase_shown]
    spots = {spot}
    if state.board_type == "stacks" and not (marker == "cloak" and state.cloak_reach == "space"):
        b, x, y, _z = spot
        spots = {(b, x, y, z) for z in range(1, state.size[2] + 1)}
    target = p.cloaked if marker == "cloak" else p.locked
    if spot in target:
        target.difference_update(spots)
    else:
        target.update(spots)
    return ""


def toggle_seat(state: FactoryState, seat: int) -> None:
    """The phase_lock icon of a seat: locked for the shown phase, or not."""
    p = state.phases[state.phase_shown]
    if 1 <= seat <= state.seats:
        p.locked_seats = p.locked_seats ^ {seat}


# --- to the rule document ---------------------------------------------------------------------


def to_document(state: FactoryState) -> dict:
    doc: dict = {}
    phases = state.phases
    if len(phases) == 1 and phases[0].only_pass():
        doc["allow_pass"] = phases[0].allow_pass
    else:
        doc["allow_pass"] = False

        def where(spots):
            return [{"board": b, "at": [x, y, z]} for b, x, y, z in sorted(spots)]

        doc["phases"] = [
            {
                "order": p.order,
                "allow_pass": p.allow_pass,
                "placement_only": p.placement_only,
                "locked_seats": sorted(p.locked_seats),
                "locked": where(p.locked),
                "cloaked": where(p.cloaked),
                "fold": p.fold,
            }
            for p in phases
        ]
    if state.cloaking != "none":
        doc["cloaking"] = state.cloaking
    if state.overachievers:
        doc["overachievers"] = True
    endings = []
    if is_ending(state.stalemate):
        endings.append(json.loads(state.stalemate))
    endings += [json.loads(c.ending) for c in state.checks if c.ending]
    if endings:
        doc["endings"] = endings
    return doc


def document_stalemate(state: FactoryState) -> str:
    """The document's ``stalemate``: an ending in the stalemate dropdown leaves it "draw"."""
    return "draw" if is_ending(state.stalemate) else state.stalemate
