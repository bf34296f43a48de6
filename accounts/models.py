"""Users with a role, and players: anyone who can take a seat at a match."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.urls import reverse


class Role(models.TextChoices):
    """What a user may do. Every new account is a Creator; an Admin grants the others."""

    CREATOR = "creator", "Creator"
    TRAINER = "trainer", "Trainer"
    ADMIN = "admin", "Admin"


class User(AbstractUser):
    """The site's user. A custom model from the first migration, so that roles, players
    and universes can be added later without swapping ``AUTH_USER_MODEL``.

    Read the role through ``accounts.roles`` (superusers count as Admins whatever
    ``role`` says); change it through ``accounts.services.set_role``.
    """

    role = models.CharField(max_length=16, choices=Role.choices, default=Role.CREATOR)


class Player(models.Model):
    """Anyone who can take a seat: a human (one per user), a bot, or the Random player.

    Chaos is never stored: it is a seat the engine fills, not a player with a record.
    Personas are a human's alter egos: their ``owner`` plays them, rated apart.
    """

    class Kind(models.TextChoices):
        HUMAN = "human", "Human"
        BOT = "bot", "Bot"
        RANDOM = "random", "Random"
        PERSONA = "persona", "Persona"  # a human's alter ego: ``owner`` plays it
        # A trainer's own AI, playing from their machine over /ws/bot/ (see ``ownbots``).
        OWN_BOT = "ownbot", "Own bot"
        # A learning AI made in the player factory (``aiplayers``): its model is in the DB.
        AI = "ai", "AI"

    kind = models.CharField(max_length=16, choices=Kind.choices)
    # Bots and (later) personas: their name. A human is shown by the user's username.
    name = models.CharField(max_length=64, blank=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="player",
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="owned_players",
        help_text="Who made this bot (or, later, persona).",
    )
    bot_spec = models.JSONField(
        null=True, blank=True, help_text='For bots: e.g. {"kind": "random"} or "mcts:2000".'
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            # A human is exactly one user's seat; nothing else is tied to a login.
            models.CheckConstraint(
                condition=Q(kind="human", user__isnull=False)
                | (~Q(kind="human") & Q(user__isnull=True)),
                name="accounts_player_user_iff_human",
                violation_error_message="A human player belongs to exactly one user.",
            ),
            models.CheckConstraint(
                condition=Q(kind="bot", bot_spec__isnull=False)
                | (~Q(kind="bot") & Q(bot_spec=None)),
                name="accounts_player_spec_iff_bot",
                violation_error_message="A bot needs a bot spec; other players have none.",
            ),
            # There is one Random player, shared by every rule set and universe.
            models.UniqueConstraint(
                fields=["kind"],
                condition=Q(kind="random"),
                name="accounts_player_one_random",
                violation_error_message="There is already a Random player.",
            ),
        ]

    def __str__(self) -> str:
        return self.display_name

    def get_absolute_url(self) -> str:
        return reverse("accounts:player", kwargs={"pk": self.pk})

    def clean(self) -> None:
        """Check and normalise a bot's spec (the admin calls this before saving)."""
        super().clean()
        if self.kind == self.Kind.BOT:
            if not self.name:
                raise ValidationError({"name": "A bot needs a name."})
            try:
                self.bot_spec = normalised_bot_spec(self.bot_spec)
            except ValidationError as exc:
                raise ValidationError({"bot_spec": exc.messages}) from None

    @property
    def display_name(self) -> str:
        if self.kind == self.Kind.HUMAN and self.user_id:
            return self.user.username
        if self.kind == self.Kind.RANDOM:
            return self.name or "Random"
        return self.name


def normalised_bot_spec(spec) -> dict:
    """``gamecore.bots.parse_spec``'s dict form, or a ``ValidationError`` saying why not."""
    from gamecore.bots import SpecError, parse_spec

    if spec in (None, "", {}):
        raise ValidationError('A bot needs a bot spec, e.g. {"kind": "random"}.')
    try:
        return parse_spec(spec)
    except SpecError as exc:
        raise ValidationError(str(exc)) from None


class FriendRequest(models.Model):
    """A friend request from ``sender`` to ``recipient`` and what became of it.

    Friends are the two ends of an accepted request (either direction). A declined
    request may be sent again; a banned one may not, until the recipient lifts the ban.
    Writes go through ``accounts.services`` (send, answer, ban, unban, unfriend).
    """

    class State(models.TextChoices):
        REQUESTED = "requested", "Requested"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        BANNED = "banned", "Banned"

    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="friend_requests_sent"
    )
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="friend_requests"
    )
    state = models.CharField(max_length=10, choices=State.choices, default=State.REQUESTED)
    created = models.DateTimeField(auto_now_add=True)
    answered = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        constraints = [
            models.UniqueConstraint(
                fields=["sender", "recipient"], name="accounts_friendrequest_once"
            ),
            models.CheckConstraint(
                condition=~Q(sender=models.F("recipient")),
                name="accounts_friendrequest_not_self",
                violation_error_message="You cannot befriend yourself.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.sender} → {self.recipient}: {self.state}"
