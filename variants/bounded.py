"""Numbers from outside (URLs, query strings, form fields, socket messages): one parser.

Every number the site reads from a request goes through ``whole_number`` (or its quiet
form ``bounded_int``) with the range it may take, so no input can reach ``int()``'s
4,300-digit limit, a database key's range, or make the server build a page, a board or
a list in proportion to a number nobody checked. Pure Python (no Django).
"""

from __future__ import annotations

MAX_DIGITS = 19  # a BigAutoField's largest key has 19 digits; nothing we read has more


class OutOfBounds(ValueError):
    """A number from outside that is not a whole number, or outside its range. The
    message is for people: "must be a whole number", "at least 1", "at most 19";
    ``nearest`` is the limit it is past (None when it is no number at all)."""

    def __init__(self, message: str, nearest: int | None = None):
        super().__init__(message)
        self.nearest = nearest


def whole_number(value, lo: int, hi: int) -> int:
    """The whole number ``value`` spells (ASCII digits, an optional sign, surrounding
    spaces ignored), within ``lo..hi``; ``OutOfBounds`` saying what is wrong otherwise."""
    text = str(value).strip() if value is not None else ""
    digits = text[1:] if text[:1] in "+-" else text
    if not digits or not (digits.isascii() and digits.isdigit()):
        raise OutOfBounds("must be a whole number")
    if len(digits.lstrip("0")) > MAX_DIGITS:
        # Too long to be in any range we use: which end it is past, without int().
        number = lo - 1 if text[0] == "-" else hi + 1
    else:
        number = int(text)
    if number < lo:
        raise OutOfBounds(f"at least {lo}", lo)
    if number > hi:
        raise OutOfBounds(f"at most {hi}", hi)
    return number


def bounded_int(value, lo: int, hi: int) -> int | None:
    """``whole_number`` for callers that treat junk as absent: the number, or None."""
    try:
        return whole_number(value, lo, hi)
    except OutOfBounds:
        return None


def clamp(number: int, lo: int, hi: int) -> int:
    return min(max(number, lo), hi)
