"""docs/learning.md's "Train anywhere" examples, as text (tests/test_train_examples.py runs them
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


def train_against_random(doc, episodes=1000, agent="player_1", seed=0, lr=0.1):
    """A small agent trained with PettingZoo on any rule document: a linear softmax
    policy over the observation vector (REINFORCE, numpy only) against the Random player
    in every other seat. Returns the weights; ``play_against_random`` measures them."""
    import random

    import numpy as np

    from gamecore.train.pettingzoo_env import env

    e, rng = env(doc), random.Random(seed)
    weights = np.zeros((e.layout.size, e.moves.size))
    for _ in range(episodes):
        _episode(e, weights, rng, agent, learn=lr)
    return weights


def play_against_random(doc, weights, games=200, agent="player_1", seed=99) -> float:
    """The mean reward (+1 win, -1 loss, 0 draw) of the greedy policy of ``weights`` (None:
    the Random player itself) in ``agent``'s seat against Random."""
    import random

    from gamecore.train.pettingzoo_env import env

    e, rng = env(doc), random.Random(seed)
    return sum(_episode(e, weights, rng, agent) for _ in range(games)) / games


def _episode(e, weights, rng, me, learn=0.0) -> float:
    import numpy as np

    e.reset(seed=rng.randrange(2**31))
    steps, final = [], 0.0
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _info = e.last()
        if terminated or truncated:
            final = reward if agent == me else final
            e.step(None)
            continue
        legal = obs["action_mask"].nonzero()[0]
        if agent != me or weights is None:
            e.step(rng.choice(legal))
            continue
        x = obs["observation"]
        logits = x @ weights[:, legal]
        p = np.exp(logits - logits.max())
        p /= p.sum()
        i = rng.choices(range(len(legal)), weights=p)[0] if learn else int(np.argmax(p))
        steps.append((x, legal, p, i))
        e.step(legal[i])
    for x, legal, p, i in steps if learn else ():  # REINFORCE: the outcome's gradient
        g = -p
        g[i] += 1
        weights[:, legal] += learn * final * np.outer(x, g)
    return final
