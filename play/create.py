"""Creating and starting matches: the start form's match, invitations and their answers,
calling a match off, and matchmaking ("next available human").

Every write locks the match row, re-plans its timers (``play.clock``) and, on commit
only, tells its sockets (``play.notify``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from accounts.models import Player

from . import clock, crews, notify, seating
from .errors import MatchError
from .models import CrewMember, Match, Seat
from .replay import current_state, game_of_rule_set

INVITE_SECONDS = 600


@dataclass(frozen=True)
class SeatChoice:
    """What the start form chose for one non-Chaos seat."""

    kind: str  # "player" or "open"
    player: Player | None = None
    crew: tuple[Player, ...] = ()  # more people on the seat's team (nested games only)


def create_match(
    rule_set,
    choices: list[SeatChoice],
    by,
    *,
    afk: bool | None = None,
    afk_timeout: int = 60,
    afk_warning: int = 20,
    seed: int | None = None,
    rated: bool = True,
    universe=None,
    previous: Match | None = None,
    turn_timer: bool = True,
    series: bool = True,
) -> Match:
    """A match of ``rule_set`` with one choice per non-Chaos seat, in seat order. Humans
    other than ``by`` are invited; open seats wait for matchmaking; once every seat has
    accepted the match starts. It is rated in ``universe`` (None: the public one).
    With ``previous`` it is that match's series' next game: its players, who all said
    Ready, are seated at once (no invitations). ``turn_timer`` False: the game's turn
    timer does not run; ``series`` False: one game, no "Ready for the next" (issue 38)."""
    game = game_of_rule_set(rule_set)
    needed = game.nseats - (game.chaos is not None)
    if len(choices) != needed:
        raise MatchError("malformed", f"{rule_set.name} needs {needed} players, not {len(choices)}")
    _check_afk(afk_timeout, afk_warning)
    afk = afk_default(rule_set) if afk is None else bool(afk)
    # A remote own bot's time to answer is its AFK timeout (ownbots.live): it always runs,
    # so a stalled bot cannot hold a person's game for ever.
    afk = afk or any(c.player is not None and c.player.kind == Player.Kind.OWN_BOT for c in choices)
    now = timezone.now()
    with transaction.atomic():
        match = Match.objects.create(
            rule_set=rule_set,
            seed=random.SystemRandom().randrange(2**31) if seed is None else seed,
            created_by=by if getattr(by, "is_authenticated", False) else None,
            afk_on=afk,
            afk_timeout=afk_timeout,
            afk_warning=afk_warning,
            rated=rated,
            universe=universe,
            previous=previous,
            series_game=1 if previous is None else previous.series_game + 1,
            turn_timer=bool(turn_timer),
            series_on=bool(series),
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
        seats = seating.load(match)
        invited = {
            s.player.user_id or s.player.owner_id  # a friend's persona: its owner
            for s in seats
            if s.invitation == Seat.Invitation.PENDING and s.player
        }
        for seat in seats:
            invited |= {
                m.player.user_id
                for m in crews.crew_rows(seat)
                if m.invitation == Seat.Invitation.PENDING
            }
        for user_id in sorted(invited):
            notify.user_event(user_id, _invitation_event(match, by))
        if seating.all_accepted(seats):
            _start(match, seats, now)
        else:
            match.invite_deadline = now + timedelta(seconds=INVITE_SECONDS)
            clock.plan(match, seats, None, now)
            match.save()
    return match


FIRST_GAMES = 3  # a person's first games against a bot are gentle (issue 38)
BOT_KINDS = (Player.Kind.BOT, Player.Kind.RANDOM, Player.Kind.AI, Player.Kind.OWN_BOT)


def gentle(choices: list[SeatChoice], by) -> bool:
    """Is this one of ``by``'s first games against a bot? Then, unless they chose, the
    start form plays it without the game's turn timer and as one game, not a series: a
    newcomer's first Ultimate game should not be a 15-second clock, then "game 2"."""
    me = getattr(by, "pk", None)
    if me is None:
        return False
    players = [c.player for c in choices if c.player is not None]
    others = [p for p in players if p.user_id != me]
    if len(others) != len(choices) - 1 or not others or any(c.crew for c in choices):
        return False  # an open seat or a crew: not the newcomer alone against bots
    if any(p.kind not in BOT_KINDS for p in others):
        return False
    played = (
        Match.objects.filter(seats__player__user_id=me, seats__player__kind=Player.Kind.HUMAN)
        .filter(pk__in=Seat.objects.filter(player__kind__in=BOT_KINDS).values("match_id"))
        .distinct()
    )
    return played[:FIRST_GAMES].count() < FIRST_GAMES


