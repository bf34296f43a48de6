"""Match pages: start a match, answer an invitation, play (the live page), watch a replay,
list one's matches. Thin: forms check, ``play.create`` and ``play.reads`` do the rest."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from variants.ids import parse_id
from variants.stories import story_of

from . import clock, create, reads, seating
from .crews import crew_order
from .endings import ending_words
from .errors import MatchError
from .forms import MAX_SEATS, StartForm, seats_needed
from .models import Match
from .replay import frame_window


def start_form(request: HttpRequest, data=None) -> StartForm:
    """The start form; ``?game=<pk>&seat2=<choice>`` prefill it ("Play New Game" links)."""
    initial = {}
    game = parse_id(request.GET.get("game", ""))
    if game is not None:
        initial["game"] = game
    for n in range(1, 5):
        if request.GET.get(f"seat{n}"):
            initial[f"seat_{n}"] = request.GET[f"seat{n}"]
    return StartForm(data, user=request.user, initial=initial)


@login_required
def new_match(request: HttpRequest) -> HttpResponse:
    form = start_form(request, request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            match = _start(request, data)
        except MatchError as exc:
            form.add_error(None, exc.reason)
        else:
            return redirect(match.get_absolute_url())
    status = 400 if request.method == "POST" else 200
    return render(request, "play/new.html", form_context(form), status=status)


def form_context(form: StartForm) -> dict:
    """What ``play/start_form.html`` needs: the games with their seat counts, the seats."""
    games = [
        (r, seats_needed(r.document), crew_order(r.document) is not None)
        for r in form.fields["game"].queryset
    ]
    seat_fields = [
        (form[f"seat_{n}"], form[f"invite_{n}"], form[f"crew_{n}"]) for n in range(1, MAX_SEATS + 1)
    ]
    from accounts.services import STANDARD_BOTS

    bot_help = [(name, blurb) for name, _spec, blurb in STANDARD_BOTS]
    return {"form": form, "games": games, "seat_fields": seat_fields, "bot_help": bot_help}


def _start(request, data) -> Match:
    choices = data["choices"]
    timers = {
        "afk": data["afk"],
        "afk_timeout": data["afk_timeout"],
        "afk_warning": data["afk_warning"],
    }
    me = [c for c in choices if c.player is not None and c.player.user_id == request.user.pk]
    solo = len(me) == 1 and not me[0].crew
    if solo and all(c.kind == "open" for c in choices if c not in me):
        # "Me" against "Next available human": join a waiting match if there is one.
        return create.join_queue(data["game"], request.user, **timers)
    # The usual ("") is gentle in a person's first games against a bot; a choice is kept.
    gentle = create.gentle(choices, request.user)
    chosen = {key: data.get(key) or ("off" if gentle else "on") for key in ("turn_timer", "series")}
    return create.create_match(
        data["game"],
        choices,
        request.user,
        universe=data["universe"],
        turn_timer=chosen["turn_timer"] == "on",
        series=chosen["series"] == "on",
        **timers,
    )


def match_page(request: HttpRequest, pk: int) -> HttpResponse:
    visible = reads.visible_matches(request.user)
    match = get_object_or_404(visible.select_related("rule_set", "universe"), pk=pk)
    state = reads.snapshot(match.pk, request.user)
    boot = {
        "matchId": match.pk,
        "wsUrl": f"/ws/match/{match.pk}/",
        "name": match.rule_set.name,
        "rulesLine": match.rule_set.summary,
        # Public words of the game (names for its shapes and spaces): issue 38.
        "story": story_of(match.rule_set),
        "replayUrl": reverse("play:replay", kwargs={"pk": match.pk}),
        "playNewUrl": _play_again_url(match),
        "homeUrl": reverse("variants:home"),
        "answerUrl": reverse("play:answer", kwargs={"pk": match.pk}),
        "ratingsUrl": reverse("play:ratings", kwargs={"pk": match.pk}),
        "state": state,
    }
    pending = reads.pending_invitation(match, request.user)
    can_cancel = (
        match.status == Match.Status.INVITED
        and request.user.is_authenticated
        and match.created_by_id == request.user.pk
    )
    # The game has a time control that this match switched off (issue 38): say so.
    untimed = not match.turn_timer and clock.turn_ms(match.rule_set.document) is not None
    context = {
        "match": match,
        "boot": boot,
        "pending": pending,
        "can_cancel": can_cancel,
        "untimed": untimed,
    }
    return render(request, "play/match.html", context)


def _play_again_url(match: Match) -> str:
    """The start form for the same game with the same bots (and Random) in their seats."""
    url = reverse("play:new") + f"?game={match.rule_set_id}"
    for seat in match.seats.select_related("player").order_by("index"):
        player = seat.player
        if player is not None and player.kind in (
            player.Kind.BOT,
            player.Kind.RANDOM,
            player.Kind.OWN_BOT,
            player.Kind.AI,
        ):
            url += f"&seat{seat.index + 1}=player:{player.pk}"
    return url


@require_POST
@login_required
def answer(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(reads.visible_matches(request.user), pk=pk)
    choice = request.POST.get("answer")
    try:
        if choice in ("accept", "decline"):
            create.answer_invitation(match.pk, request.user, accept=choice == "accept")
        elif choice == "cancel":
            create.cancel(match.pk, request.user)
        else:
            raise MatchError("malformed", "Answer with accept, decline or cancel.")
    except MatchError as exc:
        messages.error(request, exc.reason)
    return redirect(match.get_absolute_url())


def replay(request: HttpRequest, pk: int) -> HttpResponse:
    """The replay page: its first ``REPLAY_PAGE_FRAMES`` frames; the script fetches the
    others a page at a time from ``replay_frames`` as the viewer steps (a long game's
    every view at once was an 83 MB page)."""
    visible = reads.visible_matches(request.user)
    match = get_object_or_404(visible.select_related("rule_set"), pk=pk)
    seats = reads.snapshot(match.pk, None, [])["seats"]
    size = settings.REPLAY_PAGE_FRAMES
    window = frame_window(match, seating.held_seats(match, request.user), 0, size)
    data = {
        "matchId": match.pk,
        "name": match.rule_set.name,
        "rulesLine": match.rule_set.summary,
        "seats": seats,
        "frames": window["frames"],
        "total": window["total"],
        "pageSize": size,
        "framesUrl": reverse("play:replay_frames", kwargs={"pk": match.pk}),
        "outcome": match.outcome,
        "matchUrl": match.get_absolute_url(),
    }
    return render(request, "play/replay.html", {"match": match, "replay": data})


def replay_frames(request: HttpRequest, pk: int) -> JsonResponse:
    """``?start=K``: the replay's frames K .. K + REPLAY_PAGE_FRAMES - 1 as JSON
    ``{"start", "total", "frames"}``, each the viewer's view only (as the page's)."""
    visible = reads.visible_matches(request.user)
    match = get_object_or_404(visible.select_related("rule_set"), pk=pk)
    text = request.GET.get("start", "0")
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        return JsonResponse({"error": "start: a frame number, 0 or more"}, status=400)
    size = settings.REPLAY_PAGE_FRAMES
    you = seating.held_seats(match, request.user)
    return JsonResponse(frame_window(match, you, int(text), size))


def match_list(request: HttpRequest) -> HttpResponse:
    """Your invitations and matches, and the matches anyone may watch.

    A trainer's benchmark tournaments play hundreds of games in their bots' names: those
    are left out of "Your matches" unless asked for (``?tournaments=1``); the tournament
    page lists them anyway."""
    visible = reads.visible_matches(request.user)
    live = visible.filter(status=Match.Status.ACTIVE).select_related("rule_set")
    mine = Match.objects.none()
    invitations = []
    with_tournaments = request.GET.get("tournaments") == "1"
    hidden = 0
    if request.user.is_authenticated:
        players = (
            Q(seats__player__user=request.user)
            | Q(seats__player__owner=request.user)
            | Q(seats__crew__player__user=request.user)
            | Q(seats__crew__player__owner=request.user)
        )
        mine = visible.filter(players | Q(created_by=request.user)).distinct()
        if not with_tournaments:
            hidden = mine.filter(tournament__isnull=False).count()
            mine = mine.filter(tournament__isnull=True)
        invitations = reads.invitations_for(request.user)
    page = Paginator(mine.select_related("rule_set", "tournament").order_by("-id"), 20).get_page(
        request.GET.get("page")
    )
    for match in page.object_list:  # the match page's words for its ending
        match.ending = ending_words(match.outcome)
    context = {
        "live": live.order_by("-id")[:20],
        "page": page,
        "invitations": invitations,
        "with_tournaments": with_tournaments,
        "hidden_tournament_games": hidden,
        "query": "tournaments=1" if with_tournaments else "",
    }
    return render(request, "play/matches.html", context)


def ratings(request: HttpRequest, pk: int) -> JsonResponse:
    """What a finished match did to its players' ratings (the game-over panel asks until
    ``ready``): each rated seat's shown rating before and after, and the change."""
    from leaderboards.models import RatingHistory
    from leaderboards.rating import display
    from leaderboards.services import counts_for_ratings

    match = get_object_or_404(reads.visible_matches(request.user), pk=pk)
    if not match.is_over:
        return JsonResponse({"rated": match.rated, "ready": False, "changes": []})
    seats = list(match.seats.select_related("player").order_by("index"))
    rated = counts_for_ratings(match, seats)
    rows = {
        h.player_id: h
        for h in RatingHistory.objects.filter(match=match).select_related("player__user")
    }
    changes = []
    for seat in seats:
        row = rows.get(seat.player_id) if seat.player_id else None
        if row is None:
            continue
        before, after = display(row.ordinal_before), display(row.ordinal_after)
        changes.append(
            {
                "seat": seat.index,
                "name": row.player.display_name,
                "before": before,
                "after": after,
                "change": after - before,
            }
        )
    return JsonResponse({"rated": rated, "ready": bool(changes) or not rated, "changes": changes})
