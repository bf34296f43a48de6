"""Ids from outside (URLs, query strings, form fields).

``str.isdigit`` is not enough: it accepts "²" (which ``int`` refuses) and numbers past a
database key's range (which SQLite refuses with an OverflowError), both server errors.
"""

MAX_ID = 2**63 - 1  # BigAutoField


def parse_id(value) -> int | None:
    """The id ``value`` names (ASCII digits, 1..MAX_ID), or None."""
    text = str(value)
    if not (text.isascii() and text.isdigit()) or len(text) > 19:
        return None
    number = int(text)
    return number if 0 < number <= MAX_ID else None


def parse_ids(values) -> list[int]:
    """The ids among ``values``, each once, in order; junk is left out."""
    out = []
    for value in values:
        number = parse_id(value)
        if number is not None and number not in out:
            out.append(number)
    return out
