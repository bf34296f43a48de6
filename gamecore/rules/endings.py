"""Endings as one small typed vocabulary (DESIGN §3a): measure x comparison x result x when.

**Measures** (per team: a seat, or partners together; Chaos is a team of its own):
- ``none``: nothing is measured (the unconditional stalemate values: draw, all win/lose);
- ``pieces``: the team's pieces on the board (``shape``: only that shape);
- ``in-a-row``: with ``k``, the number of distinct lines of ``k`` spaces held by one colour
  of the team; without ``k``, the longest such line (the flat family's
  "same-color-in-a-row"; ``diagonal=False``: lines across and down only);
- ``area``: the spaces the team occupies or could reach by orthogonal moves (from Go);
- ``goal``: the team's pieces standing on its seats' goal lines (planes);
- ``stuck``: 1 for the seat that cannot move when the game is stalemated, else 0.

**Comparisons** (which teams an ending *matches*):
- ``any``: every team whose measure is at least ``threshold`` (default 1);
- ``first``: the turn checks: the move completes a line of ``k`` of one colour through the
  piece moved, and the mover's team matches (normalised into ``RuleDoc.turn_checks``);
- ``last``: the team that most recently came to reach ``threshold`` (followed move by
  move; decided at stalemate);
- ``last-standing``: after a move, exactly one team reaches ``threshold`` counting its
  pieces in reserve too, when before the move two or more did ("Last pentagon wins");
- ``most`` / ``least``: the teams with the highest / lowest measure (ties all match);
- ``more-than-chaos`` / ``fewer-than-chaos``: the players whose measure is above / below
  Chaos's (Chaos itself is never matched; needs a Chaos seat);
- ``total-over``: the total of every team's measure is more than ``threshold``.

**Results**: ``wins`` / ``loses`` (for the matched teams), ``draw``, ``stalemate`` (turn
only: the game is stalemated now, and the stalemate endings decide), ``chaos-wins``
(every player loses, Chaos wins), ``all-win``, ``all-lose``.

**When**: ``turn`` (after every move, or simultaneous round) or ``stalemate`` (when the
last phase is stalemated).

**Several endings at once** (the engine's ``general/endings.py`` applies this):
1. An ending of a whole-game result (draw, stalemate, chaos-wins, all-win, all-lose) that
   matches decides alone, in that fixed order of precedence (chaos-wins first).
2. Otherwise each seat takes its team's results from the endings that matched it; a loss
   outweighs a win.
3. A seat no ending matched takes the opposite of the endings in play at that time if they
   all say one thing (every "... wins": it loses; every "... loses": it wins: so "Most
   pieces wins" makes the others lose) and draws if they say both (NeedyTrust: "More
   pieces than Chaos wins" and "Less pieces than Chaos loses": a seat level with Chaos
   draws). Chaos, when only comparisons with Chaos are in play, wins if every player lost,
   loses if every player won, else draws.
4. If nothing matched at stalemate, the ``stalemate`` value decides (default: a draw);
   after a move, play goes on.
So the old values keep their meaning: each is one word (``WORDS``), and the general
family evaluates them through this mapping.

**Overachiever(s) disqualified** (``RuleDoc.overachievers``, 4 Player games): the first
time a set of winners is found, those seats are disqualified from winning and play goes
on; their later matches of a "wins" ending are ignored ("First 3-in-a-row wins" becomes
"second to get", "Most pieces wins" "second most"). Disqualified seats end with a loss;
if every player is disqualified or loses, Chaos wins (in "4 Player", which has no Chaos
seat, every player loses). See READINGS.md.
"""

import json
import math

from .schema import Ending, RuleDoc, TurnCheck
from .vocabulary import PLAYER_MODES, STALEMATE_LABELS

# The stalemate values as words of the vocabulary. "draw" is what happens when no
# stalemate ending matches, so it is never listed among a document's endings.
WORDS: dict[str, Ending] = {
    "draw": Ending(measure="none", result="draw"),
    "all-win": Ending(measure="none", result="all-win"),
    "all-lose": Ending(measure="none", result="all-lose"),
    "most-in-a-row-wins": Ending(measure="in-a-row", comparison="most", result="wins"),
    "least-in-a-row-loses": Ending(measure="in-a-row", comparison="least", result="loses"),
    "most-pieces-wins": Ending(measure="pieces", comparison="most", result="wins"),
    "most-area-wins": Ending(measure="area", comparison="most", result="wins"),
}
STALEMATE_OF = {word: value for value, word in WORDS.items()}

