"""The friends page and its buttons. Thin: parse, call ``accounts.services``, redirect."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts import services
from accounts.models import Player
from accounts.navigation import local_url
from variants.ids import parse_id


@login_required
def friends(request: HttpRequest) -> HttpResponse:
    context = services.friends_overview(request.user)
    return render(request, "accounts/friends.html", context)


def _back(request: HttpRequest) -> HttpResponse:
    return redirect(local_url(request, request.POST.get("next")) or "accounts:friends")


def _person(request: HttpRequest):
    """Whom a request is for: ``username``, or ``player`` (a human, or a persona's owner)."""
    name = request.POST.get("username", "").strip()[:150]  # a username's longest
    if name:
        return get_user_model().objects.filter(username__iexact=name).first(), name
    pk = request.POST.get("player", "")[:20]
    player = Player.objects.filter(pk=parse_id(pk)).select_related("user", "owner").first()
    if player is None:
        return None, pk
    person = player.user if player.kind == Player.Kind.HUMAN else player.owner
    return person, player.display_name


@login_required
@require_POST
def send_request(request: HttpRequest) -> HttpResponse:
    person, label = _person(request)
    if person is None:
        messages.error(request, f"There is no person {label!r} to befriend.")
        return _back(request)
    try:
        row = services.send_friend_request(request.user, person)
    except services.FriendshipRefused as exc:
        messages.error(request, str(exc))
    else:
        if row.state == row.State.ACCEPTED:
            messages.success(request, f"You and {person.username} are friends now.")
        else:
            messages.success(request, f"Friend request sent to {person.username}.")
    return _back(request)


@login_required
@require_POST
def answer_request(request: HttpRequest, pk: int) -> HttpResponse:
    answer = request.POST.get("answer", "")
    try:
        row = services.answer_friend_request(request.user, pk, answer)
    except services.FriendshipRefused as exc:
        messages.error(request, str(exc))
    else:
        done = {"accept": "are friends now", "decline": "was declined", "ban": "is banned"}
        who = row.sender.username
        messages.success(
            request,
            f"You and {who} are friends now." if answer == "accept" else f"{who} {done[answer]}.",
        )
    return _back(request)


@login_required
@require_POST
def unban(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        services.unban(request.user, pk)
    except services.FriendshipRefused as exc:
        messages.error(request, str(exc))
    return _back(request)


@login_required
@require_POST
def unfriend(request: HttpRequest, pk: int) -> HttpResponse:
    other = get_user_model().objects.filter(pk=pk).first()
    if other is not None:
        services.unfriend(request.user, other)
        messages.success(request, f"{other.username} is no longer your friend.")
    return _back(request)


@login_required
@require_POST
def cancel(request: HttpRequest, pk: int) -> HttpResponse:
    services.cancel_friend_request(request.user, pk)
    return _back(request)
