"""A game's rules as a person reads them: a short list of (topic, sentence) — the board,
the pieces, who moves, how you win, what happens when nobody can move, timers. The game's
page shows it above the read-only factory (which stays one click away)."""

from __future__ import annotations

from gamecore import rules
from gamecore.rules.endings import label, shape_word_for, words
from gamecore.rules.vocabulary import PLAYER_SEATS, TEAM_SYMBOLS
from variants import rule_words_moves

SEATS = PLAYER_SEATS  # every player mode (rules/vocabulary.py)
STALEMATE = {
    "draw": "the game is a draw",
    "all-win": "everyone wins",
    "all-lose": "everyone loses",
    "most-in-a-row-wins": "whoever has the longest line wins",
    "least-in-a-row-loses": "whoever has the shortest longest line loses",
    "most-pieces-wins": "whoever has the most pieces on the board wins",
    "most-area-wins": "whoever has the most area (spaces held or reachable) wins",
}
TIMEOUT = {
    "loss": "you lose",
    "random-move": "a random move is played for you",
    "skip": "your turn is skipped",
}
ROUTING = {
    "tactical": "where you play inside a small board sends the next player to the matching "
    "small board (a move in a top-right cell sends them to the top-right board); "
    "if that board is full, they may play anywhere",
    "map": "the next player is sent to the small board named by the number beside your "
    "move's row (the route map)",
    "hypermap": "the next player is sent to the small board named by the number in your "
    "move's cell (the route map)",
    "open": "you may play in any small board that is not finished yet",
}
# Strategic's rule sets combined (nested.level_routing): how each level's block is found.
LEVEL_ROUTING = {
    "tactical": "by where you play inside the block below it",
    "map": "by the number beside your move's row",
    "hypermap": "by the number in your move's cell",
}


def _level_routing(levels) -> str:
    names = {1: "the strategic cell (big block)", 2: "the tactical cell inside it"}
    if len(levels) != 2:  # not Strategic's 27x27 board: levels by number
        names = {}
    parts = [
        f"{names.get(k, f'the level-{k} block')} {LEVEL_ROUTING[r]}"
        for k, r in enumerate(levels, start=1)
    ]
    return "the next player is sent to a block found level by level: " + "; ".join(parts)


def rule_list(doc: dict) -> list[tuple[str, str]]:
    """[(topic, sentence)] for a rule document ([] if it cannot be read)."""
    data = dict(doc)
    data["name"] = data.get("name") or "game"
    try:
        rd = rules.parse(data)
    except Exception:
        return []
    if rd.board.type == "nested":
        return _nested(rd)
    return _flat(rd)


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _players(rd) -> str:
    seats = SEATS.get(rd.players, 2)
    colors = rules.COLORS[:seats]
    if rd.players == "partners":
        text = "4 players in 2 teams: Players 1 and 3 against Players 2 and 4"
    else:
        text = _count(seats, "player")
    if rd.colors == "assigned":
        text += ": " + ", ".join(f"Player {i + 1} plays {c}" for i, c in enumerate(colors))
    elif rd.colors == "shared":
        text += ", who all place the same colour (a line counts for whoever completes it)"
    elif rd.colors == "choose":
        text += ", who choose the colour of every piece they place"
    elif rd.colors == "partners-share":
        text += "; partners share a colour"
    if rd.players.endswith("chaos"):
        text += ". Chaos takes a seat too and plays at random"
    return text + "."


def _board(rd) -> str:
    x, y, z = rd.board.size
    kind = rd.board.type
    if kind == "hash":
        text = "A 3×3 grid, as in tic-tac-toe"
    elif kind == "stacks":
        text = f"{_count(x, 'column')}, {_count(z, 'space')} high"
        if y > 1:
            text += f", {y} rows of columns deep"
        text += "; a piece dropped in a column falls to its lowest empty space"
    elif y == 1 and z == 1:
        text = f"A row of {x} squares"
    else:
        text = f"{x}×{y} squares" + (
            f", {z} layers deep (lines may run across layers)" if z > 1 else ""
        )
    if rd.boards > 1:
        each = text[0].lower() + text[1:]
        text = f"{rd.boards} boards, each: {each}; you choose the board for each piece"
    if rd.locked:
        spaces = ", ".join(_where(s.at, rd) for s in rd.locked)
        text += f". Locked (nobody plays there): {spaces}"
    return text + "."


