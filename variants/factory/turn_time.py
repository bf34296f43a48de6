"""Seed 001's turn time, any whole number of milliseconds from 5,000 to 60,000, as a
factory control: the time-control select's "Any time in milliseconds" option and the
number field under it (flat and nested pages alike). Pure Python.

The rule document keeps it as ``turn_ms`` (a whole number of seconds is normalised to
``seconds_per_turn`` by the rules, so 15,000 ms saves as the select's 15 s)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from variants.bounded import OutOfBounds, whole_number

MS = "ms"  # the time-control select's option for a turn time in milliseconds
LOW, HIGH, DEFAULT = 5_000, 60_000, 15_000  # seed 001: min, max, default
OPTION = "Any time in milliseconds (below)"
MESSAGE = "Turn time: a whole number of milliseconds from 5,000 to 60,000"
HELP = "Seed 001's turn time: any whole number of milliseconds from 5,000 to 60,000."
OFF = "Choose “Any time in milliseconds” above to type a turn time."


def read(data: Mapping, key: str, problems: list, path: str = "turn_ms") -> int:
    """The posted turn time in ms; blank, junk or out of bounds is reported (one clear
    message) and the nearest bound (or the seed's default) is shown instead."""
    try:
        return whole_number(data.get(key, ""), LOW, HIGH)
    except OutOfBounds as exc:
        problems.append({"path": path, "message": f"{MESSAGE} ({exc})."})
        return exc.nearest if exc.nearest is not None else DEFAULT


def chosen(seconds: int | None, turn_ms: int | None) -> str | int | None:
    """The select's value: "ms" when the turn time is in milliseconds."""
    return MS if seconds is None and turn_ms is not None else seconds


@dataclass
class MsField:
    """The number field under the time-control select."""

    name: str
    value: str
    disabled: bool
    errors: list[str] = field(default_factory=list)
    label: str = "Turn time (ms)"
    help: str = HELP
    reason: str = ""
    low: int = LOW
    high: int = HIGH

    @property
    def id(self) -> str:
        return "id_" + self.name


def ms_field(name: str, seconds: int | None, turn_ms: int | None, errors: list[str]) -> MsField:
    on = chosen(seconds, turn_ms) == MS
    return MsField(
        name,
        str(turn_ms) if on else "",
        disabled=not on,
        errors=errors,
        reason="" if on else OFF,
    )
