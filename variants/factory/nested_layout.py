"""What the nested-board section of the factory shows: every control of the nested rule
section with the seed's names and help, the choices the other controls leave it, and
why a control is off (``nested_state.unavailable``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gamecore.rules.vocabulary import TEAM_COLORS, TEAM_SYMBOLS

from . import turn_time
from .controls import Control, select
from .nested_state import (
    MAX_SCATTER,
    MAX_SIDE,
    TIME_CONTROLS,
    ULTIMATE_TURN_MS,
    NestedState,
    depth_choices,
    dimension_choices,
    encode_route_map,
    fits,
    level_routing,
    lower_choices,
    route_map_size,
    routing_unavailable,
    unavailable,
)

Errors = Callable[[str], list[str]]

HELP = {
    "side": "The side of each block: an S×S grid (a cube in 3-D). 2–16.",
    "win_length": "Marks in a row that capture a block: 2 to S. Default: S, a full row "
    "as in classic tic-tac-toe.",
    "depth": "Nesting levels: 1 is one flat board, 2 blocks within a board (Ultimate), "
    "up to 4. Limits: S^N ≤ 100 and S^(N·D) ≤ 1000.",
    "dimensions": "2 is a flat grid, 3 a cube (side-by-side slices), 4 a tesseract. "
    "Limit: S^(N·D) ≤ 1000.",
    "teams": "Each team has a symbol and colour: "
    + ", ".join(f"{s} {c}" for s, c in zip(TEAM_SYMBOLS, TEAM_COLORS, strict=True))
    + ".",
    "turn_order": "Sequential: teams take turns in a fixed order. Simultaneous: every team "
    "moves once a round, in any order.",
    "crew_order": "When several players share a team. In turn: they rotate in a fixed "
    "order. Flexible: any of them makes the team's move, first come first served.",
    "symmetric_obstacles": "One obstacle (#) in every block, where the cell's place in its "
    "block equals the block's place in its parent.",
    "random_obstacles": "Scatters obstacles: about value/2 per block. 0: none.",
    "scouts": "Places team marks before the first move: about value/2 per block, "
    "alternating between teams.",
    "lock_captured": "A won block's empty cells become protected (%): no more moves there.",
    "kyu": "Kyū (窮): no sending the opponent to the same block a third time in a row, "
    "while two other destinations exist.",
    "win_condition": "Highest Sign: a line of won blocks at the peak wins. Majority: more "
    "than half of the top-level blocks wins.",
    "routing": "Where a move sends the next player. Tactical: the cell's place in its "
    "block names the next block. Open (Ultimate): any incomplete block. Map-like and "
    "Hypermap-like (Strategic): numbers beside the row or in the cell name it.",
    "lower_routing": "Strategic's rule sets combined: how the levels below the top one "
    "are routed. Tactical-like: the cell's place in its block; Map-like: the number left "
    "of the row in that level's block; Hypermap-like: a number in the cell.",
    "inverted": "Winners and losers are swapped; draws and resignations are unaffected.",
    "checked": "Disallows obviously bad moves: none may leave the opponent a win in one. "
    "No valid move left is checkmate.",
    "quick": "Capturing one top-level block wins (Checked is recommended, against misclicks).",
    "draws_count_for_all": "A drawn block counts as every team's (a line still needs one "
    "real mark of its own).",
    "free_when_decided": "Sent to a block that is won or drawn, the player may move anywhere.",
    "no_send_back": "A player may not send the next player into the block where that "
    "player made their previous move.",
    "seconds": "The most time a move may take. Disabled: take as long as you want. "
    "Ultimate: 15 s per turn by default (the seed's 15,000 ms), from 5 s to 60 s.",
    "timeout": "Loss: the team is disqualified. Random move: one is made for it. Skip: "
    "the turn passes without a mark.",
}

LABELS = {
    "side": "Side length (S)",
    "win_length": "Win line length (L)",
    "depth": "Nesting depth (N)",
    "dimensions": "Dimensions (D)",
    "teams": "Number of teams",
    "turn_order": "Turn order",
    "crew_order": "In-crew order",
    "symmetric_obstacles": "Symmetric obstacles",
    "random_obstacles": "Random obstacles",
    "scouts": "Scouts",
    "lock_captured": "Lock captured blocks",
    "kyu": "Kyū rule",
    "win_condition": "Win condition",
    "routing": "Allowed area",
    "lower_routing": "Lower levels' routing",
    "route_map": "Route map numbers",
    "inverted": "Inverted",
    "checked": "Checked",
    "quick": "Quick",
    "draws_count_for_all": "Drawn blocks count for all",
    "free_when_decided": "Free move into a decided block",
    "no_send_back": "No sending back",
    "seconds": "Time control",
    "timeout": "Timeout consequence",
}

GROUPS = (
    ("Board", ("side", "win_length", "depth", "dimensions")),
    ("Teams", ("teams", "turn_order", "crew_order")),
    ("Initialization", ("symmetric_obstacles", "random_obstacles", "scouts")),
    ("Gameplay", ("lock_captured", "kyu", "win_condition", "routing", "lower_routing")),
    ("Ultimate options", ("inverted", "checked", "quick")),
    ("Strategic limits", ("draws_count_for_all", "free_when_decided", "no_send_back")),
    ("Time control", ("seconds", "timeout")),
)
# Controls whose change redraws the form: they clamp others, or change the preview.
REFRESH = (
    "side",
    "depth",
    "dimensions",
    "routing",
    "lower_routing",
    "seconds",
    "symmetric_obstacles",
    "random_obstacles",
    "scouts",
)
ROUTING_LABELS = {
    "tactical": "Tactical (Ultimate)",
    "open": "Open: any incomplete block",
    "map": "Map-like (Strategic)",
    "hypermap": "Hypermap-like (Strategic)",
}


@dataclass
class RouteMap:
    """The text area of Strategic's numbers (shown only with map routing)."""

    value: str
    help: str
    errors: list[str]
    disabled: bool
    reason: str