def afk_default(rule_set) -> bool:
    """Is the AFK timer on when the match does not say? Only where the game has a time
    control (seed 000: "When disabled, players may take as long as they want"); there it
    never runs out before the turn timer (``clock.afk_seconds``), so it only warns."""
    return clock.turn_ms(rule_set.document) is not None


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
        from accounts.services import are_friends

        # A friend's persona is invited: its owner accepts for it (seed 004: "initiate a
        # game (if a friend ...)", the leaderboard's Play New Game; issue 35).
        if player.owner is None or not are_friends(by, player.owner):
            raise MatchError("not-allowed", f"{player.display_name} is someone else's persona.")
        return {"player": player, "invitation": Seat.Invitation.PENDING}
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
    if state.is_terminal():  # over before the first move (the set-up decided it)
        from .moves import finish_at_start  # (moves imports none of create)

        return finish_at_start(match, seats, state, now)
    clock.plan(match, seats, state, now, new_turn=True)
    match.save()
    notify.match_changed(match, [])


def answer_invitation(match_id: int, user, accept: bool) -> Match:
    with transaction.atomic():
        match = seating.lock(match_id)
        seats = seating.load(match)
        mine = seating.pending_for(seats, user)
        if match.status != Match.Status.INVITED or not mine:
            raise MatchError("not-allowed", "There is no invitation for you to answer here.")
        for row in mine:  # seats and crew rows alike
            row.invitation = Seat.Invitation.ACCEPTED if accept else Seat.Invitation.DECLINED
            row.save(update_fields=["invitation"])
        if not accept:
            abort(match, seats, f"{user.username} declined the invitation.")
        elif seating.all_accepted(seats):
            _start(match, seats, timezone.now())
        else:
            notify.match_changed(match, [])
    return match


def cancel(match_id: int, user) -> Match:
    """The creator (or an invitee) calls off a match that has not started."""
    with transaction.atomic():
        match = seating.lock(match_id)
        seats = seating.load(match)
        involved = match.created_by_id == user.pk or any(
            seating.controls(p, user) for s in seats for p in crews.members(s)
        )
        if match.status != Match.Status.INVITED or not involved:
            raise MatchError("not-allowed", "Only a match that has not started can be called off.")
        abort(match, seats, f"{user.username} called the match off.")
    return match


def abort(match: Match, seats: list[Seat], why: str) -> None:
    """End a match that never started (the caller holds its lock)."""
    match.status = Match.Status.ABORTED
    match.finished = timezone.now()
    match.outcome = {"type": "game:aborted", "reason": why}
    clock.clear(match, seats)
    match.save()
    notify.match_changed(match, [{"type": "game:aborted", "reason": why}])


# -- matchmaking ------------------------------------------------------------------------


def join_queue(
    rule_set, user, *, afk: bool | None = None, afk_timeout: int = 60, afk_warning: int = 20
) -> Match:
    """ "Next available human": take the oldest open seat of a waiting match of this game
    (not one of the user's own), or open a new match with the user in the first seat.
    The waiting match's row is locked with SKIP LOCKED, so two joiners take two seats."""
    from accounts.services import human_player

    player = human_player(user)
    with transaction.atomic():
        waiting = _waiting_match(rule_set, player)
        seats = seating.load(waiting) if waiting is not None else []
        seat = next((s for s in seats if s.kind == Seat.Kind.OPEN), None)
        if seat is None:  # none waits, or its last seat was taken while we waited for it
            game = game_of_rule_set(rule_set)
            others = game.nseats - (game.chaos is not None) - 1
            choices = [SeatChoice("player", player)] + [SeatChoice("open")] * others
            return create_match(
                rule_set,
                choices,
                user,
                afk=afk,
                afk_timeout=afk_timeout,
                afk_warning=afk_warning,
            )
        seat.kind, seat.player, seat.invitation = Seat.Kind.PLAYER, player, Seat.Invitation.ACCEPTED
        seat.save(update_fields=["kind", "player", "invitation"])
        if seating.all_accepted(seats):
            _start(waiting, seats, timezone.now())
            for other in seats:
                if other.player and other.player.user_id and other.player.user_id != user.pk:
                    notify.user_event(other.player.user_id, matched_event(waiting))
        else:
            notify.match_changed(waiting, [])
    return waiting


def _waiting_match(rule_set, player):
    """The oldest match of ``rule_set`` with an open seat (not ``player``'s own), locked.

    SKIP LOCKED lets two joiners take two seats at once; but a waiting match is also
    locked for a moment by its creator's own socket connecting (presence), and skipping it
    then opened a second match, leaving both players waiting for ever. So when every
    candidate is locked, wait for the oldest one instead."""
    candidates = (
        Match.objects.filter(
            rule_set=rule_set, status=Match.Status.INVITED, seats__kind=Seat.Kind.OPEN
        )
        .exclude(seats__player=player)
        .order_by("created")
    )
    found = candidates.select_for_update(skip_locked=True).first()
    if found is None:
        found = candidates.select_for_update(of=("self",)).first()
    return found


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
