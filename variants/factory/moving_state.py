"""The factory's state for pieces that move: per shape row its move, power, condition and
result, and the spaces marked sticky, exclusive (to seats) or locked to seats.

Pure Python, read from the posted form, written into the rule document's
``shape_rules``, ``sticky``, ``exclusive`` and ``space_locks`` (gamecore/rules/schema.py).
Shapes are addressed by row, as the reserves are (see ``state``): renaming a shape row
carries its rules along.

On a stacks board a space marker (exclusive, sticky, a seat's lock) marks the whole
stack: every space of its column, which is what the seed's games say ("first stack
exclusive to black").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from gamecore.rules.vocabulary import (
    BY_STACK,
    CONDITION_LABELS,
    COVERS,
    MOVEMENT_LABELS,
    POWER_LABELS,
    RESULT_LABELS,
)
from variants.bounded import bounded_int

from .checks import FactoryState, Spot

SPACE_MARKERS = ("lock", "exclusive", "sticky")
THIS_PHASE = -1  # marker_seat: "Everyone, this phase only" (a phase's own locked space)
# A lock's flags as written in the hidden field: entry and exit, entry only, exit only.
LOCK_FLAGS = {"ex": (True, True), "e": (True, False), "x": (False, True)}


@dataclass
class ShapeMoves:
    move: str = "stationary"
    power: str = "none"
    condition: str = ""  # "" = the default (cover) / cleared
    result: str = ""  # "" = the default (remove) / cleared

    def document(self) -> dict:
        """Only what differs from the defaults (an all-default shape is no entry)."""
        out = {}
        if self.move != "stationary":
            out["move"] = self.move
        if self.power != "none":
            out["power"] = self.power
        # Written even without a power (a hand-made post): validation then names the control.
        if self.condition and self.condition != "cover":
            out["condition"] = self.condition
        if self.result and self.result != "remove":
            out["result"] = self.result
        return out


@dataclass
class MovingState:
    rules: dict[int, ShapeMoves] = field(default_factory=dict)  # shape row -> its rules
    sticky: set[Spot] = field(default_factory=set)
    exclusive: dict[Spot, frozenset[int]] = field(default_factory=dict)  # -> 1-based seats
    # (space, flags) -> seats that may not enter ("e") / leave ("x") / either ("ex")
    seat_locks: dict[tuple[Spot, str], frozenset[int]] = field(default_factory=dict)
    # The seat the exclusive / lock markers apply to (0: everyone; THIS_PHASE: the lock
    # marker locks the space to everyone for the shown phase only, its pieces staying).
    marker_seat: int = 0
    # What the lock marker locks for that seat (LOCK_FLAGS' key): the seed's locks "for
    # entry and/or exit to specific players", chosen beside the seat.
    lock_flags: str = "ex"

    def row(self, row: int) -> ShapeMoves:
        return self.rules.get(row) or ShapeMoves()


# --- from a document -------------------------------------------------------------------


def from_doc(doc) -> MovingState:
    row = {shape: i + 1 for i, shape in enumerate(doc.shapes)}
    state = MovingState()
    for shape, r in doc.shape_rules.items():
        if shape in row:
            has_power = r.power != "none"
            state.rules[row[shape]] = ShapeMoves(
                r.move,
                r.power,
                r.condition if has_power else "",
                r.result if has_power else "",
            )
    state.sticky = {(s.board, *s.at) for s in doc.sticky}
    for e in doc.exclusive:
        spot = (e.board, *e.at)
        state.exclusive[spot] = state.exclusive.get(spot, frozenset()) | frozenset(e.seats)
    for k in doc.space_locks:
        flags = "ex" if k.entry and k.exit else "e" if k.entry else "x"
        key = ((k.board, *k.at), flags)
        state.seat_locks[key] = state.seat_locks.get(key, frozenset()) | frozenset(k.seats)
    return state


# --- from the posted form ----------------------------------------------------------------


def from_post(data: Mapping, rows: int, seats: int, spot_of, problems: list) -> MovingState:
    """Read the per-shape dropdowns and the hidden space fields; junk is reported (by
    rule-document path) and dropped, never raised."""
    state = MovingState()
    for r in range(1, rows + 1):

        def choice(key, allowed, default, r=r):
            value = str(data.get(f"{key}-{r}", default))
            if value == "" or value in allowed:
                return value
            problems.append({"path": f"{key}-{r}", "message": f"{value[:30]!r} is not an option"})
            return default

        moves = ShapeMoves(
            choice("move", MOVEMENT_LABELS, "stationary") or "stationary",
            choice("power", POWER_LABELS, "none") or "none",
            choice("power_condition", CONDITION_LABELS, ""),
            choice("power_result", RESULT_LABELS, ""),
        )
        if moves != ShapeMoves():
            state.rules[r] = moves
    state.marker_seat = bounded_int(data.get("marker_seat", 0), THIS_PHASE, seats) or 0
    flags = str(data.get("lock_flags", "ex"))
    state.lock_flags = flags if flags in LOCK_FLAGS else "ex"

    def spots(key: str) -> list[tuple[Spot, list[str]]]:
        out = []
        for item in str(data.get(key, "")).split()[:2000]:
            parts = item.split(":")
            spot = spot_of(parts[0])
            if spot is None:
                problems.append({"path": key, "message": f"{item[:40]!r} is not a space"})
                continue
            out.append((spot, parts[1:]))
        return out

    def seat_set(text: str, key: str) -> frozenset[int]:
        found = {bounded_int(s, 1, seats) for s in text.split(".") if s}
        if None in found or not found:
            problems.append({"path": key, "message": f"seats {text[:20]!r}: 1 to {seats}"})
        return frozenset(s for s in found if s)

    state.sticky = {spot for spot, _ in spots("sticky")}
    for spot, rest in spots("exclusive"):
        seats_of = seat_set(rest[0] if rest else "", "exclusive")
        if seats_of:
            state.exclusive[spot] = seats_of
    for spot, rest in spots("space_locks"):
        flags = rest[1] if len(rest) > 1 else "ex"
        seats_of = seat_set(rest[0] if rest else "", "space_locks")
        if flags not in LOCK_FLAGS:
            problems.append({"path": "space_locks", "message": f"{flags[:8]!r}: e, x or ex"})
        elif seats_of:
            state.seat_locks[(spot, flags)] = seats_of
    return state


def encode(m: MovingState) -> dict[str, str]:
    """The hidden fields carrying the marked spaces between renders."""

    def where(spot):
        return ",".join(map(str, spot))

    def seats(s):
        return ".".join(map(str, sorted(s)))

    return {
        "sticky": " ".join(where(s) for s in sorted(m.sticky)),
        "exclusive": " ".join(f"{where(s)}:{seats(v)}" for s, v in sorted(m.exclusive.items())),
        "space_locks": " ".join(
            f"{where(s)}:{seats(v)}:{flags}" for (s, flags), v in sorted(m.seat_locks.items())
        ),
    }


# --- the seed's rules between controls ---------------------------------------------------


def full_rows(state: FactoryState) -> set[int]:
    """Shape rows whose every reserve select is at its maximum: they cannot move."""
    limit = state.reserve_limit()
    return {
        row
        for row in range(1, len(state.shapes) + 1)
        if all(state.reserves.get(c, {}).get(row, 0) >= limit for c in state.color_names)
    }


def adjust(state: FactoryState, seats: int) -> None:
    """A shape whose reserves are all at the maximum does not move; "No power" clears its
    condition and result; a power without a condition or result takes the defaults (Cover,
    Removes); "Cover" on a board that is not stacks keeps only Removes and Reincarnates;
    marked spaces stay on the board and name only seats that exist."""
    m = state.moving
    stacks = state.board_type == "stacks"
    full = full_rows(state)
    rows = len(state.shapes)
    for row in list(m.rules):
        r = m.rules[row]
        if row > rows:
            del m.rules[row]
            continue
        if row in full:
            r.move = "stationary"
        if r.move in BY_STACK and not stacks:
            r.move = "stationary"  # the option is not offered off stacks
        if r.power == "none":
            r.condition = r.result = ""
        else:
            r.condition = r.condition or "cover"
            r.result = r.result or "remove"
            if r.condition in COVERS and not stacks and r.result not in COVER_RESULTS:
                r.result = "remove"
        if r == ShapeMoves():
            del m.rules[row]
    m.marker_seat = m.marker_seat if THIS_PHASE <= m.marker_seat <= seats else 0
    m.sticky = {s for s in m.sticky if state.on_board(s)}

    def keep(seat_map):
        out = {}
        for key, value in seat_map.items():
            spot = key[0] if isinstance(key[0], tuple) else key
            value = frozenset(s for s in value if 1 <= s <= seats)
            if state.on_board(spot) and value:
                out[key] = value
        return out

    m.exclusive = keep(m.exclusive)
    m.seat_locks = keep(m.seat_locks)


# "Cover" on a board that is not stacks: every result but Remove and Reincarnate is
# cleared (reincarnate x2 is a reincarnation: kept; catalogue/READINGS.md).
COVER_RESULTS = ("remove", "reincarnate", "reincarnate-x2")


# --- clicking a space with a space marker --------------------------------------------------


def toggle(state: FactoryState, spot: Spot, marker: str) -> str:
    """The seed's rule for the exclusive, sticky and per-seat lock markers: a space with
    the property loses it, one without gains it. Returns a note ("" if none)."""
    m = state.moving
    seat = m.marker_seat
    if marker == "exclusive" and seat <= 0:
        return "Choose the seat the space is exclusive to (beside the markers), then a space."
    spots = _spots(state, spot)
    if marker == "sticky":
        has = spot in m.sticky
        for s in spots:
            (m.sticky.discard if has else m.sticky.add)(s)
        return ""
    if marker == "lock":
        return _toggle_lock(m, spots, spot, seat)
    table = m.exclusive
    has = seat in table.get(spot, frozenset())
    for s in spots:
        seats = set(table.get(s, frozenset()))
        (seats.discard if has else seats.add)(seat)
        if seats:
            table[s] = frozenset(seats)
        else:
            table.pop(s, None)
    return ""


def _toggle_lock(m: MovingState, spots: list[Spot], spot: Spot, seat: int) -> str:
    """The lock marker for one seat with the chosen flags (entry and exit, entry only,
    exit only): a space locked that way is unlocked for the seat; otherwise the seat's
    lock there becomes the chosen one (never two locks of one seat on one space)."""
    flags = m.lock_flags if m.lock_flags in LOCK_FLAGS else "ex"
    has = seat in m.seat_locks.get((spot, flags), frozenset())
    for s in spots:
        for f in LOCK_FLAGS:
            seats = set(m.seat_locks.get((s, f), frozenset())) - {seat}
            if not has and f == flags:
                seats.add(seat)
            if seats:
                m.seat_locks[(s, f)] = frozenset(seats)
            else:
                m.seat_locks.pop((s, f), None)
    return ""


def _spots(state: FactoryState, spot: Spot) -> list[Spot]:
    """The space, or on stacks every space of its stack."""
    if state.board_type != "stacks":
        return [spot]
    b, x, y, _z = spot
    return [(b, x, y, z) for z in range(1, state.size[2] + 1)]


# --- to the rule document ----------------------------------------------------------------------


def to_document(state: FactoryState, shape_of) -> dict:
    m = state.moving
    doc: dict = {}
    rules = {}
    for row, r in sorted(m.rules.items()):
        entry = r.document()
        if entry:
            rules[shape_of(row)] = entry
    if rules:
        doc["shape_rules"] = rules
    if m.sticky:
        doc["sticky"] = [{"board": b, "at": [x, y, z]} for b, x, y, z in sorted(m.sticky)]
    if m.exclusive:
        doc["exclusive"] = [
            {"board": b, "at": [x, y, z], "seats": sorted(seats)}
            for (b, x, y, z), seats in sorted(m.exclusive.items())
        ]
    if m.seat_locks:
        doc["space_locks"] = [
            {
                "board": b,
                "at": [x, y, z],
                "seats": sorted(seats),
                "entry": LOCK_FLAGS[flags][0],
                "exit": LOCK_FLAGS[flags][1],
            }
            for ((b, x, y, z), flags), seats in sorted(m.seat_locks.items())
        ]
    return doc
