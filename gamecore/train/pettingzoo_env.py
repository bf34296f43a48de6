"""Any rule document as a PettingZoo AEC environment (needs the ``pettingzoo`` extra).

```python
from gamecore.train.pettingzoo_env import env
e = env(rule_document, seed=7)
e.reset(seed=7)
for agent in e.agent_iter():
    obs, reward, terminated, truncated, info = e.last()
    action = None if terminated or truncated else pick(obs["observation"], obs["action_mask"])
    e.step(action)
```

- **Agents** are ``player_0`` .. ``player_{n-1}``, one per seat that a player takes (seat
  ``i`` is ``player_i``). **Chaos** (the last seat of games that have one) is no agent: a
  :class:`~gamecore.bots.base.RandomAgent` seeded from the reset's seed plays it inside
  the environment, uniformly at random, as the site does.
- **Observations** are ``{"observation": float32 vector, "action_mask": int8 vector}``: the
  vector is ``gamecore.learn.features`` of ``state.view(seat)``, the seat's own view (so a
  cloaked game hides from it what the site hides, and another seat's plan in a
  simultaneous round is never in it); the mask marks the legal moves of that seat (all
  zeros when it is not to move).
- **Actions** are a fixed ``Discrete`` per game (``actions.MoveUniverse``); ``e.moves``
  turns a number into the engine's notation and back (``move_text``, ``action_of``).
- **Turns**: the seat the engine awaits. In a **simultaneous round** every seat still to
  plan acts in turn (AEC turn-taking, lowest seat first); the plans stay hidden until the
  round resolves when the last one is in. When a draw is offered each seat asked answers
  in turn.
- **Rewards** come at the end from the outcome: +1 win, -1 loss, 0 draw.
- ``reset(seed=s)`` is reproducible: the same seed gives the same start (random set-ups)
  and the same Chaos moves.
"""

import random

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from gamecore.bots.base import RandomAgent
from gamecore.engine import compile_game
from gamecore.learn.features import layout_for
from gamecore.train.actions import universe_for

REWARDS = {"win": 1.0, "loss": -1.0, "draw": 0.0}


def env(doc, seed=None, render_mode=None):
    """The AEC environment of rule document ``doc`` (a dict, or a compiled Game)."""
    return VariantEnv(doc, seed=seed, render_mode=render_mode)


class VariantEnv(AECEnv):
    metadata = {"render_modes": ["ansi", "human"], "name": "variant_foundry_v0"}

    def __init__(self, doc, seed=None, render_mode=None):
        super().__init__()
        self.game = doc if hasattr(doc, "new_initial_state") else compile_game(doc)
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.layout = layout_for(self.game)
        self.moves = universe_for(self.game)
        chaos = self.game.chaos
        self.seats = [s for s in range(self.game.nseats) if s != chaos]
        self.possible_agents = [f"player_{s}" for s in self.seats]
        self._seat = {a: s for a, s in zip(self.possible_agents, self.seats, strict=True)}
        self._agent = {s: a for a, s in self._seat.items()}
        obs = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 2.0, (self.layout.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.moves.size,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs)
        self.action_spaces = {a: spaces.Discrete(self.moves.size) for a in self.possible_agents}
        self._rng = random.Random(seed)
        self.state = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # -- the episode ---------------------------------------------------------------------
    def reset(self, seed=None, options=None):
        if seed is not None:
            self._rng = random.Random(seed)
        self.state = self.game.new_initial_state(seed=self._rng.getrandbits(32))
        self._chaos = RandomAgent(seed=self._rng.getrandbits(32))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._advance()
        self.agent_selection = self._next_agent()

    def observe(self, agent):
        seat = self._seat[agent]
        mask = np.zeros(self.moves.size, dtype=np.int8)
        if not self.state.is_terminal():
            for move in self.state.legal_moves(seat):
                mask[self.moves.index(move)] = 1
        vector = self.layout.encode(self.state.view(seat), seat)
        return {"observation": vector, "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat[agent]
        legal = self.moves.moves_by_index(self.state.legal_moves(seat))
        move = legal.get(int(action)) if action is not None else None
        if move is None:
            raise ValueError(f"action {action!r} is not a legal move of {agent} here")
        self._cumulative_rewards[agent] = 0.0
        self.state.apply(seat, move)
        self._advance()
        if self.state.is_terminal():
            results = self.state.outcome.results
            for a in self.agents:
                self.rewards[a] = REWARDS[results[self._seat[a]]]
                self.terminations[a] = True
                self.infos[a] = {"outcome": results[self._seat[a]]}
        else:
            self.agent_selection = self._next_agent()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _advance(self) -> None:
        """Plays Chaos (a seeded RandomAgent) until a player is awaited or the game ends."""
        chaos = self.game.chaos
        while chaos is not None and not self.state.is_terminal():
            if chaos not in self.state.to_move():
                return
            self.state.apply(chaos, self._chaos.choose(self.state, chaos))

    def _next_agent(self) -> str:
        if self.state.is_terminal():
            return self.agents[0]
        return self._agent[self.state.to_move()[0]]

    # -- helpers for people ---------------------------------------------------------------
    def move_text(self, action: int) -> str:
        """The notation of action ``action`` for the agent to move (ValueError if not legal)."""
        seat = self._seat[self.agent_selection]
        move = self.moves.moves_by_index(self.state.legal_moves(seat)).get(int(action))
        if move is None:
            raise ValueError(f"action {action!r} is not legal here")
        return str(move)

    def action_of(self, text: str) -> int:
        """The action number of a move in the engine's notation (``"2,2,1"``)."""
        return self.moves.index(self.game.parse_move(text))

    def render(self):
        if self.render_mode is None or self.state is None:
            return None
        view = self.state.view(None)
        text = f"{self.game.name}: ply {view.get('ply')}, last {view.get('last_move')}"
        if self.state.is_terminal():
            text += f", over: {self.state.outcome.detail}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass
