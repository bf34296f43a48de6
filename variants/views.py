"""The home page, the Games page and the Admins' moderation page of a game. Thin: parse
the request, call ``variants.services``, render or redirect."""

from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from accounts.decorators import admin_required
from gamecore import rules
from variants.forms import SORTS, GameFilterForm, RenameForm
from variants.models import RuleSet
from variants.services import (
    NameTaken,
    featured_first,
    filter_rule_sets,
    hide_rule_set,
    remaining_quota,
    remove_rule_set,
    rename_rule_set,
    shown_rule_sets,
    sorted_rule_sets,
    visible_rule_sets,
)

GAMES_PER_PAGE = 72  # the whole catalogue (61) and more on one page

# Quick filters over the Board and Players filters: (value, parameter, words).
FAMILIES = (
    ("", "", "All games"),
    ("hash", "board", "Classic 3×3"),
    ("squares", "board", "Squares"),
    ("stacks", "board", "Gravity (Connect4-like)"),
    ("nested", "board", "Boards in boards"),
    ("3", "players", "3 players"),
    ("4", "players", "4 players"),
)


def home(request: HttpRequest) -> HttpResponse:
    """Every game the visitor may see with its picture and one-line summary (the
    best-known catalogue games first)."""
    rule_sets = featured_first(visible_rule_sets(request.user).only("name", "summary", "document"))
    context = {"rule_sets": rule_sets}
    if request.user.is_authenticated:
        from play.views import form_context, start_form

        context.update(form_context(start_form(request)))
    return render(request, "variants/home.html", context)


def games(request: HttpRequest) -> HttpResponse:
    """The games, searchable by name and filtered by players and board, a page at a time.

    A bad query value shows the form's message (status 400) instead of a list.
    """
    form = GameFilterForm(request.GET)
    page = None
    if form.is_valid():
        found = filter_rule_sets(
            visible_rule_sets(request.user).select_related("creator__player", "analysis"),
            name=form.cleaned_data["q"],
            players=form.cleaned_data["players"],
            board=form.cleaned_data["board"],
        )
        found = sorted_rule_sets(
            shown_rule_sets(found, form.cleaned_data["show"]), form.cleaned_data["sort"]
        )
        page = Paginator(found, GAMES_PER_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    chosen = {k: v for k, v in request.GET.items() if k in ("board", "players") and v}
    family_now = next(iter(chosen.values())) if len(chosen) == 1 else ("" if not chosen else None)
    context = {
        "families": FAMILIES,
        "family_now": family_now,
        "form": form,
        "page": page,
        "query": query.urlencode(),
        "sorts": SORTS,
        "sort_now": form.cleaned_data.get("sort", "") if form.is_valid() else "",
        "filtered": any(form.data.get(key) for key in form.fields),
        "remaining": remaining_quota(request.user),
    }
    return render(request, "variants/games.html", context, status=400 if form.errors else 200)


# --- Moderation (Admins) ----------------------------------------------------------------


@admin_required
@require_http_methods(["GET", "POST"])
def manage(request: HttpRequest, pk: int) -> HttpResponse:
    """Rename, hide, show or remove one game. Removing asks to confirm first."""
    rule_set = get_object_or_404(RuleSet.objects.select_related("creator"), pk=pk)
    rename_form = RenameForm(initial={"name": rule_set.name})
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "rename":
            rename_form = RenameForm(request.POST)
            if _rename(request, rule_set, rename_form):
                return redirect("variants:manage", pk=rule_set.pk)
        elif action in ("hide", "show"):
            hide_rule_set(rule_set, action == "hide", by=request.user)
            messages.success(request, f"{rule_set.name} is {_visibility(rule_set)}.")
            return redirect("variants:manage", pk=rule_set.pk)
        elif action == "remove":
            return _remove(request, rule_set)
        else:
            messages.error(request, "Choose rename, hide, show or remove.")
    context = {"rule_set": rule_set, "rename_form": rename_form}
    status = 400 if rename_form.errors else 200
    return render(request, "variants/manage.html", context, status=status)


def _rename(request: HttpRequest, rule_set: RuleSet, form: RenameForm) -> bool:
    """Rename through the service; its refusals become the form's errors."""
    if not form.is_valid():
        return False
    old_name = rule_set.name
    try:
        rename_rule_set(rule_set, form.cleaned_data["name"], by=request.user)
    except rules.RulesError as exc:
        form.add_error("name", [e["message"] for e in exc.errors])
        return False
    except NameTaken as exc:
        form.add_error("name", str(exc))
        return False
    messages.success(request, f"Renamed {old_name} to {rule_set.name}; its rules are unchanged.")
    return True


def _remove(request: HttpRequest, rule_set: RuleSet) -> HttpResponse:
    if request.POST.get("confirm") != "yes":
        return render(request, "variants/remove_confirm.html", {"rule_set": rule_set})
    remove_rule_set(rule_set, by=request.user)
    messages.success(
        request,
        f"{rule_set.name} was removed: only Admins see it now. Its name and its rules stay "
        "reserved, so no new game can use them, and matches played on it keep their rules.",
    )
    return redirect("variants:games")


def _visibility(rule_set: RuleSet) -> str:
    return "hidden: only Admins see it" if rule_set.hidden else "visible to everyone again"