def _where(at, rd) -> str:
    x, y, z = at
    return f"({x},{y})" if rd.board.size[2] == 1 else f"({x},{y},{z})"


def _pieces(rd) -> str:
    parts = []
    for color, shapes in (rd.reserves or {}).items():
        total = sum(shapes.values())
        if len(rd.shapes) > 1:  # "black 4 circles and 1 pentagon" (shape words: endings.py)
            detail = _and([f"{n} {shape_word_for(s, n != 1)}" for s, n in shapes.items() if n])
            parts.append(f"{color} {detail or 'none'}")
        else:
            parts.append(f"{total} {color}")
    if len(rd.shapes) > 1 and parts:
        text = "Pieces to place: " + "; ".join(parts)
    else:
        text = f"{_and(parts) or 'No'} pieces to place"
    if rd.initial_pieces:
        start = ", ".join(
            f"{p.color}{f' {shape_word_for(p.shape, False)}' if len(rd.shapes) > 1 else ''} "
            f"at {_where(p.at, rd)}"
            for p in rd.initial_pieces
        )
        text += f". On the board at the start: {start}"
        scenery = sorted({f"{p.color} {p.shape}s" for p in rd.initial_pieces if p.nobody})
        if scenery:  # set-up pieces of no seat (issue 35: 3P-9X-HideSeek's ring)
            text += f". The {' and '.join(scenery)} set up belong to nobody: they never"
            text += " move and count for no one, but can be taken"
    return text + "."


def _dealt(rd) -> str:
    """Release 1.7's deck in words: what it holds, how many spaces it is dealt into and
    whose they are, and that a cloaked card stays hidden (gamecore/rules/decks.py)."""
    from gamecore.rules.decks import count_words
    from gamecore.rules.decks import label as deck_label
    from gamecore.rules.vocabulary import COLORS, seat_colors

    seat_color, _n = seat_colors(rd.players, rd.colors)
    colours = tuple(COLORS[c] for c in seat_color) if rd.colors != "choose" else None
    held = deck_label(rd.deck, colours).removesuffix(" in deck")
    n = len(rd.dealt)
    mixed = " (shuffled)" if "{" in rd.deck else ""
    seats = sorted({d.seat for d in rd.dealt if d.seat is not None})
    who = [f"{sum(1 for d in rd.dealt if d.seat == s)} for Player {s}" for s in seats]
    common = sum(1 for d in rd.dealt if d.seat is None)
    who += [f"{common} for nobody" if seats else "nobody's"] if common else []
    text = (
        f"Before the first move a deck of {held}{mixed} is dealt into {n} marked "
        f"space{'s' if n != 1 else ''} ({', '.join(who)}), top to bottom, then left to "
        f"right: {count_words(rd.deck, n or None)}"
    )
    if " blank" in held:
        text += ". A blank leaves its space empty"
    if seats:
        text += ". A player's dealt piece is theirs, in their colour"
    if rd.cloaking != "none":
        text += ". Dealt pieces on cloaked spaces stay hidden from those who may not see them"
    return text + "."


def _and(parts: list[str]) -> str:
    return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else "".join(parts)


def _lower(text: str) -> str:
    """An ending's label ("Least area wins") inside a sentence; names keep their capital."""
    return text if text.startswith(("Chaos", "Player")) else text[:1].lower() + text[1:]


def _wins(rd) -> str:
    extra = _endings_text(rd, "turn")
    if not rd.turn_checks:
        if extra:
            return _sentence(f"after every move: {extra}")
        return "No line wins or loses: the game goes on until nobody can move."
    sentences = []
    for check in rd.turn_checks:
        how = "across, down or diagonally" if check.diagonal else "across or down, not diagonally"
        x, y, z = rd.board.size
        if rd.board.type != "hash" and y == 1 and z == 1:  # a row of squares: no other way
            how = ""
        result = "wins" if check.result == "wins" else "loses"
        mine = "" if rd.colors in ("shared", "choose") else " of their colour"
        how = f" ({how})" if how else ""
        sentences.append(f"the first to make {check.k}{mine} in a row{how} {result}")
    text = "; ".join(sentences)
    if rd.boards > 1:  # a line wins its board, not the game (engine/general/finish.py)
        text += " — that board only: whoever wins the most boards wins the game"
    if extra:
        text += f"; also after every move: {extra}"
    return text[0].upper() + text[1:] + "."