@dataclass
class NestedLayout:
    groups: list[tuple[str, list[Control]]]
    route_map: RouteMap
    grid_note: str  # "Ground grid 9×9 (81 cells) in blocks of 3×3, 2 levels"
    preview: dict | None = None  # the starting position's view (preview.starting_view)
    turn_ms: turn_time.MsField | None = None  # seed 001's turn time, under the time control
    random_start: bool = False  # random obstacles or scouts: the preview is one example

    def controls(self) -> list[Control]:
        return [c for _title, controls in self.groups for c in controls]


def _time_label(seconds: int) -> str:
    """ "15 s per turn", "5 min per turn", "1 h per turn"; Ultimate's seed (001) gives turn
    time in milliseconds, so its default, least and most say so too."""
    text = f"{seconds} s"
    for unit, size in (("h", 3600), ("min", 60)):
        if seconds >= size and seconds % size == 0:
            text = f"{seconds // size} {unit}"
            break
    text += " per turn"
    default, least, most = ULTIMATE_TURN_MS
    notes = {default: "Ultimate's default", least: "Ultimate's least", most: "Ultimate's most"}
    if seconds * 1000 in notes:
        text += f" ({seconds * 1000:,} ms: {notes[seconds * 1000]})"
    return text


def _on_off(value: bool) -> tuple[list[tuple[str, str]], str]:
    return [("0", "Off"), ("1", "On")], "1" if value else "0"


