"""JSON from outside (socket frames, form fields): one parser, with a size and a depth bound.

``json.loads`` recurses once per ``[`` or ``{``: 4,000 of them (a 4 KB frame) raise
``RecursionError``, which no ``except ValueError`` catches, and the socket or request
dies with a server error. ``loads`` refuses such input first, in one linear pass, with an
``InvalidJson`` (a ``ValueError``) whose message says what is wrong. Pure Python.
"""

from __future__ import annotations

import json
import re

MAX_DEPTH = 32  # nothing the site reads from outside is nested half as deep
# A string (with its escapes), or one bracket: what a depth count has to look at.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.DOTALL)


class InvalidJson(ValueError):
    """Input that is not JSON, or is larger or deeper than allowed; the message is for people."""


def loads(raw: str | bytes, *, max_bytes: int, max_depth: int = MAX_DEPTH):
    """The value ``raw`` holds, or ``InvalidJson`` when it is over ``max_bytes`` long (as
    UTF-8), nested more than ``max_depth`` arrays/objects deep, or not JSON at all."""
    if isinstance(raw, (bytes, bytearray)):
        if len(raw) > max_bytes:
            raise InvalidJson(f"larger than {max_bytes} bytes")
        try:
            raw = bytes(raw).decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidJson("not UTF-8 text") from None
    elif len(raw) > max_bytes or len(raw.encode("utf-8", "surrogatepass")) > max_bytes:
        raise InvalidJson(f"larger than {max_bytes} bytes")
    depth = 0
    for token in _TOKENS.findall(raw):
        if token in ("[", "{"):
            depth += 1
            if depth > max_depth:
                raise InvalidJson(f"nested deeper than {max_depth} levels")
        elif token in ("]", "}"):
            depth -= 1
    try:
        return json.loads(raw)
    except RecursionError:  # cannot happen below the depth bound; never a server error
        raise InvalidJson(f"nested deeper than {max_depth} levels") from None
    except ValueError as exc:
        raise InvalidJson(f"not JSON ({str(exc)[:80]})") from None
