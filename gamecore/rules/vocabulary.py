"""The words a rule document is written in: colours, shapes, player modes, options.

Kept apart from the schema so the engine, the factory form and the summary can all
name the same things in the same order.
"""

from typing import Literal

# Seat colours in seat order (the seed's reserves name them in this order).
COLORS = ("black", "white", "pink", "yellow")
# Shapes in ascending rank (pentagon > star > cross > x > triangle > circle).
SHAPES = ("circle", "triangle", "x", "cross", "star", "pentagon")

Color = Literal["black", "white", "pink", "yellow"]
Shape = Literal["circle", "triangle", "x", "cross", "star", "pentagon"]

PlayerMode = Literal["2", "3", "4", "partners", "2-vs-chaos", "3-vs-chaos", "1-vs-chaos"]
ColorMode = Literal["assigned", "shared", "partners-share", "choose"]
BoardType = Literal["hash", "squares", "stacks", "nested"]
CheckResult = Literal["wins", "loses"]
Stalemate = Literal[
    "draw",
    "all-win",
    "all-lose",
    "most-in-a-row-wins",
    "least-in-a-row-loses",
    "most-pieces-wins",
    "most-area-wins",
]
TimeoutConsequence = Literal["loss", "random-move", "skip"]

# players -> (number of seats, index of the Chaos seat or None, team of each seat)
PLAYER_MODES: dict[str, tuple[int, int | None, tuple[int, ...]]] = {
    "2": (2, None, (0, 1)),
    "3": (3, None, (0, 1, 2)),
    "4": (4, None, (0, 1, 2, 3)),
    "partners": (4, None, (0, 1, 0, 1)),
    "2-vs-chaos": (3, 2, (0, 1, 2)),
    "3-vs-chaos": (4, 3, (0, 1, 2, 3)),
    "1-vs-chaos": (2, 1, (0, 1)),  # the seed's extension: one player, then Chaos
}

# Seats a person or a bot takes, by player mode (Chaos, when there is one, is extra).
PLAYER_SEATS = {mode: n - (chaos is not None) for mode, (n, chaos, _t) in PLAYER_MODES.items()}

PLAYER_LABELS = {
    "2": "2 Player",
    "3": "3 Player",
    "4": "4 Player",
    "partners": "Partners",
    "2-vs-chaos": "2 vs Chaos",
    "3-vs-chaos": "3 vs Chaos",
    "1-vs-chaos": "1 vs Chaos",
}
COLOR_LABELS = {
    "assigned": "Assigned colors",
    "shared": "Shared color",
    "partners-share": "Partners share color",
    "choose": "Players choose color",
}
STALEMATE_LABELS = {
    "draw": "Stalemate draws",
    "all-win": "All players win if stalemate",
    "all-lose": "All players lose if stalemate",
    "most-in-a-row-wins": "Most same-color-in-a-row wins",
    "least-in-a-row-loses": "Least same-color-in-a-row loses",
    "most-pieces-wins": "Most pieces wins",
    "most-area-wins": "Most area wins",
}
BOARD_LABELS = {"hash": "Hash", "squares": "Squares", "stacks": "Stacks", "nested": "Nested"}

# Nested boards (TacticToy): team symbols and colours, in team order.
TEAM_SYMBOLS = ("X", "O", "Δ", "▢")
TEAM_COLORS = ("blue", "red", "green", "purple")
Routing = Literal["tactical", "map", "hypermap", "open"]
# Strategic: how one level of the next block is found (a routed level; see rules/nested.py).
LevelRouting = Literal["tactical", "map", "hypermap"]
WinCondition = Literal["highest-sign", "majority"]
TurnOrder = Literal["sequential", "simultaneous"]
CrewOrder = Literal["in-turn", "flexible"]
TIMEOUT_LABELS = {
    "loss": "Timeout loses",
    "random-move": "Timeout plays a random move",
    "skip": "Timeout skips the turn",
}

