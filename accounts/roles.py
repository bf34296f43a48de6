"""Who may do what: the one place that reads a user's role.

Superusers count as Admins whatever their ``role`` field says, so that the account made
by ``createsuperuser`` can grant the first roles. Anonymous visitors have no role.
"""

from __future__ import annotations

from accounts.models import Role


def role_of(user) -> Role | None:
    """The user's role, or ``None`` for an anonymous visitor (or no user at all)."""
    if user is None or not user.is_authenticated:
        return None
    if user.is_superuser:
        return Role.ADMIN
    # An unknown value (written around the services) gets the least power, not a crash.
    return Role(user.role) if user.role in Role.values else Role.CREATOR


def is_admin(user) -> bool:
    return role_of(user) == Role.ADMIN


def is_trainer_or_admin(user) -> bool:
    return role_of(user) in (Role.TRAINER, Role.ADMIN)
