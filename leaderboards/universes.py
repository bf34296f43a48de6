"""Universes made by players: separate worlds of ratings for their personas.

A universe is open: anyone may put one of their personas into a universe that exists, or
make a new one by naming it. Matches started in a universe are rated there only; its
leaderboards are offered to the owners of its personas (``services.universes_for``).
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.text import slugify

from accounts.models import Player
from leaderboards.models import DEFAULT_UNIVERSE_SLUG, Universe
from variants.ids import parse_id

MAX_CREATED = 10  # universes one person may make
MAX_PER_PERSONA = 5  # universes one persona may live in
RESERVED = {DEFAULT_UNIVERSE_SLUG, "public", "public-universe"}


class UniverseError(ValueError):
    pass


def _own_persona(user, persona_id) -> Player:
    persona = Player.objects.filter(
        pk=parse_id(persona_id),
        kind=Player.Kind.PERSONA,
        owner=user,
    ).first()
    if persona is None:
        raise UniverseError("Choose one of your personas.")
    return persona


def join(user, name: str, persona_id) -> tuple[Universe, Player, bool]:
    """Put the user's persona into the universe called ``name``, making the universe if
    there is none of that name. Returns the universe, the persona and whether the
    universe was made now."""
    name = " ".join((name or "").split())
    if not 2 <= len(name) <= 64:
        raise UniverseError("A universe's name has 2 to 64 characters.")
    slug = slugify(name)[:40]
    if not slug:
        raise UniverseError("A universe's name needs a letter or a digit.")
    if slug in RESERVED or name.lower() == "public universe":
        raise UniverseError("Everyone is in the Public Universe already; choose another name.")
    persona = _own_persona(user, persona_id)
    with transaction.atomic():
        universe = Universe.objects.filter(name__iexact=name).first()
        made = universe is None
        if made:
            if Universe.objects.filter(created_by=user).count() >= MAX_CREATED:
                raise UniverseError(f"You have made {MAX_CREATED} universes, the most one may.")
            if Universe.objects.filter(slug=slug).exists():
                raise UniverseError(f"A universe with a name like {name!r} exists already.")
            try:
                with transaction.atomic():
                    universe = Universe.objects.create(slug=slug, name=name, created_by=user)
            except IntegrityError:  # made by someone else a moment ago
                raise UniverseError(
                    f"A universe called {name!r} was just made; try again."
                ) from None
        if universe.members.filter(pk=persona.pk).exists():
            raise UniverseError(f"{persona.name} is in {universe.name} already.")
        if persona.universes.count() >= MAX_PER_PERSONA:
            raise UniverseError(f"{persona.name} lives in {MAX_PER_PERSONA} universes already.")
        universe.members.add(persona)
    return universe, persona, made


def leave(user, slug: str, persona_id) -> tuple[Universe, Player]:
    """Take the user's persona out of a universe; its ratings there are kept."""
    persona = _own_persona(user, persona_id)
    universe = persona.universes.filter(slug=slug).first()
    if universe is None:
        raise UniverseError(f"{persona.name} is not in that universe.")
    universe.members.remove(persona)
    return universe, persona
