"""The player factory's pages: my AI players, the form (new, copy, edit; read-only for
Creators and for other people's AIs), the AI's Curriculum and Stats tabs, delete (asked
first), fork, export and import, studying and cancelling, and the Study buttons of the
tournament and player pages. Thin: the work is in ``services`` and ``curriculum``."""

from __future__ import annotations

import json

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.models import Player
from accounts.navigation import local_url
from leaderboards.models import Tournament
from variants.ids import parse_id

from . import curriculum, predictions, services
from .forms import FUTURE_TRAITS, AIPlayerForm
from .models import AIPlayer
from .services import FactoryError


def _by_id(model, value):
    pk = parse_id(value)
    return None if pk is None else model.objects.filter(pk=pk).first()


TABS = {"settings": "Settings", "curriculum": "Curriculum", "stats": "Stats"}
RECENT_TOURNAMENTS = 50


def _viewer(request: HttpRequest) -> None:
    if not services.may_view(request.user):
        raise PermissionDenied("Sign in to see the player factory.")


def _ai(pk: int) -> AIPlayer:
    return get_object_or_404(AIPlayer.objects.select_related("player", "owner", "universe"), pk=pk)


def _settings(form: AIPlayerForm) -> dict:
    data = form.cleaned_data
    return {"name": data["name"], "universe": data["universe_obj"], "avatar": data["avatar"],
            "kind": data["kind"], **data["settings"]}  # fmt: skip


@require_GET
def mine(request: HttpRequest) -> HttpResponse:
    _viewer(request)
    if not services.may_create(request.user):
        raise PermissionDenied("Only Trainers and Admins have AI players.")
    ais = (
        AIPlayer.objects.filter(owner=request.user)
        .select_related("player")
        .order_by("player__name")
    )
    return render(request, "aiplayers/mine.html", {"ais": ais})


@require_http_methods(["GET", "POST"])
def new(request: HttpRequest) -> HttpResponse:
    """The factory form for a new AI; ``?copy=<id>`` fills it with that AI's settings."""
    _viewer(request)
    can = services.may_create(request.user)
    if request.method == "POST":
        if not can:
            raise PermissionDenied("Only Trainers and Admins make AI players.")
        form = AIPlayerForm(request.POST, user=request.user)
        if form.is_valid():
            try:
                ai = services.create_ai(request.user, **_settings(form))
            except FactoryError as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(request, f"{ai.player.name} is made.")
                return redirect(ai.get_absolute_url())
        return _form_page(request, form, None, status=400)
    initial = {}
    source = _by_id(AIPlayer, request.GET.get("copy", ""))
    if source is not None:
        initial = AIPlayerForm.initial_from(services.copy_initial(source))
    form = AIPlayerForm(initial=initial, user=request.user, read_only=not can)
    return _form_page(request, form, None, copied_from=bool(initial))


def _form_page(request, form, ai, status=200, **extra) -> HttpResponse:
    context = {"form": form, "ai": ai, "future_traits": FUTURE_TRAITS,
               "read_only": all(f.disabled for f in form.fields.values()), **extra}  # fmt: skip
    return render(request, "aiplayers/form.html", context, status=status)


@require_http_methods(["GET", "POST"])
def detail(request: HttpRequest, pk: int) -> HttpResponse:
    _viewer(request)
    ai = _ai(pk)
    tab = request.GET.get("tab", "settings")
    tab = tab if tab in TABS else "settings"
    editable = services.may_edit(request.user, ai)
    if request.method == "POST":
        if not editable:
            raise PermissionDenied("Only the AI's trainer or an Admin can change it.")
        form = AIPlayerForm(request.POST, user=request.user, ai=ai,
                            initial=AIPlayerForm.initial_from(_current(ai)))  # fmt: skip
        if form.is_valid():
            try:
                services.update_ai(ai, request.user, **_settings(form))
            except FactoryError as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(request, f"{ai.player.name} is saved.")
                return redirect(ai.get_absolute_url())
        return _page(request, ai, "settings", form, status=400)
    curriculum.nudge(ai)
    form = AIPlayerForm(initial=AIPlayerForm.initial_from(_current(ai)), user=request.user,
                        ai=ai, read_only=not editable)  # fmt: skip
    return _page(request, ai, tab, form)