WHOLE_GAME = ("chaos-wins", "all-lose", "all-win", "draw", "stalemate")  # precedence order
STALEMATE_ONLY = ("last", "most", "least", "more-than-chaos", "fewer-than-chaos")
TURN_ONLY = ("first", "last-standing")
THRESHOLD_USERS = ("any", "last", "last-standing", "total-over")
VS_CHAOS = ("more-than-chaos", "fewer-than-chaos")

SINGULAR = {"x": "X", "cross": "cross"}
PLURAL = {"x": "Xs", "cross": "crosses"}


def check_word(c: TurnCheck) -> Ending:
    """A turn check as a word: "First k-same-color-in-a-row wins/loses"."""
    return Ending(
        measure="in-a-row", comparison="first", result=c.result, when="turn", k=c.k,
        diagonal=c.diagonal,
    )  # fmt: skip


def as_check(e: Ending) -> TurnCheck | None:
    """The turn check an ending is, if it is one."""
    if (
        e.measure == "in-a-row" and e.comparison == "first" and e.when == "turn"
        and e.k is not None and e.result in ("wins", "loses") and e.threshold == 1
    ):  # fmt: skip
        return TurnCheck(k=e.k, result=e.result, diagonal=e.diagonal)
    return None


def words(doc: RuleDoc, when: str | None = None) -> list[Ending]:
    """Every ending of a document as words: its turn checks, its stalemate value unless it
    is the default draw, then its other endings (``when``: only those checked then)."""
    out = [check_word(c) for c in doc.turn_checks]
    if doc.stalemate != "draw":
        out.append(WORDS[doc.stalemate])
    out += doc.endings
    return [e for e in out if when is None or e.when == when]


# -- labels -----------------------------------------------------------------------------
def shape_word_for(shape: str, plural: bool) -> str:
    """ "circle"/"circles", "X"/"Xs": a shape in a sentence (summaries, labels)."""
    return _shape_word(shape, plural)


def _shape_word(shape: str | None, plural: bool) -> str:
    if shape is None:
        return "pieces" if plural else "piece"
    return (PLURAL if plural else SINGULAR).get(shape, shape + ("s" if plural else ""))


def _row(e: Ending) -> str:
    text = "same-color-in-a-row" if e.k is None else f"{e.k}-same-color-in-a-row"
    return text + ("" if e.diagonal else " (no diagonal)")


def _subject(e: Ending) -> str:
    """The ending's measure and comparison as the subject of "... wins"."""
    m, c, n = e.measure, e.comparison, e.threshold
    if m == "stuck":
        return "Stalemate"
    if m == "pieces":
        one = _shape_word(e.shape, plural=False)
        many = _shape_word(e.shape, plural=True)
        thing = one if c in ("any", "last", "last-standing") and n == 1 else f"{n} {many}"
        if c in ("most", "least", "more-than-chaos", "fewer-than-chaos"):
            thing = many
    elif m == "in-a-row":
        thing = _row(e) if n == 1 or c not in THRESHOLD_USERS else f"{n} x {_row(e)}"
    elif m == "area":
        thing = "area" if n == 1 or c not in THRESHOLD_USERS else f"area of {n}"
    else:  # goal
        thing = "goal reached" if n == 1 else f"{n} pieces on the goal"
    words_ = {
        "any": f"Any {thing}" if n == 1 else f"At least {thing}",
        "first": f"First {thing}",
        "last": f"Last {thing}",
        "last-standing": f"Last {thing}",
        "most": f"Most {thing}",
        "least": f"Least {thing}",
        "more-than-chaos": f"More {thing} than Chaos",
        "fewer-than-chaos": f"Less {thing} than Chaos",
        "total-over": f"Total {thing} > {n}",
    }
    return words_[c]


def _condition(e: Ending) -> str:
    """The ending as the condition of "Chaos wins if ..."."""
    if e.measure == "none":
        return "stalemate"
    if e.measure == "goal" and e.comparison == "any" and e.threshold == 1:
        return "goal is reached"
    if e.comparison == "total-over":
        thing = _shape_word(e.shape, plural=True) if e.measure == "pieces" else _row(e)
        if e.measure in ("area", "goal"):
            thing = e.measure
        return f"total {thing} > {e.threshold}"
    text = _subject(e)
    return text[0].lower() + text[1:]