def _endings_text(rd, when: str) -> str:
    """The typed endings checked ``when`` (rules/endings.py), in the factory's words."""
    return "; ".join(_ending_words(e) for e in rd.endings if e.when == when)


def _ending_words(e) -> str:
    text = _lower(label(e))
    if text.startswith("stalemate if "):  # result "stalemate": the game stops, scored now
        cond = text.removeprefix("stalemate if ").replace("goal is", "a goal is")
        text = f"if {cond}, the game stops at once and is scored as when nobody can move"
    elif text.startswith("any piece "):  # measure "pieces", comparison "any", 1 piece
        text = "whoever has a piece on the board " + text.removeprefix("any piece ")
    return text


def _end(rd) -> str:
    end = STALEMATE.get(rd.stalemate, rd.stalemate)
    extra = _endings_text(rd, "stalemate")
    if extra:
        if rd.stalemate != "draw":
            extra = f"{STALEMATE.get(rd.stalemate)}; {extra}"
        said = {e.result for e in words(rd, "stalemate")} & {"wins", "loses"}
        others = {
            frozenset({"wins"}): "the others lose",
            frozenset({"loses"}): "the others win",
        }.get(frozenset(said), "a player none of these decides draws")
        end = f"{_lower(extra)} ({others}; if none applies to anyone, the game is a draw)"
    full = "the boards are" if rd.boards > 1 else "the board is"
    text = f"When {full} full or nobody can move, {end}."
    if rd.boards > 1 and not extra:  # the engine decides each open board on its own
        # (engine/general/finish.py: most boards won wins, a tied board goes to nobody)
        text = (
            f"When {full} full or nobody can move, each board not yet decided is decided on "
            f"its own ({end}). Whoever wins the most boards wins the game; a tied board is "
            "won by nobody, and equal counts of boards are a draw."
        )
    if rd.overachievers:
        text += (
            " Overachiever(s) disqualified: the first players found to win are disqualified "
            "from winning and play goes on; if every player is disqualified or loses, "
            "everyone loses."
        )
    return text


def _turn(rd):
    """The turn time in seconds (seed 001's ``turn_ms`` may hold a fraction), or None."""
    return rd.seconds_per_turn or (f"{rd.turn_ms / 1000:g}" if rd.turn_ms else None)


def _timer(seconds, timeout) -> str:
    if not seconds:
        return "No time limit per turn."
    return f"{seconds} seconds a turn; when they run out, {TIMEOUT.get(timeout, timeout)}."


def _space_names(rd, spaces) -> str:
    """Spaces in words: a whole column of a one-row stacks board as "column 3"."""
    x_, y_, height = rd.board.size
    by_stack: dict[tuple, set[int]] = {}
    for s in spaces:
        by_stack.setdefault((s.board, s.at[0], s.at[1]), set()).add(s.at[2])
    out = []
    for (board, x, y), zs in by_stack.items():
        on = f" of board {board}" if rd.boards > 1 else ""
        if rd.board.type == "stacks" and len(zs) == height:
            out.append(f"column {x}{on}" if y_ == 1 else f"column ({x},{y}){on}")
        else:
            out += [f"{_where((x, y, z), rd)}{on}" for z in sorted(zs)]
    return _and(out)


def _own_spaces(rd) -> str | None:
    """Spaces only some seats may use, and per-seat entry/exit locks (rules/schema.py:
    an exclusive space is one only its seats may enter or leave); None when there are none."""
    seats = rule_words_moves.seat_names
    by_seats: dict[tuple, list] = {}
    for e in rd.exclusive:
        by_seats.setdefault(tuple(e.seats), []).append(e)
    parts = [f"{seats(k, rd)} only: {_space_names(rd, items)}" for k, items in by_seats.items()]
    by_lock: dict[tuple, list] = {}
    for lock in rd.space_locks:
        by_lock.setdefault((tuple(lock.seats), lock.entry, lock.exit), []).append(lock)
    for (k, entry, exit_), items in by_lock.items():
        what = "enter or leave" if entry and exit_ else "enter" if entry else "leave"
        parts.append(f"{seats(k, rd)} may not {what} {_space_names(rd, items)}")
    if not parts:
        return None
    intro = "Only the players named may use these spaces (place in them, move in or out)"
    return f"{intro} — " + "; ".join(parts) + "."


