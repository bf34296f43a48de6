"""Writes to rule sets, and who may make them. Views, commands and the admin go through
these functions; each one authorises, then writes in a transaction."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Case, F, IntegerField, Q, QuerySet, Value, When
from django.db.models.functions import Lower
from django.utils import timezone

from accounts.roles import is_admin, is_trainer_or_admin
from gamecore import rules
from variants import catalogue
from variants.models import GameAnalysis, RuleSet
from variants.playable import check_playable
from variants.signals import game_withdrawn

# How many rule sets a Creator may create (004: "up to fifteen new games"). Trainers and
# Admins have no limit. Every game the user created counts, hidden or removed ones too.
CREATOR_QUOTA = 15

# The defaults the stored document leaves out (gamecore/rules/README.md), from the schema.
DEFAULT_PLAYERS = rules.RuleDoc.model_fields["players"].default  # "2"
DEFAULT_BOARD = rules.BoardSpec.model_fields["type"].default  # "hash"


class RuleSetConflict(Exception):
    """A new or renamed rule set clashes with ``existing``."""

    def __init__(self, message: str, existing: RuleSet):
        super().__init__(message)
        self.existing = existing


class DuplicateRules(RuleSetConflict):
    """Same rules as a saved game (differs by no more than its name)."""


class NameTaken(RuleSetConflict):
    """Another game already has this name (names compare case-insensitively)."""


class QuotaExceeded(Exception):
    """A Creator already has ``CREATOR_QUOTA`` games."""


# --- Who may create ---------------------------------------------------------------------


def remaining_quota(user) -> int | None:
    """How many more games ``user`` may create: ``None`` means no limit, 0 for anonymous."""
    if user is None or not user.is_authenticated:
        return 0
    if is_trainer_or_admin(user):
        return None
    return max(0, CREATOR_QUOTA - RuleSet.objects.filter(creator=user).count())


def can_create(user) -> bool:
    remaining = remaining_quota(user)
    return remaining is None or remaining > 0


def _require_user(user) -> None:
    if user is None or not user.is_authenticated or user.pk is None:
        raise PermissionDenied("Log in to create a game.")


def _check_quota(creator):
    """Lock the creator's row, then count: call inside the transaction that inserts.
    Returns the locked user.

    Two saves by one Creator each take this lock in turn, so the second one counts the
    first one's game (READ COMMITTED sees it once the first commits): 15 is never
    exceeded. The role is read from the locked row too, so a concurrent demotion counts.
    On SQLite ``select_for_update`` does nothing, but the transactions are IMMEDIATE
    (settings.py): each one holds the database's write lock from its first statement.
    """
    locked = get_user_model().objects.select_for_update().get(pk=creator.pk)
    if not is_trainer_or_admin(locked) and (
        RuleSet.objects.filter(creator=locked).count() >= CREATOR_QUOTA
    ):
        raise _quota_exceeded()
    return locked


def _quota_exceeded() -> QuotaExceeded:
    return QuotaExceeded(
        f"You have created {CREATOR_QUOTA} games, the limit for a Creator is "
        f"{CREATOR_QUOTA}. Trainers and Admins can create more; ask an Admin."
    )


# --- Writes -----------------------------------------------------------------------------


def create_rule_set(data: dict, creator, *, check_play: bool = True) -> RuleSet:
    """Validate ``data`` and save it as a new rule set created by ``creator``.

    Raises ``PermissionDenied`` without a logged-in user, ``rules.RulesError`` for an
    invalid document (``.errors``: ``{path, message}``) or one nobody can play
    (``variants.playable``; ``check_play=False`` skips that: the catalogue's games,
    which a test checks), ``QuotaExceeded`` for a Creator
    at the limit, ``DuplicateRules`` when a saved game (even a hidden or removed one) has
    the same rules and ``NameTaken`` when the name is in use. Both conflicts are detected
    by the database's unique constraints, so two concurrent requests cannot both succeed.
    """
    _require_user(creator)
    doc = rules.parse(data)
    rules.validate_name(doc.name)
    if check_play:
        if not can_create(creator):  # before the random games: a refusal costs nothing
            raise _quota_exceeded()
        check_playable(doc)
    fingerprint = rules.fingerprint(doc)
    try:
        with transaction.atomic():
            locked_creator = _check_quota(creator)
            return RuleSet.objects.create(
                name=doc.name,
                document=rules.document(doc),
                fingerprint=fingerprint,
                summary=rules.summary(doc),
                creator=locked_creator,
            )
    except IntegrityError:
        raise _conflict(doc.name, fingerprint) from None


def _conflict(name: str, fingerprint: str) -> Exception:
    same_rules = RuleSet.objects.filter(fingerprint=fingerprint).first()
    if same_rules is not None:
        return DuplicateRules(
            f"{name!r} has the same rules as the existing game {same_rules.name!r}"
            f"{_reserved_note(same_rules)}: a new game must differ by more than its name.",
            same_rules,
        )
    same_name = RuleSet.objects.filter(name__iexact=name).first()
    if same_name is not None:
        return NameTaken(
            f"The name {same_name.name!r} is already taken{_reserved_note(same_name)}.",
            same_name,
        )
    return IntegrityError(f"could not save {name!r}")


def _reserved_note(rule_set: RuleSet) -> str:
    """Why a game nobody can see still blocks its name and rules."""
    if rule_set.removed:
        return " (removed, but its name and rules stay reserved)"
    if rule_set.hidden:
        return " (hidden by an Admin)"
    return ""


def _require_admin(by, action: str) -> None:
    if not is_admin(by):
        raise PermissionDenied(f"Only an Admin can {action} a game.")


def rename_rule_set(rule_set: RuleSet, new_name: str, by) -> RuleSet:
    """Give ``rule_set`` a new name (the fingerprint does not change). Admins only.

    Raises ``PermissionDenied``, ``rules.RulesError`` for a malformed name and
    ``NameTaken`` (checked by the database's case-insensitive unique index).
    """
    _require_admin(by, "rename")
    rules.validate_name(new_name)
    document = {**rule_set.document, "name": new_name}
    try:
        with transaction.atomic():
            RuleSet.objects.filter(pk=rule_set.pk).update(name=new_name, document=document)
    except IntegrityError:
        raise _conflict(new_name, "") from None
    rule_set.name, rule_set.document = new_name, document
    return rule_set


def hide_rule_set(rule_set: RuleSet, hidden: bool, by) -> RuleSet:
    """Hide a game from everyone but Admins (moderation), or show it again."""
    _require_admin(by, "hide or show")
    RuleSet.objects.filter(pk=rule_set.pk).update(hidden=hidden)
    rule_set.hidden = hidden
    if hidden:
        _withdrawn(rule_set.pk)
    return rule_set


def _withdrawn(rule_set_id: int) -> None:
    transaction.on_commit(lambda: game_withdrawn.send(RuleSet, rule_set_id=rule_set_id))


def remove_rule_set(rule_set: RuleSet, by) -> RuleSet:
    """Remove a game: it vanishes for everyone but Admins, while the row stays, so that
    matches played on it keep their rules and its name and fingerprint stay reserved.
    Removing twice keeps the first time."""
    _require_admin(by, "remove")
    now = timezone.now()
    RuleSet.objects.filter(pk=rule_set.pk, removed_at__isnull=True).update(removed_at=now)
    rule_set.refresh_from_db(fields=["removed_at"])
    _withdrawn(rule_set.pk)
    return rule_set


# --- Reads ------------------------------------------------------------------------------


def visible_rule_sets(user) -> QuerySet[RuleSet]:
    """The rule sets ``user`` may see: everything for Admins, else neither hidden nor
    removed ones. Every list and page of games starts from this queryset."""
    rule_sets = RuleSet.objects.all()
    if is_admin(user):
        return rule_sets
    return rule_sets.filter(hidden=False, removed_at__isnull=True)


def filter_rule_sets(
    rule_sets: QuerySet[RuleSet], name: str = "", players: str = "", board: str = ""
) -> QuerySet[RuleSet]:
    """Narrow ``rule_sets`` by a name fragment, the players option and the board type.

    Both options are read from the stored document, which leaves out every default
    (rules README, "Canonical form"): a missing ``players`` means "2", a missing
    ``board.type`` means "hash". ``__isnull=True`` on a JSON key means "key absent".
    """
    if name:
        rule_sets = rule_sets.filter(name__icontains=name)
    if players:
        match = Q(document__players=players)
        if players == DEFAULT_PLAYERS:
            match |= Q(document__players__isnull=True)
        rule_sets = rule_sets.filter(match)
    if board:
        match = Q(document__board__type=board)
        if board == DEFAULT_BOARD:
            match |= Q(document__board__type__isnull=True)
        rule_sets = rule_sets.filter(match)
    return rule_sets


# The catalogue's best-known games, shown first (then the rest of the catalogue, then the
# games people made).
FEATURED = (
    "Tic-Tac-Toe",
    "Connect4",
    "Ultimate-Tic-Tac-Toe",
    "Qubic-4",
    "5on15sq",
    "Connect6-19x19",
    "Treblecross15",
    "Wild-TTT-6sq3143",
    "3P-Notakto",
    "Strategic-Tactical",
    "TacticToy",
)


def featured_first(rule_sets):
    """Best-known catalogue games first, then the catalogue, then everyone's, by name."""
    from accounts.services import SYSTEM_USERNAME  # accounts imports this module

    system = {"creator__username": SYSTEM_USERNAME}
    rank = Case(
        *(When(name=name, **system, then=Value(i)) for i, name in enumerate(FEATURED)),
        When(**system, then=Value(len(FEATURED))),
        default=Value(len(FEATURED) + 1),
        output_field=IntegerField(),
    )
    return rule_sets.order_by(rank, Lower("name"), "id")


# Games-list orders by the analysis's headline figures (variants/analysis); games not
# analysed yet come last, in the best-known order.
ANALYSIS_ORDERS = {
    "balanced": ("analysis__balance", True),
    "drawish": ("analysis__draw_rate", True),
    "long": ("analysis__length", True),
    "short": ("analysis__length", False),
    "hard": ("analysis__difficulty", True),
}


# Games-list filters by the analysis's headline figures (games not analysed are left out).
ANALYSIS_FILTERS = {
    "balanced": Q(analysis__balance__gte=90),
    "skill": Q(analysis__difficulty__gte=50),
    "quick": Q(analysis__length__lte=15),
    "drawish": Q(analysis__draw_rate__gte=0.25),
}


def shown_rule_sets(rule_sets, show: str = ""):
    """``rule_sets`` of the kind the games list asks for (all when ``show`` is blank)."""
    return rule_sets.filter(ANALYSIS_FILTERS[show]) if show in ANALYSIS_FILTERS else rule_sets


def sorted_rule_sets(rule_sets, sort: str = ""):
    """``rule_sets`` in the games list's order: best-known first, or by an analysis figure."""
    if sort not in ANALYSIS_ORDERS:
        return featured_first(rule_sets)
    field, descending = ANALYSIS_ORDERS[sort]
    order = F(field).desc(nulls_last=True) if descending else F(field).asc(nulls_last=True)
    return featured_first(rule_sets).order_by(order, Lower("name"), "id")


# --- The catalogue ----------------------------------------------------------------------


@dataclass(frozen=True)
class LoadResult:
    name: str
    action: str  # "created" | "exists" | "updated" | "replaced" | "skipped"
    detail: str = ""


def load_catalogue() -> list[LoadResult]:
    """Create the catalogue games that are missing and bring changed ones up to date.

    The games belong to the "foundry" system Admin. A catalogue game whose document
    changed (a new reading: another fingerprint) is updated in place when nothing was
    played on it; once played, its row keeps the old rules (the matches replay on them),
    is renamed "<name>-was<id>" and hidden, and the new rules are created under the name.
    A game of the name made by someone else is left alone. Idempotent and safe to run
    concurrently (a lost race shows up as "exists").
    """
    from accounts.services import system_user

    owner = system_user()
    results = []
    for name, data in catalogue.documents().items():
        existing = RuleSet.objects.filter(name__iexact=name).first()
        if existing is not None:
            results.append(_refresh_catalogue_game(existing, data, owner))
            continue
        try:
            create_rule_set(data, owner, check_play=False)
        except NameTaken:
            results.append(LoadResult(name, "exists"))
        except DuplicateRules as exc:
            results.append(LoadResult(name, "skipped", str(exc)))
        else:
            results.append(LoadResult(name, "created"))
    return results


def _refresh_catalogue_game(existing: RuleSet, data: dict, owner) -> LoadResult:
    name = existing.name
    doc = rules.parse(data)
    fingerprint = rules.fingerprint(doc)
    if existing.creator_id != owner.pk or existing.fingerprint == fingerprint:
        return LoadResult(name, "exists")
    played = existing.matches.exists() or existing.tournaments.exists()
    try:
        with transaction.atomic():
            if not played:
                RuleSet.objects.filter(pk=existing.pk).update(
                    document=rules.document(doc), fingerprint=fingerprint,
                    summary=rules.summary(doc),
                )  # fmt: skip
                # The analysis card described the old rules.
                GameAnalysis.objects.filter(rule_set=existing).delete()
                return LoadResult(name, "updated")
            existing.name = f"{name[:50]}-was{existing.pk}"
            existing.hidden = True
            existing.save(update_fields=["name", "hidden"])
            create_rule_set(data, owner, check_play=False)
    except (DuplicateRules, IntegrityError) as exc:
        return LoadResult(name, "skipped", str(exc))
    return LoadResult(name, "replaced", f"the played rules are kept as {existing.name!r}")
