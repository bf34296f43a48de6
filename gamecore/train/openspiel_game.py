"""Any rule document as an OpenSpiel game (needs the ``openspiel`` extra).

```python
import pyspiel
from gamecore.train.openspiel_game import load_variant
game = load_variant(rule_document)         # registered as "vf_<fingerprint>"
state = game.new_initial_state()
```

The engine plays the game; this is OpenSpiel's Python game API over it:

- **Players** are the seats a player takes (``0 .. n-1``). **Chaos** (the last seat of games
  that have one) is OpenSpiel's **chance** player: its moves are chance outcomes, uniform
  over its legal moves, as the site plays it (EXPLICIT_STOCHASTIC).
- **Actions** are the game's fixed move universe (``actions.MoveUniverse``, the same numbers
  as the PettingZoo environment); ``state.action_to_string`` gives the engine's notation.
- **Dynamics**: SEQUENTIAL, unless the rules have simultaneous phases: then SIMULTANEOUS,
  where a simultaneous round is a simultaneous node (every player still to plan chooses
  its plan; the others, and every player at a node, have the one action ``NO_OP``, the
  universe's size) and everything else (sequential phases, draw-offer answers) is a
  node of one player. In a simultaneous round a plan cannot be a draw offer (an offer
  interrupts the round in the engine, which one joint action cannot say).
- **Information**: PERFECT where nothing is hidden; IMPERFECT for cloaked games and
  simultaneous rounds. The information-state string of a player is the sequence of its
  own distinct views (``state.view(seat)``, the seat's view only: perfect recall of what
  it saw), the observation string its current view, the observation tensor
  ``gamecore.learn.features`` of that view.
- **Returns**: +1 win, -1 loss, 0 draw per player, at the end (terminal rewards).
- **Random set-ups** (the engine's seed) are a game parameter, ``seed`` (default 0): one
  game per set-up, not a chance node (the engine draws the set-up at once).
"""

import json

import numpy as np
import pyspiel

from gamecore.engine import compile_game
from gamecore.learn.features import layout_for
from gamecore.rules.canonical import document, fingerprint
from gamecore.train.actions import universe_for

RESULT = {"win": 1.0, "loss": -1.0, "draw": 0.0}
_REGISTERED: dict[str, type] = {}


def _is_simultaneous(game) -> bool:
    phases = getattr(game.doc, "phases", None) or ()
    return any(getattr(p, "order", "sequential") != "sequential" for p in phases)


def _is_cloaked(game) -> bool:
    return getattr(game.doc, "cloaking", "none") not in (None, "none")


def _zero_sum(game, nplayers: int) -> bool:
    """Two players whose every ending is one win and one loss, or a draw: a stalemate
    rule like "most pieces wins" can make both win (a tie), typed endings and phases
    can end otherwise, so those games are general-sum."""
    doc = game.doc
    return (
        nplayers == 2
        and game.chaos is None
        and getattr(doc, "stalemate", "draw") == "draw"
        and not getattr(doc, "endings", ())
        and not getattr(doc, "phases", ())
    )


def _max_length(game) -> int:
    limit = getattr(game, "ply_limit", None)
    if limit:
        return int(limit) + 64
    return 4 * game.ntargets * getattr(game, "height", 1) + 64


class _Shared:
    """The compiled game: shared by every copy of a state (deepcopy keeps it)."""

    def __init__(self, game):
        self.game = game

    def __deepcopy__(self, memo):
        return self


class _Engine:
    """The engine's state: copied with the engine's own ``clone`` (deepcopy would copy
    the compiled game)."""

    def __init__(self, state):
        self.state = state

    def __deepcopy__(self, memo):
        return _Engine(self.state.clone())


def load_variant(doc, seed: int = 0):
    """Registers rule document ``doc`` (a dict) with OpenSpiel and loads it; the game's
    short name is ``vf_<the document's fingerprint>``."""
    game = compile_game(doc)
    short = f"vf_{fingerprint(game.doc)[:16]}"
    if short not in _REGISTERED:
        _REGISTERED[short] = _register(short, game)
    return pyspiel.load_game(short, {"seed": seed})


def _unpickle_game(doc: dict, seed: int):
    return load_variant(doc, seed=seed)


def _register(short: str, game) -> type:
    universe = universe_for(game)
    nplayers = game.nseats - (game.chaos is not None)
    simultaneous = _is_simultaneous(game)
    hidden = simultaneous or _is_cloaked(game)
    two_sided = _zero_sum(game, nplayers)
    game_type = pyspiel.GameType(
        short_name=short,
        long_name=f"Variant Foundry: {game.name}",
        dynamics=(
            pyspiel.GameType.Dynamics.SIMULTANEOUS
            if simultaneous
            else pyspiel.GameType.Dynamics.SEQUENTIAL
        ),
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if game.chaos is not None
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if hidden
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=(
            pyspiel.GameType.Utility.ZERO_SUM if two_sided else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=nplayers,
        min_num_players=nplayers,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"seed": 0},
    )
    info = pyspiel.GameInfo(
        num_distinct_actions=universe.size + (1 if simultaneous else 0),
        max_chance_outcomes=universe.size if game.chaos is not None else 0,
        num_players=nplayers,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0 if two_sided else None,
        max_game_length=_max_length(game),
    )

    class VariantGame(pyspiel.Game):
        # Class attributes: OpenSpiel may make copies of a game without calling __init__.
        engine = _Shared(game)
        layout = layout_for(game)

        def __init__(self, params=None):
            super().__init__(game_type, info, params or {})

        def __reduce__(self):  # pickled as its rule document: loaded (and registered) again
            return (_unpickle_game, (document(game.doc), self.engine_seed))

        @property
        def engine_seed(self) -> int:
            return int(self.get_parameters().get("seed", 0))

        def new_initial_state(self):
            return VariantState(self)

        def make_py_observer(self, iig_obs_type=None, params=None):
            recall = iig_obs_type is not None and iig_obs_type.perfect_recall
            return _Observer(self, recall)

    VariantGame.universe = universe
    VariantGame.simultaneous = simultaneous
    VariantGame.hidden = hidden
    pyspiel.register_game(game_type, VariantGame)
    return VariantGame


