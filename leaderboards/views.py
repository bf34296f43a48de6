"""Leaderboard, evolution and tournament pages. Thin: parse the request, call
``leaderboards.services`` / ``stats`` / ``tournaments``, render or redirect."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from accounts.models import Player
from accounts.roles import is_trainer_or_admin
from aiplayers.views import study_choices
from leaderboards import services, stats
from leaderboards.models import Tournament

# Views are on top: the one leaderboards module that imports tournaments (the Benchmark
# checkboxes of a leaderboard, the tournament pages); the rest of leaderboards never does.
from tournaments import plan_edits as edits
from tournaments import reports
from tournaments import services as tournaments
from tournaments.forms import PlanForm
from tournaments.plans import benchmark_missing, preselection
from variants.ids import parse_id, parse_ids
from variants.models import RuleSet
from variants.services import visible_rule_sets

SESSION_UNIVERSE = "leaderboard_universe"


def _rule_set(request: HttpRequest, pk) -> RuleSet:
    """A game the visitor may see (404 otherwise, also for junk ids)."""
    if parse_id(pk) is None:
        raise Http404("No such game.")
    return get_object_or_404(visible_rule_sets(request.user).select_related("creator"), pk=pk)


def _universe(request: HttpRequest, value: str | None = None):
    """The universe asked for, else the one this visitor chose last, else the public one
    (only universes the visitor may choose: the public one and those of their personas)."""
    options = services.universes_for(request.user)
    asked = value if value is not None else request.GET.get("universe")
    wanted = asked or request.session.get(SESSION_UNIVERSE)
    chosen = next((u for u in options if u.slug == wanted), options[0])
    if asked and chosen.slug == asked:
        request.session[SESSION_UNIVERSE] = chosen.slug
    return chosen, options


def leaderboard(request: HttpRequest, pk: int) -> HttpResponse:
    rule_set = _rule_set(request, pk)
    universe, options = _universe(request)
    added = parse_ids(request.GET.getlist("add"))
    name = request.GET.get("player", "").strip()[:150]  # a username's longest
    if name:
        found = services.find_rated_player(rule_set, universe, name)
        if found is None:
            messages.error(request, f"Nobody called {name!r} has played {rule_set.name} here.")
        elif found.pk not in added:
            added.append(found.pk)
    board = services.leaderboard(rule_set, universe, request.user, added)
    can_benchmark = is_trainer_or_admin(request.user)
    context = {
        "rule_set": rule_set,
        "game_tab": "leaderboard",
        "board": board,
        "universe": universe,
        "universes": options,
        "show_universes": len(options) > 1,
        "added": added,
        "can_benchmark": can_benchmark,
        "checked": preselection(rule_set, universe, board.rows, can_benchmark),
    }
    return render(request, "leaderboards/leaderboard.html", context)


def evolution(request: HttpRequest, pk: int) -> HttpResponse:
    """Rating history of the chosen players, one curve each; add and delete curves."""
    rule_set = _rule_set(request, pk)
    universe, options = _universe(request)
    chosen = parse_ids(request.GET.getlist("players"))
    name = request.GET.get("add", "").strip()[:150]  # a username is at most 150 characters
    if name:
        found = services.find_rated_player(rule_set, universe, name)
        if found is None:
            messages.error(request, f"Nobody called {name!r} has played {rule_set.name} here.")
        elif found.pk not in chosen:
            chosen.append(found.pk)
    measure = request.GET.get("measure", "rating")
    if measure not in stats.MEASURES:
        messages.error(request, f"There is no measure called {measure[:40]!r}; showing the rating.")
        measure = "rating"
    by_version = request.GET.get("versions") == "1"  # own bots: a curve per version
    x = request.GET.get("x", "moves")
    x = x if x in stats.LEARNING_X else "moves"  # a learning curve's axis
    chart = stats.evolution_chart(
        rule_set, universe, chosen[: stats.MAX_CURVES], measure, by_version=by_version, x=x
    )
    context = {
        "rule_set": rule_set,
        "universe": universe,
        "show_universes": len(options) > 1,
        "chart": chart,
        "chosen": list(dict.fromkeys(c.player.pk for c in chart.curves)),
        "measure": measure,
        "by_version": by_version,
        "learning": measure in stats.LEARNING_MEASURES,
        "x_axis": x,
        "x_axes": stats.LEARNING_X.items(),
        "measures": stats.MEASURES.items(),
        "choices": services.player_choices(services.board_of(rule_set, universe)),
    }
    return render(request, "leaderboards/evolution.html", context)


def learning_curve(request: HttpRequest, pk: int) -> HttpResponse:
    """ "Show Learning-curve" for one AI: the Evolution page of the game it has predicted
    the most moves of, on the Accuracy curve."""
    from django.db.models import Count

    from aiplayers.models import Prediction

    player = get_object_or_404(Player, pk=pk)
    top = (
        Prediction.objects.filter(player=player)
        .values("match__rule_set_id", "match__universe__slug")
        .annotate(n=Count("id"))
        .order_by("-n")
        .first()
    )
    if top is None:
        messages.info(request, f"{player.display_name} has made no predictions yet.")
        return redirect(player.get_absolute_url())
    url = reverse("leaderboards:evolution", args=[top["match__rule_set_id"]])
    universe = top["match__universe__slug"] or ""
    return redirect(f"{url}?measure=accuracy&players={player.pk}&universe={universe}")


def game_tournaments(request: HttpRequest, pk: int) -> HttpResponse:
    rule_set = _rule_set(request, pk)
    found = Tournament.objects.filter(rule_set=rule_set).select_related("universe")
    order = request.GET.get("sort", "-created")
    if order.lstrip("-") not in reports.SORTABLE:
        order = "-created"
    rows = reports.table(found, order)
    page = Paginator(rows, 25).get_page(request.GET.get("page"))
    context = {
        "rule_set": rule_set,
        "game_tab": "tournaments",
        "page": page,
        "sort": order,
        "sort_query": f"sort={order}",
        "can_run": is_trainer_or_admin(request.user),
    }
    return render(request, "leaderboards/game_tournaments.html", context)


@login_required
def benchmark(request: HttpRequest) -> HttpResponse:
    """ "Benchmark Selected Bots": GET asks to confirm (what will be played, how many
    games), POST starts the tournament. The leaderboard's selection form is a GET form,
    so no CSRF token ever travels in a URL."""
    if not is_trainer_or_admin(request.user):
        raise PermissionDenied("Only Trainers and Admins run tournaments.")
    data = request.POST if request.method == "POST" else request.GET
    rule_set = _rule_set(request, data.get("rule_set"))
    universe, _ = _universe(request, data.get("universe", ""))
    ids = parse_ids(data.getlist("players"))
    try:
        plan = tournaments.benchmark_plan(rule_set, universe, ids)
        if request.method == "POST":
            run = data.get("action") != "save"  # "Save plan": an unrun plan to edit first
            found = tournaments.create_from_plan(plan, request.user, run=run)
            return redirect(found.get_absolute_url())
    except tournaments.TournamentError as exc:
        messages.error(request, str(exc))
        return redirect("leaderboards:leaderboard", pk=rule_set.pk)
    players = Player.objects.in_bulk(ids)
    context = {
        "rule_set": rule_set,
        "universe": universe,
        "plan": plan,
        "players": [players[pk] for pk in ids],
        "total": sum(games for _players, games in plan.sets),
        "missing": benchmark_missing(rule_set, universe, ids),
    }
    return render(request, "leaderboards/benchmark_confirm.html", context)


def _tournament(request: HttpRequest, pk) -> Tournament:
    """A tournament the visitor may see: a hidden game's tournaments are hidden too."""
    if parse_id(pk) is None:
        raise Http404("No such tournament.")
    found = get_object_or_404(
        Tournament.objects.select_related("rule_set", "universe", "created_by"), pk=pk
    )
    _rule_set(request, found.rule_set_id)
    return found


