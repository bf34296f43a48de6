"""The one door to the pure learning core (``gamecore.learn``): every call the Django side
makes to it goes through here, imported lazily (so a page that never learns never loads
scikit-learn, and a test can stand a small fake in for the core)."""

from __future__ import annotations

import importlib


def _core(name: str):
    # ``AI_LEARN_PACKAGE`` is ``gamecore.learn``; tests (and their Celery worker) may
    # name a stand-in with the same API.
    from django.conf import settings

    package = getattr(settings, "AI_LEARN_PACKAGE", "gamecore.learn")
    return importlib.import_module(f"{package}.{name}")


def algorithms() -> dict:
    """key -> {label, params: [{name, label, min, max, default, step}]}."""
    return _core("algorithms").ALGORITHMS


def personality() -> list[dict]:
    """The personality sliders: [{name, label, min, max, default, step, enabled?}]."""
    return _core("algorithms").PERSONALITY


def validate_settings(algorithm: str, params: dict, personality: dict) -> dict:
    """The settings normalised, or ValueError saying what is wrong."""
    return _core("algorithms").validate_settings(algorithm, params, personality)


def new_learner(algorithm: str, params: dict, personality: dict, seed: int):
    return _core("model").Learner.new(algorithm, params, personality, seed)


def load_learner(data: bytes):
    """A learner from its bytes; ValueError if they are not a model file."""
    return _core("model").Learner.from_bytes(bytes(data))


def samples_from_match(game, moves, results, strategic, seed):
    return _core("study").samples_from_match(game, moves, results, strategic, seed)


def label_for(result: str, strategic: str | None) -> str:
    return _core("labels").label_for(result, strategic)


def labels() -> list[str]:
    return list(_core("labels").LABELS)


def agent(learner, seed=None, time_limit=None):
    return _core("agent").LearnerAgent(learner, seed=seed, time_limit=time_limit)


def metrics(pairs: list[tuple[str, str]]) -> dict[str, float | None]:
    """Accuracy, F1 and Long Game over (predicted, actual) label pairs (None if none)."""
    if not pairs:
        return {"accuracy": None, "f1": None, "long_game": None}
    core = _core("metrics")
    return {
        "accuracy": core.accuracy(pairs),
        "f1": core.f1(pairs),
        "long_game": core.long_game(pairs),
    }