def _choices(state: NestedState, name: str) -> tuple[list, object]:
    """(value, label) pairs and the current value of one control."""
    value = getattr(state, name)
    side = min(max(state.side, 2), MAX_SIDE)
    if name == "side":
        return [(n, str(n)) for n in range(2, MAX_SIDE + 1)], value
    if name == "win_length":
        return [("", f"= side ({side})")] + [(n, str(n)) for n in range(2, side + 1)], value
    if name == "depth":
        return [(n, str(n)) for n in depth_choices(state.side, state.dimensions)], value
    if name == "dimensions":
        labels = {2: "2-D grid", 3: "3-D cube", 4: "4-D tesseract"}
        return [(d, labels[d]) for d in dimension_choices(state.side, state.depth)], value
    if name == "teams":
        return [(str(n), f"{n} teams ({', '.join(TEAM_SYMBOLS[:n])})") for n in range(2, 5)], value
    if name in ("random_obstacles", "scouts"):
        return [(n, str(n)) for n in range(0, MAX_SCATTER + 1)], value
    if name == "lower_routing":
        return lower_choices(state), value
    if name == "seconds":
        times = [(s, _time_label(s)) for s in TIME_CONTROLS]
        value = turn_time.chosen(state.seconds, state.turn_ms)
        return [("", "Disabled")] + times + [(turn_time.MS, turn_time.OPTION)], value
    simple = {
        "turn_order": {"sequential": "Sequential", "simultaneous": "Simultaneous"},
        "crew_order": {"in-turn": "In turn", "flexible": "Flexible"},
        "win_condition": {"highest-sign": "Highest Sign", "majority": "Majority"},
        "routing": ROUTING_LABELS,
        "timeout": {"loss": "Loss", "random-move": "Random move", "skip": "Skip"},
    }
    if name in simple:
        return list(simple[name].items()), value
    return _on_off(bool(value))


def build(state: NestedState, take: Errors) -> NestedLayout:
    def err(key: str) -> list[str]:
        # The message names its control, so it reads on its own (and to a screen reader).
        label = LABELS[key.removeprefix("n_")]
        return [f"{label}: {m[:1].lower()}{m[1:]}" for m in take(key)]

    off = unavailable(state)
    groups = []
    for title, names in GROUPS:
        controls = []
        for name in names:
            choices, value = _choices(state, name)
            control = select(
                f"n_{name}",
                LABELS[name],
                choices,
                value,
                refresh=name in REFRESH,
                help=HELP[name],
                reason=off.get(name, ""),
                disabled=name in off,
                # An option that is off has nothing to show on a saved page.
                hide_when_saved=name in off,
                errors=err(f"n_{name}"),
            )
            if name == "routing":
                blocked = routing_unavailable(state)
                for option in control.options:
                    option.disabled = option.value in blocked
                if blocked and not control.reason:
                    control.note = next(iter(blocked.values()))
            controls.append(control)
        groups.append((title, controls))
    count, top = route_map_size(state)
    help = (
        f"Leave blank for the default numbers, or give {count} numbers from 1 to {top} "
        + ("(row by row), " if level_routing(state) is None else "(level by level, row by row), ")
        + "separated by spaces."
        if "route_map" not in off
        else "Map-like: a number beside each row of a top-level block; Hypermap-like: a "
        "number in each cell. Each names the block the next player is sent to."
    )
    route_map = RouteMap(
        value=encode_route_map(state),
        help=help,
        errors=err("n_route_map"),
        disabled="route_map" in off,
        reason=off.get("route_map", ""),
    )
    ms_errors = [f"{m[:1].upper()}{m[1:]}" for m in take("n_turn_ms")]
    return NestedLayout(
        groups=groups,
        route_map=route_map,
        grid_note=grid_note(state),
        turn_ms=turn_time.ms_field("n_turn_ms", state.seconds, state.turn_ms, ms_errors),
    )


def grid_note(state: NestedState) -> str:
    s, n, d = state.side, state.depth, state.dimensions
    if not (2 <= s <= MAX_SIDE and 1 <= n <= 4 and 2 <= d <= 4 and fits(s, n, d)):
        return ""
    edge = s**n
    cells = "×".join([str(edge)] * d)
    block = "×".join([str(s)] * d)
    levels = f"blocks of {block}, {n} levels" if n > 1 else "one block"
    return f"Ground grid {cells} ({edge**d} cells): {levels}."
