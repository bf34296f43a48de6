"""Transposition keys from public information: the moves played since the search root.

Two move orders that reach the same position play the same set of (seat, move) pairs;
on stacks boards a piece's resting height is the number of pieces played on that stack
before it, so each pair also carries how many earlier moves of the path share its target
(for special moves: how many earlier ones of that kind the seat made). A key is the XOR
of one random 64-bit number per such triple (Zobrist hashing), plus what a set of moves
cannot tell: the seats awaited, how many passes in a row end the path and whether a draw
offer was just declined. Keys compare positions below one root, which is all a search
needs.

That a position is its pieces holds in the flat family only. Elsewhere the order of the
recent moves matters too (nested boards send the next player where the last move
points; Kyū looks at the last two destinations of each team; "no sending back" at each
seat's last move), so there the last ``order`` moves (2 x seats) join the key in order.
If the engine grows a public ``state.key()``, it is used instead.
"""

import random

# A fixed seed: keys must not depend on a bot's own random stream.
_ZOBRIST_SEED = 0x5EED_0F_7AB1E


class PathKey:
    """The key of the position at the end of the current search path (push/pop moves)."""

    def __init__(self, order: int = 0):
        self.order = order  # how many of the last moves count in their order
        self._numbers: dict = {}
        self._rng = random.Random(_ZOBRIST_SEED)
        self._counts: dict = {}  # target (or (kind, seat) for specials) -> moves on the path
        self._hash = 0
        self._path: list = []  # (seat, move) pairs, for the tail facts

    def push(self, seat: int, move) -> None:
        slot = move.target if move.target >= 0 else (move.kind, seat)
        seen = self._counts.get(slot, 0)
        self._counts[slot] = seen + 1
        self._hash ^= self._number((seat, move, seen))
        self._path.append(move)

    def pop(self, seat: int, move) -> None:
        slot = move.target if move.target >= 0 else (move.kind, seat)
        seen = self._counts[slot] - 1
        self._counts[slot] = seen
        self._hash ^= self._number((seat, move, seen))
        self._path.pop()

    def key(self, state, seats: tuple):
        own = getattr(state, "key", None)
        if own is not None:
            return own()
        recent = tuple(self._path[-self.order :]) if self.order else ()
        return (self._hash, seats, self._tail(), recent)

    def _tail(self) -> tuple:
        passes = 0
        for move in reversed(self._path):
            if str(move) != "pass":
                break
            passes += 1
        last = str(self._path[-1]) if self._path else ""
        return passes, last == "decline"

    def _number(self, triple) -> int:
        number = self._numbers.get(triple)
        if number is None:
            number = self._numbers[triple] = self._rng.getrandbits(64)
        return number
