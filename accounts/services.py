"""Writes to users and players. Views, the admin, signals and commands go through these."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import transaction

from accounts.models import Player, Role
from accounts.roles import is_admin

# The system Admin that owns the catalogue games. Nobody can log in as it or sign up
# with its name (nor with the names of the players who are not people).
SYSTEM_USERNAME = "foundry"
RESERVED_USERNAMES = frozenset({SYSTEM_USERNAME, "random", "chaos"})


class RoleChangeRefused(ValueError):
    """A role change that no one may make (unknown role, own account, superuser, system)."""


def system_user():
    """The "foundry" Admin, created (without a usable password) if it is missing."""
    user, created = get_user_model().objects.get_or_create(
        username=SYSTEM_USERNAME, defaults={"role": Role.ADMIN}
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def human_player(user) -> Player:
    """The user's own seat (made when the user is saved for the first time)."""
    player, _ = Player.objects.get_or_create(user=user, defaults={"kind": Player.Kind.HUMAN})
    return player


def random_player() -> Player:
    """The one Random player. A data migration creates it; this re-creates it if a test
    flushed the tables. The partial unique index makes a concurrent second one fail, and
    ``get_or_create`` then returns the winner's."""
    player, _ = Player.objects.get_or_create(kind=Player.Kind.RANDOM, defaults={"name": "Random"})
    return player


def set_role(user, role: str, by):
    """Make ``user`` a Creator, Trainer or Admin. Only an Admin may, and not for
    themselves (an Admin cannot lock the site out of its last Admin by accident), not
    for a superuser (always an Admin) and not for the system user.

    The user's row is locked, the same lock ``variants.services.create_rule_set`` takes
    to count a quota, so a demotion and a save of that user's game happen one at a time.
    """
    if not is_admin(by):
        raise PermissionDenied("Only an Admin can change roles.")
    if role not in Role.values:
        raise RoleChangeRefused(f"Unknown role {role!r}: choose one of {', '.join(Role.values)}.")
    with transaction.atomic():
        locked = get_user_model().objects.select_for_update().get(pk=user.pk)
        check_role_change(locked, by)
        locked.role = role
        locked.save(update_fields=["role"])
    user.role = role
    return user


def check_role_change(user, by) -> None:
    """Raise ``RoleChangeRefused`` if nobody may change ``user``'s role from the site."""
    if user.pk == by.pk:
        raise RoleChangeRefused("You cannot change your own role; ask another Admin.")
    if user.is_superuser:
        raise RoleChangeRefused(f"{user.username} is a superuser and always an Admin.")
    if user.username == SYSTEM_USERNAME:
        raise RoleChangeRefused(f"{user.username} is the site's own account.")
