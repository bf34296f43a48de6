"""Personas: a person's alter egos, each a player of its own (own seat, own ratings)."""

from __future__ import annotations

from django import forms
from django.db import transaction

from accounts.models import Player
from accounts.services import RESERVED_USERNAMES

MAX_PERSONAS = 10


class PersonaError(ValueError):
    pass


def personas_of(user):
    return Player.objects.filter(kind=Player.Kind.PERSONA, owner=user).order_by("name")


def create_persona(user, name: str) -> Player:
    """A new persona of ``user``; names are unique per person, case-insensitively."""
    name = " ".join((name or "").split())
    if not 1 <= len(name) <= 40:
        raise PersonaError("A persona's name has 1 to 40 characters.")
    if name.lower() in RESERVED_USERNAMES:
        raise PersonaError(f"{name!r} is reserved; choose another name.")
    with transaction.atomic():
        # Lock the owner's personas so two quick submissions cannot pass the limit together.
        mine = list(personas_of(user).select_for_update())
        if len(mine) >= MAX_PERSONAS:
            raise PersonaError(f"You have {MAX_PERSONAS} personas, the most one person may have.")
        if any(p.name.lower() == name.lower() for p in mine):
            raise PersonaError(f"You already have a persona called {name!r}.")
        return Player.objects.create(kind=Player.Kind.PERSONA, name=name, owner=user)


class PersonaForm(forms.Form):
    name = forms.CharField(max_length=40, label="New persona's name")
