"""A wall-clock deadline the engine keeps inside a move (issue 39).

Most moves cost microseconds, so a caller that looks at the clock between moves keeps
its budget. A few rules make one legal-move list costly: nested boards' Checked plays
each candidate out against every reply (a tenth of a second on 729 cells). A caller
with a hard budget (the factory's quick estimate) runs its random games inside
``within(deadline)``; the costly loops call ``check()``, which raises ``OutOfTime`` once
the deadline has passed. The state being worked on is then half-made: discard it.
Outside ``within`` (matches, replays) ``check`` never raises.
"""

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_AT: ContextVar[float | None] = ContextVar("gamecore_engine_deadline", default=None)


class OutOfTime(Exception):  # noqa: N818 (a signal, as StopIteration)
    """The caller's deadline passed inside a move: discard the state being worked on."""


@contextmanager
def within(at: float | None) -> Iterator[None]:
    """Moves made inside stop at ``at`` (a ``time.perf_counter()`` value; None: never)."""
    token = _AT.set(at)
    try:
        yield
    finally:
        _AT.reset(token)


def check() -> None:
    """Raise ``OutOfTime`` if a deadline set by ``within`` has passed."""
    at = _AT.get()
    if at is not None and time.perf_counter() > at:
        raise OutOfTime
