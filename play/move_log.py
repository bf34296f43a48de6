"""A match's move log, wherever it is kept.

Two representations (DESIGN §6, issue 36):
- **rows**: one ``Move`` row a ply. Live matches append a row a move (two processes
  share the log, a unique (match, ply) index keeps it gap-free).
- **packed**: a game recorded away from the live path (a tournament's, written once
  when it is over) keeps its whole log in ``Match.move_log``, one JSON text: no row a
  move (a tournament game's ~20 rows and their index entries were the largest part of
  writing it). Each entry is ``[seat, notation, think ms]``, with a fourth item, the
  kind, for a row that is not a move (a timer's row in an own bot's game). Every packed
  row was played by the server for the seat (``auto``) and made when the match ended.

Every reader of a match's moves goes through this module (replay, the API, the
stats' think times, studying), so both representations read the same.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from .models import Match, Move

MOVE = str(Move.Kind.MOVE)
_KINDS = {str(k) for k in Move.Kind}


class LogRow(NamedTuple):
    """One row of a log, as ``Move`` has it (the fields its readers use)."""

    ply: int
    seat: int
    kind: str
    notation: str
    auto: bool
    think_ms: int


def pack(moves: Iterable[Sequence]) -> str:
    """The packed text of ``moves``: PlayedMoves or (seat, notation, think ms[, kind])."""
    if type(moves) is list and all(type(m) is tuple and len(m) == 3 for m in moves):
        # A bot game's (seat, notation, think ms) tuples: JSON writes a tuple as the list
        # below would be written (the same text), without a list made a move.
        return json.dumps(moves, separators=(",", ":"))
    entries = []
    for m in moves:
        kind = str(m[3]) if len(m) > 3 else MOVE
        entry = [m[0], m[1], m[2]]
        if kind != MOVE:
            entry.append(kind)
        entries.append(entry)
    return json.dumps(entries, separators=(",", ":"))


def unpack(text: str) -> list[LogRow]:
    """The rows of a packed log (a log written by ``pack``: this server's own text)."""
    rows = []
    for ply, entry in enumerate(json.loads(text), 1):
        kind = entry[3] if len(entry) > 3 else MOVE
        if kind not in _KINDS:
            raise ValueError(f"ply {ply}: unknown kind {kind!r}")
        rows.append(LogRow(ply, int(entry[0]), kind, str(entry[1]), True, int(entry[2])))
    return rows


def think_totals(moves: Sequence[Sequence], seats: int) -> list[tuple[int, int]]:
    """Per seat, (moves made, their think ms summed): what the stats' think times read
    of a packed log without unpacking it (timer rows are not moves and do not count)."""
    totals = [[0, 0] for _ in range(seats)]
    if type(moves) is list and all(type(m) is tuple and len(m) == 3 for m in moves):
        for seat, _, ms in moves:  # a bot game's moves: no timer rows (as below, faster)
            if 0 <= seat < seats:
                total = totals[seat]
                total[0] += 1
                total[1] += ms
        return [(n, ms) for n, ms in totals]
    for m in moves:
        if (str(m[3]) if len(m) > 3 else MOVE) == MOVE and 0 <= m[0] < seats:
            totals[m[0]][0] += 1
            totals[m[0]][1] += m[2]
    return [(n, ms) for n, ms in totals]


def packed_text(match_id: int) -> str | None:
    return Match.objects.filter(pk=match_id).values_list("move_log", flat=True).first()


def rows_of(match: Match, upto: int | None = None) -> list[LogRow]:
    """A match's log rows in order (up to ply ``upto``)."""
    text = match.move_log
    if text is not None:
        rows = unpack(text)
        return rows if upto is None else rows[:upto]
    found = Move.objects.filter(match_id=match.pk).order_by("ply")
    if upto is not None:
        found = found.filter(ply__lte=upto)
    return [
        LogRow(*r) for r in found.values_list("ply", "seat", "kind", "notation", "auto", "think_ms")
    ]


def rows_of_many(match_ids: Sequence[int]) -> dict[int, list[LogRow]]:
    """The log rows of several matches, by match id (two queries, whatever the count)."""
    logs: dict[int, list[LogRow]] = defaultdict(list)
    packed = dict(
        Match.objects.filter(pk__in=match_ids, move_log__isnull=False).values_list("pk", "move_log")
    )
    for match_id, text in packed.items():
        logs[match_id] = unpack(text)
    rest = [m for m in match_ids if m not in packed]
    if rest:
        found = Move.objects.filter(match_id__in=rest).order_by("match_id", "ply")
        for match_id, *row in found.values_list(
            "match_id", "ply", "seat", "kind", "notation", "auto", "think_ms"
        ):
            logs[match_id].append(LogRow(*row))
    return logs
