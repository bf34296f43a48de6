"""Games played in simultaneous rounds throughout as a PettingZoo ParallelEnv.

``parallel_env(doc, seed=None)``: each ``step`` takes every agent's plan for the round at
once (as a dict), the round resolves, and every agent observes the result. Only for rule
documents whose every phase is simultaneous or single (RockPaperScissors, 4P-Conformist,
4P-TrendSetter in the catalogue) and without draw offers; other documents raise
ValueError (use the AEC environment, ``pettingzoo_env.env``, which plays them all).
An agent with nothing to plan this round (its mask is all zeros) may send any action: it
is ignored. Observations, actions, rewards, Chaos and seeding are those of the AEC env.
"""

import random

from pettingzoo import ParallelEnv

from gamecore.bots.base import RandomAgent
from gamecore.train.pettingzoo_env import REWARDS, VariantEnv


def parallel_env(doc, seed=None, render_mode=None):
    return VariantParallelEnv(doc, seed=seed, render_mode=render_mode)


def simultaneous_throughout(game) -> bool:
    phases = getattr(game.doc, "phases", None) or ()
    return bool(phases) and all(getattr(p, "order", "sequential") != "sequential" for p in phases)


class VariantParallelEnv(ParallelEnv):
    metadata = {"render_modes": ["ansi", "human"], "name": "variant_foundry_parallel_v0"}

    def __init__(self, doc, seed=None, render_mode=None):
        self._aec = VariantEnv(doc, seed=seed, render_mode=render_mode)
        self.game = self._aec.game
        if not simultaneous_throughout(self.game) or getattr(self.game.doc, "agree_draw", None):
            raise ValueError(
                f"{self.game.name} is not played in simultaneous rounds throughout: "
                "use the AEC environment (pettingzoo_env.env)"
            )
        self.render_mode = render_mode
        self.possible_agents = self._aec.possible_agents[:]
        self.observation_spaces = self._aec.observation_spaces
        self.action_spaces = self._aec.action_spaces
        self._seat = self._aec._seat
        self._rng = random.Random(seed)
        self.state = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._rng = random.Random(seed)
        self.state = self.game.new_initial_state(seed=self._rng.getrandbits(32))
        self._chaos = RandomAgent(seed=self._rng.getrandbits(32))
        self._advance()
        self.agents = self.possible_agents[:]
        return self._observations(), {a: {} for a in self.agents}

    def _observations(self):
        self._aec.state = self.state  # the AEC env's observe() reads the same state
        return {a: self._aec.observe(a) for a in self.agents}

    def _advance(self) -> None:
        chaos = self.game.chaos
        while chaos is not None and not self.state.is_terminal():
            if chaos not in self.state.to_move():
                return
            self.state.apply(chaos, self._chaos.choose(self.state, chaos))

    def step(self, actions):
        planners = [s for s in self.state.to_move() if s != self.game.chaos]
        plans = []
        for seat in planners:
            agent = f"player_{seat}"
            legal = self._aec.moves.moves_by_index(self.state.legal_moves(seat))
            move = legal.get(int(actions.get(agent, -1)))
            if move is None:
                raise ValueError(f"{agent}: action {actions.get(agent)!r} is not a legal plan")
            plans.append((seat, move))
        for seat, move in plans:  # the round resolves when the last plan is in
            self.state.apply(seat, move)
        self._advance()
        done = self.state.is_terminal()
        rewards = dict.fromkeys(self.agents, 0.0)
        infos = {a: {} for a in self.agents}
        if done:
            results = self.state.outcome.results
            for a in self.agents:
                rewards[a] = REWARDS[results[self._seat[a]]]
                infos[a] = {"outcome": results[self._seat[a]]}
        observations = self._observations()
        terminations = dict.fromkeys(self.agents, done)
        truncations = dict.fromkeys(self.agents, False)
        if done:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self):
        self._aec.state = self.state
        return self._aec.render()

    def close(self):
        pass