def check_label(c: TurnCheck) -> str:
    """A turn check in words: "First 3-same-color-in-a-row wins (no diagonal)"."""
    orth = " (no diagonal)" if not c.diagonal else ""
    return f"First {c.k}-same-color-in-a-row {c.result}{orth}"


def label(e: Ending) -> str:
    """A readable label in the seed's words: "More pieces than Chaos wins", "Chaos wins
    if total circles > 9" (the old values keep their labels)."""
    value = STALEMATE_OF.get(e)
    if value is not None and e.when == "stalemate":
        return STALEMATE_LABELS[value]
    check = as_check(e)
    if check is not None:
        return check_label(check)
    if e.result in ("wins", "loses"):
        return f"{_subject(e)} {e.result}"
    if e.result == "draw":
        return f"{_subject(e)} draws"
    cond = _condition(e)
    heads = {
        "stalemate": "Stalemate if",
        "chaos-wins": "Chaos wins if",
        "all-win": "All players win if",
        "all-lose": "All players lose if",
    }
    return f"{heads[e.result]} {cond}"


def key(e: Ending) -> str:
    """A short stable text for an ending (a dropdown's value): its non-default fields."""
    return json.dumps(e.model_dump(mode="json", exclude_defaults=True), sort_keys=True)


def from_key(text: str) -> Ending:
    return Ending.model_validate(json.loads(text))


def _e(**kw) -> Ending:
    return Ending(**kw)


# What the factory offers: the seed's lists and the endings its named games use.
OFFERED: tuple[Ending, ...] = (
    # stalemate (the seed's stalemate dropdown and its "can extend" list)
    *WORDS.values(),
    _e(measure="area", comparison="least"),
    # BoS: each player's area against Chaos's (READINGS.md, BoS; issue 35)
    _e(measure="area", comparison="fewer-than-chaos"),
    _e(measure="area", comparison="more-than-chaos", result="loses"),
    _e(measure="in-a-row", comparison="most", result="loses"),
    _e(measure="in-a-row", comparison="least", result="wins"),
    _e(measure="in-a-row", k=2, comparison="most"),
    _e(measure="in-a-row", k=2, comparison="most", result="loses"),
    _e(measure="in-a-row", k=2, comparison="least"),
    _e(measure="in-a-row", k=2, comparison="least", result="loses"),
    _e(measure="pieces", comparison="least", result="loses"),
    _e(measure="pieces", comparison="least"),
    _e(measure="pieces", comparison="more-than-chaos"),
    _e(measure="pieces", comparison="fewer-than-chaos", result="loses"),
    _e(measure="pieces", shape="circle", comparison="most"),
    _e(
        measure="pieces", shape="circle", comparison="total-over", threshold=9, result="chaos-wins"
    ),  # fmt: skip
    _e(measure="in-a-row", k=3),
    _e(measure="in-a-row", k=3, comparison="last"),
    _e(measure="stuck", result="loses"),
    _e(measure="stuck", result="wins"),
    # after every move (the seed's turnCheck dropdown and its "can extend" list)
    *(check_word(TurnCheck(k=k, result=r)) for k in range(3, 7) for r in ("wins", "loses")),
    check_word(TurnCheck(k=3, diagonal=False)),
    check_word(TurnCheck(k=2, result="loses")),
    _e(measure="pieces", when="turn"),
    _e(measure="pieces", when="turn", result="loses"),
    _e(measure="in-a-row", k=3, when="turn", result="all-lose"),
    _e(measure="pieces", shape="pentagon", comparison="last-standing", when="turn"),
    _e(measure="goal", when="turn", result="stalemate"),
)


def offered(doc: RuleDoc | None = None, when: str | None = None) -> list[tuple[str, str]]:
    """[(key, label)] of the endings the factory offers (for ``doc``: only those it can
    have; ``when``: only those checked then). ``from_key`` reads a key back."""
    out = []
    for e in OFFERED:
        if when is not None and e.when != when:
            continue
        if doc is not None and _problems(doc, e):
            continue
        out.append((key(e), label(e)))
    return out


# -- validation and normal form ---------------------------------------------------------
def check_endings(doc: RuleDoc) -> list[tuple[str, str]]:
    errors = []
    for i, e in enumerate(doc.endings):
        errors += [(f"endings[{i}]{field}", message) for field, message in _problems(doc, e)]
    if doc.overachievers and doc.players != "4":
        errors.append(("overachievers", "'Overachiever(s) disqualified' is for 4 Player games"))
    elif doc.overachievers and doc.boards > 1:
        errors.append(("overachievers", "played on 1 board so far"))
    return errors


