"""Writes to matches: create, invite, match-make, move, resign, draw, AFK, presence.

Every write locks the match row (``select_for_update``), rebuilds the position from the
log, checks, appends to the log, re-plans the timers (``play.clock``) and, on commit only,
notifies the match's group (``play.notify``). Views, consumers and the timekeeper call
these functions; none of them decides a rule: the engine does.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.db.models import Prefetch, Q, prefetch_related_objects
from django.utils import timezone

from accounts.models import Player
from variants.engine import IllegalMove
from variants.engine.errors import InvalidMoveText

from . import clock, crews, notify, seat_query, secrecy
from .errors import MatchError
from .events import game_over_event
from .models import CrewMember, Match, Move, Presence, Seat
from .replay import current_state, game_of, game_of_rule_set, remember
from .signals import match_finished

INVITE_SECONDS = 600


@dataclass(frozen=True)
class SeatChoice:
    """What the start form chose for one non-Chaos seat."""

    kind: str  # "player" or "open"
    player: Player | None = None
    crew: tuple[Player, ...] = ()  # more people on the seat's team (nested games only)


# -- who holds which seat --------------------------------------------------------------


def controls(player: Player | None, user) -> bool:
    """May ``user`` move for ``player``? Their own human player and their personas."""
    if player is None or not getattr(user, "is_authenticated", False):
        return False
    if player.kind == Player.Kind.HUMAN:
        return player.user_id == user.pk
    return player.kind == Player.Kind.PERSONA and player.owner_id == user.pk


def controls_seat(seat: Seat, user) -> bool:
    """May ``user`` play this seat: its player, or an accepted member of its crew?"""
    if seat.invitation == Seat.Invitation.ACCEPTED and controls(seat.player, user):
        return True
    return any(
        m.invitation == Seat.Invitation.ACCEPTED and controls(m.player, user)
        for m in crews.crew_rows(seat)
    )


def held_seats(match: Match, user, seats: list[Seat] | None = None) -> list[int]:
    if not getattr(user, "is_authenticated", False):
        return []
    return [s.index for s in (seats or _seats(match)) if controls_seat(s, user)]


def _pending_for(seats: list[Seat], user) -> list:
    """The seats and crew rows ``user`` is invited to and has not answered."""
    pending = Seat.Invitation.PENDING
    mine = [s for s in seats if s.invitation == pending and controls(s.player, user)]
    for seat in seats:
        mine += [
            m for m in crews.crew_rows(seat) if m.invitation == pending and controls(m.player, user)
        ]
    return mine


def _all_accepted(seats: list[Seat]) -> bool:
    accepted = Seat.Invitation.ACCEPTED
    return all(
        s.invitation == accepted and all(m.invitation == accepted for m in crews.crew_rows(s))
        for s in seats
    )


def server_moves(seat: Seat) -> bool:
    """Chaos, Random and bots are moved by the server."""
    if seat.kind == Seat.Kind.CHAOS:
        return True
    return seat.player is not None and seat.player.kind in (Player.Kind.BOT, Player.Kind.RANDOM)


def _lock(match_id: int) -> Match:
    return _get(match_id, lock=True)


def _get(match_id: int, *, lock: bool = False) -> Match:
    rows = Match.objects.select_related("rule_set")
    try:
        return (rows.select_for_update(of=("self",)) if lock else rows).get(pk=match_id)
    except Match.DoesNotExist:
        raise MatchError("not-found", f"There is no match {match_id}.") from None


def _connected(seats: list[Seat]) -> set[int]:
    """The seats that a socket holds (``connected``, as ``play.seat_query`` reads them)."""
    return {s.index for s in seats if s.connected}


def _with_crews(match: Match, seats: list[Seat]) -> list[Seat]:
    if crews.has_crews(match):  # one more query, only for games that can have crews
        rows = CrewMember.objects.select_related("player__user").order_by("order")
        prefetch_related_objects(seats, Prefetch("crew", queryset=rows))
    return seats


def _seats(match: Match) -> list[Seat]:
    return _with_crews(match, seat_query.seats_of(match))


def _match_and_seats(match_id: int, *, lock: bool) -> tuple[Match, list[Seat]]:
    """The match and its seats in one round trip (the path of every move and socket);
    with ``lock``, the match row is locked as by ``_lock`` (see ``play.seat_query``)."""
    match, seats = seat_query.match_and_seats(match_id, lock=lock)
    if match is None:  # no such match (or, never from create_match, one without seats)
        match = _get(match_id, lock=lock)
        return match, _seats(match)
    return match, _with_crews(match, seats)


# -- creating and starting ---------------------------------------------------------------


def create_match(
    rule_set,
    choices: list[SeatChoice],
    by,
    *,
    afk_timeout: int = 60,
    afk_warning: int = 20,
    seed: int | None = None,
    rated: bool = True,
    universe=None,
    previous: Match | None = None,
) -> Match:
    """A match of ``rule_set`` with one choice per non-Chaos seat, in seat order. Humans
    other than ``by`` are invited; open seats wait for matchmaking; once every seat has
    accepted the match starts. It is rated in ``universe`` (None: the public one).
    With ``previous`` it is that match's series' next game: its players, who all said
    Ready, are seated at once (no invitations)."""
    game = game_of_rule_set(rule_set)
    needed = game.nseats - (game.chaos is not None)
    if len(choices) != needed:
        raise MatchError("malformed", f"{rule_set.name} needs {needed} players, not {len(choices)}")
    _check_afk(afk_timeout, afk_warning)
    now = timezone.now()
    with transaction.atomic():
        match = Match.objects.create(
            rule_set=rule_set,
            seed=random.SystemRandom().randrange(2**31) if seed is None else seed,
            created_by=by if getattr(by, "is_authenticated", False) else None,
            afk_timeout=afk_timeout,
            afk_warning=afk_warning,
            rated=rated,
            universe=universe,
            previous=previous,
            series_game=1 if previous is None else previous.series_game + 1,
        )
        picks = iter(choices)
        for index in range(game.nseats):
            if index == game.chaos:
                Seat.objects.create(match=match, index=index, kind=Seat.Kind.CHAOS)
            else:
                choice = next(picks)
                fields = _seat_fields(choice, by, carried=previous is not None)
                seat = Seat.objects.create(match=match, index=index, **fields)
                _add_crew(match, seat, choice, by, carried=previous is not None)
        seats = _seats(match)
        invited = {
            s.player.user_id for s in seats if s.invitation == Seat.Invitation.PENDING and s.player
        }
        for seat in seats:
            invited |= {
                m.player.user_id
                for m in crews.crew_rows(seat)
                if m.invitation == Seat.Invitation.PENDING
            }
        for user_id in sorted(invited):
            notify.user_event(user_id, _invitation_event(match, by))
        if _all_accepted(seats):
            _start(match, seats, now)
        else:
            match.invite_deadline = now + timedelta(seconds=INVITE_SECONDS)
            clock.plan(match, seats, None, now)
            match.save()
    return match


def _check_afk(timeout: int, warning: int) -> None:
    if not (isinstance(timeout, int) and 10 <= timeout <= 3600):
        raise MatchError("malformed", "afkTimeout: whole seconds from 10 to 3600.")
    if not (isinstance(warning, int) and 1 <= warning < timeout):
        raise MatchError("malformed", "afkWarning: whole seconds, at least 1 and under afkTimeout.")


def _seat_fields(choice: SeatChoice, by, *, carried: bool = False) -> dict:
    """A seat's fields; ``carried``: a series' player, seated as in the last game."""
    if choice.kind == Seat.Kind.OPEN:
        return {"kind": Seat.Kind.OPEN, "invitation": Seat.Invitation.PENDING}
    player = choice.player
    if player is None:
        raise MatchError("malformed", "Every seat needs a player.")
    if carried:
        return {"player": player, "invitation": Seat.Invitation.ACCEPTED}
    if player.kind == Player.Kind.PERSONA and player.owner_id != getattr(by, "pk", None):
        raise MatchError("not-allowed", f"{player.display_name} is someone else's persona.")
    invited = player.kind == Player.Kind.HUMAN and player.user_id != getattr(by, "pk", None)
    return {
        "player": player,
        "invitation": Seat.Invitation.PENDING if invited else Seat.Invitation.ACCEPTED,
    }


def _add_crew(match: Match, seat: Seat, choice: SeatChoice, by, *, carried=False) -> None:
    """The crew of a seat: people only, each once, in a nested game that has crews."""
    if not choice.crew:
        return
    who = f"Player {seat.index + 1}'s crew"
    if not crews.has_crews(match):
        raise MatchError("malformed", f"{who}: crews are for nested-board games only.")
    if seat.player is None or seat.player.kind not in crews.CREW_KINDS:
        raise MatchError("malformed", f"{who}: only a seat played by a person can have a crew.")
    if len(choice.crew) + 1 > crews.MAX_CREW:
        raise MatchError("malformed", f"{who}: at most {crews.MAX_CREW} people share a team.")
    seen = {seat.player.pk}
    for order, player in enumerate(choice.crew, start=1):
        if player.kind not in crews.CREW_KINDS:
            raise MatchError("malformed", f"{who}: {player.display_name} is not a person.")
        if player.pk in seen:
            raise MatchError("malformed", f"{who}: {player.display_name} is on it twice.")
        seen.add(player.pk)
        fields = _seat_fields(SeatChoice("player", player), by, carried=carried)
        CrewMember.objects.create(
            seat=seat, order=order, player=player, invitation=fields["invitation"]
        )


def _invitation_event(match: Match, by) -> dict:
    return {
        "type": "invitation",
        "matchId": match.pk,
        "url": match.get_absolute_url(),
        "from": getattr(by, "username", "someone"),
        "ruleSet": match.rule_set.name,
    }


def _start(match: Match, seats: list[Seat], now) -> None:
    match.status = Match.Status.ACTIVE
    match.started = now
    match.invite_deadline = None
    state = current_state(match)
    clock.plan(match, seats, state, now, new_turn=True)
    match.save()
    notify.match_changed(match, [])


def answer_invitation(match_id: int, user, accept: bool) -> Match:
    with transaction.atomic():
        match = _lock(match_id)
        seats = _seats(match)
        mine = _pending_for(seats, user)
        if match.status != Match.Status.INVITED or not mine:
            raise MatchError("not-allowed", "There is no invitation for you to answer here.")
        for row in mine:  # seats and crew rows alike
            row.invitation = Seat.Invitation.ACCEPTED if accept else Seat.Invitation.DECLINED
            row.save(update_fields=["invitation"])
        if not accept:
            _abort(match, seats, f"{user.username} declined the invitation.")
        elif _all_accepted(seats):
            _start(match, seats, timezone.now())
        else:
            notify.match_changed(match, [])
    return match


def cancel(match_id: int, user) -> Match:
    """The creator (or an invitee) calls off a match that has not started."""
    with transaction.atomic():
        match = _lock(match_id)
        seats = _seats(match)
        involved = match.created_by_id == user.pk or any(
            controls(p, user) for s in seats for p in crews.members(s)
        )
        if match.status != Match.Status.INVITED or not involved:
            raise MatchError("not-allowed", "Only a match that has not started can be called off.")
        _abort(match, seats, f"{user.username} called the match off.")
    return match


def _abort(match: Match, seats: list[Seat], why: str) -> None:
    match.status = Match.Status.ABORTED
    match.finished = timezone.now()
    match.outcome = {"type": "game:aborted", "reason": why}
    clock.clear(match, seats)
    match.save()
    notify.match_changed(match, [{"type": "game:aborted", "reason": why}])


# -- matchmaking ------------------------------------------------------------------------


def join_queue(rule_set, user, *, afk_timeout: int = 60, afk_warning: int = 20) -> Match:
    """ "Next available human": take the oldest open seat of a waiting match of this game
    (not one of the user's own), or open a new match with the user in the first seat.
    The waiting match's row is locked with SKIP LOCKED, so two joiners take two seats."""
    from accounts.services import human_player

    player = human_player(user)
    with transaction.atomic():
        waiting = (
            Match.objects.select_for_update(skip_locked=True)
            .filter(rule_set=rule_set, status=Match.Status.INVITED, seats__kind=Seat.Kind.OPEN)
            .exclude(seats__player=player)
            .order_by("created")
            .first()
        )
        if waiting is None:
            game = game_of_rule_set(rule_set)
            others = game.nseats - (game.chaos is not None) - 1
            choices = [SeatChoice("player", player)] + [SeatChoice("open")] * others
            return create_match(
                rule_set, choices, user, afk_timeout=afk_timeout, afk_warning=afk_warning
            )
        seats = _seats(waiting)
        seat = next(s for s in seats if s.kind == Seat.Kind.OPEN)
        seat.kind, seat.player, seat.invitation = Seat.Kind.PLAYER, player, Seat.Invitation.ACCEPTED
        seat.save(update_fields=["kind", "player", "invitation"])
        if _all_accepted(seats):
            _start(waiting, seats, timezone.now())
            for other in seats:
                if other.player and other.player.user_id and other.player.user_id != user.pk:
                    notify.user_event(other.player.user_id, matched_event(waiting))
        else:
            notify.match_changed(waiting, [])
    return waiting


def matched_event(match: Match) -> dict:
    return {"type": "matchmaking:matched", "matchId": match.pk, "url": match.get_absolute_url()}


def leave_queue(user) -> int:
    """Call off the user's matches still waiting for an open seat; how many."""
    ids = list(
        Match.objects.filter(
            status=Match.Status.INVITED, seats__kind=Seat.Kind.OPEN, created_by=user
        ).values_list("pk", flat=True)
    )
    for match_id in ids:
        try:
            cancel(match_id, user)
        except MatchError:
            pass  # it started or ended meanwhile
    return len(ids)


# -- moves --------------------------------------------------------------------------------


def _acting_seat(match: Match, seats: list[Seat], user, state, seat: int | None) -> int:
    held = held_seats(match, user, seats)
    if match.status == Match.Status.INVITED:
        raise MatchError("not-started", "The match has not started: players are still invited.")
    if match.is_over:
        raise MatchError("finished", "The match is over.")
    if not held:
        raise MatchError("not-seated", "You are watching this match, not playing in it.")
    if seat is not None:
        if seat not in held:
            raise MatchError("not-seated", f"Seat {seat + 1} is not yours.")
        return seat
    waiting = [s for s in held if s in state.to_move()]
    return (waiting or held)[0]


def play(match_id: int, user, text: str, *, seat: int | None = None, ply: int | None = None):
    """A move by a person (``text`` in the game's notation, or pass/draw/accept/decline)."""
    with transaction.atomic():
        match, seats = _match_and_seats(match_id, lock=True)
        state = current_state(match)
        seat = _acting_seat(match, seats, user, state, seat)
        if ply is not None and ply != match.ply:
            raise MatchError("stale", "The position changed before your move arrived; look again.")
        if seat not in state.to_move():
            raise MatchError("not-your-turn", "It is not your turn.")
        _check_crew_turn(match, seats[seat], user)
        game = game_of(match)
        try:
            move = game.parse_move(text)
        except InvalidMoveText:
            raise MatchError("malformed", f"{text[:40]!r} is not a move of this game.") from None
        _append(match, seats, state, seat, Move.Kind.MOVE, move, _draw_events(move, seat))


def _check_crew_turn(match: Match, seat: Seat, user) -> None:
    """In a crew taking turns, only the member whose turn it is moves for the team."""
    due = crews.due_member(match, seat)
    if due is None:
        return
    member = crews.members(seat)[due]
    if not controls(member, user):
        raise MatchError("not-your-turn", f"It is {member.display_name}'s turn in your crew.")


def blocked_seats(match: Match, seats: list[Seat], user, you: list[int]) -> list[int]:
    """Seats of ``you`` whose crew's next move belongs to another member."""
    blocked = []
    for index in you:
        due = crews.due_member(match, seats[index])
        if due is not None and not controls(crews.members(seats[index])[due], user):
            blocked.append(index)
    return blocked


def _draw_events(move, seat: int) -> list[dict]:
    text = str(move)
    if text == "draw":
        return [{"type": "draw:offer", "seat": seat}]
    if text in ("accept", "decline"):
        return [{"type": "draw:answer", "seat": seat, "accept": text == "accept"}]
    return []


def resign(match_id: int, user, *, seat: int | None = None) -> None:
    with transaction.atomic():
        match, seats = _match_and_seats(match_id, lock=True)
        state = current_state(match)
        seat = _acting_seat(match, seats, user, state, seat)
        _append(match, seats, state, seat, Move.Kind.RESIGN, None, [])


def _append(match, seats, state, seat: int, kind: str, move, events: list[dict], *, auto=False):
    """Apply one row to the position and the log (the caller holds the match's lock)."""
    now = timezone.now()
    try:
        if kind == Move.Kind.MOVE:
            state.apply(seat, move)
        elif kind == Move.Kind.SKIP:
            state.skip(seat)
        else:
            state.forfeit(seat, clock.FORFEIT_REASON[kind])
    except IllegalMove as exc:
        code = "illegal" if kind == Move.Kind.MOVE else "not-allowed"
        raise MatchError(code, _sentence(exc)) from None
    started = clock.turn_started(match, seat)
    think = 0 if started is None else (now - started).total_seconds()
    match.ply += 1
    Move.objects.create(
        match=match,
        ply=match.ply,
        seat=seat,
        kind=kind,
        notation="" if move is None else str(move),
        auto=auto,
        think_ms=max(0, int(think * 1000)),
    )
    if clock.warned(match, seat):
        events.append({"type": "tictactoe:afk_warning_cleared", "seat": seat})
    over = state.is_terminal()
    if over:
        _finish(match, seats, state, now, events)
    else:
        paced = server_moves(next(s for s in seats if s.index == seat))
        clock.plan(match, seats, state, now, new_turn=True, paced=paced, moved=seat)
        match.save(update_fields=["ply", *clock.PLANNED])  # the rest is locked, unchanged
    remember(match, match.ply, state)
    notify.match_changed(match, events, views=_views(match, seats, state))
    if over:  # after the players are told (commit hooks run in order): ratings take longer
        match_id = match.pk
        finished = lambda: match_finished.send(sender=Match, match_id=match_id)  # noqa: E731
        transaction.on_commit(lambda: notify.after_commit_work(finished))


def _views(match, seats, state) -> dict | None:
    """The ``state`` event of each seat and of spectators after a move, made here, where
    the position is in hand, and already in JSON: the match's sockets, in whichever
    process, forward theirs without a database round trip or encoding it again (see
    ``made_state``). Crews' events depend on who is looking, so their sockets look it
    up as before."""
    from .events import state_event

    if crews.has_crews(match):
        return None
    connected = _connected(seats)
    return {
        "ply": match.ply,
        "seats": [
            json.dumps(state_event(match, seats, state, [s.index], connected)) for s in seats
        ],
        "spectators": json.dumps(state_event(match, seats, state, [], connected)),
    }


def made_state(views: dict | None, you: list[int], sent_ply: int) -> str | None:
    """The event (JSON text) made in ``views`` for a socket holding the seats ``you``
    (none: a spectator), or None when it must be looked up: no views, a socket holding
    several seats, or one that has already sent this ply or a later one (two processes'
    messages can arrive out of order; the database is then the freshest word)."""
    if not views or views["ply"] <= sent_ply:
        return None
    if not you:
        return views["spectators"]
    if len(you) == 1 and you[0] < len(views["seats"]):
        return views["seats"][you[0]]
    return None


def _sentence(exc: Exception) -> str:
    text = str(exc).strip() or "That move is not allowed now."
    return text[0].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _finish(match, seats, state, now, events: list[dict]) -> None:
    outcome = state.outcome
    match.status = Match.Status.FINISHED
    match.finished = now
    match.outcome = game_over_event(outcome)
    clock.clear(match, seats)
    if series_allowed(match, seats):
        match.intermission_deadline = now + timedelta(seconds=INTERMISSION_SECONDS)
        match.wake_at = match.intermission_deadline
    match.save()
    for seat in seats:
        seat.result = outcome.results[seat.index]
        seat.rank = outcome.ranks[seat.index]
        seat.save(update_fields=["result", "rank"])
    events.append(match.outcome)


# -- server-side moves and timers (called by the timekeeper) --------------------------------


def server_move(match_id: int, now=None) -> bool:
    """If a bot, Random or Chaos is to move, think (outside any lock) and play; the move
    is written only if nobody moved meanwhile. True if a move was played."""
    from .agents import agent_for

    now = now or timezone.now()
    match = Match.objects.select_related("rule_set").get(pk=match_id)
    if match.status != Match.Status.ACTIVE or match.wake_at is None or match.wake_at > now:
        return False
    seats = _seats(match)
    state = current_state(match)
    by_index = {s.index: s for s in seats}
    seat = next((i for i in state.to_move() if server_moves(by_index[i])), None)
    if seat is None:
        return False
    move = agent_for(match, by_index[seat], state).choose(secrecy.bot_state(state, seat), seat)
    move = secrecy.bot_move(state, seat, move)  # cloaked: a move the seat may attempt
    with transaction.atomic():
        locked = _lock(match_id)
        if locked.ply != match.ply or locked.status != Match.Status.ACTIVE:
            return False  # someone moved while the bot thought: this move is stale
        seats = _seats(locked)
        _append(locked, seats, current_state(locked), seat, Move.Kind.MOVE, move, [])
    return True


def expire_timers(match_id: int, now=None) -> None:
    """Everything due on this match at ``now``: invitations, reconnect windows, the turn
    timer, the AFK warning and timeout. Safe to run twice: each check re-reads the row."""
    now = now or timezone.now()
    with transaction.atomic():
        match = _lock(match_id)
        if match.wake_at is None or match.wake_at > now:
            return
        if match.intermission_deadline is not None:
            if match.intermission_deadline <= now:
                _end_series(match)
            return
        if match.is_over:
            return
        seats = _seats(match)
        if match.status == Match.Status.INVITED:
            if match.invite_deadline and match.invite_deadline <= now:
                _abort(match, seats, "The invitation expired.")
            return
        state = current_state(match)
        for kind, seat, move, events in clock.due(match, seats, state, now):
            if kind is None:  # a warning only
                clock.plan(match, seats, state, now)
                match.save()
                notify.match_changed(match, events)
                continue
            try:
                _append(match, seats, state, seat, kind, move, events, auto=True)
            except MatchError:
                continue  # e.g. the seat's team already left the game
            return  # the position changed: the next timer is planned afresh
        clock.plan(match, seats, state, now)
        match.save()


def afk_ping(match_id: int, user) -> None:
    with transaction.atomic():
        match = _lock(match_id)
        seats = _seats(match)
        if match.status != Match.Status.ACTIVE:
            return
        now = timezone.now()
        events = clock.ping(match, held_seats(match, user, seats), now)
        if events is None:
            return
        clock.plan(match, seats, current_state(match), now)
        match.save()
        notify.match_changed(match, events)


def due_matches(now=None, limit: int = 200) -> list[int]:
    now = now or timezone.now()
    intermission = Q(status=Match.Status.FINISHED, intermission_deadline__isnull=False)
    return list(
        Match.objects.filter(wake_at__lte=now)
        .filter(Q(status=Match.Status.ACTIVE) | Q(status=Match.Status.INVITED) | intermission)
        .order_by("wake_at")
        .values_list("pk", flat=True)[:limit]
    )


# -- series: the intermission between games (seed 001) ----------------------------------------

INTERMISSION_SECONDS = 30  # "Intermissions last up to 30 seconds, ending early if all
# players are ready." (seed 001)


def series_allowed(match: Match, seats: list[Seat]) -> bool:
    """Does a finished match go on to another game? A live match of people of a
    nested-board game (Ultimate's seed, 001, has the intermissions; the classic games keep
    the tic-tac-toe server's protocol, 003, which has none). A tournament's games are the
    tournament's to schedule; bots alone would never stop."""
    return (
        crews.has_crews(match)  # the nested-board games
        and match.tournament_id is None
        and all(s.kind != Seat.Kind.OPEN for s in seats)
        and bool(series_people(seats))
    )


def series_people(seats: list[Seat]) -> list[int]:
    """The player ids that must say Ready: the people of every seat, crews included.
    Bots, Random and Chaos are always ready."""
    people = []
    for seat in seats:
        for player in crews.members(seat):
            if player.kind in (Player.Kind.HUMAN, Player.Kind.PERSONA) and player.pk not in people:
                people.append(player.pk)
    return people


def series_ready(match_id: int, user) -> Match:
    """``user`` is ready for the series' next game (for every player of theirs in the
    match). When everyone is, the next game starts at once."""
    with transaction.atomic():
        match = _lock(match_id)
        if match.intermission_deadline is None:
            raise MatchError("not-allowed", "There is no next game to get ready for.")
        seats = _seats(match)
        mine = [p for s in seats for p in crews.members(s) if controls(p, user)]
        if not mine:
            raise MatchError("not-seated", "You are watching this match, not playing in it.")
        ready = list(match.series_ready)
        ready += [p.pk for p in mine if p.pk not in ready]
        match.series_ready = ready
        if set(series_people(seats)) <= set(ready):
            _next_game(match, seats)
        else:
            match.save(update_fields=["series_ready"])
            ids = [p.pk for p in mine]
            notify.match_changed(match, [{"type": "series:ready", "playerIds": ids}])
    return match


def _next_game(match: Match, seats: list[Seat]) -> Match:
    """The series' next game with the same players, each moved one seat on: for two
    players the colours swap, as a series usually does. Everyone's page follows it."""
    game = game_of(match)
    choices = [
        SeatChoice("player", s.player, tuple(m.player for m in crews.crew_rows(s)))
        for s in seats
        if s.index != game.chaos
    ]
    choices = choices[1:] + choices[:1]
    new = create_match(
        match.rule_set,
        choices,
        match.created_by,
        afk_timeout=match.afk_timeout,
        afk_warning=match.afk_warning,
        rated=match.rated,
        universe=match.universe,
        previous=match,
    )
    match.intermission_deadline, match.wake_at, match.series_end = None, None, "next"
    match.save(update_fields=["series_ready", "intermission_deadline", "wake_at", "series_end"])
    event = {
        "type": "series:next",
        "matchId": new.pk,
        "url": new.get_absolute_url(),
        "game": new.series_game,
    }
    notify.match_changed(match, [event])
    return new


def _end_series(match: Match) -> None:
    """The intermission ran out before everyone was ready: no next game (see READINGS)."""
    match.intermission_deadline, match.wake_at, match.series_end = None, None, "expired"
    match.save(update_fields=["intermission_deadline", "wake_at", "series_end"])
    reason = "The intermission ended before everyone was ready: the series is over."
    notify.match_changed(match, [{"type": "series:over", "reason": reason}])


# -- presence: who is connected, and the reconnect window ------------------------------------


def connect(match_id: int, user, channel_name: str, process: str) -> list[int]:
    """A socket opened; returns the seats it holds (none: a spectator)."""
    now = timezone.now()
    if not getattr(user, "is_authenticated", False):
        return []
    match, seats = _match_and_seats(match_id, lock=False)
    if not held_seats(match, user, seats):
        return []  # a spectator: no presence, no lock
    with transaction.atomic():
        match, seats = _match_and_seats(match_id, lock=True)
        held = held_seats(match, user, seats)
        rows = [
            Presence(channel_name=channel_name, seat=i, match=match, process=process, seen=now)
            for i in held
        ]
        Presence.objects.bulk_create(rows, ignore_conflicts=True)  # a repeated connect: kept
        events = []
        for seat in seats:
            if seat.index in held and seat.disconnect_deadline is not None:
                seat.disconnect_deadline = None
                seat.save(update_fields=["disconnect_deadline"])
                events.append(_presence_event("player:reconnected", seat))
        if events and not match.is_over:
            clock.plan(match, seats, current_state(match), now)
            match.save()
            notify.match_changed(match, events)
        return held


def disconnect(channel_name: str, now=None) -> None:
    rows = list(Presence.objects.filter(channel_name=channel_name).values_list("match_id", "seat"))
    Presence.objects.filter(channel_name=channel_name).delete()
    for match_id, seat in rows:
        _maybe_open_window(match_id, seat, now or timezone.now())


def _maybe_open_window(match_id: int, index: int, now) -> None:
    with transaction.atomic():
        match = _lock(match_id)
        if match.status != Match.Status.ACTIVE:
            return
        if Presence.objects.filter(match=match, seat=index).exists():
            return  # another tab of the same seat is still open
        seat = match.seats.select_related("player").get(index=index)
        if seat.disconnect_deadline is not None:
            return
        seat.disconnect_deadline = now + timedelta(seconds=match.reconnect_window)
        seat.save(update_fields=["disconnect_deadline"])
        clock.plan(match, _seats(match), current_state(match), now)
        match.save()
        notify.match_changed(match, [_presence_event("player:disconnected", seat)])


def _presence_event(kind: str, seat: Seat) -> dict:
    event = {"type": kind, "seat": seat.index, "playerId": seat.player_id}
    if seat.disconnect_deadline is not None:
        event["deadline"] = int(seat.disconnect_deadline.timestamp() * 1000)
    return event


def touch_presences(process: str) -> None:
    Presence.objects.filter(process=process).update(seen=timezone.now())


def sweep_presences(stale_after: float = 45.0, now=None) -> int:
    """Presences of a process that stopped touching them (it died): each is a disconnect."""
    now = now or timezone.now()
    stale = list(
        Presence.objects.filter(seen__lt=now - timedelta(seconds=stale_after)).values_list(
            "channel_name", flat=True
        )
    )
    for channel_name in set(stale):
        disconnect(channel_name, now)
    return len(stale)


# -- reads for the consumer and the pages ------------------------------------------------------


def snapshot(match_id: int, user, you: list[int] | None = None) -> dict:
    """The ``state`` event for ``user`` (``you``: the seats their connection holds)."""
    from .events import state_event

    match, seats = _match_and_seats(match_id, lock=False)
    if you is None:
        you = held_seats(match, user, seats)
    event = state_event(match, seats, current_state(match), you, _connected(seats))
    if crews.has_crews(match):
        for data, seat in zip(event["seats"], seats, strict=True):
            data.update(crews.crew_data(match, seat))
        if you and match.status == Match.Status.ACTIVE:
            event["blocked"] = blocked_seats(match, seats, user, you)
    return event


def visible_matches(user):
    """The matches ``user`` may see: a hidden or removed game is hidden with everything
    of it, its matches included, from everyone but Admins (as its page and tournaments)."""
    from accounts.roles import is_admin

    if is_admin(user):
        return Match.objects.all()
    return Match.objects.filter(rule_set__hidden=False, rule_set__removed_at__isnull=True)


def match_exists(match_id: int, user=None) -> bool:
    return visible_matches(user).filter(pk=match_id).exists()


def join_queue_by_id(rule_set_id: int, user, **timers) -> dict:
    """``matchmaking:join`` from the lobby socket: the event to answer with."""
    from variants.services import visible_rule_sets

    rule_set = visible_rule_sets(user).filter(pk=rule_set_id).first()
    if rule_set is None:
        raise MatchError("malformed", f"ruleSet: there is no game {rule_set_id}.")
    match = join_queue(rule_set, user, **timers)
    if match.status == Match.Status.ACTIVE:
        return matched_event(match)
    return {"type": "matchmaking:waiting", "ruleSet": rule_set.pk, "matchId": match.pk}


def pending_invitation(match: Match, user) -> bool:
    """Is ``user`` invited to this match and yet to answer?"""
    return match.status == Match.Status.INVITED and bool(_pending_for(_seats(match), user))


def invitations_for(user) -> list[Match]:
    pending = Seat.Invitation.PENDING
    invited = Q(seats__invitation=pending, seats__player__user=user) | Q(
        seats__crew__invitation=pending, seats__crew__player__user=user
    )
    return list(
        visible_matches(user)
        .filter(invited, status=Match.Status.INVITED)
        .select_related("rule_set", "created_by")
        .distinct()
    )
