"""Writes to rule sets. Views, commands and the admin go through these functions."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction

from variants import catalogue, rules
from variants.models import RuleSet


class RuleSetConflict(Exception):
    """A new or renamed rule set clashes with ``existing``."""

    def __init__(self, message: str, existing: RuleSet):
        super().__init__(message)
        self.existing = existing


class DuplicateRules(RuleSetConflict):
    """Same rules as a saved game (differs by no more than its name)."""


class NameTaken(RuleSetConflict):
    """Another game already has this name (names compare case-insensitively)."""


def create_rule_set(data: dict) -> RuleSet:
    """Validate ``data`` and save it as a new rule set.

    Raises ``rules.RulesError`` for an invalid document, ``DuplicateRules`` when a saved
    game has the same rules and ``NameTaken`` when the name is in use. Both conflicts are
    detected by the database's unique constraints, so two concurrent requests cannot both
    succeed.
    """
    doc = rules.parse(data)
    rules.validate_name(doc.name)
    fingerprint = rules.fingerprint(doc)
    try:
        with transaction.atomic():
            return RuleSet.objects.create(
                name=doc.name,
                document=rules.document(doc),
                fingerprint=fingerprint,
                summary=rules.summary(doc),
            )
    except IntegrityError:
        raise _conflict(doc.name, fingerprint) from None


def _conflict(name: str, fingerprint: str) -> Exception:
    same_rules = RuleSet.objects.filter(fingerprint=fingerprint).first()
    if same_rules is not None:
        return DuplicateRules(
            f"{name!r} has the same rules as the existing game {same_rules.name!r}: "
            "a new game must differ by more than its name.",
            same_rules,
        )
    same_name = RuleSet.objects.filter(name__iexact=name).first()
    if same_name is not None:
        return NameTaken(f"The name {same_name.name!r} is already taken.", same_name)
    return IntegrityError(f"could not save {name!r}")


def rename_rule_set(rule_set: RuleSet, new_name: str) -> RuleSet:
    """Give ``rule_set`` a new name (the fingerprint does not change)."""
    rules.validate_name(new_name)
    document = {**rule_set.document, "name": new_name}
    try:
        with transaction.atomic():
            RuleSet.objects.filter(pk=rule_set.pk).update(name=new_name, document=document)
    except IntegrityError:
        raise _conflict(new_name, "") from None
    rule_set.name, rule_set.document = new_name, document
    return rule_set


@dataclass(frozen=True)
class LoadResult:
    name: str
    action: str  # "created" | "exists" | "skipped"
    detail: str = ""


def load_catalogue() -> list[LoadResult]:
    """Create the catalogue games that are missing; leave existing ones untouched.

    Idempotent and safe to run concurrently (a lost race shows up as "exists").
    """
    results = []
    for name, data in catalogue.documents().items():
        if RuleSet.objects.filter(name__iexact=name).exists():
            results.append(LoadResult(name, "exists"))
            continue
        try:
            create_rule_set(data)
        except NameTaken:
            results.append(LoadResult(name, "exists"))
        except DuplicateRules as exc:
            results.append(LoadResult(name, "skipped", str(exc)))
        else:
            results.append(LoadResult(name, "created"))
    return results
