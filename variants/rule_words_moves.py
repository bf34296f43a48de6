"""How a turn goes, in words: phases (who moves, in turn or all at once, what is locked),
pieces that move, and captures. Split from rule_words.py, which calls ``moves``,
``movement`` and ``captures`` for the flat and general families' rules card."""

from __future__ import annotations

from gamecore.rules.endings import shape_word_for
from gamecore.rules.vocabulary import FOLD_LABELS, PLAYER_MODES

ORDER_WORDS = {
    "sequential": "players take turns",
    "simultaneous": (
        "every round, all players choose their move in secret and the moves are revealed together"
    ),
    "single": (
        "one round only: all players choose their move in secret and the moves are revealed "
        "together"
    ),
}
MOVEMENT_WORDS = {
    "adjacent": "one step to any neighbouring space",
    "adjacent-orthogonal": "one step across or down (not diagonally)",
    "adjacent-diagonal": "one step diagonally",
    "orthogonal": "any distance across or down, over empty spaces",
    "diagonal": "any distance diagonally, over empty spaces",
    "linear": "any distance in a straight line, over empty spaces",
    "knight": "as a chess knight (2 by 1)",
    "knight-3d": "as a knight in three dimensions (2 by 1 by 1)",
    "linear-or-knight": "in a straight line or as a knight",
    "adjacent-or-knight": "one step or as a knight",
    "forward-orthogonal": "straight forward",
    "forward-diagonal": "diagonally forward",
    "adjacent-no-back-side": "one step, never backwards or sideways",
    "adjacent-no-back": "one step, never backwards",
    "orthogonal-no-back": "across or down, never backwards",
    "pawn-forward-center": "as a pawn: forward, or towards the centre",
    "orthogonal-by-stack": "across or down, taking the stack above them along",
    "orthogonal-by-full-stack": "across or down, as a whole stack",
}
CONDITION_WORDS = {
    "cover": "by moving onto an opponent's piece",
    "cover-by-rank": "by moving onto a weaker stack",
    "diagonal-en-passant": "by moving diagonally onto it (or en passant)",
    "triagonal": "by moving onto it along a triagonal",
    "jump": "by jumping over it",
    "chain-jump": "by jumping over pieces, several in a turn",
    "chain-jump-back": "by jumping over pieces, several in a turn, backwards too",
    "surround-line": "by trapping pieces in a line between two of their own",
    "surround-orthogonal": "by trapping a piece between two of their own, across or down",
    "approach": "by moving up to a piece in line with it",
    "adjacent": "by standing next to it",
}
RESULT_WORDS = {
    "remove": "the captured piece is removed",
    "convert": "the captured piece changes to the captor's colour",
    "reincarnate": "the captured piece goes back to its owner's reserve",
    "reincarnate-x2": "the captured piece goes back to its owner's reserve, doubled",
    "paralyse": "the captured piece stays but can no longer move",
}


def seat_names(seats, rd) -> str:
    """ "Player 1 and Chaos" for 1-based seats (rule_words.py's spaces use it too)."""
    return _seats(seats, rd)


def _seats(seats, rd) -> str:
    chaos = PLAYER_MODES[rd.players][1]  # Chaos's seat index (0-based) or None
    names = [
        "Chaos" if chaos is not None and s == chaos + 1 else f"Player {s}" for s in sorted(seats)
    ]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def in_play(rd) -> set[str] | None:
    """The shapes a game's pieces can have (reserves, starting pieces); None (every shape)
    when a deck deals pieces. The card names no rule of a shape nobody ever holds."""
    if rd.deck:
        return None
    shapes = {s for by_shape in (rd.reserves or {}).values() for s, n in by_shape.items() if n}
    return shapes | {p.shape for p in rd.initial_pieces}


def _rules(rd) -> list[tuple[str, object]]:
    shapes = in_play(rd)
    return [(s, r) for s, r in rd.shape_rules.items() if shapes is None or s in shapes]


def movers(rd) -> list[str]:
    return [s for s, r in _rules(rd) if r.move != "stationary"]


def _turn(rd) -> str:
    """What one move is: place a piece (one or two), or move one of yours."""
    place = "places two pieces" if rd.pieces_per_turn == 2 else "places one piece"
    if movers(rd):
        return f"a move {place} or moves one of your pieces"
    return f"a move {place}"


def _phase(i: int, ph, rd) -> str:
    text = f"phase {i}: {ORDER_WORDS[ph.order]}"
    if ph.placement_only and movers(rd):
        text += ", placing pieces only"
    if ph.locked_seats:
        text += f"; {_seats(ph.locked_seats, rd)} may not move"
    if ph.locked:
        text += f"; {len(ph.locked)} space{'s are' if len(ph.locked) > 1 else ' is'} locked"
    if ph.cloaked and rd.cloaking != "none":
        what = "hidden" if rd.cloaking == "hides" else "shown without their colour"
        text += f"; pieces placed on the {len(ph.cloaked)} cloaked spaces are {what} to the others"
    if ph.allow_pass:
        text += "; you may pass"
    if ph.fold != "none":
        text += f"; at its end: {FOLD_LABELS[ph.fold].lower()}"
    return text


def moves(rd) -> str:
    """The "Moves" sentence of the rules card."""
    if rd.phases:
        n = len(rd.phases)
        if n == 1:
            text = f"{_phase(1, rd.phases[0], rd).removeprefix('phase 1: ')}; {_turn(rd)}"
        else:
            phases = "; ".join(_phase(i, ph, rd) for i, ph in enumerate(rd.phases, start=1))
            text = f"{_turn(rd)}. The game has {n} phases, each ending when nobody can move"
            text += f" — {phases}"
    else:
        text = f"Players take turns; {_turn(rd)}"
    extras = []
    if rd.cloaking == "hides" and any(ph.cloaked for ph in rd.phases):
        # engine/general/fog.py: an attempt onto a hidden piece reveals it, ends the turn
        extras.append("a move onto a hidden piece shows it to you and uses up your move")
    if rd.allow_pass:
        extras.append("you may pass instead")
    if rd.agree_draw:
        extras.append("you may offer a draw at the start of your turn")
    if extras:
        text += "; " + " and ".join(extras)
    return text[:1].upper() + text[1:] + "."


def movement(rd) -> str | None:
    """ "Circles move one step …" for every shape that moves; None when none does."""
    parts = []
    for shape in movers(rd):
        move = rd.shape_rules[shape].move
        parts.append(f"{shape_word_for(shape, True)} move {MOVEMENT_WORDS.get(move, move)}")
    if not parts:
        return None
    text = "; ".join(parts)
    return text[:1].upper() + text[1:] + "."


def captures(rd) -> str | None:
    """How pieces capture, per shape that has the power; None when nothing captures."""
    parts = []
    for shape, r in _rules(rd):
        if r.power == "none":
            continue
        must = "must capture" if r.power == "must-capture" else "capture"
        how = CONDITION_WORDS.get(r.condition, r.condition)
        if r.move == "stationary":  # a piece that never moves captures as it is placed
            how = how.replace("by moving onto", "by being placed onto").replace(
                "by moving", "by being placed"
            )
        result = RESULT_WORDS.get(r.result, r.result)
        parts.append(f"{shape_word_for(shape, True)} {must} {how}: {result}")
    if not parts:
        return None
    text = "; ".join(parts)
    return text[:1].upper() + text[1:] + "."