def _flat(rd) -> list[tuple[str, str]]:
    out = [
        ("Board", _board(rd)),
        ("Players", _players(rd)),
        ("Pieces", _pieces(rd)),
        *([("Dealt pieces", _dealt(rd))] if rd.deck or rd.dealt else []),
    ]
    own = _own_spaces(rd)
    if own:
        out.append(("Whose spaces", own))
    out.append(("Moves", rule_words_moves.moves(rd)))
    for topic, text in (
        ("Pieces that move", rule_words_moves.movement(rd)),
        ("Captures", rule_words_moves.captures(rd)),
    ):
        if text:
            out.append((topic, text))
    return out + [
        ("How you win", _wins(rd)),
        ("Full board", _end(rd)),
        ("Timer", _timer(_turn(rd), rd.timeout)),
    ]


def _nested(rd) -> list[tuple[str, str]]:
    n = rd.nested
    side, depth, dims = n.side, n.depth, n.dimensions
    edge = side**depth
    length = n.win_length or side
    if depth == 1:
        board = f"One {side}-a-side board in {dims} dimensions ({side**dims} cells)"
    else:
        inner = "boards" if depth == 2 else "boards of boards"
        board = (
            f"A {side}×{side} board whose squares are {inner}: {edge}×{edge} cells"
            if dims == 2
            else f"Boards inside boards in {dims} dimensions, {edge} cells a side"
        )
    teams = {"2": 2, "3": 3, "4": 4}.get(rd.players, 2)
    symbols = TEAM_SYMBOLS[:teams]
    players = f"{teams} teams ({', '.join(symbols)}) take turns; each places its mark in one "
    players += "cell a turn."
    capture = (
        f"{length} marks in a row in a small board win that board; won boards count as one "
        f"mark of the board above."
    )
    if n.win_condition == "majority":
        win = "Whoever has won more than half of the big board's blocks wins, as soon as they do."
    else:
        win = f"{length} won boards in a row on the big board win the game."
    if n.quick:
        win = "Winning any one board of the big board wins the game (Quick)."
    if n.inverted:
        win += " Inverted: whoever does that loses."
    if n.checked:
        win += " Checked: a move that lets the opponent win at once is not allowed."
    extras = []
    if n.lock_captured:
        extras.append("a won board is closed: nobody plays in it any more")
    if n.kyu:
        extras.append("Kyū rules apply")
    if n.no_send_back:
        extras.append(
            "you may never send the next player back to the block of their last move "
            "(if every move would, you may play anywhere else)"
        )
    if n.random_obstacles or n.symmetric_obstacles:
        extras.append("some cells are obstacles (nobody plays there)")
    if n.scouts:
        extras.append(f"{_count(n.scouts, 'scout')} a team")
    if depth == 1:  # one board, no blocks: nothing routes the next player, no board is won
        return [
            ("Board", board + "."),
            ("Players", players),
            ("Where you may play", "Any empty cell."),
            ("How you win", f"{length} of your marks in a line win the game."),
            ("Timer", _timer(_turn(rd), rd.timeout)),
        ]
    out = [
        ("Board", board + "."),
        ("Players", players),
        (
            "Where you may play",
            _sentence(
                _level_routing(n.level_routing)
                if n.level_routing
                else ROUTING.get(n.routing, n.routing).replace(
                    "is full,", "is full or closed," if n.lock_captured else "is full,"
                )
            ),
        ),
        ("Winning a board", capture),
        ("How you win", win),
    ]
    if extras:
        out.append(("Also", "; ".join(extras).capitalize() + "."))
    out.append(("Timer", _timer(_turn(rd), rd.timeout)))
    return out
