"""Unrun plans (``Tournament.Status.PLANNED``): edit, copy, start, delete; and Social plans.

A plan saved without starting has its sets but no batches; ``start_plan`` writes the
batches and starts it as ``plans.create_from_plan`` does. Editing a plan by
hand (deleting a set, adding the sets of another plan, changing a set's game) makes it
Other and says why. Each set plays its own game (``TournamentSet.rule_set``): a plan may
mix games, and the sets added from another plan keep theirs. ``Tournament.rule_set`` is
the plan's first game (its page's link, the game whose Tournaments tab made it).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone

from accounts.models import Player
from accounts.roles import is_admin, is_trainer_or_admin
from leaderboards.models import Tournament, TournamentBatch, TournamentSet
from tournaments.plans import (
    Plan,
    TournamentError,
    batches_for,
    checked_players,
    checked_sets,
    combination_sets,
    create_from_plan,
    plan_name,
    seats_per_game,
    start,
)

MAX_PLAN_SETS = 90  # sets in one plan (adding copies doubles it at most each time)
MAX_PLAN_GAMES = 20_000
SOCIAL_BOOST = 0.07  # "win boost, draw boost or kick back over 7%"
EDITED = "edited by hand: now Other"


def may_edit(t: Tournament, user) -> bool:
    """Its Trainer (or an Admin) edits, starts and deletes a plan."""
    return is_trainer_or_admin(user) and (t.created_by_id == user.pk or is_admin(user))


def _planned(pk: int, user, check: bool = True) -> Tournament:
    """The plan, locked for the edit; raises unless it is unrun and ``user`` may edit it
    (``check``: False for an AI's study, which runs the unrun plans it studies)."""
    t = Tournament.objects.select_for_update().filter(pk=pk).first()
    if t is None:
        raise TournamentError("There is no such tournament.")
    if check and not may_edit(t, user):
        raise TournamentError("Only the Trainer who made this plan (or an Admin) may change it.")
    if t.status != Tournament.Status.PLANNED:
        raise TournamentError("This tournament has started: its sets can no longer change.")
    return t


def _edited(t: Tournament) -> None:
    was = t.get_kind_display() if t.kind != Tournament.Kind.OTHER else ""
    t.kind = Tournament.Kind.OTHER
    if was or not t.kind_reason.startswith("edited by hand"):  # a second edit keeps "was"
        t.kind_reason = f"edited by hand: was {was}, now Other" if was else EDITED
    t.total_games = sum(t.sets.values_list("games", flat=True))
    first = t.sets.order_by("order").values_list("rule_set_id", flat=True).first()
    t.rule_set_id = first or t.rule_set_id  # the plan's game is its first set's
    t.save(update_fields=["kind", "kind_reason", "total_games", "rule_set"])


def delete_set(pk: int, order: int, user) -> Tournament:
    with transaction.atomic():
        t = _planned(pk, user)
        deleted, _ = TournamentSet.objects.filter(tournament=t, order=order).delete()
        if not deleted:
            raise TournamentError("That set is not in this plan (deleted already?).")
        _edited(t)
    return t


def add_sets_of(pk: int, source_pk: int, user) -> Tournament:
    """Copies of all the sets of ``source`` (another plan, run or not, or this one)."""
    with transaction.atomic():
        t = _planned(pk, user)
        source = Tournament.objects.filter(pk=source_pk).first()
        if source is None:
            raise TournamentError("There is no such tournament to add the sets of.")
        added = [
            (s.players, s.games, s.rule_set_id or source.rule_set_id)
            for s in source.sets.order_by("order")
        ]
        mine = list(t.sets.order_by("order").values_list("order", "games"))
        if len(mine) + len(added) > MAX_PLAN_SETS:
            raise TournamentError(f"That makes more than {MAX_PLAN_SETS} sets; a plan holds fewer.")
        if sum(g for _, g in mine) + sum(g for _, g, _ in added) > MAX_PLAN_GAMES:
            raise TournamentError(f"That makes more than {MAX_PLAN_GAMES} games in one plan.")
        first = max((o for o, _ in mine), default=-1) + 1
        TournamentSet.objects.bulk_create(
            TournamentSet(tournament=t, order=first + i, players=p, games=g, rule_set_id=r)
            for i, (p, g, r) in enumerate(added)
        )
        _edited(t)
    return t


def copy_plan(pk: int, user) -> Tournament:
    """Copy Tournament: a new unrun plan with the same sets (and type, until edited)."""
    source = Tournament.objects.select_related("rule_set", "universe").filter(pk=pk).first()
    if source is None:
        raise TournamentError("There is no such tournament.")
    sets = [(s.players, s.games, s.rule_set) for s in source.sets.select_related("rule_set")]
    reason = f"a copy of {source.name}" + (f": {source.kind_reason}" if source.kind_reason else "")
    plan = Plan(
        source.rule_set, source.universe, f"Copy of {source.name}"[:100], sets, source.kind, reason
    )
    return create_from_plan(plan, user, run=False)


def start_plan(pk: int, user, study=None) -> Tournament:
    """Start Tournament: its batches, sent after the commit. ``study``: the learning AI
    (``aiplayers.AIPlayer``) whose curriculum holds this plan; an AI with pending
    curriculum runs its unrun tournaments first (LATER.md, 1.8), playing in them as it is
    now if it is one of their players."""
    with transaction.atomic():
        t = _planned(pk, user, check=study is None)
        sets = list(t.sets.order_by("order").select_related("rule_set"))
        checked_sets(t.rule_set, [(s.players, s.games, s.rule_set) for s in sets])
        # Still bots, none studying (but the AI whose study starts it).
        waived = {study.player_id} if study is not None else set()
        checked_players([pk for s in sets for pk in s.players], waived)
        # Renumber: deleted sets leave gaps, and the schedule indexes sets by position.
        for i, s in enumerate(sets):
            if s.order != i:
                TournamentSet.objects.filter(pk=s.pk).update(order=i + 10_000)
        for i, s in enumerate(sets):
            if s.order != i:
                TournamentSet.objects.filter(pk=s.pk).update(order=i)
        t.status = Tournament.Status.RUNNING
        t.total_games = sum(s.games for s in sets)
        t.created = timezone.now()  # "Ran": from when it started, not when it was planned
        t.save(update_fields=["status", "total_games", "created"])
        TournamentBatch.objects.bulk_create(batches_for(t, [s.games for s in sets]))
        transaction.on_commit(lambda: start(t.pk))
    return t


def change_game(pk: int, order: int, rule_set, user) -> Tournament:
    """A set plays another game (``rule_set``: one the user may see, checked by the
    caller); it must seat as many players as the set has."""
    with transaction.atomic():
        t = _planned(pk, user)
        found = TournamentSet.objects.filter(tournament=t, order=order).first()
        if found is None:
            raise TournamentError("That set is not in this plan (deleted already?).")
        k = seats_per_game(rule_set)
        if k != len(found.players):
            raise TournamentError(
                f"{rule_set.name} seats {k} players and this set has {len(found.players)}: "
                "choose a game for as many players, or make a new set."
            )
        if (found.rule_set_id or t.rule_set_id) == rule_set.pk:
            return t  # no change: the plan keeps its type
        found.rule_set = rule_set
        found.save(update_fields=["rule_set"])
        _edited(t)
    return t


MAX_SET_GAMES = 1000  # games in one set, as the tournament factory's form allows
MAX_SEATS = 4  # players in one game


def edit_set(pk: int, order: int, user, rule_set, games: int, players: Sequence[int]) -> bool:
    """The plan page's set form: the set plays ``rule_set`` (one the user may see, checked
    by the caller), ``games`` times, between ``players`` (one a seat, bots only). Checked
    whole before anything is written; True when something changed (the plan is then Other,
    edited by hand), False when the form said what the set already was."""
    with transaction.atomic():
        t = _planned(pk, user)
        found = TournamentSet.objects.filter(tournament=t, order=order).first()
        if found is None:
            raise TournamentError("That set is not in this plan (deleted already?).")
        if not 1 <= games <= MAX_SET_GAMES:
            raise TournamentError(f"A set plays 1 to {MAX_SET_GAMES} games; {games} is not.")
        others = sum(t.sets.exclude(pk=found.pk).values_list("games", flat=True))
        if others + games > MAX_PLAN_GAMES:
            raise TournamentError(f"That makes more than {MAX_PLAN_GAMES} games in one plan.")
        k = seats_per_game(rule_set)
        if len(players) != k:
            raise TournamentError(
                f"{rule_set.name} seats {k} players and this set has {len(players)}: "
                "choose a game for as many players, or make a new set."
            )
        # Bots only; a player the set already holds is not asked again (an AI studying
        # this very plan stays in it, as start_plan lets it).
        checked_players([p for p in players if p not in found.players])
        new = (rule_set.pk, games, list(players))
        if ((found.rule_set_id or t.rule_set_id), found.games, list(found.players)) == new:
            return False  # no change: the plan keeps its type
        found.rule_set, found.games, found.players = rule_set, games, list(players)
        found.save(update_fields=["rule_set", "games", "players"])
        _edited(t)
    return True


def delete_plan(pk: int, user) -> None:
    with transaction.atomic():
        _planned(pk, user).delete()


# --- Social plans: from the Favouritism tab --------------------------------------------------


def social_plan(rule_set, universe, shown_id: int, player_ids: Sequence[int]) -> Plan:
    """``GAMES_PER_SET`` games per combination of the players. Social when it includes
    Random and a player whose win boost, draw boost or kick back against the tab's player
    (``shown_id``) is over ``SOCIAL_BOOST``; else Other, with the reason."""
    sets = combination_sets(rule_set, player_ids)
    kind, reason = social_kind(rule_set, universe, shown_id, player_ids)
    return Plan(rule_set, universe, plan_name(rule_set), sets, kind, reason)


def social_kind(rule_set, universe, shown_id: int, player_ids: Sequence[int]) -> tuple[str, str]:
    from accounts.services import random_player
    from leaderboards.favouritism import favour_rows

    shown = Player.objects.filter(pk=shown_id).first()
    name = shown.display_name if shown else "this player"
    chosen = set(player_ids)
    best = None
    for row in favour_rows(shown_id, rule_set, universe):
        if row.opponent.pk not in chosen:
            continue
        stats = row.stats
        label, value = max(
            (("win boost", stats.win_boost), ("draw boost", stats.draw_boost),
             ("kick back", stats.kick_back)),
            key=lambda pair: pair[1],
        )  # fmt: skip
        if value > SOCIAL_BOOST and (best is None or value > best[2]):
            best = (row.opponent.display_name, label, value)
    needs = []
    if random_player().pk not in chosen:
        needs.append("add Random")
    if best is None:
        needs.append(
            f"add a player whose win boost, draw boost or kick back against {name} is over 7%"
        )
    if needs:
        return Tournament.Kind.OTHER, "not Social: " + "; ".join(needs)
    who, label, value = best
    return Tournament.Kind.SOCIAL, (
        f"made from {name}'s Favouritism stats with Random and {who} ({label} {value:+.0%})"
    )