SESSION_ADD_SOURCE = "plan_add_source"  # the last "Add the sets of" choice


def tournament(request: HttpRequest, pk: int) -> HttpResponse:
    found = _tournament(request, pk)
    planned = found.status == Tournament.Status.PLANNED
    editable = planned and edits.may_edit(found, request.user)
    sources = []
    if editable:  # tournaments of the same game (a plan plays one game)
        sources = list(Tournament.objects.filter(rule_set=found.rule_set).order_by("-id")[:50])
    context = {
        "planned": planned,
        "editable": editable,
        "can_copy": is_trainer_or_admin(request.user),
        "plan_sets": _plan_sets(found) if planned else [],
        "sources": sources,
        "last_source": request.session.get(SESSION_ADD_SOURCE, found.pk),
        "tournament": found,
        "rule_set": found.rule_set,
        "progress": reports.progress(found),
        "sets": reports.set_rows(found),
        "study_ais": study_choices(request.user),
        "study_tournament": found,
    }
    return render(request, "leaderboards/tournament.html", context)


def _plan_sets(t: Tournament) -> list[dict]:
    sets = list(t.sets.order_by("order"))
    players = Player.objects.in_bulk({pk for s in sets for pk in s.players})
    return [
        {
            "order": s.order,
            "games": s.games,
            "players": [players[pk] if pk in players else None for pk in s.players],
        }
        for s in sets
    ]


PLAN_ACTIONS = {"delete_set", "add_sets", "copy", "start", "delete"}


