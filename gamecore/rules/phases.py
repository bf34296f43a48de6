"""Phases (the seed's 1 to 6 phases), cloaking as stored words, and whole stacks named by
z = 0: validation, normal form and summary lines (issue 19).

- A game has 1 to 6 phases; ``RuleDoc.phases == ()`` is one phase: sequential, movement
  allowed, the option to pass of ``doc.allow_pass``. With phases, the option to pass is
  given per phase, so ``doc.allow_pass`` must be left out.
- Normal form: each phase's seats and spaces are sorted and de-duplicated; a single phase
  that says only what the document-level fields say (at most an option to pass) is
  normalised away into ``doc.allow_pass``, so such a document has the fingerprint of the
  same game written without phases.
- On a stacks board, a space written with z = 0 in ``locked``, ``sticky``, ``exclusive``,
  ``space_locks`` or a phase's ``locked``/``cloaked`` names the whole stack: the normal
  form lists every space of the stack (so the two ways of writing it are one document,
  and the engine never sees z = 0). Initial pieces always name a space.
- A fold applies at the end of its phase, so the last phase may not have one.
"""

from .schema import Phase, RuleDoc
from .vocabulary import CLOAKING_LABELS, FOLD_LABELS, ORDER_LABELS, PLAYER_MODES

WHOLE_STACK_FIELDS = ("locked", "sticky", "exclusive", "space_locks")


def has_phases(doc: RuleDoc) -> bool:
    return bool(doc.phases) or doc.cloaking != "none"


# -- whole stacks (z = 0) ------------------------------------------------------------
def _whole_stack_items(doc: RuleDoc):
    """(path, item) of every space-naming item that may name a whole stack."""
    for name in WHOLE_STACK_FIELDS:
        for i, item in enumerate(getattr(doc, name)):
            yield f"{name}[{i}]", item
    for p, phase in enumerate(doc.phases):
        for name in ("locked", "cloaked"):
            for i, item in enumerate(getattr(phase, name)):
                yield f"phases[{p}].{name}[{i}]", item


def whole_stack_errors(doc: RuleDoc) -> list[tuple[str, str]]:
    """Problems of the items written with z = 0 (reported under their own paths, before
    they are expanded into the spaces of their stack)."""
    errors = []
    for path, item in _whole_stack_items(doc):
        if item.at[2] != 0:
            continue
        if doc.board.type != "stacks":
            errors.append((f"{path}.at", "z = 0 names a whole stack: only on stacks boards"))
        elif item.board > doc.boards:
            errors.append((path, f"board {item.board} does not exist (this game has {doc.boards})"))
        else:
            for axis in (0, 1):
                v, top = item.at[axis], doc.board.size[axis]
                if not 1 <= v <= top:
                    size = "×".join(map(str, doc.board.size))
                    where = f"coordinate {'xy'[axis]}={v} is off the {size} board"
                    errors.append((f"{path}.at", where))
                    break
    return errors


def _expand(items: tuple, height: int) -> tuple:
    out = []
    for item in items:
        x, y, z = item.at
        if z == 0:
            out += [item.model_copy(update={"at": (x, y, h)}) for h in range(1, height + 1)]
        else:
            out.append(item)
    return tuple(out)


def expand_whole_stacks(doc: RuleDoc) -> RuleDoc:
    """``doc`` with every z = 0 item replaced by one per space of its stack."""
    if doc.board.type != "stacks":
        return doc
    if not any(item.at[2] == 0 for _path, item in _whole_stack_items(doc)):
        return doc
    h = doc.board.size[2]
    update = {name: _expand(getattr(doc, name), h) for name in WHOLE_STACK_FIELDS}
    update["phases"] = tuple(
        p.model_copy(update={"locked": _expand(p.locked, h), "cloaked": _expand(p.cloaked, h)})
        for p in doc.phases
    )
    return doc.model_copy(update=update)


