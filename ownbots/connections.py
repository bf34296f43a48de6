"""The one live connection of an own bot. The newest connection wins: a client that
reconnects after its network dropped (or after it was killed) must not wait for the
server to notice that the old socket is dead, and a bot that runs twice by mistake is
told so on the connection that loses (error ``replaced``), which then closes."""

from __future__ import annotations

from datetime import timedelta

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.utils import timezone

from .models import BotConnection

TOUCH_SECONDS = 2.0  # a connection touches its row this often
STALE_SECONDS = 10.0  # a row untouched this long belongs to a process that died


def bot_group(player_id: int) -> str:
    return f"ownbot.{player_id}"


def claim(player_id: int, channel_name: str, process: str, version: str) -> str | None:
    """Make this the bot's connection; the channel of the one it replaces, if any."""
    now = timezone.now()
    with transaction.atomic():
        old = BotConnection.objects.select_for_update().filter(player_id=player_id).first()
        previous = old.channel_name if old and old.channel_name != channel_name else None
        BotConnection.objects.update_or_create(
            player_id=player_id,
            defaults={
                "channel_name": channel_name,
                "process": process,
                "version": version,
                "connected": now,
                "seen": now,
            },
        )
    return previous


def release(player_id: int, channel_name: str) -> None:
    BotConnection.objects.filter(player_id=player_id, channel_name=channel_name).delete()


def still_mine(player_id: int, channel_name: str) -> str | None:
    """Touch the row; None if this is still the bot's connection, else why not
    (``replaced`` by a newer one, or ``dropped``: the token was changed)."""
    row = BotConnection.objects.filter(player_id=player_id).values_list("channel_name").first()
    if row is None:
        return "dropped"
    if row[0] != channel_name:
        return "replaced"
    BotConnection.objects.filter(player_id=player_id, channel_name=channel_name).update(
        seen=timezone.now()
    )
    return None


def current(player_id: int) -> BotConnection | None:
    """The bot's live connection (not a stale row), or None."""
    cutoff = timezone.now() - timedelta(seconds=STALE_SECONDS)
    return BotConnection.objects.filter(player_id=player_id, seen__gte=cutoff).first()


def connected_ids() -> set[int]:
    cutoff = timezone.now() - timedelta(seconds=STALE_SECONDS)
    return set(BotConnection.objects.filter(seen__gte=cutoff).values_list("player_id", flat=True))


def drop(player_id: int, reason: str) -> None:
    """End the bot's connection (its token changed): the row goes at once; the socket is
    told through the channel layer, or notices the missing row within TOUCH_SECONDS."""
    row = BotConnection.objects.filter(player_id=player_id).first()
    if row is None:
        return
    row.delete()
    tell(row.channel_name, {"type": "bot.close", "code": "dropped", "reason": reason})


def tell(channel_name: str, message: dict) -> None:
    """Best effort: a message to one socket (the polls cover a lost one)."""
    try:
        async_to_sync(get_channel_layer().send)(channel_name, message)
    except Exception:
        pass


def wake(player_id: int) -> None:
    """Tell the bot's socket that a turn is waiting (best effort: it also polls)."""
    try:
        async_to_sync(get_channel_layer().group_send)(bot_group(player_id), {"type": "bot.wake"})
    except Exception:
        pass
