"""parse(): raw JSON -> a validated, normalised RuleDoc, or RulesError naming each problem."""

import math
import re
from typing import Any

from pydantic import ValidationError

from .decks import check_decks
from .endings import check_endings, normalise_endings
from .errors import RulesError, format_path
from .moving import check_moving, normalise_moving
from .nested import check_nested, normalise_nested
from .phases import (
    check_nested_phases,
    check_phases,
    expand_whole_stacks,
    normalise_phases,
    whole_stack_errors,
)
from .schema import InitialPiece, RuleDoc, TurnCheck
from .vocabulary import (
    COLORS,
    MAX_DIMENSION,
    MAX_SPACES,
    MAX_STACK_HEIGHT,
    PLAYER_MODES,
    SHAPES,
    seat_colors,
)

NAME_FORBIDDEN = re.compile(r"[\s*()]")
CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def validate_name(name: Any) -> None:
    """The seed's name rule: no whitespace, '*', '(' or ')'."""
    if not isinstance(name, str) or not name:
        raise RulesError.single("name", "is required")
    if len(name) > 64:
        raise RulesError.single("name", "at most 64 characters")
    if CONTROL.search(name):
        raise RulesError.single("name", "may not contain a control character")
    bad = NAME_FORBIDDEN.search(name)
    if bad:
        what = "whitespace" if bad.group().isspace() else f"'{bad.group()}'"
        raise RulesError.single("name", f"may not contain {what} (no whitespace, '*', '(' or ')')")


def parse(data: Any) -> RuleDoc:
    """Validate a rule document and return it normalised (defaults derived, lists sorted)."""
    if isinstance(data, RuleDoc):
        data = data.model_dump(mode="json")
    if not isinstance(data, dict):
        raise RulesError.single("", "a rule document is a JSON object")
    try:
        doc = RuleDoc.model_validate(data)
    except ValidationError as exc:
        raise RulesError([_pydantic_error(e) for e in exc.errors()]) from None
    # Phases (rules/phases.py): a whole stack named by z = 0 is checked under its own
    # path, then written out as its spaces before anything else reads it.
    errors = whole_stack_errors(doc)
    if not errors:
        doc = expand_whole_stacks(doc)
        errors = _check(doc)
    if errors:
        raise RulesError([{"path": p, "message": m} for p, m in errors])
    return _normalise(doc)


def _pydantic_error(e: dict) -> dict[str, str]:
    ctx = e.get("ctx") or {}
    kind = e["type"]
    messages = {
        "missing": "is required",
        "extra_forbidden": "is not an option of a rule document",
        "less_than_equal": f"at most {ctx.get('le')}",
        "greater_than_equal": f"at least {ctx.get('ge')}",
        "literal_error": f"must be one of {ctx.get('expected')}",
        "too_short": f"needs at least {ctx.get('min_length')} item(s)",
        "too_long": f"takes at most {ctx.get('max_length')} item(s)",
        "string_too_short": "is required",
        "string_too_long": f"at most {ctx.get('max_length')} characters",
    }
    message = messages.get(kind, e["msg"])
    return {"path": format_path(e["loc"]), "message": message}


