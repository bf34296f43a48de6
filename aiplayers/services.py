"""The player factory's writes: making, editing, copying, forking and deleting AI
players, and exporting and importing a learning AI's model file. Each raises
``FactoryError`` (a message for the person) when it cannot do what was asked."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from accounts.models import Player
from accounts.roles import is_admin, is_trainer_or_admin

from . import learning
from .models import AIPlayer, CurriculumItem
from .search import spec_of, validate_search

MAX_MODEL_BYTES = 20 * 1024 * 1024  # an uploaded model file; bigger is refused unread
MACHINE_KINDS = (Player.Kind.BOT, Player.Kind.OWN_BOT, Player.Kind.AI)


class FactoryError(ValueError):
    """What the person asked cannot be done: the message says why."""


# --- who may -------------------------------------------------------------------------------


def may_create(user) -> bool:
    return is_trainer_or_admin(user)


def may_view(user) -> bool:
    """The factory's pages: every signed-in user (Creators read them only)."""
    return bool(getattr(user, "is_authenticated", False))


def may_edit(user, ai: AIPlayer) -> bool:
    return is_admin(user) or (ai.owner_id == getattr(user, "pk", None) and may_create(user))


# --- settings ------------------------------------------------------------------------------


def clean_name(name, exclude_player: int | None = None) -> str:
    """The games' name rule (no whitespace, '*', '(' or ')'; 1-64 characters), and no
    other bot or AI with the same name."""
    from gamecore.rules.errors import RulesError
    from gamecore.rules.validation import validate_name

    try:
        validate_name(name)
    except RulesError as exc:
        raise FactoryError("Name " + exc.errors[0]["message"] + ".") from None
    taken = Player.objects.filter(kind__in=MACHINE_KINDS, name__iexact=name)
    if exclude_player is not None:
        taken = taken.exclude(pk=exclude_player)
    if taken.exists():
        raise FactoryError(f"Name: there is already a bot or AI called {name}.")
    return name


def clean_settings(kind: str, algorithm: str, params: dict, personality: dict) -> dict:
    """{algorithm, params, personality} normalised, or FactoryError naming what is wrong."""
    try:
        if kind == AIPlayer.Kind.SEARCH:
            return {"algorithm": algorithm, "params": validate_search(algorithm, params),
                    "personality": {}}  # fmt: skip
        if kind == AIPlayer.Kind.LEARNING:
            data = learning.validate_settings(algorithm, params, personality)
            return {"algorithm": data.get("algorithm", algorithm), "params": data["params"],
                    "personality": data["personality"]}  # fmt: skip
    except ValueError as exc:
        raise FactoryError(str(exc)) from None
    raise FactoryError("Kind: choose Search or Learning.")


def _player_fields(kind: str, settings: dict) -> dict:
    if kind == AIPlayer.Kind.SEARCH:
        return {"kind": Player.Kind.BOT,
                "bot_spec": spec_of(settings["algorithm"], settings["params"])}  # fmt: skip
    return {"kind": Player.Kind.AI, "bot_spec": None}


def _place(player: Player, universe) -> None:
    """An AI lives in its universe (the public one lists everybody)."""
    player.universes.clear()
    if not universe.is_default:
        universe.members.add(player)


def create_ai(owner, *, name, universe, avatar, kind, algorithm, params, personality) -> AIPlayer:
    if not may_create(owner):
        raise FactoryError("Only Trainers and Admins make AI players.")
    name = clean_name(name)
    settings = clean_settings(kind, algorithm, params or {}, personality or {})
    with transaction.atomic():
        player = Player.objects.create(name=name, owner=owner, **_player_fields(kind, settings))
        ai = AIPlayer.objects.create(player=player, kind=kind, owner=owner, universe=universe,
                                     avatar=avatar, **settings)  # fmt: skip
        _place(player, universe)
    return ai


def update_ai(ai: AIPlayer, by, *, name, universe, avatar, kind, algorithm, params, personality):
    """Change an AI. Its kind and settings are fixed once it has begun learning."""
    if not may_edit(by, ai):
        raise FactoryError("Only the AI's trainer or an Admin can change it.")
    name = clean_name(name, exclude_player=ai.player_id)
    settings = clean_settings(kind, algorithm, params or {}, personality or {})
    changed = kind != ai.kind or any(getattr(ai, k) != v for k, v in settings.items())
    if changed and ai.settings_fixed:
        raise FactoryError("Its settings are fixed: it has begun learning. Copy it to change them.")
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=ai.player_id)
        player.name = name
        for field, value in _player_fields(kind, settings).items():
            setattr(player, field, value)
        player.save()
        ai.kind, ai.universe, ai.avatar = kind, universe, avatar
        for field, value in settings.items():
            setattr(ai, field, value)
        ai.save()
        _place(player, universe)
    return ai


