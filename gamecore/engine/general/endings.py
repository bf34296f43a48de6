"""Endings of the general family: the typed vocabulary of ``gamecore/rules/endings.py``
(measure x comparison x result x when), evaluated on a GeneralState.

What the state calls:
- ``stalemate_results(state, board=None)``: per-seat results when the game (or one board
  of several) is stalemated: the stalemate endings, combined as the vocabulary says, the
  ``stalemate`` value deciding when none matched; "Overachiever(s) disqualified" applied.
- ``after_move(state, seat)``: after every move (or simultaneous round), once the turn
  checks found no line: follows "last" endings and checks the turn endings. True if the
  game ended (finished, or stalemated by a "Stalemate if ..." ending).
- ``overachieved(state, results)``: for a result found elsewhere (a turn check's line):
  the results to finish with, or None if the winners were disqualified and play goes on.
- ``start(state)``: the per-state marks "last" endings need, at the start.

The turn checks ("First k-same-color-in-a-row wins/loses") keep their fast path in the
state (lines through the piece moved, compiled in ``GeneralGame._checks`` from the same
words); the old stalemate values are evaluated here as words, and give what the flat
family's ``scoring.py`` gives (the differential test plays both side by side).
"""

from gamecore.rules.endings import WHOLE_GAME, label, words

from ..geometry import AXES
from ..outcome import DRAW, LOSS, WIN
from ..scoring import team_pieces
from .ending import team_areas


class Compiled:
    """A game's endings, compiled once: the stalemate words, the turn words (not the
    turn checks: the state's fast path plays those), the lines each k-in-a-row needs."""

    def __init__(self, game, doc):
        self.game = game
        self.stalemate = words(doc, "stalemate")
        self.turn = [e for e in words(doc, "turn") if e.comparison != "first"]
        self.tracked = [e for e in doc.endings if e.comparison in ("last", "last-standing")]
        self.overachievers = doc.overachievers
        self.legacy_only = not doc.endings and not doc.overachievers
        self.lines = {}
        for e in [*self.stalemate, *self.turn]:
            if e.measure == "in-a-row" and e.k is not None:
                key = (e.k, e.diagonal)
                if key not in self.lines:
                    self.lines[key] = game.geometry.lines(e.k, e.diagonal)
        self.teams = sorted(set(game.teams))
        self.chaos_team = None if game.chaos is None else game.teams[game.chaos]


# -- measures ------------------------------------------------------------------------------
def measure(
    state, e, board: int | None = None, reserves: bool = False, start: bool = False
) -> dict[int, int]:
    """team -> the ending's measure (``reserves``: pieces in reserve count too;
    ``start``: the position before any move, in which nothing has arrived yet)."""
    g = state.game
    ends = g.ends
    m = e.measure
    if m == "none":
        return dict.fromkeys(ends.teams, 0)
    if m == "area":
        return team_areas(state, board)
    if m == "stuck":
        stuck = {g.teams[s] for s in stuck_seats(state)}
        return {t: int(t in stuck) for t in ends.teams}
    pieces = team_pieces(state, board)
    if m == "pieces":
        shape = None if e.shape is None else g.shape_names.index(e.shape)
        out = {}
        for t in ends.teams:
            spaces = [i for spaces in pieces.get(t, {}).values() for i in spaces]
            if shape is not None:
                spaces = [i for i in spaces if g.piece[state.board[i]][2] == shape]
            out[t] = len(spaces)
        if reserves:
            for t, n in _reserve_counts(state, shape).items():
                out[t] += n
        return out
    if m == "goal":
        # After a move a goal is *reached*: only where that move (or round) brought a
        # piece; set-up pieces standing on a goal from the start have reached nothing
        # (READINGS.md, "Stalemate if goal is reached": 3P-9X-HideSeek).
        arrived = (set() if start else _arrivals(state)) if e.when == "turn" else None
        out = dict.fromkeys(ends.teams, 0)
        for s in range(g.nseats):
            t = g.teams[s]
            goal = g.goal_mask[s]
            for spaces in pieces.get(t, {}).values():
                at = [g.space_pos[i] for i in spaces]
                if arrived is not None:
                    at = [p for p in at if p in arrived]
                out[t] += sum(goal >> p & 1 for p in at)
        return out
    # in-a-row: the longest line of one colour, or the number of lines of k
    out = {}
    if e.k is None:
        geo = g.geometry
        for t in ends.teams:
            runs = [_longest(geo, spaces, e.diagonal) for spaces in pieces.get(t, {}).values()]
            out[t] = max(runs, default=0)
        return out
    lines = ends.lines[(e.k, e.diagonal)]
    for t in ends.teams:
        n = 0
        for spaces in pieces.get(t, {}).values():
            mask = sum(1 << i for i in spaces)
            n += sum(1 for line in lines if mask & line == line)
        out[t] = n
    return out


