"""Game end as data: per-seat results and ranks, the reason, the winning line(s)."""

WIN, DRAW, LOSS = "win", "draw", "loss"
_ORDER = {WIN: 0, DRAW: 1, LOSS: 2}


class Outcome:
    """Immutable. ``detail`` (one plain-English sentence) and ``lines`` (each a tuple of
    1-based (board, x, y, z)) may be given as ``make``, a function returning both, called
    when one is first read: a random playout ends thousands of games a second and reads
    neither."""

    __slots__ = ("results", "reason", "_detail", "_lines", "_make")

    def __init__(self, results, reason, detail="", lines=(), make=None):
        object.__setattr__(self, "results", tuple(results))  # "win" | "draw" | "loss"
        # "victory" | "draw" | "stalemate" | "agreed-draw" | "boards" | ...
        object.__setattr__(self, "reason", reason)
        object.__setattr__(self, "_detail", detail)
        object.__setattr__(self, "_lines", tuple(lines))
        object.__setattr__(self, "_make", make)

    def __setattr__(self, name, value):
        raise AttributeError("Outcome is immutable")

    def _resolve(self) -> None:
        detail, lines = self._make()
        object.__setattr__(self, "_detail", detail)
        object.__setattr__(self, "_lines", tuple(lines))
        object.__setattr__(self, "_make", None)

    @property
    def detail(self) -> str:
        if self._make is not None:
            self._resolve()
        return self._detail

    @property
    def lines(self) -> tuple:
        if self._make is not None:
            self._resolve()
        return self._lines

    def _key(self):
        return (self.results, self.reason, self.detail, self.lines)

    def __eq__(self, other) -> bool:
        if not isinstance(other, Outcome):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

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
