"""The typed rule document (pydantic v2). Field-level limits live here; rules that
relate several fields live in ``validation.py``.

Every option of the factory seed that flat games need is a field. Families that come
later (movement and captures, phases, cloaking, nested boards) add fields with defaults;
because the canonical form leaves defaults out, adding a field never changes the
fingerprint of a game saved before it.
"""

from pydantic import BaseModel, ConfigDict, Field, field_validator

from .vocabulary import (
    BoardType,
    CaptureResult,
    CheckResult,
    Cloaking,
    Color,
    ColorMode,
    Condition,
    CrewOrder,
    EndComparison,
    EndMeasure,
    EndResult,
    EndSame,
    EndWhen,
    Fold,
    LevelRouting,
    Movement,
    PhaseOrder,
    PlayerMode,
    Power,
    Routing,
    Shape,
    Stalemate,
    TimeoutConsequence,
    TurnOrder,
    WinCondition,
)

Coord = tuple[int, int, int]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TurnCheck(Strict):
    """ "First k-same-color-in-a-row wins/loses", checked after every placement."""

    k: int = Field(3, ge=2, le=6)
    result: CheckResult = "wins"
    diagonal: bool = True


class Ending(Strict):
    """One ending of the typed vocabulary (rules/endings.py says what each word means):
    a measure per team (pieces, pieces of ``shape``, lines of ``k`` in a row or the
    longest line, of one colour, one shape or both; area, pieces on the goal, being the
    seat that cannot move, adjacent pieces of mixed shapes), compared
    (any team reaching ``threshold``, first, last, most, least, more or fewer than Chaos,
    the total of all teams over ``threshold``), with a result, checked after every move
    (``when="turn"``) or at the last phase's stalemate."""

    measure: EndMeasure = "pieces"
    comparison: EndComparison = "any"
    result: EndResult = "wins"
    when: EndWhen = "stalemate"
    shape: Shape | None = None  # pieces: only pieces of this shape
    k: int | None = Field(None, ge=2, le=6)  # in-a-row: lines of k; None: the longest line
    diagonal: bool = True  # in-a-row: lines may run diagonally
    same: EndSame = "color"  # in-a-row: a line's pieces share a colour, a shape, or both
    posts: bool = False  # in-a-row on stacks: lines run up a stack only (the release's posts)
    threshold: int = Field(1, ge=0, le=1536)  # any/last: at least; total-over: more than


class BoardSpec(Strict):
    type: BoardType = "hash"
    size: Coord = (3, 3, 1)  # x, y, z; each 1..min(19, 512 // product of the other two)


class Space(Strict):
    board: int = Field(1, ge=1, le=3)
    at: Coord


class InitialPiece(Strict):
    board: int = Field(1, ge=1, le=3)
    at: Coord
    color: Color
    shape: Shape = "circle"
    # Scenery (issue 35, 3P-9X-HideSeek's ring): a set-up piece that belongs to nobody,
    # whatever its colour: it moves for no seat and counts for no team, but can be taken.
    nobody: bool = False


class Dealt(Strict):
    """A dealt marker (release 1.7): at a match's start the space takes the next item of
    the deck; ``seat`` (1-based) makes it that seat's piece in its colour, None common."""

    board: int = Field(1, ge=1, le=3)
    at: Coord
    seat: int | None = Field(None, ge=1, le=4)


class ShapeRules(Strict):
    """How pieces of one shape move and capture (the seed's per-shape dropdowns).

    The defaults are a placement-only piece: it never moves and never captures. Condition
    and result mean something only with a power; validation refuses them without one."""

    move: Movement = "stationary"
    power: Power = "none"
    condition: Condition = "cover"
    result: CaptureResult = "remove"


class SpaceLock(Strict):
    """Seats (1-based) that may not enter and/or may not leave a space; placing a piece
    there is entering it. Pieces may still move over and through it."""

    board: int = Field(1, ge=1, le=3)
    at: Coord
    seats: tuple[int, ...] = Field(..., min_length=1, max_length=4)
    entry: bool = True
    exit: bool = True


class Exclusive(Strict):
    """A space only the given seats (1-based) may enter or leave."""

    board: int = Field(1, ge=1, le=3)
    at: Coord
    seats: tuple[int, ...] = Field(..., min_length=1, max_length=4)


class NestedSpec(Strict):
    """Boards nested in boards (TacticToy, Ultimate, Strategic): seeds 000-002.

    The ground grid has side S**N in each of D dimensions; blocks of S**D cells nest N
    levels deep. A flat TacticToy board is depth 1.
    """

    side: int = Field(3, ge=2, le=16)  # S
    win_length: int | None = Field(None, ge=2, le=16)  # L; None (normalised away) = S
    depth: int = Field(2, ge=1, le=4)  # N
    dimensions: int = Field(2, ge=2, le=4)  # D
    # Where a move sends the next player: "tactical" (a cell's place in its block names
    # the next block, at every level), Strategic's "map"/"hypermap" (numbers in
    # route_map), or "open" (Ultimate's Open: any incomplete block).
    routing: Routing = "tactical"
    # Strategic's "any combination" of its rule sets: one entry per routed level (the
    # next block's position at level 1, 2, ..., N-1). None: ``routing`` at level 1 and
    # tactical below it (the three named rule sets).
    level_routing: tuple[LevelRouting, ...] | None = Field(None, min_length=1, max_length=3)
    route_map: tuple[int, ...] | None = None
    lock_captured: bool = False  # a won block's empty cells become protected (%)
    kyu: bool = False
    win_condition: WinCondition = "highest-sign"
    draws_count_for_all: bool = False  # Strategic: a drawn block counts as every team's
    free_when_decided: bool = False  # Strategic limit: sent to a won/drawn block -> free
    no_send_back: bool = False  # Strategic limit: not back to the next player's last block
    symmetric_obstacles: bool = False
    random_obstacles: int = Field(0, ge=0, le=9)
    scouts: int = Field(0, ge=0, le=9)
    turn_order: TurnOrder = "sequential"
    crew_order: CrewOrder = "in-turn"
    inverted: bool = False  # Ultimate: winners and losers swapped
    checked: bool = False  # Ultimate: moves into check are invalid; no valid move = checkmate
    quick: bool = False  # Ultimate: capturing one top-level block wins


