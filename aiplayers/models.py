"""An AI player's settings and model, its curriculum, and the predictions it makes.

A *search* AI is a ``Player`` of kind ``bot`` whose ``bot_spec`` the factory writes (so the
bots' code, the admin and tournaments take it as they are); a *learning* AI is a
``Player`` of kind ``ai`` whose agent is built from ``AIPlayer.model``. Writes go through
``aiplayers.services`` (the factory) and ``aiplayers.study`` (the learning task).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse

AVATARS = (
    ("robot", "Robot"),
    ("cogs", "Cogs"),
    ("flask", "Flask"),
    ("graduation-cap", "Graduate"),
    ("bolt", "Bolt"),
    ("rocket", "Rocket"),
    ("star", "Star"),
    ("tree", "Tree"),
)


class AIPlayer(models.Model):
    class Kind(models.TextChoices):
        SEARCH = "search", "Search (plays by looking ahead)"
        LEARNING = "learning", "Learning (studies a curriculum)"

    class Study(models.TextChoices):
        IDLE = "idle", "Nothing to study"
        QUEUED = "queued", "Waiting for a worker"
        STUDYING = "studying", "Studying"
        WAITING = "waiting", "Waiting for a tournament to finish"
        CANCELLED = "cancelled", "Cancelled"
        FAILED = "failed", "Failed"

    player = models.OneToOneField("accounts.Player", on_delete=models.CASCADE, related_name="ai")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    # Search: mcts | hard | easy | medium; learning: a key of gamecore.learn ALGORITHMS.
    algorithm = models.CharField(max_length=32)
    params = models.JSONField(default=dict, blank=True)
    personality = models.JSONField(default=dict, blank=True)
    model = models.BinaryField(null=True, blank=True, editable=False)
    moves_studied = models.BigIntegerField(default=0)
    model_changed = models.DateTimeField(null=True, blank=True, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ai_players"
    )
    universe = models.ForeignKey(
        "leaderboards.Universe", on_delete=models.PROTECT, related_name="ai_players"
    )
    avatar = models.CharField(max_length=20, choices=AVATARS, default="robot")
    created = models.DateTimeField(auto_now_add=True)
    learning_started = models.DateTimeField(
        null=True, blank=True, help_text="Settings are fixed from then on."
    )
    study = models.CharField(max_length=10, choices=Study.choices, default=Study.IDLE)
    study_note = models.CharField(max_length=200, blank=True)
    study_touched = models.DateTimeField(null=True, blank=True)
    forked_from = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="forks"
    )

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.player.name

    def get_absolute_url(self) -> str:
        return reverse("aiplayers:detail", kwargs={"pk": self.pk})

    @property
    def is_learning(self) -> bool:
        return self.kind == self.Kind.LEARNING

    @property
    def settings_fixed(self) -> bool:
        return self.learning_started is not None


class CurriculumItem(models.Model):
    """One thing an AI studies: a tournament's games (its ``games`` most recent of each
    matchup when set) or another player's history (its ``games`` most recent matches),
    else all of them; items are studied in order of ``id``.
    ``cursor`` is how many of its matches are studied: the learning task moves it in the
    same transaction as the model, so a killed worker never studies a match twice."""

    ai = models.ForeignKey(AIPlayer, on_delete=models.CASCADE, related_name="curriculum")
    tournament = models.ForeignKey(
        "leaderboards.Tournament", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    history_of = models.ForeignKey(
        "accounts.Player", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    games = models.PositiveIntegerField(
        null=True, blank=True, help_text="Only this many matches, most recent first."
    )
    added = models.DateTimeField(auto_now_add=True)
    # The matches it covers, fixed when study begins (a history keeps growing).
    match_ids = models.JSONField(null=True, blank=True)
    cursor = models.PositiveIntegerField(default=0)
    moves_studied = models.BigIntegerField(default=0)
    by_game = models.JSONField(default=dict, blank=True, help_text="Moves studied per game.")
    studied_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["ai", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(tournament__isnull=False, history_of__isnull=True)
                | Q(tournament__isnull=True, history_of__isnull=False),
                name="aiplayers_curriculum_one_source",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.ai}: {self.source_name}"

    @property
    def source_name(self) -> str:
        if self.tournament_id:
            return self.tournament.name
        return f"{self.history_of.display_name}'s history"

    @property
    def done(self) -> bool:
        return self.studied_at is not None


class Prediction(models.Model):
    """The outcome an AI predicted when it moved (``label``), and the mover's actual
    outcome (``actual``) once the match ended. Keyed by (match, ply)."""

    player = models.ForeignKey("accounts.Player", on_delete=models.CASCADE, related_name="+")
    match = models.ForeignKey("play.Match", on_delete=models.CASCADE, related_name="+")
    ply = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    label = models.CharField(max_length=32)
    probabilities = models.JSONField(default=dict, blank=True)
    actual = models.CharField(max_length=32, blank=True)
    moves_studied = models.BigIntegerField(default=0, help_text="The model's, when it moved.")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["player", "id"]
        constraints = [
            models.UniqueConstraint(fields=["match", "ply"], name="aiplayers_prediction_once"),
        ]
        indexes = [models.Index(fields=["player", "-id"], name="aiplayers_prediction_recent")]

    def __str__(self) -> str:
        return f"{self.player} at match {self.match_id} ply {self.ply}: {self.label}"
