"""Rules for pieces that move and capture (the general family): validation of the
per-shape rules and of the space locks, and their normal form.

Normal form: a shape's rules left entirely at their defaults are dropped (so writing
``{"circle": {}}`` is the same document as writing nothing), the locks are sorted and
their seats sorted and de-duplicated. Either way the canonical form, and so the
fingerprint, of a game that says nothing about moving pieces is unchanged.
"""

from .schema import Exclusive, RuleDoc, ShapeRules, Space, SpaceLock
from .vocabulary import (
    BY_STACK,
    COVERS,
    EFFECT_CONDITIONS,
    FORWARD_ONLY,
    JUMPS,
    PLAYER_MODES,
    SHAPES,
)

# Conditions a piece also captures by when it is placed (it need not move).
PLACED_EFFECTS = tuple(c for c in EFFECT_CONDITIONS if c != "approach")
# What captures on stacks boards so far: a cover of a stack's top piece, or (moving by
# stack) a showdown of poker hands on the destination stack.
STACK_CONDITIONS = ("cover", "cover-by-rank")


def moves_pieces(doc: RuleDoc) -> bool:
    """Whether some shape of the game moves (placement-only games return False)."""
    return any(r.move != "stationary" for r in doc.shape_rules.values())


def needs_general(doc: RuleDoc) -> bool:
    """Whether only the general family can play ``doc`` (the flat family places only)."""
    return (
        bool(doc.shape_rules or doc.sticky or doc.exclusive or doc.space_locks)
        or doc.stalemate == "most-area-wins"
        or bool(doc.endings)
        or doc.overachievers
        or doc.players == "1-vs-chaos"
        or bool(doc.phases)  # issue 19: phases, simultaneous rounds, folds
        or doc.cloaking != "none"
        or bool(doc.deck or doc.dealt)  # release 1.7: dealt pieces
    )


def check_moving(doc: RuleDoc, space_problem) -> list[tuple[str, str]]:
    errors: list[tuple[str, str]] = []
    for shape, r in doc.shape_rules.items():
        path = f"shape_rules.{shape}"
        if shape not in doc.shapes:
            errors.append((path, f"this game's shapes are {', '.join(doc.shapes)}"))
        errors += _check_shape(doc, r, path)
    if moves_pieces(doc) and doc.boards > 1:
        errors.append(("boards", "moving pieces are played on 1 board so far"))
    seats = PLAYER_MODES[doc.players][0]
    for name in ("sticky", "exclusive", "space_locks"):
        for i, item in enumerate(getattr(doc, name)):
            path = f"{name}[{i}]"
            problem = space_problem(doc, item)
            if problem:
                errors.append((path, problem))
            for seat in getattr(item, "seats", ()):
                if not 1 <= seat <= seats:
                    errors.append((f"{path}.seats", f"seats are numbered 1 to {seats}"))
            if isinstance(item, SpaceLock) and not (item.entry or item.exit):
                errors.append((path, "lock entry, exit or both"))
    return errors


def can_move_backwards(r: ShapeRules) -> bool:
    return r.move != "stationary" and r.move not in FORWARD_ONLY


def _check_forward(doc: RuleDoc, path: str) -> list[tuple[str, str]]:
    """A piece that cannot move backwards needs a shape to become at its goal, and
    goals need a second dimension beyond two seats (Player 1 at x=1, Player 2 at x=max
    on a board one row high)."""
    errors = []
    if not any(can_move_backwards(doc.shape_rules.get(s, ShapeRules())) for s in doc.shapes):
        errors.append(
            (f"{path}.move", "a piece that cannot move backwards needs a shape that can, "
             "to become at its goal")
        )  # fmt: skip
    if doc.board.size[1] == 1 and PLAYER_MODES[doc.players][0] > 2:
        errors.append((f"{path}.move", "goals for more than 2 seats need a board of 2 rows"))
    return errors


def _check_shape(doc: RuleDoc, r: ShapeRules, path: str) -> list[tuple[str, str]]:
    errors = _check_forward(doc, path) if r.move in FORWARD_ONLY else []
    stacks = doc.board.type == "stacks"
    if r.move in BY_STACK and not stacks:
        errors.append((f"{path}.move", "moving by stack needs a stacks board"))
    if r.power == "none":
        if r.condition != "cover":
            errors.append((f"{path}.condition", "only with power 'can-capture' or 'must-capture'"))
        if r.result != "remove":
            errors.append((f"{path}.result", "only with power 'can-capture' or 'must-capture'"))
        return errors
    # On stacks a placed piece covers the top piece of its stack (engine/general), so a
    # stationary piece may capture by cover there (the seed's dilemma games, issue 19).
    placed_cover = stacks and r.condition in STACK_CONDITIONS
    if r.move == "stationary" and r.condition not in PLACED_EFFECTS and not placed_cover:
        errors.append(
            (f"{path}.power", "a stationary piece captures only by surround or adjacent "
             "(it never moves)")
        )  # fmt: skip
    if r.condition in COVERS and r.result == "paralyse":
        errors.append((f"{path}.result", "a covered piece cannot be paralysed (it is covered)"))
    # The seed: converted "not permitted for cover by rank except on stacks"; a plain
    # cover off stacks would need the captive's space too. On stacks the captive stays
    # under its captor (engine/general/pots.py).
    if r.condition in COVERS and r.result == "convert" and not stacks:
        errors.append(
            (f"{path}.result", "a cover takes by remove or reincarnate (convert: only on "
             "stacks, where the captive stays under its captor)")
        )  # fmt: skip
    if r.condition in JUMPS and r.move in ("knight", "knight-3d"):
        errors.append((f"{path}.condition", "a knight jumps nothing: use 'cover'"))
    if stacks and r.condition not in STACK_CONDITIONS:
        errors.append(
            (f"{path}.condition", "on stacks boards pieces capture by 'cover' or "
             "'cover-by-rank' (so far)")
        )  # fmt: skip
    return errors


def normalise_moving(doc: RuleDoc) -> dict:
    """The fields of ``doc`` that normalisation changes (for ``model_copy(update=...)``)."""
    rules = {s: r for s, r in sorted(doc.shape_rules.items(), key=lambda kv: SHAPES.index(kv[0]))}
    return {
        "shape_rules": {s: r for s, r in rules.items() if r != ShapeRules()},
        "sticky": tuple(sorted(set(doc.sticky), key=_where)),
        "exclusive": tuple(
            sorted(
                {Exclusive(board=e.board, at=e.at, seats=_seats(e.seats)) for e in doc.exclusive},
                key=lambda e: (_where(e), e.seats),
            )
        ),
        "space_locks": tuple(
            sorted(
                {k.model_copy(update={"seats": _seats(k.seats)}) for k in doc.space_locks},
                key=lambda k: (_where(k), k.seats, k.entry, k.exit),
            )
        ),
    }


def _where(item: Space | Exclusive | SpaceLock) -> tuple:
    return (item.board, item.at)


def _seats(seats: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted(set(seats)))
