"""JSON text on the hot paths (a tournament turn's view, a socket's message): orjson, in
C, about ten times faster than ``json`` on a position's view, which a worker serialises
for every turn it asks an own bot. The same text as ``json.dumps`` would make, without
its spaces and with non-ASCII characters as UTF-8 (still JSON); keys that are not text
(a seat's number) become text, as ``json.dumps`` makes them. Input from outside is still
read by ``variants.json_input`` (bounds first)."""

from __future__ import annotations

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(value) -> str:
    return orjson.dumps(value, option=_OPTIONS).decode()


def loads(text: str | bytes):
    """Text this site made (a Redis entry, never a client's message)."""
    return orjson.loads(text)
