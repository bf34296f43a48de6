"""The nested-board section of the factory (seeds 000-002) as plain data.

Pure Python (no Django), the nested counterpart of ``state.py``: ``from_post`` reads the
section's fields (named ``n_<field>``), ``adjust`` makes the controls agree with each
other as the seed's constraints require (S^N ≤ 100, S^(N·D) ≤ 1000, L ≤ S, options that
only mean something at depth ≥ 2 or with a timer), and ``to_document`` writes the
``board.type = "nested"`` rule document.

``unavailable`` is the one place that says which control is off and why: the layout
disables it with that reason, ``adjust`` resets it, and ``from_post`` refuses a posted
value for it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, fields

from gamecore import rules
from gamecore.rules.nested import MAX_BORDER, MAX_VOLUME, route_map_length
from gamecore.rules.schema import NestedSpec
from variants.bounded import OutOfBounds, bounded_int, whole_number

from . import turn_time

MAX_SIDE = 16
MAX_DEPTH = 4
DIMENSIONS = (2, 3, 4)
TEAMS = ("2", "3", "4")
TURN_ORDERS = ("sequential", "simultaneous")
CREW_ORDERS = ("in-turn", "flexible")
WIN_CONDITIONS = ("highest-sign", "majority")
ROUTINGS = ("tactical", "open", "map", "hypermap")
LEVEL_ROUTINGS = ("tactical", "map", "hypermap")  # Strategic's rule sets, level by level
TIMEOUTS = ("loss", "random-move", "skip")
# The seed's time controls (000), plus Ultimate's turn time (001, given in milliseconds:
# default 15,000, min 5,000, max 60,000 -> 5 s, 15 s and 60 s here, whole seconds as the
# rule document's ``seconds_per_turn`` keeps them, so no saved fingerprint changes).
TIME_CONTROLS = (5, 10, 15, 30, 60, 300, 900, 1800, 3600, 10800, 21600, 43200, 86400)
ULTIMATE_TURN_MS = (15_000, 5_000, 60_000)  # default, min, max (seed 001)
MAX_SCATTER = 9  # random obstacles and scouts: 0..9
# What each number field may hold: the schema's own limits, checked as the form is read so
# that nothing is built from a number out of range (the messages match the schema's).
NUMBER_RANGES = {
    "side": (2, MAX_SIDE),
    "win_length": (2, MAX_SIDE),
    "depth": (1, MAX_DEPTH),
    "dimensions": (min(DIMENSIONS), max(DIMENSIONS)),
    "random_obstacles": (0, MAX_SCATTER),
    "scouts": (0, MAX_SCATTER),
    "seconds": (5, 86400),
}

# Reasons a control is off (shown next to it).
NEEDS_BLOCKS = "Needs depth N ≥ 2: at depth 1 there are no blocks. Raise the depth to 2 or more."
NO_AREA = (
    "At depth 1 there is no allowed area: players may play anywhere. "
    "Raise the depth to 2 or more to route play."
)
CHECKED_FLAT = (
    "Needs depth N ≥ 2: Checked is an Ultimate option; on one flat board every move "
    "would be played out against every reply. Raise the depth to 2 or more."
)
NEEDS_TIMER = (
    "Only with a time control: without one nothing times out. Set Seconds per turn to choose this."
)
NEEDS_MAP = "Only with Map-like or Hypermap-like routing. Choose one of them as the routing."
FLAT_MAPS = (
    "Map-like and Hypermap-like routing need depth N ≥ 2 and 2 dimensions. "
    "Raise the depth and set 2 dimensions to choose them."
)
NO_LOWER = (
    "Only with depth N ≥ 3, 2 dimensions and a routed area (not Open). "
    "Raise the depth to 3, set 2 dimensions and choose a routing other than Open."
)

BOOLEANS = (
    "symmetric_obstacles",
    "lock_captured",
    "kyu",
    "draws_count_for_all",
    "free_when_decided",
    "no_send_back",
    "inverted",
    "checked",
    "quick",
)
BLOCK_ONLY = (
    "symmetric_obstacles",
    "lock_captured",
    "kyu",
    "win_condition",
    "draws_count_for_all",
    "free_when_decided",
    "no_send_back",
    "quick",
)


@dataclass
class NestedState:
    side: int = 3  # S
    win_length: int | None = None  # L; None: equal to the side (the seed's default)
    depth: int = 2  # N
    dimensions: int = 2  # D
    teams: str = "2"
    turn_order: str = "sequential"
    crew_order: str = "in-turn"
    symmetric_obstacles: bool = False
    random_obstacles: int = 0
    scouts: int = 0
    lock_captured: bool = False
    kyu: bool = False
    win_condition: str = "highest-sign"
    routing: str = "tactical"
    # Strategic's "any combination": the routing of the levels below the top one, comma
    # separated (depth 3: one word, depth 4: two); all tactical is the named rule sets.
    lower_routing: str = "tactical"
    route_map: tuple[int, ...] | None = None  # None: the documented default numbers
    draws_count_for_all: bool = False
    free_when_decided: bool = False
    no_send_back: bool = False
    inverted: bool = False
    checked: bool = False
    quick: bool = False
    seconds: int | None = None
    timeout: str = "loss"
    # Seed 001's turn time in ms when not whole seconds (the rule document's ``turn_ms``):
    # the time-control select's "ms" option and its number field (turn_time.py).
    turn_ms: int | None = None


DEFAULTS = NestedState()


# --- the constraints between S, N and D ---------------------------------------------------


def fits(side: int, depth: int, dimensions: int) -> bool:
    return side**depth <= MAX_BORDER and side ** (depth * dimensions) <= MAX_VOLUME


def _within(value, low: int, high: int) -> int:
    return min(max(value, low), high)


def depth_choices(side: int, dimensions: int) -> list[int]:
    """The depths N the current side and dimensions allow."""
    s, d = _within(side, 2, MAX_SIDE), _within(dimensions, 2, 4)
    return [n for n in range(1, MAX_DEPTH + 1) if fits(s, n, d)]


def dimension_choices(side: int, depth: int) -> list[int]:
    """The dimensions D the current side and depth allow."""
    s, n = _within(side, 2, MAX_SIDE), _within(depth, 1, MAX_DEPTH)
    return [d for d in DIMENSIONS if fits(s, n, d)]


def level_routing(state: NestedState) -> tuple[str, ...] | None:
    """The document's ``nested.level_routing`` (None: the named rule sets)."""
    lower = tuple(state.lower_routing.split(","))
    if state.routing == "open" or all(k == "tactical" for k in lower):
        return None
    return (state.routing, *lower)


