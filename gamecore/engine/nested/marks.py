"""What a cell or a block holds besides a team (0, 1, ...): shared by the state, its move
filters and the view."""

EMPTY, OBSTACLE, PROTECTED = -1, -2, -3  # a cell
OPEN, TIE = -1, -2  # a block