# -- validation --------------------------------------------------------------------------
def check_phases(doc: RuleDoc, space_problem) -> list[tuple[str, str]]:
    errors: list[tuple[str, str]] = []
    if not doc.phases:
        return errors
    seats = PLAYER_MODES[doc.players][0]
    if doc.allow_pass:
        errors.append(("allow_pass", "with phases, set the option to pass per phase (phases[i])"))
    last = len(doc.phases) - 1
    for p, phase in enumerate(doc.phases):
        path = f"phases[{p}]"
        for seat in phase.locked_seats:
            if not 1 <= seat <= seats:
                errors.append((f"{path}.locked_seats", f"seats are numbered 1 to {seats}"))
                break
        for name in ("locked", "cloaked"):
            for i, item in enumerate(getattr(phase, name)):
                problem = space_problem(doc, item)
                if problem:
                    errors.append((f"{path}.{name}[{i}]", problem))
        if phase.cloaked and doc.cloaking == "none":
            need = "cloaked spaces need a cloaking type ('hides' or 'obscures')"
            errors.append((f"{path}.cloaked", need))
        if phase.fold != "none" and p == last:
            last_fold = "a fold applies at the end of a phase: not on the last phase"
            errors.append((f"{path}.fold", last_fold))
    return errors


def check_nested_phases(doc: RuleDoc) -> list[tuple[str, str]]:
    errors = []
    if doc.phases:
        errors.append(("phases", "nested boards have their own turn order (no phases)"))
    if doc.cloaking != "none":
        errors.append(("cloaking", "nested boards hide nothing (no cloaking)"))
    return errors


# -- normal form -------------------------------------------------------------------------
def normalise_phases(doc: RuleDoc) -> dict:
    """The fields normalisation changes (for ``model_copy(update=...)``)."""
    if not doc.phases:
        return {}
    phases = tuple(
        p.model_copy(
            update={
                "locked_seats": tuple(sorted(set(p.locked_seats))),
                "locked": _sorted_spaces(p.locked),
                "cloaked": _sorted_spaces(p.cloaked),
            }
        )
        for p in doc.phases
    )
    if len(phases) == 1 and phases[0] == Phase(allow_pass=phases[0].allow_pass):
        return {"phases": (), "allow_pass": phases[0].allow_pass}
    return {"phases": phases}


def _sorted_spaces(spaces: tuple) -> tuple:
    return tuple(sorted(set(spaces), key=lambda s: (s.board, s.at)))


# -- summary -------------------------------------------------------------------------------
def phase_parts(doc: RuleDoc, seat_name) -> list[str]:
    """Summary lines: the cloaking type, then "Phase 1: Single, Option to pass, only black
    unlocked, (5,1) stack locked" for each phase."""
    parts = []
    if doc.cloaking != "none":
        parts.append(CLOAKING_LABELS[doc.cloaking])
    if not doc.phases:
        return parts
    seats = PLAYER_MODES[doc.players][0]
    for p, phase in enumerate(doc.phases):
        words = []
        if phase.order != "sequential":
            words.append(ORDER_LABELS[phase.order])
        words.append("Option to pass" if phase.allow_pass else "No option to pass")
        if phase.placement_only:
            words.append("Placement only")
        locked = phase.locked_seats
        if locked and len(locked) == seats - 1 and seats > 2:
            (free,) = set(range(1, seats + 1)) - set(locked)
            words.append(f"only {seat_name(doc, free)} unlocked")
        elif locked:
            words.append(f"{', '.join(seat_name(doc, s) for s in locked)} locked")
        if phase.locked:
            words.append(f"{spaces_text(doc, phase.locked)} locked")
        if phase.cloaked:
            words.append(f"{spaces_text(doc, phase.cloaked)} cloaked")
        if phase.fold != "none":
            words.append(FOLD_LABELS[phase.fold])
        parts.append(f"Phase {p + 1}: {', '.join(words)}")
    return parts


def spaces_text(doc: RuleDoc, spaces) -> str:
    """Spaces as "(1,1,2), (3,1) stack" (a whole stack of a stacks board as its x,y)."""
    stacks = doc.board.type == "stacks"
    height = doc.board.size[2]
    by_stack: dict[tuple, set[int]] = {}
    for s in spaces:
        by_stack.setdefault((s.board, s.at[0], s.at[1]), set()).add(s.at[2])
    out = []
    for (board, x, y), zs in by_stack.items():
        where = f" of board {board}" if doc.boards > 1 else ""
        if stacks and len(zs) == height:
            out.append(f"({x},{y}) stack{where}")
        else:
            out += [f"({x},{y},{z}){where}" for z in sorted(zs)]
    return ", ".join(out)
