"""Notation of the general family (engine/README.md): placements as in the flat family
(``3,1,1``; ``4,1`` for a stack; shape and chosen colour first), a step as its two
positions joined by ``-`` (``1,1,1-2,2,1``), or by ``x`` when it captures
(``1,1,1x2,2,1``); a further jump of a chain is the same piece's next step."""

from ..errors import InvalidMoveText
from ..moves import is_number
from .moves import SPECIAL, Move


class Notation:
    """Mixed into GeneralGame: reads and writes positions and moves."""

    def pos_text(self, p: int, board: bool = True) -> str:
        """A position, with its board (``b2:``) where there are several (and ``board``)."""
        g = self.geometry
        if self.stacks:
            b, xy = divmod(p, self.layer)
            y, x = divmod(xy, g.X)
            text = f"{x + 1},{y + 1}"
        else:
            b, x, y, z = g.coords[p]
            text = f"{x + 1},{y + 1},{z + 1}"
        return f"b{b + 1}:{text}" if self.multi and board else text

    def space_text(self, space: int) -> str:
        b, x, y, z = self.geometry.coords[space]
        text = f"{x + 1},{y + 1},{z + 1}"
        return f"b{b + 1}:{text}" if self.multi else text

    # The flat family's name for the same thing (tools and views use both).
    target_text = pos_text

    def place_text(self, target: int, combo: int) -> str:
        words = []
        color, shape = divmod(combo, self.nshapes)
        if self.choose:
            words.append(self.color_names[color])
        if self.nshapes > 1:
            words.append(self.shape_names[shape])
        words.append(self.pos_text(target))
        return " ".join(words)

    def parse_move(self, text: str) -> Move:
        """Notation -> Move. Raises InvalidMoveText, quoting the text."""
        if not isinstance(text, str) or len(text) > 80:
            raise InvalidMoveText(f"{str(text)[:80]!r} is not a move")
        words = text.strip().lower().split()
        if not words:
            raise InvalidMoveText("an empty move")
        if len(words) == 1 and words[0] in SPECIAL:
            return SPECIAL[words[0]]
        last = words[-1]
        for sep in "-x":
            if sep in last:
                if len(words) > 1:
                    raise InvalidMoveText(f"{text!r}: a step names no shape or colour")
                origin, _, target = last.partition(sep)
                target, _, promote = target.partition("=")
                if promote and promote not in self.shape_names:
                    raise InvalidMoveText(f"{text!r}: {promote!r} is not a shape of this game")
                shape = self.shape_names.index(promote) if promote else -1
                board = origin.partition(":")[0] + ":" if ":" in origin else ""
                if ":" not in target:
                    target = board + target  # a step stays on its board
                if self.stacks and origin.count(",") == 2:  # x,y,z: a piece moving by stack
                    space = self._parse_space(text, origin)
                    return self.stack_move(space, self._parse_pos(text, target), sep == "x")
                return self.step_move(
                    self._parse_pos(text, origin), self._parse_pos(text, target), sep == "x", shape
                )
        return self.place_moves(self._parse_combo(text, words[:-1]))[self._parse_pos(text, last)]

    def _board_of(self, text: str, word: str) -> tuple[int, str]:
        """(0-based board, the rest of ``word``) for ``b2:3,1,1`` and the like."""
        if ":" not in word:
            return 0, word
        prefix, word = word.split(":", 1)
        if not (prefix.startswith("b") and is_number(prefix[1:])):
            raise InvalidMoveText(f"{text!r}: a board is written b1:, b2: or b3:")
        board = int(prefix[1:]) - 1
        if not 0 <= board < self.geometry.boards:
            raise InvalidMoveText(f"{text!r}: this game has {self.geometry.boards} board(s)")
        return board, word

    def _parse_pos(self, text: str, word: str) -> int:
        g = self.geometry
        board, word = self._board_of(text, word)
        parts = word.split(",")
        want = 2 if self.stacks else 3
        if len(parts) != want or not all(is_number(p) for p in parts):
            shape = "x,y (a stack)" if self.stacks else "x,y,z"
            raise InvalidMoveText(f"{text!r}: a position is written {shape}")
        x, y, *z = (int(p) - 1 for p in parts)
        if not g.inside(x, y, z[0] if z else 0):
            raise InvalidMoveText(f"{text!r} is off the {'x'.join(map(str, g.size))} board")
        if self.stacks:
            return board * self.layer + x + g.X * y
        return g.index(board, x, y, z[0])

    def _parse_space(self, text: str, word: str) -> int:
        g = self.geometry
        board, word = self._board_of(text, word)
        parts = word.split(",")
        if not all(is_number(p) for p in parts):
            raise InvalidMoveText(f"{text!r}: a piece in a stack is written x,y,z")
        x, y, z = (int(p) - 1 for p in parts)
        if not g.inside(x, y, z):
            raise InvalidMoveText(f"{text!r} is off the {'x'.join(map(str, g.size))} board")
        return g.index(board, x, y, z)

    def _parse_combo(self, text: str, words: list[str]) -> int:
        color, shape = 0, 0
        for w in words:
            if w in self.color_names and self.choose:
                color = self.color_names.index(w)
            elif w in self.shape_names:
                shape = self.shape_names.index(w)
            else:
                raise InvalidMoveText(f"{text!r}: {w!r} is not a color or shape to choose here")
        if self.choose and not any(w in self.color_names for w in words):
            raise InvalidMoveText(f"{text!r}: name the color ({', '.join(self.color_names)})")
        if self.nshapes > 1 and not any(w in self.shape_names for w in words):
            raise InvalidMoveText(f"{text!r}: name the shape ({', '.join(self.shape_names)})")
        return color * self.nshapes + shape if self.choose else shape
