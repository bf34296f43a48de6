"""Saved rule sets: one row per playable variant."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse

from gamecore import rules


class RuleSet(models.Model):
    """A named rule document.

    ``document`` is the stored form (``rules.document``: the canonical document plus its
    name); ``fingerprint`` is the sha256 of the canonical form without the name, unique in
    the database, so "differs from every saved game by more than its name" holds without
    a race. ``summary`` caches the plain-English line shown under the name.

    Once saved, only the name may change (by an Admin), and moderation may hide or
    remove the game: ``save()`` refuses any other change, so every write goes through
    ``variants.services``. Removal is soft (``removed_at``): matches played on the game
    keep their rules, and its name and fingerprint stay reserved.
    """

    name = models.CharField(max_length=64)
    document = models.JSONField()
    fingerprint = models.CharField(max_length=64, unique=True, editable=False)
    summary = models.TextField(editable=False)
    created = models.DateTimeField(auto_now_add=True)
    # Nullable only so that rows older than this column could be migrated; every new
    # game has a creator (catalogue games: the "foundry" system Admin).
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        related_name="rule_sets",
        editable=False,
    )
    hidden = models.BooleanField(default=False, editable=False, help_text="Hidden by an Admin.")
    removed_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                Lower("name"),
                name="variants_ruleset_name_ci_unique",
                violation_error_message="A game with this name already exists.",
            ),
        ]
        ordering = ["id"]

    # What may change after the first save (the name lives in the document too).
    MUTABLE_FIELDS = frozenset({"name", "document", "hidden", "removed_at"})

    def __str__(self) -> str:
        return self.name

    def save(self, *args, update_fields=None, **kwargs) -> None:
        if not self._state.adding and not (
            update_fields and self.MUTABLE_FIELDS >= set(update_fields)
        ):
            raise ValueError(
                "A saved rule set's rules cannot change: rename, hide or remove it "
                "through variants.services."
            )
        super().save(*args, update_fields=update_fields, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("variants:detail", kwargs={"pk": self.pk})

    @property
    def removed(self) -> bool:
        return self.removed_at is not None

    @property
    def player_mode(self) -> str:
        """The players option ("2", "partners", ...), read from the stored document."""
        return self.document.get("players", "2")

    @property
    def board_type(self) -> str:
        return self.document.get("board", {}).get("type", "hash")

    def rule_doc(self) -> rules.RuleDoc:
        """The stored document, parsed back into the typed rule document."""
        return rules.parse(self.document)


class GameAnalysis(models.Model):
    """What kind of game a rule set is (``variants.analysis``): balance, length, solved
    value, difficulty. Made by a Celery task (queue ``analysis``); ``version`` names the
    method and the engine's source that made it, and an analysis of another version is
    made again."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    rule_set = models.OneToOneField(RuleSet, on_delete=models.CASCADE, related_name="analysis")
    version = models.CharField(max_length=40, blank=True)  # method + engine source digest
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    progress = models.FloatField(default=0.0)  # 0..1, while running
    step = models.CharField(max_length=40, blank=True)  # what it is doing now, in words
    result = models.JSONField(null=True, blank=True)
    # For sorting and filtering the games list (from ``result``; see variants/analysis).
    balance = models.FloatField(null=True)  # 100 = every seat wins as often under random play
    draw_rate = models.FloatField(null=True)  # share of random games nobody wins
    length = models.FloatField(null=True)  # mean moves of a random game
    difficulty = models.PositiveSmallIntegerField(null=True)  # 0-100, None: too few games
    updated = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"analysis of {self.rule_set_id} ({self.status})"
