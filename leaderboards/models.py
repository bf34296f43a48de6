"""Universes, ratings and their history, standard players, tournaments.

Writes go through ``leaderboards.services`` (ratings, leaderboards) and
``tournaments.services`` (tournaments; their Celery tasks in ``tournaments.tasks``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse

from leaderboards.rating import BEGINNER_MU, BEGINNER_SIGMA, display, display_change
from leaderboards.rating import exact as exact_words

DEFAULT_UNIVERSE_SLUG = "main"


class Universe(models.Model):
    """A separate world of ratings. Everyone rates in the public one (slug "main", made
    by a data migration); another universe lists the personas and bots that live in it,
    and its leaderboards are offered to the owners of those personas."""

    slug = models.SlugField(max_length=40, unique=True)
    name = models.CharField(max_length=64, unique=True)
    members = models.ManyToManyField("accounts.Player", blank=True, related_name="universes")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Who made it (none for the public one and those made in the admin).",
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.name

    @property
    def is_default(self) -> bool:
        return self.slug == DEFAULT_UNIVERSE_SLUG


class StandardPlayer(models.Model):
    """A rule set's standard player (SP): shown on its leaderboard in every universe."""

    rule_set = models.OneToOneField(
        "variants.RuleSet", on_delete=models.CASCADE, related_name="standard_player"
    )
    player = models.ForeignKey("accounts.Player", on_delete=models.CASCADE, related_name="+")

    def __str__(self) -> str:
        return f"{self.player} is the standard player of {self.rule_set}"


class Rating(models.Model):
    """A player's skill at one rule set in one universe (openskill Plackett–Luce).

    ``ordinal`` is R = mu - 3 sigma; ``top_burst`` the largest rise of R in one match;
    ``score`` = R + top burst, the leaderboard's order (indexed). ``level_since`` is when
    R entered its current level (``rating.level``).
    """

    player = models.ForeignKey("accounts.Player", on_delete=models.CASCADE, related_name="ratings")
    rule_set = models.ForeignKey("variants.RuleSet", on_delete=models.CASCADE, related_name="+")
    universe = models.ForeignKey(Universe, on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField(default=BEGINNER_MU)
    sigma = models.FloatField(default=BEGINNER_SIGMA)
    ordinal = models.FloatField(default=0.0)
    top_burst = models.FloatField(default=0.0)
    score = models.FloatField(default=0.0)
    level_since = models.DateTimeField()
    matches = models.PositiveIntegerField(default=0)
    last_match = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "rule_set", "universe"], name="leaderboards_rating_unique"
            ),
        ]
        indexes = [
            models.Index(
                fields=["rule_set", "universe", "-score"], name="leaderboards_rating_board"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.rule_set}: {self.shown}"

    @property
    def shown(self) -> int:
        return display(self.ordinal)

    @property
    def shown_burst(self) -> int:
        return display_change(self.top_burst)

    @property
    def exact(self) -> str:
        """R, μ and σ as they are, for a hover over the shown rating."""
        return exact_words(self.ordinal, self.mu, self.sigma)


class RatingHistory(models.Model):
    """One rated match's effect on one player's rating: the evolution chart reads these.
    Unique per (match, player), so a match is never applied twice."""

    # No indexes of their own: the curve's (rating, id) and the unique (match, player) lead
    # with them (a tournament writes two history rows a game).
    rating = models.ForeignKey(
        Rating, on_delete=models.CASCADE, related_name="history", db_index=False
    )
    match = models.ForeignKey(
        "play.Match", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    player = models.ForeignKey("accounts.Player", on_delete=models.CASCADE, related_name="+")
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    ordinal_before = models.FloatField()
    ordinal_after = models.FloatField()
    # What the ratings expected before the match (rating.expectation): this player's
    # chance of winning it and the chance of a draw. Null on rows rated before they
    # were kept (the favouritism stats skip those matches).
    expected_win = models.FloatField(null=True, blank=True)
    expected_draw = models.FloatField(null=True, blank=True)
    at = models.DateTimeField(help_text="When the match ended.")

    class Meta:
        ordering = ["rating", "id"]
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="leaderboards_history_once"),
        ]
        indexes = [models.Index(fields=["rating", "id"], name="leaderboards_history_curve")]

    def __str__(self) -> str:
        return f"match {self.match_id}: {self.ordinal_before:.2f} -> {self.ordinal_after:.2f}"

    @property
    def shown(self) -> int:
        return display(self.ordinal_after)


class Tournament(models.Model):
    """Games between bots, played by Celery workers a batch at a time.

    Its progress lives here, not in the broker: each game is a ``play.Match`` with a
    unique (tournament, game number); batches that lost their worker are sent again by
    ``tournaments.finishing.reconcile``; one finalising task applies the ratings in
    game order (``ratings_through`` is how far it got) and writes ``results``.
    """

    class Kind(models.TextChoices):
        STANDARD = "S", "Standard"
        BENCHMARK = "B", "Benchmark"
        SOCIAL = "C", "Social"  # made from the Favouritism tab (tournament_plan_edits)
        OTHER = "O", "Other"  # a plan edited by hand

    class Status(models.TextChoices):
        PLANNED = "planned", "Planned"  # saved, not started: no batches yet
        RUNNING = "running", "Running"
        FINALISING = "finalising", "Applying ratings"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"  # a batch kept failing (see tournaments.MAX_SENDS)

    name = models.CharField(max_length=100)
    rule_set = models.ForeignKey(
        "variants.RuleSet", on_delete=models.PROTECT, related_name="tournaments"
    )
    universe = models.ForeignKey(Universe, on_delete=models.PROTECT, related_name="tournaments")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    kind = models.CharField(max_length=1, choices=Kind.choices, default=Kind.STANDARD)
    kind_reason = models.CharField(
        max_length=200, blank=True, default="", help_text="Why it has its type, in plain words."
    )
    rated = models.BooleanField(default=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.RUNNING)
    seed = models.BigIntegerField()
    total_games = models.PositiveIntegerField()
    batch_size = models.PositiveIntegerField(default=10)
    created = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)
    ratings_through = models.PositiveIntegerField(default=0, help_text="Last game rated.")
    touched = models.DateTimeField(null=True, blank=True, help_text="Finaliser's last step.")
    watchdog = models.PositiveIntegerField(default=0, help_text="The live watchdog's number.")
    results = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("leaderboards:tournament", kwargs={"pk": self.pk})


class TournamentSet(models.Model):
    """One combination of players and how many games it plays (seats rotate per game)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="sets")
    order = models.PositiveSmallIntegerField()
    players = models.JSONField(help_text="Player ids in seat order of the set's first game.")
    games = models.PositiveIntegerField(default=100)

    class Meta:
        ordering = ["tournament", "order"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "order"], name="leaderboards_set_order"),
        ]

    def __str__(self) -> str:
        return f"set {self.order} of {self.tournament_id}: {self.players} x {self.games}"


class TournamentBatch(models.Model):
    """Consecutive game numbers, one Celery task. ``touched`` moves with every game, so a
    batch whose worker died is seen as stale and sent again."""

    class State(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="batches")
    number = models.PositiveIntegerField()
    first_game = models.PositiveIntegerField()
    last_game = models.PositiveIntegerField()
    state = models.CharField(max_length=8, choices=State.choices, default=State.QUEUED)
    touched = models.DateTimeField()
    sends = models.PositiveIntegerField(default=1, help_text="Times the task was sent.")

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="leaderboards_batch_number"
            ),
        ]

    def __str__(self) -> str:
        return f"batch {self.number} (games {self.first_game}-{self.last_game}): {self.state}"
