"""How one game differs from another, as a person would say it (issue 38): "a 4×4 board
instead of 3×3", "4 in a row to win instead of 3", "making 3 in a row loses instead of
winning". The game page's Related games used to show a raw rule diff ("Played on 3x3x1
hash; not: first 3-same-color-in-a-row wins").

Pure Python over two parsed rule documents: each topic (board, players, pieces, lines,
full board, timer, moving pieces, nested boards) compares the two and says this game's
side first. What no topic names falls back on the plain-words rules (``rule_words``).
"""

from __future__ import annotations

from gamecore import rules
from gamecore.rules.endings import label
from gamecore.rules.validation import _reserves as default_reserves
from gamecore.rules.vocabulary import PLAYER_SEATS
from variants import rule_words, rule_words_moves

MOST = 3  # differences said before "and N more"
FULL_BOARD = {
    "draw": "a draw",
    "all-win": "everyone wins",
    "all-lose": "everyone loses",
    "most-in-a-row-wins": "the longest line wins",
    "least-in-a-row-loses": "the shortest longest line loses",
    "most-pieces-wins": "the most pieces win",
    "most-area-wins": "the most area wins",
}
COLOURS = {
    "assigned": "each player has a colour",
    "shared": "everyone places the same colour",
    "choose": "you choose each piece's colour",
    "partners-share": "partners share a colour",
}
ROUTES = {
    "tactical": "your move sends the next player to a small board",
    "map": "a route map beside the rows sends the next player",
    "hypermap": "a route map in the cells sends the next player",
    "open": "you may play in any unfinished small board",
}


def parse(doc: dict):
    try:
        return rules.parse({**doc, "name": doc.get("name") or "game"})
    except Exception:  # a document that no longer reads: no words rather than an error
        return None


def differences(doc: dict, other: dict) -> list[str]:
    """What the game of ``doc`` does differently from ``other``'s, this game's side first;
    [] when they read the same (or one cannot be read)."""
    a, b = parse(doc), parse(other)
    if a is None or b is None:
        return []
    said: list[str] = []
    for topic in (_board, _players, _pieces, _lines, _full_board, _moving, _nested, _timer):
        said += [s for s in topic(a, b) if s and s not in said]
    if not said:
        said = _fallback(doc, other)
    return said


def sentence(name: str, doc: dict, other: dict) -> str:
    """ "Like Tic-Tac-Toe, but a 4×4 board instead of 3×3 and 4 in a row to win instead
    of 3"."""
    said = differences(doc, other)
    if not said:
        return f"Like {name}, with the same rules in other words"
    shown = said[:MOST]
    if len(said) > MOST:
        more = len(said) - MOST
        shown.append(f"{more} more difference{'s' if more > 1 else ''}")
    if len(shown) > 1 and any(" and " in s or ", " in s for s in shown):  # "5, 5 and 6 pieces"
        text = "; ".join(shown[:-1]) + "; and " + shown[-1]
    else:
        text = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
    return f"Like {name}, but {text}"


def _instead(mine: str, theirs: str) -> str:
    return f"{mine} instead of {theirs}" if mine != theirs else ""


# --- the topics --------------------------------------------------------------------------


def _board_words(rd) -> tuple[str, str]:
    """(a phrase, the bare size when it is a flat square board: "4×4")."""
    x, y, z = rd.board.size
    kind = rd.board.type
    if kind == "nested":
        return "", ""
    if kind == "hash":
        return "a 3×3 grid", "3×3"
    if kind == "stacks":
        return f"{_count(x, 'column')} {z} high" + (f", {y} deep" if y > 1 else ""), ""
    if y == 1 and z == 1:
        return f"a row of {x} squares", ""
    if z > 1:
        return f"a {x}×{y}×{z} board", f"{x}×{y}×{z}"
    return f"a {x}×{y} board", f"{x}×{y}"