# Moving pieces (the general family): the seed's move, power, condition and result
# dropdowns, per shape. Only the values the engine plays are words here; the rest of the
# seed's lists join as they are built (a new word changes no saved fingerprint).
Movement = Literal[
    "stationary",
    "adjacent",
    "adjacent-orthogonal",
    "adjacent-diagonal",
    "orthogonal",
    "diagonal",
    "linear",
    "knight",
    "knight-3d",
    "linear-or-knight",
    "adjacent-or-knight",
    "forward-orthogonal",
    "forward-diagonal",
    "adjacent-no-back-side",
    "adjacent-no-back",
    "orthogonal-no-back",
    "pawn-forward-center",
    "orthogonal-by-stack",
    "orthogonal-by-full-stack",
]
# Moves that carry the pieces above the mover (stacks boards); by full stack only from
# the bottom of a stack, so the whole stack.
BY_STACK = ("orthogonal-by-stack", "orthogonal-by-full-stack")
# Moves that never go away from the seat's own goal: reaching it, the piece becomes a
# shape that can move backwards (the mover chooses which).
FORWARD_ONLY = (
    "forward-orthogonal",
    "forward-diagonal",
    "adjacent-no-back-side",
    "adjacent-no-back",
    "orthogonal-no-back",
    "pawn-forward-center",
)
Power = Literal["none", "can-capture", "must-capture"]
Condition = Literal[
    "cover",
    "cover-by-rank",
    "diagonal-en-passant",
    "triagonal",
    "jump",
    "chain-jump",
    "chain-jump-back",
    "surround-line",
    "surround-orthogonal",
    "approach",
    "adjacent",
]
# Conditions whose captives are taken as a consequence of where a piece comes to rest
# (placed or moved), not by covering or jumping them.
EFFECT_CONDITIONS = ("surround-line", "surround-orthogonal", "approach", "adjacent")
CaptureResult = Literal["remove", "convert", "reincarnate", "reincarnate-x2", "paralyse"]
# Conditions whose captive stands where the captor lands (en passant aside).
COVERS = ("cover", "cover-by-rank", "diagonal-en-passant", "triagonal")
JUMPS = ("jump", "chain-jump", "chain-jump-back")
CHAINS = ("chain-jump", "chain-jump-back")
MOVEMENT_LABELS = {
    "stationary": "Stationary",
    "adjacent": "Moves adjacent",
    "adjacent-orthogonal": "Moves adj orthogonal",
    "adjacent-diagonal": "Moves adj diagonal",
    "orthogonal": "Moves orthogonal",
    "diagonal": "Moves diagonal",
    "linear": "Moves linear",
    "knight": "Knight move 2x1x0",
    "knight-3d": "Knight move 2x1x1",
    "linear-or-knight": "Moves linear or knight",
    "adjacent-or-knight": "Moves adjacent or knight",
    "forward-orthogonal": "Moves forward orth",
    "forward-diagonal": "Moves forward diag",
    "adjacent-no-back-side": "Moves adjacent (no back/side)",
    "adjacent-no-back": "Moves adjacent (no back)",
    "orthogonal-no-back": "Moves orth (no back)",
    "pawn-forward-center": "Pawn move forward/center",
    "orthogonal-by-stack": "Moves orth by stack",
    "orthogonal-by-full-stack": "Moves orth by full stack",
}
POWER_LABELS = {"none": "No power", "can-capture": "Can capture", "must-capture": "Must capture"}
CONDITION_LABELS = {
    "cover": "Cover",
    "cover-by-rank": "Cover by rank",
    "diagonal-en-passant": "Move on diag + en passant",
    "triagonal": "Move on triagonal",
    "jump": "Jump",
    "chain-jump": "Chain Jump",
    "chain-jump-back": "Chain Jump (+ back)",
    "surround-line": "Surround line",
    "surround-orthogonal": "Surround orthogonal",
    "approach": "Approach",
    "adjacent": "Adjacent",
}
RESULT_LABELS = {
    "remove": "Removes captive(s)",
    "convert": "Converts captive(s)",
    "reincarnate": "Reincarnates captive(s)",
    "reincarnate-x2": "Reincarnates captive(s) x2",
    "paralyse": "Paralyzes captive(s)",
}

MAX_DIMENSION = 19
# A stack may be taller in a rule document than the factory's selects offer: release 1.7's
# 3P poker games are "8x1x26 stacks" (a pot with room for every chip and card); READINGS.md.
MAX_STACK_HEIGHT = 26
MAX_SPACES = 512  # product of the three dimensions, per board


def seat_colors(players: str, colors: str) -> tuple[tuple[int, ...], int]:
    """(colour index of each seat, number of colours) for a player and colour mode.

    With "choose" each seat may place any colour; its entry is its default colour only.
    """
    seats = PLAYER_MODES[players][0]
    if colors == "shared":
        return (0,) * seats, 1
    if colors == "partners-share":
        return tuple(i % 2 for i in range(seats)), 2
    return tuple(range(seats)), seats


# Endings (rules/endings.py): measure x comparison x result, checked after every move
# ("turn") or when nobody can move ("stalemate"). The turn checks and the stalemate
# values above are words of this vocabulary (rules/endings.py maps them).
EndWhen = Literal["turn", "stalemate"]
EndMeasure = Literal["none", "pieces", "in-a-row", "area", "goal", "stuck"]
EndComparison = Literal[
    "any",
    "first",
    "last",
    "last-standing",
    "most",
    "least",
    "more-than-chaos",
    "fewer-than-chaos",
    "total-over",
]
EndResult = Literal["wins", "loses", "draw", "stalemate", "chaos-wins", "all-win", "all-lose"]

# Phases (issue 19; rules/phases.py). Each phase of a game: its turn order, and the fold
# applied at its end (never at the last phase's). The fold words are the seed's "Less-than-
# most committed pieces folds" and a few of its kind; a folded seat cannot move for the
# rest of the game but may still win. "Committed" pieces are a seat's pieces on spaces it
# may not leave (sticky, exclusive to others, exit-locked to it).
PhaseOrder = Literal["sequential", "simultaneous", "single"]
Fold = Literal["none", "less-than-most-committed", "uncommitted", "less-than-most-pieces"]
Cloaking = Literal["none", "hides", "obscures"]
ORDER_LABELS = {"sequential": "Sequential", "simultaneous": "Simultaneous", "single": "Single"}
FOLD_LABELS = {
    "none": "No fold",
    "less-than-most-committed": "Less-than-most committed pieces folds",
    "uncommitted": "No committed pieces folds",
    "less-than-most-pieces": "Less-than-most pieces folds",
}
CLOAKING_LABELS = {
    "none": "No cloaking",
    "hides": "Cloaking hides",
    "obscures": "Cloaking obscures",
}
MAX_PHASES = 6
