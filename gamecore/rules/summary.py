"""A plain-English line for a rule set, in the seed's own words:
"Played on 15x1x1 squares, 8 black and 7 white start in reserve; Shared color; ..."."""

from .endings import check_label, shape_word_for
from .phases import phase_parts, spaces_text
from .schema import RuleDoc
from .vocabulary import (
    COLOR_LABELS,
    COLORS,
    CONDITION_LABELS,
    MOVEMENT_LABELS,
    PLAYER_LABELS,
    PLAYER_MODES,
    POWER_LABELS,
    RESULT_LABELS,
    STALEMATE_LABELS,
    TIMEOUT_LABELS,
    seat_colors,
)


def _reserve_phrase(doc: RuleDoc) -> str:
    parts = []
    for color, by_shape in (doc.reserves or {}).items():
        for shape, n in by_shape.items():
            shape_word = "" if len(doc.shapes) == 1 else f" {shape_word_for(shape, n != 1)}"
            parts.append(f"{n} {color}{shape_word}")
    if not parts:
        return "no pieces in reserve"
    joined = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"{joined} start in reserve"


def board_phrase(doc: RuleDoc) -> str:
    size = "x".join(map(str, doc.board.size))
    boards = f"{doc.boards} boards of " if doc.boards > 1 else ""
    kind = {"hash": "hash", "squares": "squares", "stacks": "stacks"}[doc.board.type]
    return f"Played on {boards}{size} {kind}"


def _nested_parts(doc: RuleDoc) -> list[str]:
    n = doc.nested
    edge = n.side**n.depth
    cells = "x".join([str(edge)] * n.dimensions)
    parts = [
        f"Nested board: side {n.side}, depth {n.depth}, {n.dimensions}-D ({cells} cells); "
        f"{n.win_length}-in-a-row captures a block",
        f"{doc.players} teams",
    ]
    words = {"tactical": "Tactical-like", "map": "Map-like", "hypermap": "Hypermap-like"}
    per_level = ", then ".join(words[k] for k in n.level_routing or ())
    flags = [
        (n.level_routing is not None, f"Routing level by level: {per_level}"),
        (n.level_routing is None and n.routing == "map", "Map-like routing"),
        (n.level_routing is None and n.routing == "hypermap", "Hypermap-like routing"),
        (n.routing == "open", "Open (any incomplete block)"),
        (n.lock_captured, "Lock captured blocks"),
        (n.kyu, "Kyū rule"),
        (n.win_condition == "majority", "Majority of blocks wins"),
        (n.draws_count_for_all, "A drawn block counts for every team"),
        (n.free_when_decided, "Free move when sent to a decided block"),
        (n.no_send_back, "No sending the next player back"),
        (n.inverted, "Inverted"),
        (n.checked, "Checked"),
        (n.quick, "Quick (one block wins)"),
        (n.symmetric_obstacles, "Symmetric obstacles"),
        (n.random_obstacles > 0, f"Random obstacles {n.random_obstacles}"),
        (n.scouts > 0, f"Scouts {n.scouts}"),
        (n.turn_order == "simultaneous", "Simultaneous turns"),
        (n.crew_order == "flexible", "Flexible crew order"),
    ]
    return parts + [text for on, text in flags if on]


def summary(doc: RuleDoc) -> str:
    if doc.board.type == "nested":
        parts = _nested_parts(doc)
        if doc.seconds_per_turn:
            parts.append(f"{doc.seconds_per_turn} seconds/turn")
        elif doc.turn_ms:
            parts.append(f"{doc.turn_ms / 1000:g} seconds/turn")
            parts.append(TIMEOUT_LABELS[doc.timeout])
        return "; ".join(parts)
    parts = [f"{board_phrase(doc)}, {_reserve_phrase(doc)}"]
    if doc.players != "2":
        parts.append(PLAYER_LABELS[doc.players])
    if doc.colors != "assigned":
        parts.append(COLOR_LABELS[doc.colors])
    if doc.initial_pieces:
        where = ", ".join(
            f"{p.color} at ({','.join(map(str, p.at))})"
            + (f" of board {p.board}" if doc.boards > 1 else "")
            for p in doc.initial_pieces
        )
        parts.append(f"Starts with {where}")
    if doc.locked:
        where = ", ".join(f"({','.join(map(str, s.at))})" for s in doc.locked)
        if doc.board.type == "stacks":  # whole stacks as "(5,1) stack" (rules/phases.py)
            where = spaces_text(doc, doc.locked)
        parts.append(f"{where} locked")
    parts += _space_parts(doc)
    parts += _deck_parts(doc)
    parts.append(STALEMATE_LABELS[doc.stalemate])
    turn_endings = any(e.when == "turn" for e in doc.endings)
    parts += [check_label(c) for c in doc.turn_checks] or (
        [] if turn_endings else ["No turn checks"]
    )
    parts += _ending_parts(doc)
    parts += _shape_parts(doc)
    if doc.pieces_per_turn > 1:
        parts.append(f"{doc.pieces_per_turn} moves/turn")
    if doc.allow_pass:
        parts.append("Option to pass")
    if doc.agree_draw:
        parts.append("Option to Agree Draw")
    parts += phase_parts(doc, _seat_name)
    if doc.seconds_per_turn:
        parts.append(f"{doc.seconds_per_turn} seconds/turn")
    elif doc.turn_ms:
        parts.append(f"{doc.turn_ms / 1000:g} seconds/turn")
        if doc.timeout != "loss":
            parts.append(TIMEOUT_LABELS[doc.timeout])
    return "; ".join(parts)


