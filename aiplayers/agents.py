"""A learning AI's agent: its model from the database, cached per process by (AI, moves
studied, when the model last changed: an import may keep the count), so a move loads
nothing once the model is warm and a newly studied or imported model is picked up at
once."""

from __future__ import annotations

import threading
from collections import OrderedDict

from . import learning
from .models import AIPlayer

_CACHE_SIZE = 32
_cache: OrderedDict[tuple, object] = OrderedDict()
_lock = threading.Lock()


def learner_of(player) -> tuple[object, int] | None:
    """(learner, moves studied) of a learning AI's player, or None if it has no AI."""
    row = (
        AIPlayer.objects.filter(player_id=player.pk, kind=AIPlayer.Kind.LEARNING)
        .values("pk", "moves_studied", "algorithm", "params", "personality", "model_changed")
        .first()
    )
    if row is None:
        return None
    key = (row["pk"], row["moves_studied"], row["model_changed"])
    with _lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key], row["moves_studied"]
    model = AIPlayer.objects.filter(pk=row["pk"]).values_list("model", flat=True).first()
    if model:
        learner = learning.load_learner(model)
    else:  # nothing studied yet: an untrained model (it plays like Random)
        learner = learning.new_learner(row["algorithm"], row["params"], row["personality"],
                                       seed=row["pk"])  # fmt: skip
    with _lock:
        _cache[key] = learner
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return learner, row["moves_studied"]


def agent_for_ai(player, seed: int | None, time_limit: float | None):
    """A LearnerAgent for the player (or a Random agent if its AI was deleted). The
    agent carries ``ai_player_id`` and ``ai_moves_studied`` for its predictions."""
    from gamecore.bots import RandomAgent

    found = learner_of(player)
    if found is None:
        return RandomAgent(seed=seed)
    learner, moves = found
    agent = SafeAgent(learning.agent(learner, seed=seed, time_limit=time_limit), seed)
    agent.ai_player_id, agent.ai_moves_studied = player.pk, moves
    return agent


class SafeAgent:
    """A learner that cannot play this game (it learnt another game's layout) plays at
    random instead of failing the match, and predicts nothing for that move."""

    def __init__(self, agent, seed):
        self.agent, self.seed = agent, seed
        self.spec = getattr(agent, "spec", {"kind": "learner"})
        self.last_prediction = None

    def choose(self, state, seat: int):
        try:
            move = self.agent.choose(state, seat)
        except ValueError:
            from gamecore.bots import RandomAgent

            self.last_prediction = None
            return RandomAgent(seed=self.seed).choose(state, seat)
        self.last_prediction = getattr(self.agent, "last_prediction", None)
        return move


def clear_cache() -> None:
    with _lock:
        _cache.clear()
