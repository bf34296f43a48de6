"""The read API's views (``/api/v1/``): JSON only, GET only. Thin: read the query's
bounded numbers, call ``api.reads``, answer. Every refusal is JSON ``{"error": ...}``:
404 for what the visitor may not see or that does not exist (one answer for both, as
the pages; a universe too), 400 for a malformed parameter, 403 for a live cloaked match's log."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse

from api import reads
from api.schema import SCHEMA
from variants.bounded import OutOfBounds, whole_number

MAX_LIMIT = 100
DEFAULT_LIMIT = 20
MAX_OFFSET = 10**9


class BadParameter(Exception):
    pass


def _error(message: str, status: int) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)


def _number(request: HttpRequest, name: str, lo: int, hi: int, default: int) -> int:
    value = request.GET.get(name)
    if value is None:
        return default
    try:
        return whole_number(value, lo, hi)
    except OutOfBounds as exc:
        raise BadParameter(f"{name}: {exc}") from None


def _paging(request: HttpRequest) -> tuple[int, int]:
    return (
        _number(request, "offset", 0, MAX_OFFSET, 0),
        _number(request, "limit", 1, MAX_LIMIT, DEFAULT_LIMIT),
    )


def api_view(view):
    """GET only (405 otherwise); a bad parameter is a 400; both in JSON."""

    def wrapped(request, *args, **kwargs):
        if request.method not in ("GET", "HEAD"):
            response = _error("This API only reads: use GET.", 405)
            response["Allow"] = "GET, HEAD"
            return response
        try:
            return view(request, *args, **kwargs)
        except BadParameter as exc:
            return _error(str(exc), 400)

    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    return wrapped


@api_view
def openapi(request: HttpRequest) -> JsonResponse:
    return JsonResponse(SCHEMA)


@api_view
def games(request: HttpRequest) -> JsonResponse:
    offset, limit = _paging(request)
    return JsonResponse(reads.games(request.user, offset, limit))


@api_view
def game(request: HttpRequest, pk: int) -> JsonResponse:
    found = reads.game(request.user, pk)
    if found is None:
        return _error("No such game.", 404)
    return JsonResponse(reads.game_detail(found))


@api_view
def leaderboard(request: HttpRequest, pk: int) -> JsonResponse:
    found = reads.game(request.user, pk)
    if found is None:
        return _error("No such game.", 404)
    offset, limit = _paging(request)
    slug = request.GET.get("universe", "")
    if len(slug) > 40:
        raise BadParameter("universe: at most 40 characters")
    # One answer for a universe that does not exist and one the visitor may not read.
    universe = reads.universe_for(request.user, slug)
    if universe is None:
        return _error("No such universe among those you may see.", 404)
    return JsonResponse(reads.leaderboard(found, universe, offset, limit))


@api_view
def game_matches(request: HttpRequest, pk: int) -> JsonResponse:
    found = reads.game(request.user, pk)
    if found is None:
        return _error("No such game.", 404)
    offset, limit = _paging(request)
    return JsonResponse(reads.finished_matches(request.user, offset, limit, rule_set=found))


@api_view
def tournament_matches(request: HttpRequest, pk: int) -> JsonResponse:
    found = reads.tournament(request.user, pk)
    if found is None:
        return _error("No such tournament.", 404)
    offset, limit = _paging(request)
    return JsonResponse(reads.finished_matches(request.user, offset, limit, tournament=found))


@api_view
def match(request: HttpRequest, pk: int) -> JsonResponse:
    found = reads.match(request.user, pk)
    if found is None:
        return _error("No such match.", 404)
    try:
        return JsonResponse(reads.match_detail(found))
    except reads.Refused as exc:
        return _error(str(exc), 403)


@api_view
def tournament(request: HttpRequest, pk: int) -> JsonResponse:
    found = reads.tournament(request.user, pk)
    if found is None:
        return _error("No such tournament.", 404)
    return JsonResponse(reads.tournament_detail(found))


def not_found(request: HttpRequest, rest: str = "") -> JsonResponse:
    """Any other path under the API (a junk id included): a JSON 404, not a page."""
    return _error("No such API path.", 404)
