"""Ids from outside (URLs, query strings, form fields), read by the one bounded parser.

``str.isdigit`` is not enough: it accepts "²" (which ``int`` refuses) and numbers past a
database key's range (which SQLite refuses with an OverflowError), both server errors.
"""

from .bounded import bounded_int

MAX_ID = 2**63 - 1  # BigAutoField


def parse_id(value) -> int | None:
    """The id ``value`` names (ASCII digits, 1..MAX_ID), or None."""
    text = str(value)
    if not (text.isascii() and text.isdigit()):  # ids are written plainly: no sign, no spaces
        return None
    return bounded_int(text, 1, MAX_ID)


def parse_ids(values) -> list[int]:
    """The ids among ``values`` (at most 100 of them), each once, in order; junk is left out."""
    out = []
    for value in list(values)[:100]:
        number = parse_id(value)
        if number is not None and number not in out:
            out.append(number)
    return out
