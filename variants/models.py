"""Saved rule sets: one row per playable variant."""

from __future__ import annotations

from django.db import models
from django.db.models.functions import Lower

from variants import rules


class RuleSet(models.Model):
    """A named rule document.

    ``document`` is the stored form (``rules.document``: the canonical document plus its
    name); ``fingerprint`` is the sha256 of the canonical form without the name, unique in
    the database, so "differs from every saved game by more than its name" holds without
    a race. ``summary`` caches the plain-English line shown under the name.
    """

    name = models.CharField(max_length=64)
    document = models.JSONField()
    fingerprint = models.CharField(max_length=64, unique=True, editable=False)
    summary = models.TextField(editable=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                Lower("name"),
                name="variants_ruleset_name_ci_unique",
                violation_error_message="A game with this name already exists.",
            ),
        ]
        ordering = ["id"]

    def __str__(self) -> str:
        return self.name

    def rule_doc(self) -> rules.RuleDoc:
        """The stored document, parsed back into the typed rule document."""
        return rules.parse(self.document)
