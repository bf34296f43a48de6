"""One rule at the edge for every text from outside: no control characters.

A NUL byte reaches PostgreSQL as a query parameter and psycopg refuses it ("cannot
contain NUL (0x00) bytes"): a 500 on any page that looks a name up. No text this site
reads means anything with a control character in it, so a request whose path, query
string or posted form holds one is answered 400 with a page that names the field;
tabs and line breaks stay text. (Socket messages are JSON checked field by field.)
"""

from __future__ import annotations

import re

from django.http import HttpRequest
from django.shortcuts import render

# C0 controls but tab, line feed and carriage return; DEL.
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def control_character(text: str) -> str | None:
    """The first control character in ``text`` as U+XXXX, or None."""
    found = CONTROL.search(text)
    return f"U+{ord(found.group()):04X}" if found else None


def _first_bad(request: HttpRequest) -> tuple[str, str] | None:
    """(field, U+XXXX) of the first control character the request carries."""
    if bad := control_character(request.path):
        return "address", bad
    sources = [request.GET]
    if request.method == "POST" and request.content_type in FORM_TYPES:
        sources.append(request.POST)
    for source in sources:
        for key, values in source.lists():
            for text in [key, *values]:
                if bad := control_character(text):
                    return key, bad
    return None


class RefuseControlCharacters:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest):
        found = _first_bad(request)
        if found is None:
            return self.get_response(request)
        field, code = found
        field = CONTROL.sub("?", field)[:40]
        reason = (
            f"The field “{field}” holds a control character ({code}). Text on this site is "
            "printable characters, tabs and line breaks only: remove it and try again."
        )
        return render(request, "400.html", {"reason": reason}, status=400)


class DropControlCookies:
    """A cookie with a control character is no cookie this site set: dropped before the
    session middleware reads it (a NUL in the session key reached PostgreSQL: a 500).
    daphne's HTTP parser refuses a NUL in any header already; other servers may not."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest):
        for name, value in list(request.COOKIES.items()):
            if CONTROL.search(name) or CONTROL.search(value):
                del request.COOKIES[name]
        return self.get_response(request)