@login_required
def plan_action(request: HttpRequest, pk: int) -> HttpResponse:
    """The plan page's buttons (POST): delete a set, add the sets of another plan, copy,
    start, delete. Errors come back as a message on the page."""
    found = _tournament(request, pk)
    if request.method != "POST":
        return redirect(found.get_absolute_url())
    action = request.POST.get("action", "")
    try:
        if action not in PLAN_ACTIONS:
            raise tournaments.TournamentError("There is no such button.")
        if action == "delete_set":
            text = request.POST.get("set", "")
            if not (text.isascii() and text.isdigit() and len(text) <= 6):
                raise tournaments.TournamentError("Say which set to delete.")
            edits.delete_set(found.pk, int(text), request.user)
            messages.success(request, "Set deleted; the plan is now Other (edited by hand).")
        elif action == "add_sets":
            source = parse_id(request.POST.get("source", ""))
            if source is None:
                raise tournaments.TournamentError("Choose a tournament to add the sets of.")
            _tournament(request, source)  # one the visitor may see (404 otherwise)
            request.session[SESSION_ADD_SOURCE] = source
            edits.add_sets_of(found.pk, source, request.user)
            messages.success(request, "Sets added; the plan is now Other (edited by hand).")
        elif action == "copy":
            if not is_trainer_or_admin(request.user):
                raise tournaments.TournamentError("Only Trainers and Admins make tournaments.")
            copy = edits.copy_plan(found.pk, request.user)
            messages.success(request, f"Copied: {copy.name} is a new plan, not started yet.")
            return redirect(copy.get_absolute_url())
        elif action == "start":
            edits.start_plan(found.pk, request.user)
            messages.success(request, "Started: the workers are playing its games.")
        else:
            edits.delete_plan(found.pk, request.user)
            messages.success(request, f"Deleted the plan {found.name}.")
            return redirect("leaderboards:game_tournaments", pk=found.rule_set_id)
    except tournaments.TournamentError as exc:
        messages.error(request, str(exc))
    return redirect(found.get_absolute_url())


@login_required
def social(request: HttpRequest) -> HttpResponse:
    """A Social plan from the Favouritism tab's checked players: GET shows what it would
    be (its type and why), POST saves it as an unrun plan and opens its page."""
    if not is_trainer_or_admin(request.user):
        raise PermissionDenied("Only Trainers and Admins make tournaments.")
    data = request.POST if request.method == "POST" else request.GET
    rule_set = _rule_set(request, data.get("rule_set"))
    universe, _ = _universe(request, data.get("universe", ""))
    shown = get_object_or_404(Player, pk=parse_id(data.get("player", "")) or 0)
    ids = list(dict.fromkeys(parse_ids(data.getlist("players"))))
    back = f"{shown.get_absolute_url()}?tab=favouritism&game={rule_set.pk}"
    try:
        plan = edits.social_plan(rule_set, universe, shown.pk, ids)
        if request.method == "POST":
            found = tournaments.create_from_plan(plan, request.user, run=False)
            return redirect(found.get_absolute_url())
    except tournaments.TournamentError as exc:
        messages.error(request, str(exc))
        return redirect(back)
    players = Player.objects.in_bulk(ids)
    context = {
        "rule_set": rule_set,
        "universe": universe,
        "shown": shown,
        "plan": plan,
        "players": [players[pk] for pk in ids],
        "total": sum(games for _players, games in plan.sets),
        "back": back,
    }
    return render(request, "leaderboards/social_confirm.html", context)


def progress(request: HttpRequest, pk: int) -> JsonResponse:
    """The progress bar's data, read from the database (and a nudge for stalled work),
    for those who may see the tournament."""
    found = _tournament(request, pk)
    tournaments.nudge(found)
    return JsonResponse(reports.progress(found))


@login_required
def tournament_factory(request: HttpRequest) -> HttpResponse:
    """Plans by hand: game, games per set and the players of each set (Trainers, Admins)."""
    if not is_trainer_or_admin(request.user):
        raise PermissionDenied("Only Trainers and Admins run tournaments.")
    game = parse_id(request.GET.get("game", ""))
    initial = {"game": game} if game is not None else {}
    form = PlanForm(request.POST or None, user=request.user, initial=initial)
    if request.method == "POST" and form.is_valid():
        run = request.POST.get("action") != "save"  # "Save plan": start it later
        try:
            found = tournaments.create_from_plan(form.plan(), request.user, run=run)
        except tournaments.TournamentError as exc:
            form.add_error(None, str(exc))
        else:
            return redirect(found.get_absolute_url())
    status = 400 if form.errors else 200
    return render(request, "leaderboards/factory.html", {"form": form}, status=status)
