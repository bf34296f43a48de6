"""Registering an own bot and its access token: made with ``secrets``, shown once,
stored as its SHA-256, replaced or revoked by its owner (or an Admin)."""

from __future__ import annotations

import hashlib
import re
import secrets

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import Player
from accounts.roles import is_admin, is_trainer_or_admin

from .models import BotKey

PREFIX = "vfb_"  # tells a Variant Foundry bot token apart in a config file
MAX_TOKEN = 200  # longer text is no token of ours (and is not hashed)
NAME_LENGTH = (3, 40)


class BotError(ValueError):
    """Something a trainer asked that cannot be done (says why, naming the field)."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def _new_token() -> str:
    return PREFIX + secrets.token_urlsafe(32)


def may_register(user) -> bool:
    return is_trainer_or_admin(user)


def may_manage(user, player: Player) -> bool:
    """The bot's owner (a Trainer or Admin still) and Admins manage its token."""
    if player.kind != Player.Kind.OWN_BOT or not getattr(user, "is_authenticated", False):
        return False
    return is_admin(user) or (player.owner_id == user.pk and is_trainer_or_admin(user))


def may_seat(user, player: Player) -> bool:
    """May ``user`` seat ``player`` in a live match? Anyone may seat any other player;
    an own bot plays on its owner's machine, so only its owner seats it, unless the owner
    opened it to challenges (then anyone may)."""
    if player.kind != Player.Kind.OWN_BOT:
        return True
    if getattr(user, "is_authenticated", False) and player.owner_id == user.pk:
        return True
    return BotKey.objects.filter(player=player, open_to_challenges=True).exists()


def seat_refusal(player: Player) -> str:
    """Why a user may not seat this own bot (a sentence for the start form)."""
    return (
        f"{player.name} is an own bot: it plays on its owner's machine, and only its owner "
        "may seat it until they open it to challenges."
    )


def set_open_to_challenges(user, player: Player, value: bool) -> None:
    if not may_manage(user, player):
        raise BotError("Only the bot's owner or an Admin can open it to challenges.")
    BotKey.objects.filter(player=player).update(open_to_challenges=value)


def clean_name(name) -> str:
    if not isinstance(name, str):
        raise BotError("name: the bot's name is missing.")
    if re.search(r"[\x00-\x1f\x7f]", name):
        raise BotError("name: it may not contain a control character.")
    name = " ".join(name.split())
    low, high = NAME_LENGTH
    if not low <= len(name) <= high:
        raise BotError(f"name: {low} to {high} characters.")
    if Player.objects.filter(kind__in=[Player.Kind.BOT, Player.Kind.OWN_BOT], name__iexact=name):
        raise BotError(f"name: there is already a bot called {name!r}.")
    return name


def register(user, name: str) -> tuple[Player, str]:
    """A new own bot of ``user`` and its token (the only time the token is seen)."""
    if not may_register(user):
        raise BotError("Only Trainers and Admins register bots of their own.")
    name = clean_name(name)
    token = _new_token()
    with transaction.atomic():
        player = Player.objects.create(kind=Player.Kind.OWN_BOT, name=name, owner=user)
        _store(player, token)
    return player, token


def _store(player: Player, token: str) -> None:
    BotKey.objects.update_or_create(
        player=player,
        defaults={
            "token_hash": hash_token(token),
            "hint": token[: len(PREFIX) + 4],
            "created": timezone.now(),
            "revoked": None,
        },
    )


def replace(user, player: Player) -> str:
    """A new token for the bot; the old one stops working at once."""
    if not may_manage(user, player):
        raise BotError("Only the bot's owner or an Admin can change its token.")
    for _ in range(3):  # a clash of 256-bit tokens does not happen; a retry costs nothing
        token = _new_token()
        try:
            with transaction.atomic():
                _store(player, token)
            break
        except IntegrityError:
            continue
    from .connections import drop

    drop(player.pk, "The bot's token was replaced: connect with the new one.")
    return token


def revoke(user, player: Player) -> None:
    """No token opens the bot any more (until a new one is made); its connection ends."""
    if not may_manage(user, player):
        raise BotError("Only the bot's owner or an Admin can revoke its token.")
    BotKey.objects.filter(player=player).update(token_hash=None, revoked=timezone.now())
    from .connections import drop

    drop(player.pk, "The bot's token was revoked.")


def bot_for_token(token) -> Player | None:
    """The own bot this token opens, or None (wrong, revoked, or not a token at all)."""
    if not isinstance(token, str) or not token or len(token) > MAX_TOKEN:
        return None
    key = (
        BotKey.objects.select_related("player")
        .filter(token_hash=hash_token(token), player__kind=Player.Kind.OWN_BOT)
        .first()
    )
    return key.player if key else None