def _current(ai: AIPlayer) -> dict:
    return {"name": ai.player.name, "universe": ai.universe_id, "avatar": ai.avatar,
            "kind": ai.kind, "algorithm": ai.algorithm, "params": ai.params,
            "personality": ai.personality}  # fmt: skip


def _page(request, ai: AIPlayer, tab: str, form, status=200) -> HttpResponse:
    editable = services.may_edit(request.user, ai)
    context = {"ai": ai, "tab": tab, "tabs": TABS, "form": form, "editable": editable,
               "read_only": not editable, "future_traits": FUTURE_TRAITS,
               "can_create": services.may_create(request.user),
               "progress": curriculum.progress(ai)}  # fmt: skip
    if tab == "curriculum":
        by = request.GET.get("by", "type")
        by = by if by in ("type", "game") else "type"
        items = list(ai.curriculum.select_related("tournament", "history_of__user"))
        chart = curriculum.chart(ai, by)
        context.update(
            by=by,
            items=items,
            chart=json.dumps(chart),
            chart_empty=not any(chart["values"]),
            history=[i for i in items if i.cursor or i.done],
            tournaments=Tournament.objects.exclude(status=Tournament.Status.FAILED).order_by("-id")[
                :RECENT_TOURNAMENTS
            ],
        )
    if tab == "stats" and ai.is_learning:
        context["metrics"] = predictions.recent_metrics(ai.player_id)
    return render(request, "aiplayers/detail.html", context, status=status)


def _editable(request, pk: int) -> AIPlayer:
    _viewer(request)
    ai = _ai(pk)
    if not services.may_edit(request.user, ai):
        raise PermissionDenied("Only the AI's trainer or an Admin can do that.")
    return ai


@require_http_methods(["GET", "POST"])
def delete(request: HttpRequest, pk: int) -> HttpResponse:
    """GET asks to confirm; POST with confirm=yes deletes."""
    ai = _editable(request, pk)
    if request.method == "POST" and request.POST.get("confirm") == "yes":
        name = ai.player.name
        services.delete_ai(ai, request.user)
        messages.success(request, f"{name} is deleted.")
        return redirect("aiplayers:mine")
    return render(request, "aiplayers/delete_confirm.html", {"ai": ai})


@require_POST
def fork(request: HttpRequest, pk: int) -> HttpResponse:
    _viewer(request)
    ai = _ai(pk)
    item = parse_id(request.POST.get("item", ""))
    name = request.POST.get("name", "")[:100].strip() or f"{ai.player.name}-fork"
    try:
        if item is None:
            raise FactoryError("Choose a point of the curriculum history to fork from.")
        new_ai = services.fork(ai, request.user, item, name)
    except FactoryError as exc:
        messages.error(request, str(exc))
        return redirect(reverse("aiplayers:detail", args=[ai.pk]) + "?tab=curriculum")
    curriculum.request_study(new_ai)
    messages.success(request, f"{new_ai.player.name} is forked from {ai.player.name}.")
    return redirect(new_ai.get_absolute_url() + "?tab=curriculum")


@require_GET
def export(request: HttpRequest, pk: int) -> HttpResponse:
    _viewer(request)
    ai = _ai(pk)
    if not services.may_edit(request.user, ai):
        raise PermissionDenied("Only the AI's trainer or an Admin can export its model.")
    try:
        data = services.export_bytes(ai)
    except (FactoryError, ImportError) as exc:
        raise Http404(str(exc)) from None
    response = HttpResponse(data, content_type="application/octet-stream")
    response["Content-Disposition"] = f'attachment; filename="{ai.player.name}.vfmodel"'
    return response


@require_POST
def import_model(request: HttpRequest, pk: int) -> HttpResponse:
    ai = _editable(request, pk)
    try:
        services.import_model(ai, request.user, request.FILES.get("model"))
    except FactoryError as exc:
        messages.error(request, f"Import refused: {exc}")
    else:
        messages.success(request, f"{ai.player.name} has the imported model.")
    return redirect(ai.get_absolute_url())