def _arrivals(state) -> set[int]:
    """The positions the latest move (a simultaneous phase: the latest round's moves)
    brought a piece to."""
    if state.ph.simultaneous:
        moves = [m for _seat, m in state.last_round or ()]
    else:
        moves = [state.last]
    return {m.target for m in moves if getattr(m, "target", -1) >= 0}


def _longest(geo, spaces: set[int], diagonal: bool) -> int:
    if diagonal:
        return geo.longest_run(spaces)
    best = 1 if spaces else 0  # across and down only
    for i in spaces:
        b, x, y, z = geo.coords[i]
        for d in AXES:
            length, cx, cy, cz = 1, x + d[0], y + d[1], z + d[2]
            while geo.inside(cx, cy, cz) and geo.index(b, cx, cy, cz) in spaces:
                length += 1
                cx, cy, cz = cx + d[0], cy + d[1], cz + d[2]
            best = max(best, length)
    return best


def _reserve_counts(state, shape: int | None) -> dict[int, int]:
    """team -> pieces in reserve of its own colours (shared colours belong to no team)."""
    g = state.game
    out = dict.fromkeys(g.ends.teams, 0)
    if g.choose or g.doc.colors == "shared":
        return out
    color_team = {g.seat_color[s]: g.teams[s] for s in range(g.nseats)}
    for ri, n in enumerate(state.reserves):
        color, sh = divmod(ri, g.nshapes)
        if n and (shape is None or sh == shape) and color in color_team:
            out[color_team[color]] += n
    return out


def stuck_seats(state) -> list[int]:
    """The seat that cannot move when the game is stalemated (none if it could: a game
    stalemated by passes, repetition or the fifty moves)."""
    seat = state.turn
    if state.out >> seat & 1 or state._can_move(seat):
        return []
    return [seat]


# -- matching --------------------------------------------------------------------------
def matches(state, e, board=None, excluded=frozenset()) -> tuple[set[int], bool]:
    """(teams the ending matches, whether it fired). ``excluded`` teams (disqualified)
    take no part in the comparison."""
    ends = state.game.ends
    c = e.comparison
    if c in ("last", "last-standing"):
        tracked = state.game.ends.tracked
        last = state.marks[tracked.index(e)][1] if e in tracked and state.marks else ()
        teams = set(last) - excluded
        return teams, bool(teams)
    values = measure(state, e, board)
    if e.measure == "none":
        return set(ends.teams) - excluded, True
    if c == "total-over":
        return set(ends.teams), sum(values.values()) > e.threshold
    if c in ("more-than-chaos", "fewer-than-chaos"):
        ref = values[ends.chaos_team]
        more = c == "more-than-chaos"
        teams = {
            t for t, v in values.items()
            if t != ends.chaos_team and t not in excluded and (v > ref if more else v < ref)
        }  # fmt: skip
        return teams, bool(teams)
    values = {t: v for t, v in values.items() if t not in excluded}
    if e.measure == "area" and c == "least":  # a team with no piece has no area to compare
        present = {t for t, by_color in team_pieces(state, board).items() if by_color}
        values = {t: v for t, v in values.items() if t in present}
    if not values:
        return set(), False
    if c in ("most", "least"):
        target = max(values.values()) if c == "most" else min(values.values())
        return {t for t, v in values.items() if v == target}, True
    teams = {t for t, v in values.items() if v >= e.threshold}  # any
    return teams, bool(teams)


