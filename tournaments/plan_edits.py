"""Unrun plans (``Tournament.Status.PLANNED``): edit, copy, start, delete; and Social plans.

A plan saved without starting has its sets but no batches; ``start_plan`` writes the
batches and starts it as ``plans.create_from_plan`` does. Editing a plan by
hand (deleting a set, adding the sets of another plan) makes it Other and says why.
A plan holds one rule set: ``Tournament.rule_set`` is what every game, rating and
result reads, so the sets added from another plan must be of the same game.
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
    start,
)

MAX_PLAN_SETS = 90  # sets in one plan (adding copies doubles it at most each time)
MAX_PLAN_GAMES = 20_000
SOCIAL_BOOST = 0.07  # "win boost, draw boost or kick back over 7%"
EDITED = "edited by hand: now Other"


def may_edit(t: Tournament, user) -> bool:
    """Its Trainer (or an Admin) edits, starts and deletes a plan."""
    return is_trainer_or_admin(user) and (t.created_by_id == user.pk or is_admin(user))


def _planned(pk: int, user) -> Tournament:
    """The plan, locked for the edit; raises unless it is unrun and ``user`` may edit it."""
    t = Tournament.objects.select_for_update().filter(pk=pk).first()
    if t is None:
        raise TournamentError("There is no such tournament.")
    if not may_edit(t, user):
        raise TournamentError("Only the Trainer who made this plan (or an Admin) may change it.")
    if t.status != Tournament.Status.PLANNED:
        raise TournamentError("This tournament has started: its sets can no longer change.")
    return t


def _edited(t: Tournament) -> None:
    was = t.get_kind_display() if t.kind != Tournament.Kind.OTHER else ""
    t.kind = Tournament.Kind.OTHER
    t.kind_reason = f"edited by hand: was {was}, now Other" if was else EDITED
    t.total_games = sum(t.sets.values_list("games", flat=True))
    t.save(update_fields=["kind", "kind_reason", "total_games"])


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
        if source.rule_set_id != t.rule_set_id:
            raise TournamentError(
                "A plan plays one game: add the sets of a tournament of the same game."
            )
        added = list(source.sets.order_by("order").values_list("players", "games"))
        mine = list(t.sets.order_by("order").values_list("order", "games"))
        if len(mine) + len(added) > MAX_PLAN_SETS:
            raise TournamentError(f"That makes more than {MAX_PLAN_SETS} sets; a plan holds fewer.")
        if sum(g for _, g in mine) + sum(g for _, g in added) > MAX_PLAN_GAMES:
            raise TournamentError(f"That makes more than {MAX_PLAN_GAMES} games in one plan.")
        first = max((o for o, _ in mine), default=-1) + 1
        TournamentSet.objects.bulk_create(
            TournamentSet(tournament=t, order=first + i, players=p, games=g)
            for i, (p, g) in enumerate(added)
        )
        _edited(t)
    return t


def copy_plan(pk: int, user) -> Tournament:
    """Copy Tournament: a new unrun plan with the same sets (and type, until edited)."""
    source = Tournament.objects.select_related("rule_set", "universe").filter(pk=pk).first()
    if source is None:
        raise TournamentError("There is no such tournament.")
    sets = list(source.sets.order_by("order").values_list("players", "games"))
    reason = f"a copy of {source.name}" + (f": {source.kind_reason}" if source.kind_reason else "")
    plan = Plan(
        source.rule_set, source.universe, f"Copy of {source.name}"[:100], sets, source.kind, reason
    )
    return create_from_plan(plan, user, run=False)


def start_plan(pk: int, user) -> Tournament:
    with transaction.atomic():
        t = _planned(pk, user)
        sets = list(t.sets.order_by("order"))
        checked_sets(t.rule_set, [(s.players, s.games) for s in sets])
        checked_players([pk for s in sets for pk in s.players])  # still bots, none studying
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