def _shape_parts(doc: RuleDoc) -> list[str]:
    """The seed's per-shape words: "Pentagon: Must capture, Cover, Removes captive(s),
    Moves adjacent" (only for shapes with rules of their own)."""
    parts = []
    for shape, r in doc.shape_rules.items():
        words = []
        if r.power != "none":
            words += [POWER_LABELS[r.power], CONDITION_LABELS[r.condition], RESULT_LABELS[r.result]]
        words.append(MOVEMENT_LABELS[r.move])
        one = len(doc.shapes) == 1  # the seed writes "Moves adjacent" for a one-shape game
        parts.append(", ".join(words) if one else f"{shape.capitalize()}: {', '.join(words)}")
    return parts


def _seat_name(doc: RuleDoc, seat: int) -> str:
    """A 1-based seat by its colour where colours are the seats', else "seat N"."""
    _n, chaos, _teams = PLAYER_MODES[doc.players]
    if chaos is not None and seat - 1 == chaos:
        return "chaos"
    if doc.colors == "assigned":
        return COLORS[seat_colors(doc.players, doc.colors)[0][seat - 1]]
    return f"seat {seat}"


def _stack_space_parts(doc: RuleDoc) -> list[str]:
    """The space rules of a stacks board, a whole stack written "(1,1) stack"."""
    parts = []

    def who(seats) -> str:
        return ", ".join(_seat_name(doc, s) for s in seats)

    if doc.sticky:
        parts.append(f"{spaces_text(doc, doc.sticky)} sticky")
    by_seats: dict[tuple, list] = {}
    for e in doc.exclusive:
        by_seats.setdefault(e.seats, []).append(e)
    parts += [f"{spaces_text(doc, items)} exclusive to {who(k)}" for k, items in by_seats.items()]
    by_lock: dict[tuple, list] = {}
    for lock in doc.space_locks:
        by_lock.setdefault((lock.seats, lock.entry, lock.exit), []).append(lock)
    for (seats, entry, exit_), items in by_lock.items():
        what = "entry and exit" if entry and exit_ else "entry" if entry else "exit"
        parts.append(f"{spaces_text(doc, items)} locked for {what} to {who(seats)}")
    return parts


def _space_parts(doc: RuleDoc) -> list[str]:
    if doc.board.type == "stacks":
        return _stack_space_parts(doc)

    def at(item) -> str:
        board = f" of board {item.board}" if doc.boards > 1 else ""
        return f"({','.join(map(str, item.at))}){board}"

    def who(seats) -> str:
        return ", ".join(_seat_name(doc, s) for s in seats)

    parts = []
    if doc.sticky:
        parts.append(f"{', '.join(at(s) for s in doc.sticky)} sticky")
    parts += [f"{at(e)} exclusive to {who(e.seats)}" for e in doc.exclusive]
    for lock in doc.space_locks:
        what = "entry and exit" if lock.entry and lock.exit else "entry" if lock.entry else "exit"
        parts.append(f"{at(lock)} locked for {what} to {who(lock.seats)}")
    return parts


def _ending_parts(doc: RuleDoc) -> list[str]:
    """The typed endings besides the turn checks and the stalemate value (endings.py)."""
    from .endings import label

    parts = [label(e) for e in doc.endings]
    if doc.overachievers:
        parts.append("Overachiever(s) disqualified")
    return parts


def _deck_parts(doc: RuleDoc) -> list[str]:
    """Dealt spaces and the deck (release 1.7): "3 dealt (1 of seat 1, 2 common)",
    "Deck: [{ O3 O4 S S S S S S S }] 1 black circle, … in deck, 72 variations"."""
    if not doc.deck and not doc.dealt:
        return []
    from .decks import label, variations
    from .vocabulary import COLORS, seat_colors

    seat_color, _n = seat_colors(doc.players, doc.colors)
    colours = tuple(COLORS[c] for c in seat_color) if doc.colors != "choose" else None
    parts = []
    if doc.dealt:
        common = sum(1 for d in doc.dealt if d.seat is None)
        seats = sorted({d.seat for d in doc.dealt if d.seat is not None})
        who = [f"{sum(1 for d in doc.dealt if d.seat == s)} of seat {s}" for s in seats]
        who += [f"{common} common"] if common else []
        parts.append(f"{len(doc.dealt)} dealt ({', '.join(who)})")
    count = variations(doc.deck, len(doc.dealt) or None)
    many = "more than 10^18" if count is None else f"{count:,}"
    parts.append(f"Deck: {doc.deck} {label(doc.deck, colours)}, {many} variations")
    return parts
