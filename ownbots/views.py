"""Pages of own bots: a trainer's bots and registering one (the token shown once), and
the token's replacement and revocation (asked to confirm first). The bot's own page is
the player page (``accounts.views.player``), with ``panel`` added for an own bot."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from accounts.models import Player

from . import connections, keys, versions
from .models import BotKey

RECENT_GAMES = 15


def _bot(pk: int) -> Player:
    return get_object_or_404(Player.objects.select_related("owner"), pk=pk, kind="ownbot")


@login_required
@require_http_methods(["GET", "POST"])
def my_bots(request: HttpRequest) -> HttpResponse:
    """The user's own bots, and the form to register one (Trainers and Admins)."""
    if not keys.may_register(request.user):
        raise PermissionDenied("Only Trainers and Admins register bots of their own.")
    error = None
    if request.method == "POST":
        try:
            player, token = keys.register(request.user, request.POST.get("name", "")[:200])
        except keys.BotError as exc:
            error = str(exc)
        else:
            return _show_token(request, player, token, new=True)
    bots = Player.objects.filter(kind=Player.Kind.OWN_BOT, owner=request.user).order_by("name")
    rows = [(bot, connections.current(bot.pk)) for bot in bots]
    context = {"rows": rows, "error": error, "name": request.POST.get("name", "")[:40]}
    return render(request, "ownbots/my_bots.html", context, status=400 if error else 200)


def _show_token(request, player: Player, token: str, *, new: bool) -> HttpResponse:
    response = render(request, "ownbots/token.html", {"bot": player, "token": token, "new": new})
    response["Cache-Control"] = "no-store"  # the token is shown once: not from a cache either
    return response


@login_required
@require_http_methods(["GET", "POST"])
def replace_token(request: HttpRequest, pk: int) -> HttpResponse:
    """GET asks to confirm; POST with confirm=yes replaces. A bot without a token (revoked)
    gets one at once: no client can be connected to lose it."""
    bot = _bot(pk)
    if not keys.may_manage(request.user, bot):
        raise PermissionDenied("Only the bot's owner or an Admin can change its token.")
    has_token = BotKey.objects.filter(player=bot, token_hash__isnull=False).exists()
    confirmed = request.method == "POST" and (request.POST.get("confirm") == "yes" or not has_token)
    if not confirmed:
        context = {"bot": bot, "connection": connections.current(bot.pk)}
        return render(request, "ownbots/replace_confirm.html", context)
    try:
        token = keys.replace(request.user, bot)
    except keys.BotError as exc:
        raise PermissionDenied(str(exc)) from None
    return _show_token(request, bot, token, new=False)


@login_required
@require_http_methods(["GET", "POST"])
def revoke_token(request: HttpRequest, pk: int) -> HttpResponse:
    """GET asks to confirm; POST with confirm=yes revokes."""
    bot = _bot(pk)
    if not keys.may_manage(request.user, bot):
        raise PermissionDenied("Only the bot's owner or an Admin can revoke its token.")
    if request.method == "POST" and request.POST.get("confirm") == "yes":
        keys.revoke(request.user, bot)
        messages.success(request, f"{bot.name}'s token is revoked: no client can connect as it.")
        return redirect(bot.get_absolute_url())
    return render(request, "ownbots/revoke_confirm.html", {"bot": bot})


@login_required
@require_POST
def challenges(request: HttpRequest, pk: int) -> HttpResponse:
    """Open the bot to challenges (anyone may seat it in a live match) or close it."""
    bot = _bot(pk)
    value = request.POST.get("open")
    if value not in ("0", "1"):
        return HttpResponseBadRequest("open: 0 or 1.")
    try:
        keys.set_open_to_challenges(request.user, bot, value == "1")
    except keys.BotError as exc:
        raise PermissionDenied(str(exc)) from None
    if value == "1":
        messages.success(request, f"Anyone may now seat {bot.name} in a live match.")
    else:
        messages.success(request, f"Only you may seat {bot.name} in a live match now.")
    return redirect(bot.get_absolute_url())


def panel(request: HttpRequest, bot: Player) -> dict:
    """The own bot's part of its player page: connected or not, its version, its key,
    its recent games (with the version that played) and its record per version."""
    from play.reads import visible_matches

    seen = visible_matches(request.user)  # no match of a hidden or removed game
    games = list(
        seen.filter(seats__player=bot)
        .select_related("rule_set")
        .order_by("-id")
        .distinct()[:RECENT_GAMES]
    )
    tags = versions.versions_of_matches(bot.pk, [m.pk for m in games])
    for match in games:
        match.bot_version = tags.get(match.pk, "")
    return {
        "own_bot": True,
        "bot_connection": connections.current(bot.pk),
        "bot_key": BotKey.objects.filter(player=bot).first(),
        "bot_manage": keys.may_manage(request.user, bot),
        "bot_games": games,
        "bot_versions": versions.version_table(bot, seen),
    }