def decide(state, endings, board=None, excluded=frozenset()):
    """Combine endings (rules/endings.py, "Several endings at once"). Returns None when
    nothing matched, else (result kind, per-seat results or None, detail, the seats an
    ending said lose as a bit mask)."""
    g = state.game
    ends = g.ends
    whole = None
    by_team: dict[int, set[str]] = {t: set() for t in ends.teams}
    fired = []
    for e in endings:
        teams, hit = matches(state, e, board, excluded)
        if not hit:
            continue
        if e.result in WHOLE_GAME:
            rank = WHOLE_GAME.index(e.result)
            if whole is None or rank < whole[0]:
                whole = (rank, e)
            continue
        fired.append(e)
        for t in teams:
            by_team[t].add(e.result)
    if whole is not None:
        e = whole[1]
        results = _whole(g, e.result)
        lost = 0 if results is None else sum(1 << s for s, r in enumerate(results) if r == LOSS)
        return e.result, results, label(e), lost
    if not fired:
        return None
    said = {e.result for e in endings if e.result in ("wins", "loses")}
    team_result = {}
    for t, got in by_team.items():
        if "loses" in got:
            team_result[t] = LOSS
        elif "wins" in got:
            team_result[t] = WIN
        else:
            team_result[t] = LOSS if said == {"wins"} else WIN if said == {"loses"} else DRAW
    results = [team_result[g.teams[s]] for s in range(g.nseats)]
    only_vs_chaos = all(
        e.comparison in ("more-than-chaos", "fewer-than-chaos")
        for e in endings
        if e.result in ("wins", "loses")
    )
    if g.chaos is not None and only_vs_chaos:
        players = [r for s, r in enumerate(results) if s != g.chaos]
        results[g.chaos] = (
            WIN if all(r == LOSS for r in players)
            else LOSS if all(r == WIN for r in players) else DRAW
        )  # fmt: skip
    lost = sum(1 << s for s in range(g.nseats) if "loses" in by_team[g.teams[s]])
    return "results", results, "; ".join(dict.fromkeys(label(e) for e in fired)), lost


def _whole(g, result: str) -> list[str] | None:
    if result == "draw":
        return [DRAW] * g.nseats
    if result == "all-win":
        return [WIN] * g.nseats  # Chaos's loss is applied when the game finishes
    if result in ("all-lose", "chaos-wins"):
        return [WIN if s == g.chaos else LOSS for s in range(g.nseats)]
    return None  # stalemate: the stalemate endings decide


# -- what the state calls --------------------------------------------------------------
def stalemate_results(state, board: int | None = None) -> list[str]:
    """Per-seat results of the stalemate endings (on one board, or on all)."""
    return stalemate_verdict(state, board)[0]


def stalemate_verdict(state, board: int | None = None) -> tuple[list[str], str]:
    """(per-seat results, a sentence saying which endings decided)."""
    from gamecore.rules.vocabulary import STALEMATE_LABELS

    g = state.game
    ends = g.ends
    fallback = STALEMATE_LABELS["draw"]
    if not ends.overachievers:
        got = decide(state, ends.stalemate, board)
        if got is None:
            level = _level_with_chaos(g, ends.stalemate)
            if level is not None:  # say what happened, not the unused stalemate value
                return level, _nobody_lost(ends.stalemate)
            return [DRAW] * g.nseats, fallback
        return got[1], got[2]
    excluded = _dq_teams(state)
    got = decide(state, ends.stalemate, board, excluded)
    if got is not None and not state.dq:
        winners = _winners(g, got[1], excluded)
        if winners:  # the first set of winners: disqualified, and the rest decide
            state.dq = winners
            excluded = _dq_teams(state)
            got = decide(state, ends.stalemate, board, excluded)
    results = [DRAW] * g.nseats if got is None else got[1]
    detail = fallback if got is None else got[2]
    return _disqualify(state, results), detail + dq_note(state)


def _level_with_chaos(g, endings) -> list[str] | None:
    """Nothing matched at stalemate, and every ending says a player with fewer pieces
    than Chaos loses: no player lost, so every player wins and Chaos loses
    (3P-PublicGoods' "Less pieces than Chaos loses", READINGS.md). None otherwise (the
    stalemate value decides: "More pieces than Chaos wins" alone still draws)."""
    if g.chaos is None or not endings or any(e.result != "loses" for e in endings):
        return None
    if any(e.comparison not in ("more-than-chaos", "fewer-than-chaos") for e in endings):
        return None
    return [WIN if s != g.chaos else LOSS for s in range(g.nseats)]


