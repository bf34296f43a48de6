"""An own bot's access token, its live connection, the turns a worker asks it to play,
and the version it reported for each game it played."""

from __future__ import annotations

import json

from django.db import models

VERSION_LENGTH = 64


class JsonText(models.JSONField):
    """JSON kept as it was written: PostgreSQL's ``json`` (the text, checked) rather than
    ``jsonb``. A turn's view is written once, read whole, never searched inside; parsing
    it into ``jsonb`` was ~35 of a turn row's ~45 microseconds of the database's CPU
    (``json``: ~10). Elsewhere the same as ``JSONField``."""

    def db_type(self, connection):
        if connection.vendor == "postgresql":
            return "json"
        return super().db_type(connection)

    def get_db_prep_value(self, value, connection, prepared=False):
        if connection.vendor != "postgresql" or value is None:
            return super().get_db_prep_value(value, connection, prepared)
        return json.dumps(value, cls=self.encoder)  # the text: no cast to jsonb

    def from_db_value(self, value, expression, connection):
        if value is not None and not isinstance(value, str):
            return value  # the driver read ``json`` into values already
        return super().from_db_value(value, expression, connection)


class BotKey(models.Model):
    """The bot's access token, stored as its SHA-256 only (shown once when made).
    ``token_hash`` is null once revoked: no token opens the bot then. Also who may seat
    the bot in a live match (``keys.may_seat``): its owner, and anyone once the owner
    opened it to challenges."""

    player = models.OneToOneField(
        "accounts.Player", on_delete=models.CASCADE, related_name="bot_key"
    )
    token_hash = models.CharField(max_length=64, unique=True, null=True, blank=True)
    hint = models.CharField(max_length=12, blank=True, help_text="The token's first letters.")
    created = models.DateTimeField()
    revoked = models.DateTimeField(null=True, blank=True)
    open_to_challenges = models.BooleanField(
        default=False,
        help_text="Anyone may seat the bot in a live match (it plays on its owner's machine).",
    )

    def __str__(self) -> str:
        return f"token of {self.player}"


class BotConnection(models.Model):
    """The bot's one live connection (the newest wins: see ``ownbots.connections``).
    ``seen`` is touched while it lives; a stale row is a connection whose process died."""

    player = models.OneToOneField(
        "accounts.Player", on_delete=models.CASCADE, related_name="bot_connection"
    )
    channel_name = models.CharField(max_length=200)
    process = models.CharField(max_length=64)
    version = models.CharField(max_length=VERSION_LENGTH)
    connected = models.DateTimeField()
    seen = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.player} connected ({self.version})"


class BotTurn(models.Model):
    """A move a tournament's worker asks an own bot for: the seat's view and legal moves,
    written by the worker; the answer, written by the bot's connection. The database is
    the mailbox, so the worker and the web process need not share a channel layer."""

    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting"
        ANSWERED = "answered", "Answered"
        EXPIRED = "expired", "Expired"  # the worker gave up (late, or no connection)

    # No index of its own: the (player, status) index below serves every lookup by player
    # (one index fewer to update for each of the hundreds of turns a tournament writes).
    player = models.ForeignKey(
        "accounts.Player", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    tournament = models.ForeignKey(
        "leaderboards.Tournament", on_delete=models.CASCADE, related_name="+"
    )
    game_number = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    ply = models.PositiveIntegerField()
    view = JsonText()
    legal = JsonText()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.WAITING)
    answer = models.CharField(max_length=64, blank=True)
    version = models.CharField(max_length=VERSION_LENGTH, blank=True)
    created = models.DateTimeField()
    deadline = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["player", "status"])]

    def __str__(self) -> str:
        return f"turn {self.pk}: {self.player} seat {self.seat + 1}, game {self.game_number}"


class GameVersion(models.Model):
    """The version an own bot reported for a game it played (its first move's)."""

    match = models.ForeignKey("play.Match", on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(
        "accounts.Player", on_delete=models.CASCADE, related_name="game_versions"
    )
    version = models.CharField(max_length=VERSION_LENGTH)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="ownbots_version_once"),
        ]
        indexes = [models.Index(fields=["player", "version"])]

    def __str__(self) -> str:
        return f"{self.player} {self.version} in match {self.match_id}"