def _board(a, b) -> list[str]:
    out = []
    (mine, my_size), (theirs, their_size) = _board_words(a), _board_words(b)
    if mine and theirs and mine != theirs:  # "a 4×4 board instead of 3×3"
        same_columns = (
            a.board.type == b.board.type == "stacks" and a.board.size[:2] == (b.board.size[:2])
        )
        if same_columns:  # "4 columns 9 high instead of 3 high"
            theirs = f"{b.board.size[2]} high"
        out.append(f"{mine} instead of {their_size if my_size and their_size else theirs}")
    if a.board.type == "nested" and b.board.type != "nested":
        nested = _nested_board(a.nested)
        if a.nested.depth == 1:
            out.append(f"{nested} with X and O marks instead of {theirs}")
        else:
            out.append(f"boards inside boards ({nested}) instead of {theirs}")
    elif b.board.type == "nested" and a.board.type != "nested":
        out.append(f"{mine} instead of {_nested_board(b.nested)}")
    if a.boards != b.boards:
        out.append(_instead(f"{a.boards} boards", f"{b.boards}").replace("1 boards", "1 board"))
    if len(a.locked) != len(b.locked):
        mine = _count(len(a.locked), "locked space") if a.locked else "no locked spaces"
        out.append(_instead(mine, str(len(b.locked))))
    return out


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:]


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _players(a, b) -> list[str]:
    out = []
    seats_a, seats_b = PLAYER_SEATS.get(a.players, 2), PLAYER_SEATS.get(b.players, 2)
    if seats_a != seats_b:
        out.append(_instead(f"{seats_a} players", str(seats_b)))
    if (a.players == "partners") != (b.players == "partners"):
        out.append("two teams of partners" if a.players == "partners" else "no teams")
    if a.players.endswith("chaos") != b.players.endswith("chaos"):
        out.append("Chaos plays a seat at random" if a.players.endswith("chaos") else "no Chaos")
    if a.colors != b.colors:
        out.append(COLOURS.get(a.colors, a.colors))
    return out


def _pieces(a, b) -> list[str]:
    out = []
    if a.pieces_per_turn != b.pieces_per_turn:
        out.append(_instead(_count(a.pieces_per_turn, "piece") + " a turn", str(b.pieces_per_turn)))
    if len(a.shapes) != len(b.shapes):
        out.append(_instead(_count(len(a.shapes), "kind") + " of piece", str(len(b.shapes))))
    mine, theirs = _reserve(a), _reserve(b)
    if _filled(a) and _filled(b):
        mine = theirs = ""  # both deal the board's spaces out: a bigger board says it
    elif _filled(b):
        theirs = "enough to fill the board"
    elif _filled(a):
        mine = "enough pieces to fill the board"
    if mine != theirs and mine and theirs:  # "9 pieces each instead of 5 and 4"
        each = "" if mine.endswith("each") else " each"
        out.append(_instead(mine, theirs.replace(" pieces each", each).replace(" pieces", "")))
    if len(a.initial_pieces) != len(b.initial_pieces):
        n = len(a.initial_pieces)
        out.append(_count(n, "piece") + " on the board at the start" if n else "an empty board")
    if a.deck != b.deck:
        out.append("pieces dealt from a deck" if a.deck else "no deck")
    return out


def _filled(rd) -> bool:
    """Are the reserves the default, the board's open spaces dealt out to the colours?"""
    return rd.reserves == default_reserves(rd.model_copy(update={"reserves": None}))


def _reserve(rd) -> str:
    totals = [sum(shapes.values()) for shapes in (rd.reserves or {}).values()]
    if not totals:
        return ""
    if len(set(totals)) == 1:
        return f"{totals[0]} piece{'' if totals[0] == 1 else 's'} each"
    said = [f"{t} {colour}" for colour, t in zip(rd.reserves, totals, strict=True)]
    return ", ".join(said[:-1]) + f" and {said[-1]} pieces"  # "5 black and 4 white pieces"


def _line(check) -> str:
    return f"{check.k} in a row to {'win' if check.result == 'wins' else 'lose'}"


def _lines(a, b) -> list[str]:
    out = []
    if a.turn_checks and not b.turn_checks:
        out.append(_line(a.turn_checks[0]) + " instead of no line")
    elif b.turn_checks and not a.turn_checks:
        out.append("no line wins or loses")
    elif a.turn_checks and b.turn_checks:
        ca, cb = a.turn_checks[0], b.turn_checks[0]
        if ca.result != cb.result:
            verb = ("loses", "winning") if ca.result == "loses" else ("wins", "losing")
            out.append(f"making {ca.k} in a row {verb[0]} instead of {verb[1]}")
            if ca.k != cb.k:
                out.append(f"lines of {ca.k} instead of {cb.k}")
        elif ca.k != cb.k:
            out.append(f"{_line(ca)} instead of {cb.k}")
        if ca.diagonal != cb.diagonal:
            out.append("diagonal lines count too" if ca.diagonal else "diagonal lines do not count")
        if len(a.turn_checks) != len(b.turn_checks):
            out += [_line(c) + " too" for c in a.turn_checks[1:]]
    theirs = {label(e) for e in b.endings}
    out += [f"also: {_lower(label(e))}" for e in a.endings if label(e) not in theirs]
    if a.overachievers and not b.overachievers:
        out.append("the first to win is disqualified (overachievers)")
    return out


def _full_board(a, b) -> list[str]:
    out = []
    if a.stalemate != b.stalemate:
        mine = FULL_BOARD.get(a.stalemate, a.stalemate)
        theirs = FULL_BOARD.get(b.stalemate, b.stalemate)
        out.append(f"when nobody can move, {mine} instead of {theirs}")
    if a.allow_pass != b.allow_pass:
        out.append("you may pass" if a.allow_pass else "no passing")
    if a.agree_draw != b.agree_draw:
        out.append("players may agree a draw" if a.agree_draw else "no agreed draws")
    return out


def _moving(a, b) -> list[str]:
    out = []
    moves_a, moves_b = rule_words_moves.movement(a), rule_words_moves.movement(b)
    if bool(moves_a) != bool(moves_b):
        out.append("pieces move once placed" if moves_a else "pieces stay where they are placed")
    caps_a, caps_b = rule_words_moves.captures(a), rule_words_moves.captures(b)
    if bool(caps_a) != bool(caps_b):
        out.append("pieces can be captured" if caps_a else "no captures")
    if len(a.phases) != len(b.phases):
        out.append(_instead(_count(max(len(a.phases), 1), "phase"), str(max(len(b.phases), 1))))
    if a.cloaking != b.cloaking:
        out.append("some pieces are hidden" if a.cloaking != "none" else "nothing is hidden")
    return out


def _nested_board(n) -> str:
    s = f"{n.side}×{n.side}" if n.dimensions == 2 else f"{n.side}-a-side {n.dimensions}D"
    if n.depth == 1:
        return f"one {s} board"
    return f"a {s} board of " + " of ".join(["boards"] * (n.depth - 1))


def _nested(a, b) -> list[str]:
    if a.nested is None or b.nested is None:
        return []
    na, nb = a.nested, b.nested
    out = []
    if (na.side, na.depth, na.dimensions) != (nb.side, nb.depth, nb.dimensions):
        out.append(_instead(_nested_board(na), _nested_board(nb)))
    la, lb = na.win_length or na.side, nb.win_length or nb.side
    if la != lb:
        out.append(f"{la} in a row to win a board instead of {lb}")
    if (na.routing, na.level_routing) != (nb.routing, nb.level_routing):
        route = ROUTES.get(na.routing, na.routing)
        out.append("the next block is found level by level" if na.level_routing else route)
    flags = (
        ("quick", "winning any one board wins the game", "a line of won boards wins (not Quick)"),
        ("inverted", "whoever wins the big board loses", "winning the big board wins"),
        ("checked", "a move that lets the opponent win at once is not allowed", "any move goes"),
        ("lock_captured", "a won board is closed", "won boards stay open"),
        ("kyu", "Kyū rules", "no Kyū rules"),
        ("no_send_back", "you may not send a player back", "sending back allowed"),
    )
    for field, yes, no in flags:
        if getattr(na, field) != getattr(nb, field):
            out.append(yes if getattr(na, field) else no)
    if na.win_condition != nb.win_condition:
        majority = na.win_condition == "majority"
        out.append("more than half the blocks wins" if majority else "a line of won boards wins")
    obstacles_a = bool(na.random_obstacles or na.symmetric_obstacles)
    if obstacles_a != bool(nb.random_obstacles or nb.symmetric_obstacles):
        out.append("some cells are obstacles" if obstacles_a else "no obstacles")
    if na.scouts != nb.scouts:
        out.append(_instead(_count(na.scouts, "scout") + " a team", str(nb.scouts)))
    return out


def _timer(a, b) -> list[str]:
    ta, tb = rule_words._turn(a), rule_words._turn(b)
    if ta == tb:
        if ta and a.timeout != b.timeout:
            return [f"out of time, {rule_words.TIMEOUT.get(a.timeout, a.timeout)}"]
        return []
    mine = f"{ta} seconds a turn" if ta else "no time limit"
    theirs = f"{tb} seconds" if ta and tb else (f"{tb} seconds a turn" if tb else "no time limit")
    return [f"{mine} instead of {theirs}"]


def _fallback(doc: dict, other: dict) -> list[str]:
    """Topics of the plain-words rules that read differently ("moves: …")."""
    theirs = dict(rule_words.rule_list(other))
    out = []
    for topic, text in rule_words.rule_list(doc):
        if theirs.get(topic) != text:
            out.append(f"{topic.lower()}: {text[:1].lower()}{text[1:].rstrip('.')}")
    return out