def _nobody_lost(endings) -> str:
    """ "Nobody has fewer pieces than Chaos: every player wins" (3P-PublicGoods)."""
    said = "; ".join(dict.fromkeys(label(e) for e in endings))
    return f"{said}: no player lost, so every player wins"


def after_move(state, seat: int | None) -> bool:
    """Follow "last" endings, then check the turn endings; True if the game ended.
    ``seat``: the seat that moved (None after a simultaneous round: no mover)."""
    g = state.game
    ends = g.ends
    if ends.tracked:
        _track(state, seat)
    if not ends.turn:
        return False
    excluded = _dq_teams(state) if ends.overachievers else frozenset()
    got = decide(state, ends.turn, None, excluded)
    if got is None:
        return False
    kind, results, detail, lost = got
    if kind == "stalemate":
        state._stalemate(detail)
        return True
    results = overachieved(state, results, lost)
    if results is None:
        return False
    reason = "draw" if all(r == DRAW for r in results) else "victory"
    state._finish(results, reason, detail + dq_note(state), ())
    return True


def overachieved(state, results: list[str], lost: int) -> list[str] | None:
    """With "Overachiever(s) disqualified": the first set of winners is disqualified and
    play goes on (None), unless every player is then disqualified or lost (``lost``: the
    seats an ending said lose, not those that lose only because others won): then Chaos
    wins (every player loses). Without the rule: ``results`` unchanged."""
    g = state.game
    if not g.ends.overachievers:
        return results
    excluded = _dq_teams(state)
    winners = _winners(g, results, excluded)
    if not winners:
        if all(r != WIN for r in results):
            return _disqualify(state, results)
        return None  # only disqualified seats "won": their win does not count
    if state.dq:
        return _disqualify(state, results)
    state.dq = winners
    if all((state.dq | lost) >> s & 1 for s in range(g.nseats) if s != g.chaos):
        return [WIN if s == g.chaos else LOSS for s in range(g.nseats)]
    return None


def _winners(g, results, excluded) -> int:
    return sum(
        1 << s for s in range(g.nseats)
        if results[s] == WIN and s != g.chaos and g.teams[s] not in excluded
    )  # fmt: skip


def _dq_teams(state) -> frozenset:
    g = state.game
    return frozenset(g.teams[s] for s in range(g.nseats) if state.dq >> s & 1)


def _disqualify(state, results: list[str]) -> list[str]:
    g = state.game
    out = [LOSS if state.dq >> s & 1 else r for s, r in enumerate(results)]
    players = [r for s, r in enumerate(out) if s != g.chaos]
    if g.chaos is not None and all(r == LOSS for r in players):
        out[g.chaos] = WIN
    return out


def dq_note(state) -> str:
    if not state.dq:
        return ""
    seats = [str(s + 1) for s in range(state.game.nseats) if state.dq >> s & 1]
    return f" (disqualified as overachievers: seat {', '.join(seats)})"


# -- "last" endings ----------------------------------------------------------------------
def start(state) -> tuple | None:
    """Marks at the start: per tracked ending (in ``ends.tracked`` order), (teams reaching
    it, teams it matches); a tuple, so ``state.key()`` can name it."""
    ends = state.game.ends
    if not ends.tracked:
        return None
    return tuple((_reaching(state, e, start=True), ()) for e in ends.tracked)


def _reaching(state, e, start: bool = False) -> tuple[int, ...]:
    # (at the start the state's phase is not set yet: ``start`` asks nothing of it)
    values = measure(state, e, None, reserves=e.comparison == "last-standing", start=start)
    return tuple(t for t in sorted(values) if values[t] >= e.threshold)


def _track(state, seat: int | None) -> None:
    """After a move: "last": the teams that newly reached the threshold (the mover's team
    if it is one of them) become the last; "last-standing": one team left reaching it,
    when two or more did before the move, matches."""
    g = state.game
    marks = list(state.marks)
    for i, e in enumerate(g.ends.tracked):
        before, last = marks[i]
        now = _reaching(state, e)
        if e.comparison == "last":
            new = set(now) - set(before)
            if new:
                mine = None if seat is None else g.teams[seat]
                last = (mine,) if mine in new else tuple(sorted(new))
        else:
            last = now if len(now) == 1 and len(before) >= 2 else ()
        marks[i] = (now, last)
    state.marks = tuple(marks)
