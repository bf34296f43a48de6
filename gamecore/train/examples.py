"""The README's "Train anywhere" examples, as text (tests/test_train_examples.py runs them
in a folder holding the rule documents they open, exactly as written here)."""

PETTINGZOO = """\
import json, random
from gamecore.train.pettingzoo_env import env

e = env(json.load(open("3on5sq.json")))  # any rule document: a file, or the site's API
e.reset(seed=42)
rng = random.Random(0)
for agent in e.agent_iter():
    obs, reward, terminated, truncated, info = e.last()  # obs: seat's view + action mask
    action = None if terminated or truncated else rng.choice(obs["action_mask"].nonzero()[0])
    e.step(action)  # replace rng.choice with your policy
print(e.state.outcome.results, e.state.outcome.detail)
"""

OPENSPIEL = """\
import json
import numpy as np
from open_spiel.python.algorithms import mcts
from gamecore.train.openspiel_game import load_variant

game = load_variant(json.load(open("Tic-Tac-Toe.json")))  # a registered pyspiel game
rng = np.random.RandomState(0)
bot = mcts.MCTSBot(game, 2, 100, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
state = game.new_initial_state()
while not state.is_terminal():  # MCTS (player 0) against random (player 1)
    mine = state.current_player() == 0
    state.apply_action(bot.step(state) if mine else rng.choice(state.legal_actions()))
print(state.returns(), state.history_str())
"""

EXAMPLES = {"pettingzoo": PETTINGZOO, "openspiel": OPENSPIEL}
