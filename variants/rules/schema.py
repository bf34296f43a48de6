"""The typed rule document (pydantic v2). Field-level limits live here; rules that
relate several fields live in ``validation.py``.

Every option of the factory seed that flat games need is a field. Families that come
later (movement and captures, phases, cloaking, nested boards) add fields with defaults;
because the canonical form leaves defaults out, adding a field never changes the
fingerprint of a game saved before it.
"""

from pydantic import BaseModel, ConfigDict, Field

from .vocabulary import (
    BoardType,
    CheckResult,
    Color,
    ColorMode,
    PlayerMode,
    Shape,
    Stalemate,
    TimeoutConsequence,
)

Coord = tuple[int, int, int]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TurnCheck(Strict):
    """ "First k-same-color-in-a-row wins/loses", checked after every placement."""

    k: int = Field(3, ge=2, le=6)
    result: CheckResult = "wins"
    diagonal: bool = True


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
    timeout: TimeoutConsequence = "loss"