def lower_choices(state: NestedState) -> list[tuple[str, str]]:
    """Every combination of the levels below the top one (3 at depth 3, 9 at depth 4)."""
    words = {"tactical": "Tactical-like", "map": "Map-like", "hypermap": "Hypermap-like"}
    combos = [()]
    for _ in range(max(_within(state.depth, 1, MAX_DEPTH) - 2, 1)):
        combos = [(*c, k) for c in combos for k in LEVEL_ROUTINGS]
    return [(",".join(c), ", then ".join(words[k] for k in c)) for c in combos]


def route_map_size(state: NestedState) -> tuple[int, int]:
    """(how many numbers, largest number) a custom route map needs (rules/nested.py)."""
    s, n, d = _within(state.side, 2, MAX_SIDE), _within(state.depth, 1, 4), state.dimensions
    d = _within(d, 2, 4)
    try:
        spec = NestedSpec(side=s, depth=n, dimensions=d, routing=state.routing,
                          level_routing=level_routing(state))  # fmt: skip
    except ValueError:  # a stale post: the top level alone
        spec = NestedSpec(side=s, depth=n, dimensions=d, routing=state.routing)
    return route_map_length(spec), s**d


def unavailable(state: NestedState) -> dict[str, str]:
    """Control -> why it is off in this state (controls not listed are on)."""
    off: dict[str, str] = {}
    if state.depth < 2:
        off |= dict.fromkeys(BLOCK_ONLY, NEEDS_BLOCKS)
        off["routing"] = NO_AREA
        off["checked"] = CHECKED_FLAT  # refused by validation too (rules/nested.py)
    if state.depth < 3 or state.dimensions != 2 or state.routing == "open":
        off["lower_routing"] = NO_LOWER
    lower_numbered = "lower_routing" not in off and "map" in state.lower_routing
    if state.routing not in ("map", "hypermap") and not lower_numbered:
        off["route_map"] = NEEDS_MAP
    if state.seconds is None and state.turn_ms is None:
        off["timeout"] = NEEDS_TIMER
    return off