@require_POST
def add_curriculum(request: HttpRequest, pk: int) -> HttpResponse:
    """Add a tournament (``tournament`` id) or a player's history (``player`` name)."""
    ai = _editable(request, pk)
    back = reverse("aiplayers:detail", args=[ai.pk]) + "?tab=curriculum"
    try:
        _add(ai, request, request.POST.get("tournament", ""), request.POST.get("player", ""))
    except FactoryError as exc:
        messages.error(request, str(exc))
    return redirect(back)


def _add(ai, request, tournament_id: str, player_name: str) -> None:
    games = request.POST.get("games", "").strip()
    if tournament_id:
        tournament = _tournament(tournament_id)
        curriculum.add_tournament(ai, request.user, tournament, games)
        messages.success(request, f"{ai.player.name} will study {tournament.name}.")
    elif player_name or request.POST.get("player_id"):
        player = _player(request.POST.get("player_id", ""), player_name)
        curriculum.add_history(ai, request.user, player, games)
        messages.success(request, f"{ai.player.name} will study {player.display_name}'s history.")
    else:
        raise FactoryError("Choose a tournament or name a player to study.")


def _tournament(value: str) -> Tournament:
    found = _by_id(Tournament, value)
    if found is None:
        raise FactoryError("There is no such tournament.")
    return found


def _player(pk: str, name: str) -> Player:
    found = _by_id(Player, pk)
    if found is None and name:
        name = name.strip()[:150]
        people = Player.objects.filter(user__username__iexact=name)
        others = Player.objects.exclude(kind=Player.Kind.HUMAN).filter(name__iexact=name)
        found = people.first() or others.first()
    if found is None:
        raise FactoryError(f"There is no player {name or pk!r}.")
    return found


@require_POST
def remove_item(request: HttpRequest, pk: int, item: int) -> HttpResponse:
    ai = _editable(request, pk)
    try:
        curriculum.remove_item(ai, request.user, item)
    except FactoryError as exc:
        messages.error(request, str(exc))
    return redirect(reverse("aiplayers:detail", args=[ai.pk]) + "?tab=curriculum")


@require_POST
def study(request: HttpRequest, pk: int) -> HttpResponse:
    ai = _editable(request, pk)
    if ai.is_learning:
        curriculum.request_study(ai)
        messages.success(request, f"{ai.player.name} will study its pending curriculum.")
    return redirect(reverse("aiplayers:detail", args=[ai.pk]) + "?tab=curriculum")


@require_POST
def cancel(request: HttpRequest, pk: int) -> HttpResponse:
    ai = _editable(request, pk)
    curriculum.cancel(ai, request.user)
    messages.success(request, f"{ai.player.name} stops studying after its current chunk.")
    return redirect(reverse("aiplayers:detail", args=[ai.pk]) + "?tab=curriculum")


@require_GET
def progress(request: HttpRequest, pk: int) -> JsonResponse:
    _viewer(request)
    return JsonResponse(curriculum.progress(_ai(pk)))


@require_POST
def study_from(request: HttpRequest) -> HttpResponse:
    """The Study buttons of a tournament's page and a player's Stats tab: add it to one
    of the user's AIs (``ai``), then back to where the button was."""
    _viewer(request)
    back = local_url(request, request.POST.get("next")) or reverse("aiplayers:mine")
    ai = _by_id(AIPlayer, request.POST.get("ai", ""))
    if ai is None or not services.may_edit(request.user, ai):
        messages.error(request, "Choose one of your learning AIs.")
        return redirect(back)
    try:
        _add(ai, request, request.POST.get("tournament", ""), "")
    except FactoryError as exc:
        messages.error(request, str(exc))
    return redirect(back)


def study_choices(user) -> list[AIPlayer]:
    """The user's learning AIs, for a Study button's menu."""
    if not services.may_create(user):
        return []
    return list(AIPlayer.objects.filter(owner=user, kind=AIPlayer.Kind.LEARNING)
                .select_related("player").order_by("player__name"))  # fmt: skip
