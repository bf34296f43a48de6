"""Validation and normalisation of nested-board documents (seeds 000, 001, 002).

A nested game uses ``board.type = "nested"`` and the ``nested`` section; the flat-game
options that have no meaning there (reserves, set-up pieces, turn checks, ...) must be
left at their defaults, and say so when they are not.
"""

from .schema import NestedSpec, RuleDoc

MAX_BORDER = 100  # S**N
MAX_VOLUME = 1000  # S**(N*D)

# Flat-board fields and their defaults; a nested document must leave them alone.
FLAT_ONLY = {
    "colors": "assigned",
    "shapes": ("circle",),
    "pieces_per_turn": 1,
    "boards": 1,
    "initial_pieces": (),
    "locked": (),
    "stalemate": "draw",
    "allow_pass": False,
    "agree_draw": False,
    "shape_rules": {},
    "sticky": (),
    "exclusive": (),
    "space_locks": (),
}


def level_routes(n: NestedSpec) -> tuple[str, ...]:
    """How each routed level (1..N-1) of the next block is found: "tactical" (the move's
    position one level further down), "map" or "hypermap" (a number). Without
    ``level_routing``: ``routing`` at level 1 and tactical below, as the seed's three
    rule sets (Tactical-like, Map-like, Hypermap-like) say; "open" routes nothing."""
    if n.routing == "open" or n.depth < 2:
        return ()
    if n.level_routing is not None:
        return tuple(n.level_routing)
    return (n.routing,) + ("tactical",) * (n.depth - 2)


def level_map_length(n: NestedSpec, kind: str, level: int) -> int:
    """Map-like at level k: one number per (level-k block, ground row in it), written
    left of the row; hypermap: one number per ground cell (2-D only)."""
    if kind == "map":
        return n.side ** (n.dimensions * level) * n.side ** (n.depth - level)
    if kind == "hypermap":
        return n.side ** (n.depth * n.dimensions)
    return 0


def route_map_length(n: NestedSpec) -> int:
    """All the numbers of the numbered levels, level 1 first."""
    return sum(level_map_length(n, k, lv) for lv, k in enumerate(level_routes(n), start=1))


def default_level_numbers(n: NestedSpec, kind: str, level: int) -> tuple[int, ...]:
    """The documented default numbers (1-based positions) of one routed level.

    map: level-k block b (path order), row r inside it -> 1 + (b + r) mod S**D.
    hypermap: ground cell (x, y) -> 1 + (x + S*y + k - 1) mod S**D.
    """
    blocks = n.side**n.dimensions
    if kind == "map":
        rows = n.side ** (n.depth - level)
        count = n.side ** (n.dimensions * level)
        return tuple(1 + (b + r) % blocks for b in range(count) for r in range(rows))
    if kind == "hypermap":
        edge = n.side**n.depth
        return tuple(
            1 + (x + n.side * y + level - 1) % blocks for y in range(edge) for x in range(edge)
        )
    return ()


def default_route_map(n: NestedSpec) -> tuple[int, ...]:
    """The default numbers of every numbered level, level 1 first (as ``route_map``)."""
    out: tuple[int, ...] = ()
    for lv, kind in enumerate(level_routes(n), start=1):
        out += default_level_numbers(n, kind, lv)
    return out


def level_numbers(n: NestedSpec) -> list[tuple[str, tuple[int, ...]]]:
    """(kind, numbers) per routed level: ``route_map`` (or the defaults) cut level by level."""
    numbers = n.route_map or default_route_map(n)
    out, at = [], 0
    for lv, kind in enumerate(level_routes(n), start=1):
        size = level_map_length(n, kind, lv)
        out.append((kind, tuple(numbers[at : at + size])))
        at += size
    return out


