"""The Game Factory page, its htmx partial, and the saved game's page (thin views: the
rules of the page live in ``state`` and ``layout``, the writes in ``variants.services``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.views.decorators.http import require_POST

from accounts.roles import is_admin
from gamecore import rules
from variants import analysis_jobs, services
from variants.ids import parse_id
from variants.models import RuleSet

from . import layout as page
from .state import (
    adjust,
    apply_action,
    default_state,
    from_doc,
    from_post,
    to_document,
)
from .story_field import how_to_play, with_story


@login_required
def factory(request: HttpRequest) -> HttpResponse:
    """GET: a new factory page (``?copy=<pk>`` prefilled from a saved game). POST: Save,
    or (without JavaScript) any other button of the form, which re-renders the page."""
    if not services.can_create(request.user):
        return _render_factory(request, None, status=403)
    if request.method != "POST":
        return _render_factory(request, page.build(_initial_state(request)))
    state, problems = from_post(request.POST, request.POST.getlist)
    action = _action(request)
    if action != "save":
        return _render_factory(request, _rebuild(state, action, request.POST.get("toggle", "")))
    story, story_problems = how_to_play(request.POST)
    if problems or story_problems:
        return _render_factory(request, page.build(state, problems + story_problems), status=400)
    try:
        rule_set = services.create_rule_set(with_story(to_document(state), story), request.user)
    except rules.RulesError as exc:
        errors = exc.errors
    except services.NameTaken as exc:
        errors = [{"path": "name", "message": str(exc)}]
    except (services.DuplicateRules, services.QuotaExceeded, PermissionDenied) as exc:
        errors = [{"path": "", "message": str(exc)}]
    else:
        play = reverse("play:new") + f"?game={rule_set.pk}"
        messages.success(
            request, format_html('Saved {} — <a href="{}">play it now</a>.', rule_set.name, play)
        )
        return redirect(rule_set.get_absolute_url())
    return _render_factory(request, page.build(state, errors), status=400)


@require_POST
@login_required
def refresh(request: HttpRequest) -> HttpResponse:
    """The htmx partial: the form body re-rendered after a dependent control changed or a
    button (Add/Delete Check, a board space) was pressed. Never saves."""
    state, _problems = from_post(request.POST, request.POST.getlist)
    layout = _rebuild(state, _action(request), request.POST.get("toggle", ""))
    return render(request, "variants/factory/body.html", {"layout": layout})


def detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A saved game: the factory layout read-only, its summary, Copy, rename (Admins)."""
    rule_set = _visible(request, pk)
    return _render_detail(request, rule_set)


def analysis(request: HttpRequest, pk: int) -> JsonResponse:
    """The analysis card's data (its progress while the workers make it)."""
    rule_set = _visible(request, pk)
    data = analysis_jobs.card(rule_set, services.visible_rule_sets(request.user))
    return JsonResponse({k: v for k, v in data.items() if k != "related"})


@require_POST
def rename(request: HttpRequest, pk: int) -> HttpResponse:
    rule_set = _visible(request, pk)
    new_name = request.POST.get("name", "").strip()
    old_name = rule_set.name
    try:
        services.rename_rule_set(rule_set, new_name, request.user)
    except PermissionDenied as exc:
        return _render_detail(request, rule_set, rename_errors=[str(exc)], status=403)
    except rules.RulesError as exc:
        errors = [e["message"][:1].upper() + e["message"][1:] for e in exc.errors]
        return _render_detail(
            request, rule_set, rename_errors=errors, new_name=new_name, status=400
        )
    except services.NameTaken as exc:
        return _render_detail(
            request, rule_set, rename_errors=[str(exc)], new_name=new_name, status=400
        )
    messages.success(request, f"Renamed {old_name} to {rule_set.name}; its rules are unchanged.")
    return redirect(rule_set.get_absolute_url())


# --- helpers ------------------------------------------------------------------------------


def _action(request: HttpRequest) -> str:
    if "toggle" in request.POST:
        return "toggle"
    return request.POST.get("action", "save")


def _rebuild(state, action: str, toggle: str) -> page.Layout:
    note = apply_action(state, action, toggle)
    return page.build(adjust(state), note=note)


def _initial_state(request: HttpRequest):
    """A fresh page, or a copy of a saved game the user can see (unsaved, name cleared)."""
    pk = parse_id(request.GET.get("copy", ""))
    if pk is None:
        return default_state()
    rule_set = _visible(request, pk)
    state = from_doc(rule_set.rule_doc())
    state.name = f"{rule_set.name}-copy"[:64]
    return adjust(state)


def _visible(request: HttpRequest, pk: int) -> RuleSet:
    """Hidden and removed games are 404 for everyone but Admins."""
    return get_object_or_404(services.visible_rule_sets(request.user), pk=pk)


def _render_factory(request, layout, status: int = 200) -> HttpResponse:
    context = {
        "layout": layout,
        "remaining": services.remaining_quota(request.user),
        "refresh_url": reverse("variants:factory_refresh"),
    }
    return render(request, "variants/factory.html", context, status=status)


def _render_detail(request, rule_set: RuleSet, rename_errors=None, new_name=None, status=200):
    doc = rule_set.rule_doc()
    creator = rule_set.creator
    player = getattr(creator, "player", None) if creator else None
    context = {
        "rule_set": rule_set,
        "layout": page.build(from_doc(doc), readonly=True),
        "summary": rules.summary(doc),
        "analysis": analysis_jobs.card(rule_set, services.visible_rule_sets(request.user)),
        "can_copy": services.can_create(request.user),
        "can_rename": is_admin(request.user),
        "rename_errors": rename_errors or [],
        "new_name": rule_set.name if new_name is None else new_name,
        "creator": creator,
        "creations_url": (
            reverse("accounts:player", kwargs={"pk": player.pk}) + "?tab=creations"
            if player
            else ""
        ),
    }
    return render(request, "variants/factory_detail.html", context, status=status)
