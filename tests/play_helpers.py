"""Matches for tests: games by name, players, and moves played through the services."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.utils import timezone


def rule_set(name: str, **doc):
    """A catalogue game by name, or (with ``doc``) a new game made by the system user."""
    from accounts.services import system_user
    from variants.models import RuleSet
    from variants.services import create_rule_set

    if not doc:
        from variants.services import load_catalogue

        if not RuleSet.objects.filter(name=name).exists():
            load_catalogue()
        return RuleSet.objects.get(name=name)
    return create_rule_set({"name": name, **doc}, system_user())


def bot(name: str = "Easy", spec: str = "easy"):
    from accounts.models import Player

    return Player.objects.create(kind="bot", name=name, bot_spec={"kind": spec})


def human(user):
    from accounts.services import human_player

    return human_player(user)


def start(rule, by, *players, **options):
    """A match of ``rule`` with these players (a user, a Player, or "open")."""
    from play.services import SeatChoice, create_match

    choices = []
    for p in players:
        if p == "open":
            choices.append(SeatChoice("open"))
        elif hasattr(p, "kind"):
            choices.append(SeatChoice("player", p))
        else:
            choices.append(SeatChoice("player", human(p)))
    return create_match(rule, choices, by, seed=options.pop("seed", 1), **options)


def later(seconds: float):
    return timezone.now() + timedelta(seconds=seconds)


def near(moment, seconds: float):
    """A fake clock set from a deadline the server wrote (a datetime, or milliseconds since
    the epoch as the timer events carry them), never from now: on a loaded machine
    seconds may pass between the deadline being set and the test reading the clock."""
    if isinstance(moment, int | float):
        moment = datetime.fromtimestamp(moment / 1000, tz=UTC)
    return moment + timedelta(seconds=seconds)


def log(match) -> list[tuple]:
    from play.move_log import rows_of

    match.refresh_from_db()
    return [(r.seat, r.kind, r.notation) for r in rows_of(match)]


def logged_moves(**where) -> int:
    """The log rows of the matches ``where`` selects, in either representation (a
    recorded game's log is packed: play.move_log)."""
    from play.models import Match
    from play.move_log import rows_of_many

    ids = list(Match.objects.filter(**where).values_list("pk", flat=True))
    return sum(len(rows) for rows in rows_of_many(ids).values())
