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


# The standard bots every site has from its first ``migrate`` (a data migration makes
# them, owned by the system Admin): the levels of the tic-tac-toe server seed and a
# search bot. (name, spec, what it does in a few words.) Admins may add others.
STANDARD_BOTS = (
    ("Easy bot", {"kind": "easy"}, "plays at random"),
    ("Medium bot", {"kind": "medium"}, "wins or blocks when it can"),
    ("Hard bot", {"kind": "hard"}, "searches ahead (alpha-beta)"),
    ("MCTS bot", {"kind": "mcts", "simulations": 1000}, "tree search, 1000 playouts"),
)
DEFAULT_OPPONENT = "Medium bot"  # the start form's second seat


def standard_bots() -> list[Player]:
    """The standard bots, in ``STANDARD_BOTS`` order. The data migration makes them; this
    makes any that are missing (a test flushed the tables) but never changes the ones an
    Admin edited."""
    owner = system_user()
    names = [name for name, _spec, _blurb in STANDARD_BOTS]
    found = {
        p.name: p for p in Player.objects.filter(kind=Player.Kind.BOT, owner=owner, name__in=names)
    }
    for name, spec, _blurb in STANDARD_BOTS:
        if name not in found:
            found[name], _ = Player.objects.get_or_create(
                kind=Player.Kind.BOT, owner=owner, name=name, defaults={"bot_spec": spec}
            )
    return [found[name] for name in names]


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


# --- Friends -------------------------------------------------------------------------------


class FriendshipRefused(ValueError):
    """A friend request or answer that cannot be made (says why)."""


def friend_user_ids(user) -> set[int]:
    """The ids of ``user``'s friends (accepted requests either way)."""
    from django.db.models import Q

    from accounts.models import FriendRequest

    rows = FriendRequest.objects.filter(
        Q(sender=user) | Q(recipient=user), state=FriendRequest.State.ACCEPTED
    ).values_list("sender_id", "recipient_id")
    return {b if a == user.pk else a for a, b in rows}


def are_friends(user, other) -> bool:
    return getattr(other, "pk", None) in friend_user_ids(user)


def send_friend_request(sender, recipient):
    """Ask ``recipient`` to be friends. A pending request the other way is accepted
    instead; a declined request is sent again; a ban refuses (without saying so to the
    banned person: "cannot send" reads the same as for other refusals)."""
    from accounts.models import FriendRequest

    if recipient is None or recipient.pk == sender.pk:
        raise FriendshipRefused("You cannot send a friend request to yourself.")
    if recipient.username == SYSTEM_USERNAME:
        raise FriendshipRefused(f"{recipient.username} is the site's own account.")
    with transaction.atomic():
        # Lock both users in id order: two people asking each other at once take turns.
        get_user_model().objects.select_for_update().filter(
            pk__in=[sender.pk, recipient.pk]
        ).order_by("pk").first()
        mine = FriendRequest.objects.filter(sender=sender, recipient=recipient).first()
        theirs = FriendRequest.objects.filter(sender=recipient, recipient=sender).first()
        if FriendRequest.State.ACCEPTED in (
            getattr(mine, "state", None),
            getattr(theirs, "state", None),
        ):
            raise FriendshipRefused(f"You and {recipient.username} are already friends.")
        if mine is not None and mine.state == FriendRequest.State.BANNED:
            raise FriendshipRefused(f"You cannot send {recipient.username} a friend request.")
        if theirs is not None and theirs.state == FriendRequest.State.REQUESTED:
            return _answer(theirs, FriendRequest.State.ACCEPTED)
        if mine is None:
            return FriendRequest.objects.create(sender=sender, recipient=recipient)
        if mine.state == FriendRequest.State.REQUESTED:
            raise FriendshipRefused(f"Your request to {recipient.username} is still waiting.")
        mine.state, mine.answered = FriendRequest.State.REQUESTED, None
        mine.save(update_fields=["state", "answered"])
        return mine


def _answer(request, state: str):
    from django.utils import timezone

    request.state, request.answered = state, timezone.now()
    request.save(update_fields=["state", "answered"])
    return request


def _incoming(user, request_id: int, states: tuple[str, ...]):
    from accounts.models import FriendRequest

    found = (
        FriendRequest.objects.select_for_update()
        .filter(pk=request_id, recipient=user, state__in=states)
        .select_related("sender")
        .first()
    )
    if found is None:
        raise FriendshipRefused("There is no such friend request for you to answer.")
    return found


def answer_friend_request(user, request_id: int, answer: str):
    """``answer``: "accept", "decline" or "ban" (a ban also stops future requests)."""
    from accounts.models import FriendRequest

    states = {
        "accept": FriendRequest.State.ACCEPTED,
        "decline": FriendRequest.State.DECLINED,
        "ban": FriendRequest.State.BANNED,
    }
    if answer not in states:
        raise FriendshipRefused("Answer with accept, decline or ban.")
    with transaction.atomic():
        pending = (FriendRequest.State.REQUESTED,)
        if answer == "ban":  # a friend or a declined sender can be banned too
            pending = (*pending, FriendRequest.State.DECLINED, FriendRequest.State.ACCEPTED)
        return _answer(_incoming(user, request_id, pending), states[answer])


def ban_user(user, other):
    """Ban ``other`` whatever stood between them: no more requests from them."""
    from accounts.models import FriendRequest

    if other.pk == user.pk:
        raise FriendshipRefused("You cannot ban yourself.")
    with transaction.atomic():
        FriendRequest.objects.filter(sender=user, recipient=other).delete()
        row, _ = FriendRequest.objects.get_or_create(sender=other, recipient=user)
        return _answer(row, FriendRequest.State.BANNED)


def unban(user, request_id: int) -> None:
    from accounts.models import FriendRequest

    with transaction.atomic():
        _incoming(user, request_id, (FriendRequest.State.BANNED,)).delete()


def unfriend(user, other) -> None:
    from django.db.models import Q

    from accounts.models import FriendRequest

    FriendRequest.objects.filter(
        Q(sender=user, recipient=other) | Q(sender=other, recipient=user),
        state=FriendRequest.State.ACCEPTED,
    ).delete()


def cancel_friend_request(user, request_id: int) -> None:
    from accounts.models import FriendRequest

    FriendRequest.objects.filter(
        pk=request_id, sender=user, state=FriendRequest.State.REQUESTED
    ).delete()


def friends_overview(user) -> dict:
    """What the friends page lists: requests to answer, friends, sent requests, bans."""
    from django.db.models import Q

    from accounts.models import FriendRequest

    rows = FriendRequest.objects.filter(Q(sender=user) | Q(recipient=user)).select_related(
        "sender__player", "recipient__player"
    )
    out: dict[str, list] = {"incoming": [], "friends": [], "sent": [], "banned": []}
    for row in rows.order_by("-created"):
        other = row.recipient if row.sender_id == user.pk else row.sender
        if row.state == FriendRequest.State.ACCEPTED:
            out["friends"].append((row, other))
        elif row.recipient_id == user.pk and row.state == FriendRequest.State.REQUESTED:
            out["incoming"].append((row, other))
        elif row.recipient_id == user.pk and row.state == FriendRequest.State.BANNED:
            out["banned"].append((row, other))
        elif row.sender_id == user.pk and row.state != FriendRequest.State.BANNED:
            out["sent"].append((row, other))  # waiting, or declined (may be sent again)
    out["friends"].sort(key=lambda pair: pair[1].username.lower())
    return out