def dimension_limit(size: tuple[int, int, int], axis: int) -> int:
    others = math.prod(v for i, v in enumerate(size) if i != axis)
    return min(MAX_DIMENSION, MAX_SPACES // max(others, 1))


def color_names(doc: RuleDoc) -> tuple[str, ...]:
    return COLORS[: seat_colors(doc.players, doc.colors)[1]]


def reserve_limit(doc: RuleDoc) -> int:
    """Most pieces one (colour, shape) may start with: the spaces over the colours, or,
    where some shape captures (pieces leave the board), the spaces: the seed's "maximum
    number that can be played" (its StagHunt gives Chaos 6 circles on 12 spaces)."""
    spaces = math.prod(doc.board.size) * doc.boards
    if any(r.power != "none" for r in doc.shape_rules.values()):
        return spaces
    return math.ceil(spaces / len(color_names(doc)))


def _check(doc: RuleDoc) -> list[tuple[str, str]]:
    errors: list[tuple[str, str]] = []
    try:
        validate_name(doc.name)
    except RulesError as exc:
        errors += [(e["path"], e["message"]) for e in exc.errors]
    if doc.turn_ms is not None and doc.seconds_per_turn is not None:
        errors.append(("turn_ms", "give a turn time once: turn_ms or seconds_per_turn"))
    if doc.board.type == "nested" or doc.nested is not None:
        if doc.endings or doc.overachievers:  # nested boards end by their own rules
            errors.append(("endings", "nested boards end by their own rules"))
        if doc.deck or doc.dealt:
            errors.append(("deck", "nested boards have no deck"))
        return errors + check_nested(doc) + check_nested_phases(doc)
    errors += _check_board(doc)
    if doc.colors == "partners-share" and doc.players != "partners":
        errors.append(("colors", "'partners-share' needs players 'partners'"))
    if len(set(doc.shapes)) != len(doc.shapes):
        errors.append(("shapes", "each shape may appear once"))
    if errors:
        return errors  # the rest depends on a sound board and colour set
    errors += _check_reserves(doc)
    errors += _check_spaces(doc)
    errors += check_moving(doc, _space_problem)
    errors += check_endings(doc)
    errors += check_phases(doc, _space_problem)
    errors += check_decks(doc, _space_problem)
    return errors


def _check_board(doc: RuleDoc) -> list[tuple[str, str]]:
    errors = []
    size, kind = doc.board.size, doc.board.type
    for axis, value in enumerate(size):
        limit = dimension_limit(size, axis)
        if kind == "stacks" and axis == 2:  # a document's stacks may be taller (vocabulary)
            limit = max(limit, min(MAX_STACK_HEIGHT, MAX_SPACES // max(size[0] * size[1], 1)))
        if value < 1:
            errors.append((f"board.size[{axis}]", "at least 1"))
        elif value > limit:
            errors.append((f"board.size[{axis}]", f"at most {limit}"))
    if kind == "hash" and tuple(size) != (3, 3, 1):
        errors.append(("board.size", "a hash board is always 3×3×1"))
    if kind == "stacks" and size[2] < 2:
        errors.append(("board.size[2]", "stacks need a height (z) of at least 2"))
    return errors


def _check_reserves(doc: RuleDoc) -> list[tuple[str, str]]:
    if doc.reserves is None:
        return []
    errors = []
    names, limit = color_names(doc), reserve_limit(doc)
    for color, by_shape in doc.reserves.items():
        if color not in names:
            errors.append((f"reserves.{color}", f"this game's colors are {', '.join(names)}"))
        for shape, count in by_shape.items():
            path = f"reserves.{color}.{shape}"
            if shape not in doc.shapes:
                errors.append((path, f"this game's shapes are {', '.join(doc.shapes)}"))
            elif not 0 <= count <= limit:
                errors.append((path, f"from 0 to {limit}"))
    return errors


def _check_spaces(doc: RuleDoc) -> list[tuple[str, str]]:
    errors = []
    seen: dict[tuple, str] = {}
    named = (("locked", doc.locked), ("initial_pieces", doc.initial_pieces), ("dealt", doc.dealt))
    for name, items in named:
        for i, item in enumerate(items):
            path = f"{name}[{i}]"
            problem = _space_problem(doc, item)
            if problem:
                errors.append((path, problem))
                continue
            key = (item.board, *item.at)
            if key in seen and not (name == "locked" and seen[key].startswith("locked")):
                errors.append((path, f"the same space as {seen[key]}"))
            seen.setdefault(key, path)
            if isinstance(item, InitialPiece):
                errors += _piece_problems(doc, item, path)
    if doc.board.type == "stacks":
        errors += _check_gravity(doc)
    return errors


def _space_problem(doc: RuleDoc, item) -> str | None:
    if item.board > doc.boards:
        return f"board {item.board} does not exist (this game has {doc.boards})"
    for axis, (v, top) in enumerate(zip(item.at, doc.board.size, strict=True)):
        if not 1 <= v <= top:
            size = "×".join(map(str, doc.board.size))
            return f"coordinate {'xyz'[axis]}={v} is off the {size} board"
    return None


def _piece_problems(doc: RuleDoc, piece: InitialPiece, path: str) -> list[tuple[str, str]]:
    errors = []
    if piece.color not in color_names(doc):
        errors.append((f"{path}.color", f"this game's colors are {', '.join(color_names(doc))}"))
    if piece.shape not in doc.shapes:
        errors.append((f"{path}.shape", f"this game's shapes are {', '.join(doc.shapes)}"))
    return errors


def _check_gravity(doc: RuleDoc) -> list[tuple[str, str]]:
    """On stacks, pieces fall: a set-up piece must rest on the floor or on another piece."""
    filled = {(p.board, *p.at) for p in (*doc.initial_pieces, *doc.locked, *doc.dealt)}
    errors = []
    for name, items in (
        ("initial_pieces", doc.initial_pieces),
        ("locked", doc.locked),
        ("dealt", doc.dealt),
    ):
        for i, p in enumerate(items):
            b, x, y, z = p.board, *p.at
            if z > 1 and (b, x, y, z - 1) not in filled:
                errors.append((f"{name}[{i}].at", "floats above an empty space of its stack"))
    return errors


def _normalise(doc: RuleDoc) -> RuleDoc:
    """Derive the defaults that depend on other fields and put order-free lists in order."""
    if doc.turn_ms is not None and doc.turn_ms % 1000 == 0:
        doc = doc.model_copy(update={"seconds_per_turn": doc.turn_ms // 1000, "turn_ms": None})
    if doc.seconds_per_turn is None and doc.turn_ms is None and doc.timeout != "loss":
        doc = doc.model_copy(update={"timeout": "loss"})  # no timer, no timeout rule
    if doc.board.type == "nested":
        return normalise_nested(doc)
    doc = doc.model_copy(
        update={
            "locked": tuple(sorted(set(doc.locked), key=lambda s: (s.board, s.at))),
            **normalise_endings(doc),  # before the turn checks are put in order below
        }
    )
    return doc.model_copy(
        update={
            "reserves": _reserves(doc),
            "initial_pieces": tuple(sorted(doc.initial_pieces, key=lambda p: (p.board, p.at))),
            "dealt": tuple(sorted(doc.dealt, key=lambda d: (d.board, d.at))),
            # Longest line first, "loses" before "wins": the precedence when one
            # placement completes several checks (see engine/README.md).
            "turn_checks": tuple(sorted(set(doc.turn_checks), key=_check_order)),
            **normalise_moving(doc),
            **normalise_phases(doc),
        }
    )


def _check_order(c: TurnCheck) -> tuple:
    return (-c.k, c.result != "loses", not c.diagonal)


def _reserves(doc: RuleDoc) -> dict[str, dict[str, int]]:
    """Explicit reserves with zeros dropped, or the default: the open spaces dealt out
    round-robin over the colours (first colours get the extra), all of the first shape."""
    if doc.reserves is not None:
        out = {
            c: {s: n for s, n in sorted(by.items(), key=lambda kv: SHAPES.index(kv[0])) if n}
            for c, by in sorted(doc.reserves.items(), key=lambda kv: COLORS.index(kv[0]))
        }
        return {c: by for c, by in out.items() if by}
    names = color_names(doc)
    taken = len(doc.locked) + len(doc.initial_pieces) + len(doc.dealt)
    open_spaces = math.prod(doc.board.size) * doc.boards - taken
    base, extra = divmod(max(open_spaces, 0), len(names))
    counts = [base + (1 if i < extra else 0) for i in range(len(names))]
    return {c: {doc.shapes[0]: n} for c, n in zip(names, counts, strict=True) if n}


def seats_of(doc: RuleDoc) -> int:
    return PLAYER_MODES[doc.players][0]