class Phase(Strict):
    """One phase of a game (the seed's 1 to 6 phases; rules/phases.py, engine/general).
    Stalemate ends a phase and starts the next; the last phase's stalemate ends the game
    by the stalemate rule. Seats are 1-based (Chaos is a seat)."""

    order: PhaseOrder = "sequential"  # "single": one simultaneous round, then the phase ends
    allow_pass: bool = False
    placement_only: bool = False  # "Placement only": every move is from reserves
    locked_seats: tuple[int, ...] = Field((), max_length=4)  # may not move this phase
    locked: tuple[Space, ...] = ()  # locked for entry and exit to every seat this phase
    cloaked: tuple[Space, ...] = ()  # stored here; applied by the cloaking issue (20)
    fold: Fold = "none"  # applied at the end of this phase (refused on the last)


class StoryLabel(Strict):
    """A name a game's story gives one space ("Hunt stag")."""

    at: Coord
    label: str = Field(..., min_length=1, max_length=40)


class StoryOutcome(Strict):
    """One row of a dilemma's outcome table, in the game's own words."""

    when: str = Field(..., min_length=1, max_length=80)
    then: str = Field(..., min_length=1, max_length=160)


class Story(Strict):
    """How a game tells itself to a person (issue 38): names for its shapes, spaces and
    phases, a short "how to play" and an outcome table. Words only: not part of the
    canonical form, so writing or changing a story never changes a fingerprint."""

    how_to_play: str = Field("", max_length=600)
    shapes: dict[Shape, str] = Field({}, max_length=6)
    spaces: tuple[StoryLabel, ...] = Field((), max_length=24)
    phases: tuple[str, ...] = Field((), max_length=6)
    outcomes: tuple[StoryOutcome, ...] = Field((), max_length=12)

    @field_validator("shapes")
    @classmethod
    def _short_names(cls, v):
        for name in v.values():
            if not 1 <= len(name) <= 24:
                raise ValueError("a shape's name is 1 to 24 characters")
        return v

    @field_validator("phases")
    @classmethod
    def _short_phases(cls, v):
        for name in v:
            if not 1 <= len(name) <= 40:
                raise ValueError("a phase's name is 1 to 40 characters")
        return v


class RuleDoc(Strict):
    name: str = Field(..., min_length=1, max_length=64)
    players: PlayerMode = "2"
    colors: ColorMode = "assigned"
    shapes: tuple[Shape, ...] = Field(("circle",), min_length=1, max_length=6)
    pieces_per_turn: int = Field(1, ge=1, le=2)
    boards: int = Field(1, ge=1, le=3)
    board: BoardSpec = BoardSpec()
    # colour -> shape -> count. Left out, it is filled in by validation (see there).
    reserves: dict[Color, dict[Shape, int]] | None = None
    initial_pieces: tuple[InitialPiece, ...] = ()
    locked: tuple[Space, ...] = ()
    turn_checks: tuple[TurnCheck, ...] = (TurnCheck(),)
    stalemate: Stalemate = "draw"
    allow_pass: bool = False
    agree_draw: bool = False
    seconds_per_turn: int | None = Field(None, ge=5, le=86400)
    # Seed 001's turn time, any value in milliseconds (5,000-60,000). A whole number of
    # seconds is normalised to ``seconds_per_turn``, so a document that could say it in
    # seconds keeps one form and its fingerprint; the two may not both be given.
    turn_ms: int | None = Field(None, ge=5000, le=60000)
    timeout: TimeoutConsequence = "loss"
    nested: NestedSpec | None = None  # set (or defaulted) when board.type is "nested"
    # Moving pieces (the general family). All-default entries are dropped by validation,
    # so a document that says nothing here keeps its fingerprint.
    shape_rules: dict[Shape, ShapeRules] = {}
    sticky: tuple[Space, ...] = ()  # no piece may leave these spaces
    exclusive: tuple[Exclusive, ...] = ()
    space_locks: tuple[SpaceLock, ...] = ()
    # Endings besides turn_checks and stalemate (rules/endings.py); normalised: sorted,
    # and words that are a turn check or a stalemate value are moved there.
    endings: tuple[Ending, ...] = Field((), max_length=12)
    overachievers: bool = False  # "Overachiever(s) disqualified" (4 Player games)
    # Phases and cloaking (issue 19). () is one phase: doc.allow_pass, sequential,
    # movement allowed; a single phase saying only that is normalised to ().
    phases: tuple[Phase, ...] = Field((), max_length=6)
    cloaking: Cloaking = "none"  # stored; the cloaking issue (20) applies it
    # Decks and dealt pieces (release 1.7, rules/decks.py): the deck's notation and the
    # set-up spaces it is dealt into. Empty by default, so older fingerprints stand.
    deck: str = Field("", max_length=2000)
    dealt: tuple[Dealt, ...] = Field((), max_length=512)
    # Words for people only; canonical() leaves it out (see Story).
    story: Story | None = None