def routing_unavailable(state: NestedState) -> dict[str, str]:
    """Routing option -> why it cannot be chosen here."""
    if state.depth >= 2 and state.dimensions == 2:
        return {}
    return {"map": FLAT_MAPS, "hypermap": FLAT_MAPS}


# --- keeping the controls consistent -------------------------------------------------------


def adjust(state: NestedState) -> NestedState:
    """Clamp every control to what the others allow. A larger side first lowers the
    dimensions (D = 2 is the standard grid) and only then the depth, TacticToy's most
    distinctive parameter; L stays within 2..S."""
    state.side = _within(state.side, 2, MAX_SIDE)
    state.dimensions = _within(state.dimensions, 2, 4)
    state.depth = min(_within(state.depth, 1, MAX_DEPTH), max(depth_choices(state.side, 2)))
    state.dimensions = min(state.dimensions, max(dimension_choices(state.side, state.depth)))
    if state.win_length is not None:
        state.win_length = _within(state.win_length, 2, state.side)
    state.teams = state.teams if state.teams in TEAMS else "2"
    state.random_obstacles = _within(state.random_obstacles, 0, MAX_SCATTER)
    state.scouts = _within(state.scouts, 0, MAX_SCATTER)
    if state.routing in routing_unavailable(state) or state.routing not in ROUTINGS:
        state.routing = "tactical"
    if state.lower_routing not in dict(lower_choices(state)):
        state.lower_routing = "tactical"
    for name in unavailable(state):
        setattr(state, name, getattr(DEFAULTS, name))
    return state


# --- the posted form ---------------------------------------------------------------------------


def from_post(data: Mapping) -> tuple[NestedState, list[dict[str, str]]]:
    """Read the ``n_*`` fields. Never raises: a value of the wrong kind, an unknown choice,
    a missing field of a control that is on, or a value for a control that is off, is
    reported by rule-document path and the default is used instead."""
    problems: list[dict[str, str]] = []
    state = NestedState()
    seen: set[str] = set()

    def report(name: str, message: str) -> None:
        problems.append({"path": path_of(name), "message": message})

    def raw(name: str) -> str | None:
        value = data.get(f"n_{name}")
        if value is None:
            return None
        seen.add(name)
        return str(value).strip()

    def number(name: str, blank_ok: bool = False) -> None:
        text = raw(name)
        if text is None or (text == "" and blank_ok):
            return
        try:
            setattr(state, name, whole_number(text, *NUMBER_RANGES[name]))
        except OutOfBounds as exc:
            report(name, str(exc))
            if exc.nearest is not None:  # past a limit: the page shows that limit
                setattr(state, name, exc.nearest)

    def choice(name: str, allowed) -> None:
        text = raw(name)
        if text is None:
            return
        if text in allowed:
            setattr(state, name, text)
        else:
            report(name, f"{text[:40]!r} is not an option")

    for name in ("side", "depth", "dimensions", "random_obstacles", "scouts"):
        number(name)
    number("win_length", blank_ok=True)
    if raw("seconds") == turn_time.MS:  # seed 001: any whole number of milliseconds
        state.turn_ms = turn_time.read(data, "n_turn_ms", problems)
    else:
        number("seconds", blank_ok=True)
    choice("teams", TEAMS)
    choice("turn_order", TURN_ORDERS)
    choice("crew_order", CREW_ORDERS)
    choice("win_condition", WIN_CONDITIONS)
    choice("routing", ROUTINGS)
    text = raw("lower_routing")
    if text is not None:
        if text in dict(lower_choices(state)):
            state.lower_routing = text
        else:
            report("lower_routing", f"{text[:40]!r} is not an option")
    choice("timeout", TIMEOUTS)
    for name in BOOLEANS:
        text = raw(name)
        if text is not None and text not in ("0", "1"):
            report(name, f"{text[:40]!r} is not an option (0 or 1)")
        elif text is not None:
            setattr(state, name, text == "1")
    text = raw("route_map")
    if text:
        numbers = [t for t in re.split(r"[\s,]+", text) if t]
        # Bounded, but wider than any map allows: validation then names the exact range.
        parsed = [bounded_int(t, -MAX_VOLUME, MAX_VOLUME) for t in numbers[: MAX_VOLUME + 1]]
        if len(numbers) > MAX_VOLUME:
            report("route_map", f"at most {MAX_VOLUME} numbers")
        elif None in parsed:
            report("route_map", "whole numbers separated by spaces")
        else:
            state.route_map = tuple(parsed)

    off = unavailable(state)
    for f in fields(NestedState):
        name = f.name
        if name in off:
            if getattr(state, name) != getattr(DEFAULTS, name):
                report(name, off[name].rstrip("."))
        elif name not in seen and name not in OPTIONAL:
            report(name, "is required")
    return state, problems


