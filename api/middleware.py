"""The API's edge: a request under /api/ whose path or query string holds a control
character is answered 400 in JSON here, before any page-wide rule answers it with an
HTML page (an API client reads ``{"error": ...}``, never a page)."""

from __future__ import annotations

import re

from django.http import JsonResponse

PREFIX = "/api/"
# C0 controls but tab, line feed and carriage return; DEL (as the site's text rule).
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _first_bad(request) -> tuple[str, str] | None:
    """(field, U+XXXX) of the first control character in the path or the query."""
    texts = [("address", request.path)]
    texts += [(key, text) for key, values in request.GET.lists() for text in [key, *values]]
    for field, text in texts:
        found = CONTROL.search(text)
        if found:
            return field, f"U+{ord(found.group()):04X}"
    return None


class ControlCharactersAsJson:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        found = _first_bad(request) if request.path.startswith(PREFIX) else None
        if found is None:
            return self.get_response(request)
        field, code = found
        field = CONTROL.sub("?", field)[:40]
        message = f"{field}: holds a control character ({code})"
        return JsonResponse({"error": message}, status=400)
