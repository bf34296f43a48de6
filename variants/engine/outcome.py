"""Game end as data: per-seat results and ranks, the reason, the winning line(s)."""

from dataclasses import dataclass

WIN, DRAW, LOSS = "win", "draw", "loss"
_ORDER = {WIN: 0, DRAW: 1, LOSS: 2}


@dataclass(frozen=True)
class Outcome:
    results: tuple[str, ...]  # per seat: "win" | "draw" | "loss"
    reason: str  # "victory" | "draw" | "stalemate" | "agreed-draw" | "boards"
    detail: str  # one plain-English sentence
    lines: tuple[tuple[tuple[int, int, int, int], ...], ...] = ()  # (board, x, y, z), 1-based

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