# Fields a browser may leave out while their control is on (a blank text area).
OPTIONAL = ("route_map", "lower_routing", "turn_ms")

# Form field -> rule-document path.
_PATHS = {
    "teams": "players",
    "seconds": "seconds_per_turn",
    "turn_ms": "turn_ms",
    "timeout": "timeout",
    "lower_routing": "nested.level_routing",
}


def path_of(name: str) -> str:
    return _PATHS.get(name, f"nested.{name}")


def field_of(path: str) -> str | None:
    """Rule-document path -> form field (``nested.side`` -> ``side``), or None."""
    for name, known in _PATHS.items():
        if path == known:
            return name
    if path.startswith("nested."):
        name = path.removeprefix("nested.").split(".")[0].split("[")[0]
        if name in {f.name for f in fields(NestedState)}:
            return name
    return None


# --- documents ---------------------------------------------------------------------------------


def from_doc(doc: rules.RuleDoc) -> NestedState:
    n = doc.nested or NestedSpec()
    return NestedState(
        side=n.side,
        win_length=None if n.win_length in (None, n.side) else n.win_length,
        depth=n.depth,
        dimensions=n.dimensions,
        teams=doc.players,
        turn_order=n.turn_order,
        crew_order=n.crew_order,
        symmetric_obstacles=n.symmetric_obstacles,
        random_obstacles=n.random_obstacles,
        scouts=n.scouts,
        lock_captured=n.lock_captured,
        kyu=n.kyu,
        win_condition=n.win_condition,
        routing=n.routing,
        lower_routing=",".join(n.level_routing[1:]) if n.level_routing else "tactical",
        route_map=n.route_map,
        draws_count_for_all=n.draws_count_for_all,
        free_when_decided=n.free_when_decided,
        no_send_back=n.no_send_back,
        inverted=n.inverted,
        checked=n.checked,
        quick=n.quick,
        seconds=doc.seconds_per_turn,
        timeout=doc.timeout,
        turn_ms=doc.turn_ms,
    )


def to_document(name: str, state: NestedState) -> dict:
    """The rule document (not yet validated): only what a nested game has."""
    nested = {
        f.name: getattr(state, f.name)
        for f in fields(NestedState)
        if f.name not in ("teams", "seconds", "timeout", "lower_routing", "turn_ms")
    }
    nested["level_routing"] = level_routing(state)
    nested["route_map"] = list(state.route_map) if state.route_map is not None else None
    return {
        "name": name,
        "players": state.teams,
        "board": {"type": "nested"},
        "nested": nested,
        "seconds_per_turn": state.seconds,
        "turn_ms": state.turn_ms if state.seconds is None else None,
        "timeout": state.timeout if state.seconds is not None or state.turn_ms else "loss",
    }


def encode_route_map(state: NestedState) -> str:
    return " ".join(map(str, state.route_map or ()))
