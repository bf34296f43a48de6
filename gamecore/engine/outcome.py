"""Game end as data: per-seat results and ranks, the reason, the winning line(s)."""

WIN, DRAW, LOSS = "win", "draw", "loss"
_ORDER = {WIN: 0, DRAW: 1, LOSS: 2}


def board_results(results: list[str]) -> list[str]:
    """One board of several, decided: a board every seat "won" (a tie for most pieces,
    say) is won by nobody: a draw on that board (READINGS.md: 3Blotto13, "a tied board
    goes to nobody"). Counting it for everyone changed no game's result (each seat's
    count rose by one) but the board's label and the count said it was won."""
    if len(results) > 1 and all(r == WIN for r in results):
        return [DRAW] * len(results)
    return results


def boards_detail(decided) -> str:
    """The end of a game of several boards in words: how many each seat won, and the
    boards nobody won. ("Seat N" is the engine's name, pages put the seat's own.)"""
    n = len(decided[0][0])
    wins = [sum(d[0][s] == WIN for d in decided) for s in range(n)]
    text = "Boards won: " + ", ".join(f"Seat {s + 1}: {w}" for s, w in enumerate(wins))
    nobody = sum(all(r != WIN for r in d[0]) for d in decided)
    if nobody:
        text += f"; {nobody} won by nobody"
    return text


class Outcome(tuple):
    """Immutable (a tuple underneath). ``detail`` (one plain-English sentence) and
    ``lines`` (each a tuple of 1-based (board, x, y, z)) may be given as ``make``, a
    function returning both, called when one is first read: a random playout ends
    thousands of games a second and reads neither."""

    __slots__ = ()

    def __new__(cls, results, reason, detail="", lines=(), make=None):
        # results: per seat "win" | "draw" | "loss"; reason: "victory" | "draw" |
        # "stalemate" | "agreed-draw" | "boards" | ...; the last item is the lazy part.
        lazy = [make, detail, lines] if make is not None else [None, detail, tuple(lines)]
        return tuple.__new__(cls, (tuple(results), reason, lazy))

    @property
    def results(self) -> tuple[str, ...]:
        return self[0]

    @property
    def reason(self) -> str:
        return self[1]

    def _made(self) -> list:
        lazy = self[2]
        if lazy[0] is not None:
            detail, lines = lazy[0]()
            lazy[:] = [None, detail, tuple(lines)]
        return lazy

    @property
    def detail(self) -> str:
        return self._made()[1]

    @property
    def lines(self) -> tuple:
        return self._made()[2]

    def _key(self):
        return (self.results, self.reason, self.detail, self.lines)

    def __eq__(self, other) -> bool:
        if not isinstance(other, Outcome):
            return NotImplemented
        return self._key() == other._key()

    def __ne__(self, other) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self._key())

    def __reduce__(self):
        return (Outcome, (self.results, self.reason, self.detail, self.lines))

    def __repr__(self) -> str:
        return (
            f"Outcome(results={self.results!r}, reason={self.reason!r}, "
            f"detail={self.detail!r}, lines={self.lines!r})"
        )

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(i for i, r in enumerate(self.results) if r == WIN)

    @property
    def ranks(self) -> tuple[int, ...]:
        """1 is best; seats with the same result share a rank."""
        return tuple(
            1 + sum(_ORDER[o] < _ORDER[r] for o in set(self.results)) for r in self.results
        )

    def to_dict(self) -> dict:
        return {
            "results": list(self.results),
            "ranks": list(self.ranks),
            "winners": list(self.winners),
            "reason": self.reason,
            "detail": self.detail,
            "lines": [[list(c) for c in line] for line in self.lines],
        }