def check_nested(doc: RuleDoc) -> list[tuple[str, str]]:
    if doc.board.type != "nested":
        return [("nested", "only for board type 'nested'")]
    errors = []
    if doc.board.size != (3, 3, 1):
        errors.append(
            ("board.size", "a nested board is sized by nested.side, depth and dimensions")
        )
    if doc.players not in ("2", "3", "4"):
        errors.append(("players", "nested boards are played by 2, 3 or 4 teams"))
    for field, default in FLAT_ONLY.items():
        if getattr(doc, field) != default:
            errors.append((field, "not an option of nested boards"))
    if doc.reserves is not None:
        errors.append(("reserves", "not an option of nested boards (teams place until full)"))
    n = doc.nested or NestedSpec()
    s, depth, d = n.side, n.depth, n.dimensions
    if n.win_length is not None and n.win_length > s:
        errors.append(("nested.win_length", f"at most the side ({s})"))
    if s**depth > MAX_BORDER:
        errors.append(("nested.depth", f"side**depth = {s**depth}: at most {MAX_BORDER}"))
    if s ** (depth * d) > MAX_VOLUME:
        errors.append(
            ("nested.dimensions", f"side**(depth*dimensions) = {s ** (depth * d)}: at most 1000")
        )
    errors += _check_routing(n)
    return errors


def _check_routing(n: NestedSpec) -> list[tuple[str, str]]:
    errors = []
    if n.level_routing is not None:
        if n.routing == "open":
            errors.append(("nested.level_routing", "not with routing 'open' (nothing is routed)"))
            return errors
        if len(n.level_routing) != n.depth - 1:
            want = n.depth - 1
            errors.append(
                ("nested.level_routing", f"needs {want} entries, one per level above the cells "
                 f"(depth {n.depth})" if want else "needs depth ≥ 2 (blocks)")
            )  # fmt: skip
            return errors
        if n.routing in ("map", "hypermap") and n.level_routing[0] != n.routing:
            errors.append(
                ("nested.level_routing", f"its first entry is the top level's routing: "
                 f"'{n.routing}' here")
            )  # fmt: skip
    routes = level_routes(n)
    numbered = any(k != "tactical" for k in routes)
    if n.routing in ("map", "hypermap") and n.depth < 2:
        errors.append(("nested.routing", "map routing needs depth ≥ 2 and 2 dimensions"))
    elif numbered and n.dimensions != 2:
        field = "nested.level_routing" if n.level_routing is not None else "nested.routing"
        errors.append((field, "map routing needs depth ≥ 2 and 2 dimensions"))
    elif n.route_map is not None:
        if not numbered:
            errors.append(("nested.route_map", "only with routing 'map' or 'hypermap'"))
        else:
            want = route_map_length(n)
            if len(n.route_map) != want:
                errors.append(("nested.route_map", f"needs {want} numbers"))
            top = n.side**n.dimensions
            if any(not 1 <= v <= top for v in n.route_map):
                errors.append(("nested.route_map", f"each number from 1 to {top}"))
    if n.depth < 2:
        for field in ("kyu", "no_send_back", "free_when_decided", "quick"):
            if getattr(n, field):
                errors.append((f"nested.{field}", "needs depth ≥ 2 (blocks)"))
        if n.checked:  # an Ultimate option: on one flat board each move list plays every
            # candidate against every reply (seconds a move on 10×10×10)
            errors.append(
                ("nested.checked", "Checked is an Ultimate option: it needs depth ≥ 2 (blocks)")
            )
    return errors


def normalise_nested(doc: RuleDoc) -> RuleDoc:
    n = doc.nested or NestedSpec()
    update = {}
    if n.win_length is None:
        update["win_length"] = n.side
    if n.level_routing is not None:
        # One form per game: the three named rule sets are written with ``routing``
        # alone; any other combination keeps ``level_routing``, and ``routing`` then
        # names its top level.
        levels = tuple(n.level_routing)
        if all(k == "tactical" for k in levels[1:]):
            update |= {"routing": levels[0], "level_routing": None}
        else:
            update["routing"] = levels[0]
    if n.route_map is not None and n.route_map == default_route_map(n.model_copy(update=update)):
        update["route_map"] = None
    return doc.model_copy(update={"nested": n.model_copy(update=update), "reserves": None})
