"""A plain-English line for a rule set, in the seed's own words:
"Played on 15x1x1 squares, 8 black and 7 white start in reserve; Shared color; ..."."""

from .schema import RuleDoc, TurnCheck
from .vocabulary import COLOR_LABELS, PLAYER_LABELS, STALEMATE_LABELS, TIMEOUT_LABELS


def check_label(c: TurnCheck) -> str:
    orth = " (no diagonal)" if not c.diagonal else ""
    return f"First {c.k}-same-color-in-a-row {c.result}{orth}"


def _reserve_phrase(doc: RuleDoc) -> str:
    parts = []
    for color, by_shape in (doc.reserves or {}).items():
        for shape, n in by_shape.items():
            shape_word = "" if len(doc.shapes) == 1 else f" {shape}"
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


def summary(doc: RuleDoc) -> str:
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
        parts.append(f"{where} locked")
    parts.append(STALEMATE_LABELS[doc.stalemate])
    parts += [check_label(c) for c in doc.turn_checks] or ["No turn checks"]
    if doc.pieces_per_turn > 1:
        parts.append(f"{doc.pieces_per_turn} moves/turn")
    if doc.allow_pass:
        parts.append("Option to pass")
    if doc.agree_draw:
        parts.append("Option to Agree Draw")
    if doc.seconds_per_turn:
        parts.append(f"{doc.seconds_per_turn} seconds/turn")
        if doc.timeout != "loss":
            parts.append(TIMEOUT_LABELS[doc.timeout])
    return "; ".join(parts)
