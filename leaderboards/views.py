"""Leaderboard, evolution and tournament pages. Thin: parse the request, call
``leaderboards.services`` / ``stats`` / ``tournaments``, render or redirect."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
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
from variants.bounded import bounded_int
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
    """A game's Tournaments tab: the ``reports.RECENT`` most recent tournaments playing it
    in the chosen universe, newest first, sortable by a column."""
    rule_set = _rule_set(request, pk)
    universe, options = _universe(request)
    order = request.GET.get("sort", "-created")
    if order.lstrip("-") not in reports.SORTABLE:
        order = "-created"
    hidden = RuleSet.objects.exclude(pk__in=visible_rule_sets(request.user).values("pk"))
    rows = reports.recent(rule_set, universe, hidden, order)
    context = {
        "rule_set": rule_set,
        "game_tab": "tournaments",
        "rows": rows,
        "recent": reports.RECENT,
        "sort": order,
        "universe": universe,
        "universes": options,
        "show_universes": len(options) > 1,
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
    games = {found.rule_set_id} | set(found.sets.values_list("rule_set_id", flat=True))
    games.discard(None)
    if visible_rule_sets(request.user).filter(pk__in=games).count() != len(games):
        raise Http404("No such tournament.")  # one of its games is hidden
    return found


GAME_CHOICES = 300  # games offered for a plan's set (the catalogue's visible ones)


SESSION_ADD_SOURCE = "plan_add_source"  # the last "Add the sets of" choice


def tournament(request: HttpRequest, pk: int) -> HttpResponse:
    found = _tournament(request, pk)
    planned = found.status == Tournament.Status.PLANNED
    editable = planned and edits.may_edit(found, request.user)
    sources, games = [], []
    if editable:  # tournaments of any game the visitor may see (a plan may mix games)
        seen = visible_rule_sets(request.user)
        hidden = RuleSet.objects.exclude(pk__in=seen.values("pk"))
        sources = list(
            Tournament.objects.filter(rule_set__in=seen.values("pk"))
            .exclude(sets__rule_set__in=hidden)
            .distinct()
            .order_by("-id")[:50]
        )
        games = list(seen.order_by("name").values_list("pk", "name")[:GAME_CHOICES])
    plan_sets = _plan_sets(found) if planned else []
    played = {s.rule_set_id or found.rule_set_id: s.rule_set or found.rule_set
              for s in found.sets.select_related("rule_set").order_by("order")}  # fmt: skip
    context = {
        "played": list(played.values()) or [found.rule_set],  # its games, a mixed plan's all
        "planned": planned,
        "editable": editable,
        "can_copy": is_trainer_or_admin(request.user),
        "plan_sets": plan_sets,
        "plan_players": _plan_players(plan_sets) if editable else [],
        "max_set_games": edits.MAX_SET_GAMES,
        "sources": sources,
        "games": games,
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
    sets = list(t.sets.order_by("order").select_related("rule_set"))
    players = Player.objects.in_bulk({pk for s in sets for pk in s.players})
    return [
        {
            "order": s.order,
            "games": s.games,
            "rule_set": s.rule_set or t.rule_set,
            "players": [players[pk] if pk in players else None for pk in s.players],
        }
        for s in sets
    ]


PLAN_ACTIONS = {"delete_set", "add_sets", "set_game", "edit_set", "copy", "start", "delete"}
PLAYER_CHOICES = 300  # players offered for a plan's seats (bots, Random, own bots, AIs)


def _plan_players(plan_sets: list[dict]) -> list[tuple[int, str]]:
    """The seats' choices: the players a plan may hold (as the tournament factory offers),
    and the set's own players even past the first ``PLAYER_CHOICES``."""
    kinds = [Player.Kind.RANDOM, Player.Kind.BOT, Player.Kind.OWN_BOT, Player.Kind.AI]
    found = list(Player.objects.filter(kind__in=kinds).order_by("kind", "name")[:PLAYER_CHOICES])
    seen = {p.pk for p in found}
    found += [p for s in plan_sets for p in s["players"] if p and p.pk not in seen]
    return [(p.pk, p.display_name) for p in dict.fromkeys(found)]


def _edit_set(request: HttpRequest, found: Tournament) -> str:
    """The set form: its game, number of games and players, saved together."""
    order = _set_order(request, "Say which set to change.")
    game_id = parse_id(request.POST.get("game", ""))
    game = visible_rule_sets(request.user).filter(pk=game_id or 0).first()
    if game is None:
        raise tournaments.TournamentError("Choose a game from the list for the set.")
    games = bounded_int(request.POST.get("games", ""), 1, edits.MAX_SET_GAMES)
    if games is None:
        raise tournaments.TournamentError(
            f"Say how many games the set plays: a whole number from 1 to {edits.MAX_SET_GAMES}."
        )
    posted = request.POST.getlist("player")[: edits.MAX_SEATS + 1]
    players = [parse_id(p) for p in posted]
    if not players or None in players:
        raise tournaments.TournamentError("Choose a player from the list for every seat.")
    kind = found.kind
    if not edits.edit_set(found.pk, order, request.user, game, games, players):
        return "Nothing to save: the set already plays that."
    found.refresh_from_db(fields=["kind"])
    other = " The plan is now Other (edited by hand)." if found.kind != kind else ""
    return f"Set saved: {games} games of {game.name}.{other}"


def _set_order(request: HttpRequest, why: str) -> int:
    """The set a button names (its order: a small number), else a ``TournamentError``."""
    text = request.POST.get("set", "")
    if not (text.isascii() and text.isdigit() and len(text) <= 6):
        raise tournaments.TournamentError(why)
    return int(text)


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
            order = _set_order(request, "Say which set to delete.")
            edits.delete_set(found.pk, order, request.user)
            messages.success(request, "Set deleted; the plan is now Other (edited by hand).")
        elif action == "set_game":
            order = _set_order(request, "Say which set plays the game.")
            game_id = parse_id(request.POST.get("game", ""))
            game = visible_rule_sets(request.user).filter(pk=game_id or 0).first()
            if game is None:
                raise tournaments.TournamentError("Choose a game from the list for the set.")
            kind = found.kind
            found = edits.change_game(found.pk, order, game, request.user)
            other = " The plan is now Other (edited by hand)." if found.kind != kind else ""
            messages.success(request, f"The set plays {game.name}.{other}")
        elif action == "edit_set":
            messages.success(request, _edit_set(request, found))
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
