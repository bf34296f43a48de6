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


def route_map_length(n: NestedSpec) -> int:
    """Map-like: one number per (top-level block, ground row in it); hypermap: per cell."""
    if n.routing == "map":
        return n.side**n.dimensions * n.side ** (n.depth - 1)
    return n.side ** (n.depth * n.dimensions)


def default_route_map(n: NestedSpec) -> tuple[int, ...]:
    """The documented default numbers (1-based block positions) for map/hypermap routing.

    map: top-level block b (row-major), row r inside it -> 1 + (b + r) mod S**D.
    hypermap: ground cell (x, y) -> 1 + (x + S*y) mod S**D.
    """
    blocks = n.side**n.dimensions
    if n.routing == "map":
        rows = n.side ** (n.depth - 1)
        return tuple(1 + (b + r) % blocks for b in range(blocks) for r in range(rows))
    edge = n.side**n.depth
    return tuple(1 + (x + n.side * y) % blocks for y in range(edge) for x in range(edge))


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
    if n.routing in ("map", "hypermap"):
        if n.depth < 2 or n.dimensions != 2:
            errors.append(("nested.routing", "map routing needs depth ≥ 2 and 2 dimensions"))
        elif n.route_map is not None:
            want = route_map_length(n)
            if len(n.route_map) != want:
                errors.append(("nested.route_map", f"needs {want} numbers"))
            top = n.side**n.dimensions
            if any(not 1 <= v <= top for v in n.route_map):
                errors.append(("nested.route_map", f"each number from 1 to {top}"))
    elif n.route_map is not None:
        errors.append(("nested.route_map", "only with routing 'map' or 'hypermap'"))
    if n.depth < 2:
        for field in ("kyu", "no_send_back", "free_when_decided", "quick"):
            if getattr(n, field):
                errors.append((f"nested.{field}", "needs depth ≥ 2 (blocks)"))
    return errors


def normalise_nested(doc: RuleDoc) -> RuleDoc:
    n = doc.nested or NestedSpec()
    update = {}
    if n.win_length is None:
        update["win_length"] = n.side
    if n.route_map is not None and n.route_map == default_route_map(n):
        update["route_map"] = None
    return doc.model_copy(update={"nested": n.model_copy(update=update), "reserves": None})