def copy_initial(ai: AIPlayer) -> dict:
    """A new, unsaved AI's form data: the same settings, a name to change."""
    return {"name": f"{ai.player.name}-copy"[:64], "universe": ai.universe_id,
            "avatar": ai.avatar, "kind": ai.kind, "algorithm": ai.algorithm,
            "params": dict(ai.params), "personality": dict(ai.personality)}  # fmt: skip


def delete_ai(ai: AIPlayer, by) -> None:
    """The AI and its player go; matches it played keep their seats (the Player row is
    deleted only when nothing refers to it: else it is renamed and kept)."""
    from django.db.models import ProtectedError

    if not may_edit(by, ai):
        raise FactoryError("Only the AI's trainer or an Admin can delete it.")
    with transaction.atomic():
        player = ai.player
        try:
            with transaction.atomic():
                player.delete()
        except ProtectedError:  # it played matches: keep the seats' player, drop the AI
            ai.delete()


def fork(ai: AIPlayer, by, item_id: int, name: str) -> AIPlayer:
    """A new AI with ``ai``'s settings that studies ``ai``'s curriculum up to (and
    including) the history point ``item_id``: the same matches it studied there."""
    if not may_create(by):
        raise FactoryError("Only Trainers and Admins make AI players.")
    if not ai.is_learning:
        raise FactoryError("Only a learning AI has a curriculum to fork from.")
    point = ai.curriculum.filter(pk=item_id).first()
    if point is None:
        raise FactoryError("That curriculum point is not in this AI's history.")
    with transaction.atomic():
        new = create_ai(
            by, name=name, universe=ai.universe, avatar=ai.avatar, kind=ai.kind,
            algorithm=ai.algorithm, params=ai.params, personality=ai.personality,
        )  # fmt: skip
        new.forked_from = ai
        new.save(update_fields=["forked_from"])
        for item in ai.curriculum.filter(pk__lte=point.pk).order_by("pk"):
            ids = item.match_ids if item.match_ids is not None else None
            CurriculumItem.objects.create(
                ai=new,
                tournament=item.tournament,
                history_of=item.history_of,
                games=item.games,
                # the matches the original had studied there (an item under way: its
                # studied part; one not begun: all of it, fixed when the fork studies it)
                match_ids=None if ids is None or not item.cursor else ids[: item.cursor],
            )
    return new


# --- the model file ------------------------------------------------------------------------


def export_bytes(ai: AIPlayer) -> bytes:
    """The learning AI's model file (an untrained one before it has studied)."""
    if not ai.is_learning:
        raise FactoryError("Only a learning AI has a model file.")
    if ai.model:
        return bytes(ai.model)
    return learning.new_learner(ai.algorithm, ai.params, ai.personality, seed=ai.pk).to_bytes()


def import_model(ai: AIPlayer, by, upload) -> AIPlayer:
    """Replace the AI's model with an uploaded file. The file is parsed by the learning
    core's ``Learner.from_bytes`` (a format that cannot run code), never unpickled."""
    if not may_edit(by, ai):
        raise FactoryError("Only the AI's trainer or an Admin can import its model.")
    if not ai.is_learning:
        raise FactoryError("Only a learning AI takes a model file.")
    if upload is None:
        raise FactoryError("Choose a model file to import.")
    if upload.size > MAX_MODEL_BYTES:
        raise FactoryError(f"That file is too big: at most {MAX_MODEL_BYTES // 2**20} MB.")
    data = upload.read(MAX_MODEL_BYTES + 1)
    try:
        learner = learning.load_learner(data)
    except Exception:  # ValueError, or anything a hostile file provokes
        raise FactoryError("That is not a model file of this site (or it is damaged).") from None
    with transaction.atomic():
        locked = AIPlayer.objects.select_for_update().get(pk=ai.pk)
        locked.model = learner.to_bytes()
        locked.moves_studied = int(getattr(learner, "moves_studied", 0) or 0)
        locked.learning_started = locked.learning_started or timezone.now()
        locked.model_changed = timezone.now()
        for field in ("algorithm", "params", "personality"):  # if the file says
            value = getattr(learner, field, None)
            if value:
                setattr(locked, field, value)
        locked.save()
    return locked
