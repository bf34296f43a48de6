"""Where to send a visitor back to: a ``next`` from outside, if it is a path on this site."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme


def local_url(request: HttpRequest, url: str | None) -> str | None:
    """``url`` if it is a path of this site ("/games/3/"), else None. A bare word ("1",
    "home") is refused too: ``redirect`` would take it for a view name and fail."""
    if not url or not url.startswith("/") or len(url) > 2000:
        return None
    safe = url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return url if safe else None
