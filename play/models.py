"""Matches, event-sourced: a ``Match``, its ``Seat``s and an append-only ``Move`` log.

The position is never stored: it is the replay of the log from the match's seed (see
``play.replay``). Every timer is a column here, so a restart of any process loses none.
Writes go through the match services (``play.create``, ``play.moves``, ``play.timers``
and the others: ``play/services.py`` draws their layering).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse


class Match(models.Model):
    class Status(models.TextChoices):
        INVITED = "invited", "Waiting for players"  # invitations or open seats pending
        ACTIVE = "active", "In play"
        FINISHED = "finished", "Finished"
        ABORTED = "aborted", "Called off"  # an invitation was declined or expired

    rule_set = models.ForeignKey(
        "variants.RuleSet", on_delete=models.PROTECT, related_name="matches"
    )
    seed = models.BigIntegerField(help_text="Seeds the set-up and the bots: a replay is exact.")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.INVITED)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    ply = models.PositiveIntegerField(default=0, help_text="Rows in the move log.")
    # A game recorded away from the live path (a tournament's) keeps its whole log here,
    # written once, instead of a Move row a ply (play.move_log says how to read either).
    move_log = models.TextField(null=True, blank=True, editable=False)  # noqa: DJ001 (null: rows)
    outcome = models.JSONField(null=True, blank=True, help_text="The game:over payload.")
    rated = models.BooleanField(default=True)
    # Leaderboards: the universe rated in (null: the public one) and, for a tournament's
    # games, the tournament and the game's number in it (unique: a game counts once).
    universe = models.ForeignKey(
        "leaderboards.Universe", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    # No index of its own: the unique (tournament, game number) leads with it.
    tournament = models.ForeignKey(
        "leaderboards.Tournament",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="matches",
        db_index=False,
    )
    game_number = models.PositiveIntegerField(null=True, blank=True)

    # Timers (seconds). AFK and reconnect follow the game-server seed's defaults.
    # Seed 000: with no time control a player may take as long as they want, so the AFK
    # timer runs only in a match started with it (``create.afk_default``).
    afk_on = models.BooleanField(default=False)
    afk_timeout = models.PositiveIntegerField(default=60)
    afk_warning = models.PositiveIntegerField(default=20)
    reconnect_window = models.PositiveIntegerField(default=60)
    # Deadlines (null: not running). ``wake_at`` is the earliest of them, or the time a
    # bot or Chaos is due to move: the timekeeper polls it.
    turn_started = models.DateTimeField(null=True, blank=True)
    turn_deadline = models.DateTimeField(null=True, blank=True)
    afk_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    afk_since = models.DateTimeField(null=True, blank=True)
    afk_warned = models.BooleanField(default=False)
    invite_deadline = models.DateTimeField(null=True, blank=True)
    wake_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # Simultaneous turn order (seed 000): each team still to move in the round has its own
    # clocks, {"<seat>": {"started", "deadline", "afk", "warned"}} (epoch ms; see
    # ``play.clock``); the columns above then show the team whose time runs out first.
    team_clocks = models.JSONField(default=dict, blank=True)

    # A series (seed 001's intermissions): after a game, up to 30 s for every player to
    # say Ready; then the next game starts with the same players, colours swapped.
    previous = models.OneToOneField(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="next_game"
    )
    series_game = models.PositiveIntegerField(default=1, help_text="1 for a series' first game.")
    intermission_deadline = models.DateTimeField(null=True, blank=True)
    series_ready = models.JSONField(default=list, blank=True, help_text="Ready player ids.")
    series_end = models.CharField(max_length=8, blank=True)  # "next" or "expired", once over
    # A gentle match (issue 38): the start form may switch the game's turn timer off and
    # play one game rather than a series; a person's first games against a bot do both
    # unless they chose otherwise (``create.gentle``). Database defaults: rows written
    # without them (tournaments, bulk copies) keep the game's timer and series.
    turn_timer = models.BooleanField(default=True, db_default=True)
    series_on = models.BooleanField(default=True, db_default=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["status", "rule_set"])]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "game_number"], name="play_match_tournament_game_once"
            ),
        ]

    def __str__(self) -> str:
        return f"Match {self.pk} ({self.rule_set.name})"

    def get_absolute_url(self) -> str:
        return reverse("play:match", kwargs={"pk": self.pk})

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.ABORTED)


class Seat(models.Model):
    class Kind(models.TextChoices):
        PLAYER = "player", "Player"
        CHAOS = "chaos", "Chaos"  # filled by the game: moves at random, never stored as a player
        OPEN = "open", "Next available human"  # matchmaking fills it

    class Invitation(models.TextChoices):
        ACCEPTED = "accepted", "Accepted"
        PENDING = "pending", "Invited"
        DECLINED = "declined", "Declined"

    # No index of its own: the unique (match, index) leads with the match.
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats", db_index=False)
    index = models.PositiveSmallIntegerField(help_text="The engine's seat number (0-based).")
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.PLAYER)
    player = models.ForeignKey(
        "accounts.Player", on_delete=models.PROTECT, null=True, blank=True, related_name="seats"
    )
    invitation = models.CharField(
        max_length=8, choices=Invitation.choices, default=Invitation.ACCEPTED
    )
    disconnect_deadline = models.DateTimeField(null=True, blank=True)
    result = models.CharField(max_length=4, blank=True)  # win / draw / loss, once over
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    # A packed log's think times (play.move_log): the seat's moves and their ms summed,
    # so the stats average them without unpacking. Null: count the Move rows.
    moves_made = models.PositiveIntegerField(null=True, blank=True)
    think_total_ms = models.BigIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["match", "index"]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="play_seat_unique_index"),
        ]

    def __str__(self) -> str:
        return f"seat {self.index + 1} of match {self.match_id}"


class Move(models.Model):
    """One line of a match's log. ``kind`` says how to replay it: a move in notation, or
    a match-layer event the engine applies as ``forfeit``/``skip``."""

    class Kind(models.TextChoices):
        MOVE = "move", "Move"
        RESIGN = "resign", "Resignation"
        TIMEOUT = "timeout", "Timeout"
        DISCONNECT = "disconnect", "Disconnect"
        SKIP = "skip", "Turn skipped"

    # No index of its own: the unique (match, ply) index leads with the match and serves
    # every lookup by match; a second index cost each of a tournament's ~20 rows a game.
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="moves", db_index=False)
    ply = models.PositiveIntegerField(help_text="1-based position in the log.")
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.MOVE)
    notation = models.CharField(max_length=64, blank=True)
    auto = models.BooleanField(default=False, help_text="Played by the server for the seat.")
    think_ms = models.PositiveIntegerField(default=0, help_text="Time the seat took.")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "ply"]
        constraints = [
            # The log is append-only and gap-free: two writers cannot both take a ply.
            models.UniqueConstraint(fields=["match", "ply"], name="play_move_unique_ply"),
        ]

    def __str__(self) -> str:
        return f"{self.ply}. seat {self.seat + 1} {self.notation or self.kind}"


class Presence(models.Model):
    """An open websocket of a seated user. The reconnect window opens when a seat's last
    presence goes. A process touches its rows while it lives, so the rows of a process
    that died are recognised as stale by the others."""

    channel_name = models.CharField(max_length=200)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="presences")
    seat = models.PositiveSmallIntegerField()
    process = models.CharField(max_length=64)
    seen = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["match", "seat"]), models.Index(fields=["process"])]
        constraints = [
            models.UniqueConstraint(fields=["channel_name", "seat"], name="play_presence_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.channel_name} holds seat {self.seat + 1} of match {self.match_id}"


class CrewMember(models.Model):
    """One more person on a seat's team (nested-board games: several people share a team).

    The seat's own ``player`` leads the crew; members follow in ``order``. The rules'
    ``crew_order`` says who moves: "in-turn" rotates through the crew, one team turn
    each; "flexible" lets any member move (see ``play.crews``)."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="crew")
    order = models.PositiveSmallIntegerField(help_text="1 follows the seat's player, and so on.")
    player = models.ForeignKey("accounts.Player", on_delete=models.PROTECT, related_name="+")
    invitation = models.CharField(
        max_length=8, choices=Seat.Invitation.choices, default=Seat.Invitation.ACCEPTED
    )

    class Meta:
        ordering = ["seat", "order"]
        constraints = [
            models.UniqueConstraint(fields=["seat", "order"], name="play_crew_unique_order"),
            models.UniqueConstraint(fields=["seat", "player"], name="play_crew_unique_player"),
        ]

    def __str__(self) -> str:
        return f"crew member {self.order} of {self.seat}"
