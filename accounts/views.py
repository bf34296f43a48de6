"""Sign-up, the Admins' Users page and the player pages. Thin: parse, call a service,
render or redirect."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models.functions import Lower
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from accounts.decorators import admin_required
from accounts.forms import RoleForm, SignUpForm, UserSearchForm
from accounts.models import Player, Role
from accounts.navigation import local_url
from accounts.roles import role_of
from accounts.services import RoleChangeRefused, check_role_change, set_role
from variants.services import CREATOR_QUOTA, visible_rule_sets

USERS_PER_PAGE = 50
CREATIONS_PER_PAGE = 25
PLAYER_TABS = {"stats": "Stats", "favouritism": "Favouritism", "creations": "Creations"}


class LoginView(auth_views.LoginView):
    template_name = "accounts/login.html"
    redirect_authenticated_user = True

    def get_redirect_url(self) -> str:
        # ?next= pointing back at this page would make Django refuse (a redirect loop).
        url = super().get_redirect_url()
        return "" if url.split("?")[0] == self.request.path else url


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("variants:home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(
            request,
            f"Welcome, {user.username}! Choose a game below and press Play: a bot answers at "
            f"once. As a Creator you can also create up to {CREATOR_QUOTA} games.",
        )
        return redirect(_next_url(request) or "variants:home")
    return render(request, "accounts/signup.html", {"form": form})


def _next_url(request: HttpRequest) -> str | None:
    return local_url(request, request.POST.get("next") or request.GET.get("next"))


# --- Users (Admins) ---------------------------------------------------------------------


@admin_required
def users(request: HttpRequest) -> HttpResponse:
    """Every user with their role; an Admin changes roles from here (after confirming)."""
    search = UserSearchForm(request.GET or None)
    accounts = get_user_model().objects.select_related("player").order_by(Lower("username"))
    if search.is_valid() and search.cleaned_data["q"]:
        accounts = accounts.filter(username__icontains=search.cleaned_data["q"])
    page = Paginator(accounts, USERS_PER_PAGE).get_page(request.GET.get("page"))
    rows = [_user_row(user, request.user) for user in page]
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "search": search,
        "page": page,
        "rows": rows,
        "roles": Role.choices,
        "query": query.urlencode(),
    }
    return render(request, "accounts/users.html", context, status=400 if search.errors else 200)


def _user_row(user, admin) -> dict:
    try:
        check_role_change(user, admin)
        locked_reason = ""
    except RoleChangeRefused as exc:
        locked_reason = str(exc)
    return {"user": user, "role": role_of(user), "locked_reason": locked_reason}


@admin_required
@require_POST
def change_role(request: HttpRequest, pk: int) -> HttpResponse:
    """POST role: ask to confirm; POST role + confirm: change it."""
    user = get_object_or_404(get_user_model(), pk=pk)
    form = RoleForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose one of the roles: Creator, Trainer or Admin.")
        return redirect("accounts:users")
    role = Role(form.cleaned_data["role"])
    if not form.cleaned_data["confirm"]:
        context = {"account": user, "role": role, "current": role_of(user)}
        return render(request, "accounts/role_confirm.html", context)
    try:
        set_role(user, role, by=request.user)
    except RoleChangeRefused as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"{user.username} is now a {role.label}.")
    return redirect("accounts:users")


# --- Player pages -----------------------------------------------------------------------


def player(request: HttpRequest, pk: int) -> HttpResponse:
    """A player's page: the Stats tab (per game: last match, matches, % won and drawn,
    rating, top burst, time to move) or the Creations tab, the games the player's user
    created that the visitor may see."""
    shown = get_object_or_404(Player.objects.select_related("user", "owner"), pk=pk)
    tab = request.GET.get("tab", "stats")
    if tab not in PLAYER_TABS:
        tab = "stats"  # an old or mistyped link still lands on the page
    context = {"shown": shown, "tab": tab, "tabs": PLAYER_TABS, "role": role_of(shown.user)}
    if shown.kind == Player.Kind.OWN_BOT:  # connected?, version, games, ratings per version
        from ownbots.views import panel

        context.update(panel(request, shown))
    if tab == "stats":
        from aiplayers.views import study_choices
        from leaderboards.stats import player_stats

        context["stats"] = player_stats(shown, visible_rule_sets(request.user))
        context["study_ais"] = [a for a in study_choices(request.user) if a.player_id != shown.pk]
        context["study_player"] = shown
    context["ai"] = getattr(shown, "ai", None) if shown.kind in ("ai", "bot") else None
    if tab == "favouritism":
        context.update(_favouritism(request, shown))
    if tab == "creations" and shown.user_id:
        creations = visible_rule_sets(request.user).filter(creator_id=shown.user_id)
        context["page"] = Paginator(creations.order_by(Lower("name")), CREATIONS_PER_PAGE).get_page(
            request.GET.get("page")
        )
    return render(request, "accounts/player.html", context)


def _favouritism(request: HttpRequest, shown: Player) -> dict:
    """The games (and universes) the player is rated in, the one chosen (``?game=`` rule
    set id, ``&universe=`` slug; else the most played), and its opponents' favouritism,
    ordered by ``&sort=`` (``favouritism.SORTS``)."""
    from accounts.roles import is_trainer_or_admin
    from leaderboards.favouritism import DEFAULT_SORT, SORTS, favour_rows, order_rows
    from leaderboards.models import Rating
    from leaderboards.services import MACHINES

    ratings = list(
        Rating.objects.filter(player=shown, rule_set__in=visible_rule_sets(request.user))
        .select_related("rule_set", "universe")
        .order_by("-matches", "rule_set__name")
    )
    if not ratings:
        return {"favour_games": []}
    asked = (request.GET.get("game", ""), request.GET.get("universe", ""))
    chosen = next(
        (r for r in ratings if (str(r.rule_set_id), r.universe.slug) == asked), ratings[0]
    )
    sort = request.GET.get("sort", DEFAULT_SORT)[:20]
    if sort.lstrip("-") not in SORTS:
        sort = DEFAULT_SORT  # an old or mistyped link still shows the table
    rows = favour_rows(shown.pk, chosen.rule_set, chosen.universe, sort)
    return {
        "favour_games": ratings,
        "favour_chosen": chosen,
        "favour_rows": rows,
        # the opponent it is most favoured by (``favouritism.favoured_by``), in any order
        "favour_top": order_rows(rows, DEFAULT_SORT)[0].opponent.pk if rows else None,
        "favour_sort": sort,
        "favour_machines": [str(k) for k in MACHINES],
        "favour_shown_machine": shown.kind in MACHINES,
        "can_benchmark": is_trainer_or_admin(request.user),
    }


@login_required
def personas(request: HttpRequest) -> HttpResponse:
    """The user's personas, a form to add one, and the universes they live in."""
    from accounts.personas import PersonaError, PersonaForm, create_persona, personas_of

    action = request.POST.get("action")
    if action in ("join", "leave"):
        return _universe_action(request, action)
    form = PersonaForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            persona = create_persona(request.user, form.cleaned_data["name"])
        except PersonaError as exc:
            form.add_error("name", str(exc))
        else:
            messages.success(request, f"{persona.name} is ready to play.")
            return redirect("accounts:personas")
    status = 400 if form.errors else 200
    from leaderboards.models import DEFAULT_UNIVERSE_SLUG, Universe

    others = Universe.objects.exclude(slug=DEFAULT_UNIVERSE_SLUG).order_by("name")
    context = {
        "form": form,
        "personas": personas_of(request.user).prefetch_related("universes"),
        "universe_names": others.values_list("name", flat=True)[:200],
    }
    return render(request, "accounts/personas.html", context, status=status)


def _universe_action(request: HttpRequest, action: str) -> HttpResponse:
    """Put a persona into a universe (made if new) or take it out; back to the page."""
    from leaderboards.universes import UniverseError, join, leave

    persona = request.POST.get("persona")
    universe = request.POST.get("universe", "")
    try:
        if action == "join":
            universe, persona, made = join(request.user, universe, persona)
            if made:
                messages.success(request, f"You made {universe.name}; {persona.name} is in it.")
            else:
                messages.success(request, f"{persona.name} is now in {universe.name}.")
        else:
            universe, persona = leave(request.user, universe, persona)
            messages.success(request, f"{persona.name} left {universe.name}; its ratings stay.")
    except UniverseError as exc:
        messages.error(request, str(exc))
    return redirect("accounts:personas")