NEEDS_CHAOS = "needs a Chaos seat (players '1-vs-chaos', '2-vs-chaos' or '3-vs-chaos')"
NONE_RESULTS = ("draw", "all-win", "all-lose", "chaos-wins")


def _problems(doc: RuleDoc, e: Ending) -> list[tuple[str, str]]:
    """(".field", message) for each thing wrong with ``e`` in ``doc``."""
    out = []
    chaos = PLAYER_MODES[doc.players][1]
    m, c, r = e.measure, e.comparison, e.result
    if m == "none" and (c != "any" or e.when != "stalemate" or r not in NONE_RESULTS):
        why = "is only for the stalemate results draw, all-win, all-lose and chaos-wins"
        out.append((".measure", f"'none' {why}"))
    if c in STALEMATE_ONLY and e.when != "stalemate":
        out.append((".when", f"'{c}' is decided when nobody can move: when must be 'stalemate'"))
    if c in TURN_ONLY and e.when != "turn":
        out.append((".when", f"'{c}' is checked after every move: when must be 'turn'"))
    if c == "first" and (m != "in-a-row" or e.k is None or r not in ("wins", "loses")):
        why = "is the turn checks' word ('First k-same-color-in-a-row wins/loses')"
        out.append((".comparison", f"'first' {why}: for other endings use 'any'"))
    if c == "total-over" and r not in WHOLE_GAME:
        why = "decides the whole game: its result is one of"
        out.append((".result", f"'total-over' {why} {', '.join(WHOLE_GAME)}"))
    if r == "stalemate" and e.when != "turn":
        out.append((".result", "'stalemate' ends a game after a move: when must be 'turn'"))
    if e.shape is not None:
        if m != "pieces":
            out.append((".shape", "only with measure 'pieces'"))
        elif e.shape not in doc.shapes:
            out.append((".shape", f"this game's shapes are {', '.join(doc.shapes)}"))
    if m != "in-a-row" and (e.k is not None or not e.diagonal):
        out.append((".k", "k and diagonal are only for measure 'in-a-row'"))
    if m == "stuck" and (e.when != "stalemate" or c != "any" or r not in ("wins", "loses")):
        why = "(the seat that cannot move) is only for 'Stalemate wins' and 'Stalemate loses'"
        out.append((".measure", f"'stuck' {why}"))
    spaces = math.prod(doc.board.size) * doc.boards
    if c in THRESHOLD_USERS:
        if c != "total-over" and e.threshold < 1:
            out.append((".threshold", "at least 1"))
        elif e.threshold > spaces:
            out.append((".threshold", f"at most {spaces} (the spaces of this game)"))
    elif e.threshold != 1:
        out.append((".threshold", "only with 'any', 'last', 'last-standing' or 'total-over'"))
    if c in VS_CHAOS and chaos is None:
        out.append((".comparison", NEEDS_CHAOS))
    if r == "chaos-wins" and chaos is None:
        out.append((".result", NEEDS_CHAOS))
    several = doc.boards > 1 and as_check(e) is None
    if several and (e.when == "turn" or c in ("last", "last-standing")):
        out.append((".when", "endings after every move and 'last' are played on 1 board so far"))
    return out


def _order(e: Ending) -> tuple:
    return (
        e.when, e.measure, e.comparison, e.result, e.shape or "", e.k or 0, not e.diagonal,
        e.threshold,
    )  # fmt: skip


def normalise_endings(doc: RuleDoc) -> dict:
    """The fields normalisation changes: endings that are turn checks join
    ``turn_checks``; one that is a stalemate value becomes ``stalemate`` if that was the
    default; "Stalemate draws" (the default) is dropped; the rest sorted, once each. One
    rule has one spelling, so its fingerprint does too."""
    checks = list(doc.turn_checks)
    stalemate = doc.stalemate
    rest = []
    for e in doc.endings:
        check = as_check(e)
        if check is not None:
            checks.append(check)
            continue
        value = STALEMATE_OF.get(e)
        if value == "draw" or (value is not None and value == stalemate):
            continue
        if value is not None and stalemate == "draw":
            stalemate = value
            continue
        rest.append(e)
    return {
        "turn_checks": tuple(checks),
        "stalemate": stalemate,
        "endings": tuple(sorted(set(rest), key=_order)),
    }