class VariantState(pyspiel.State):
    def __init__(self, game):
        super().__init__(game)
        self._g = game
        self._engine = _Engine(game.engine.game.new_initial_state(seed=game.engine_seed))
        self._seen = [[] for _ in range(game.num_players())]  # each player's distinct views
        self._note_views()

    # -- whose turn -------------------------------------------------------------------
    @property
    def engine_state(self):
        return self._engine.state

    def _chaos_to_move(self) -> bool:
        chaos = self._g.engine.game.chaos
        return chaos is not None and chaos in self.engine_state.to_move()

    def _round(self) -> bool:
        """A simultaneous round in progress (not a draw offer being answered)."""
        s = self.engine_state
        ph = getattr(s, "ph", None)
        return bool(ph is not None and ph.simultaneous and getattr(s, "offer", None) is None)

    def current_player(self):
        s = self.engine_state
        if s.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if self._chaos_to_move():
            return pyspiel.PlayerId.CHANCE
        if self._g.simultaneous and self._round():
            return pyspiel.PlayerId.SIMULTANEOUS
        return s.to_move()[0]

    def _legal_actions(self, player):
        s = self.engine_state
        if s.is_terminal():
            return []
        moves = s.legal_moves(player)
        if self._g.simultaneous and self._round():
            actions = sorted(self._g.universe.index(m) for m in moves if str(m) != "draw")
            return actions or [self._g.universe.size]  # NO_OP: nothing to plan
        return sorted(self._g.universe.index(m) for m in moves)

    def chance_outcomes(self):
        chaos = self._g.engine.game.chaos
        actions = sorted(self._g.universe.index(m) for m in self.engine_state.legal_moves(chaos))
        p = 1.0 / len(actions)
        return [(a, p) for a in actions]

    # -- playing ------------------------------------------------------------------------
    def _move(self, seat, action):
        legal = self._g.universe.moves_by_index(self.engine_state.legal_moves(seat))
        move = legal.get(action)
        if move is None:
            raise ValueError(f"action {action} is not legal for seat {seat + 1}")
        return move

    def _apply_action(self, action):
        s = self.engine_state
        seat = self._g.engine.game.chaos if self._chaos_to_move() else s.to_move()[0]
        s.apply(seat, self._move(seat, action))
        self._note_views()

    def _apply_actions(self, actions):
        s = self.engine_state
        planners = set(s.to_move())
        plans = [
            (seat, self._move(seat, a))
            for seat, a in enumerate(actions)
            if a != self._g.universe.size and seat in planners
        ]
        for seat, move in plans:  # the engine resolves the round when the last plan is in
            s.apply(seat, move)
        self._note_views()

    def _note_views(self) -> None:
        if not self._g.hidden:
            return
        s = self.engine_state
        for seat, seen in enumerate(self._seen):
            text = json.dumps(s.view(seat), sort_keys=True, default=str)
            if not seen or seen[-1] != text:
                seen.append(text)

    def _action_to_string(self, player, action):
        if action == self._g.universe.size:
            return "no-op"
        seat = self._g.engine.game.chaos if player == pyspiel.PlayerId.CHANCE else player
        for move in self.engine_state.legal_moves(seat) if seat is not None else ():
            if self._g.universe.index(move) == action:
                return str(move)
        return f"action {action}"

    def is_terminal(self):
        return self.engine_state.is_terminal()

    def returns(self):
        s = self.engine_state
        n = self._g.num_players()
        if not s.is_terminal():
            return [0.0] * n
        return [RESULT[s.outcome.results[p]] for p in range(n)]

    def __str__(self):
        # The spectator's view: the whole position where nothing is hidden (what
        # OpenSpiel's tools may key states by), the public part of a cloaked game.
        return json.dumps(self.engine_state.view(None), sort_keys=True, default=str)


class _Observer:
    """Observation (the seat's current view) or information state (its distinct views so
    far): strings; the tensor is the view's feature vector."""

    def __init__(self, game, recall: bool):
        self.game = game
        self.recall = recall
        self.tensor = np.zeros(game.layout.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        self.tensor[:] = 0
        self.game.layout.encode_into(state.engine_state.view(player), player, self.tensor)

    def string_from(self, state, player):
        # Named for the player: two seats' views can read the same, and OpenSpiel's
        # tabular policies key every player's information states in one table.
        if self.recall:
            if state._g.hidden:
                return f"player {player}\n" + "\n".join(state._seen[player])
            return f"player {player}: {state.history_str()}"  # perfect information
        view = json.dumps(state.engine_state.view(player), sort_keys=True, default=str)
        return f"player {player}: {view}"
