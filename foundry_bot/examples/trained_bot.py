"""A small agent trained with PettingZoo against Random, then played on the site.

The rule document comes from the site's read API (``--game``: an id or a name, 3on5sq by
default) or from a file (``--document``). The agent is ``gamecore.train.examples``'s
linear softmax policy, one set of weights per seat, trained in the PettingZoo
environment against Random in the other seats (``--episodes``) or loaded from a file
(``--weights``, written by ``--save``). On the site it sees exactly what it saw in
training: ``your-move.view`` is ``state.view(seat)``, encoded with the same feature
layout, and the legal moves are numbered with the same action universe; it plays the
legal move of highest score. Needs the game core with its PettingZoo extra
(``pip install ".[pettingzoo]"``) next to ``websockets``.

    FOUNDRY_BOT_TOKEN=vfb_... python -m foundry_bot.examples.trained_bot \\
        --url ws://host/ws/bot/ --game 3on5sq --episodes 800 --save 3on5sq.npz
    FOUNDRY_BOT_TOKEN=vfb_... python -m foundry_bot.examples.trained_bot \\
        --url ws://host/ws/bot/ --document 3on5sq.json --weights 3on5sq.npz

Turns of any other game (an own bot may be seated in any) get a random legal move.
"""

from __future__ import annotations

import json
import logging
import random
import urllib.error
import urllib.parse
import urllib.request

import numpy as np

from foundry_bot.client import main_options, run
from gamecore.engine import compile_game
from gamecore.engine.errors import IllegalMove
from gamecore.learn.features import layout_for
from gamecore.train.actions import universe_for

log = logging.getLogger("foundry_bot.trained")

MAX_PAGES = 1000  # the games list, 100 a page: a name is looked up at most this far
TIMEOUT = 30.0


# -- the rule document ---------------------------------------------------------------------
def site_of(url: str) -> str:
    """The site's http(s) address from its bot socket's (``ws://host/ws/bot/``)."""
    parts = urllib.parse.urlsplit(url)
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    return f"{scheme}://{parts.netloc}"


def _get(url: str) -> dict:
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
            return json.load(response)
    except urllib.error.HTTPError as exc:
        raise SystemExit(f"{url}: {exc.code} {exc.reason}") from None


def fetch_document(site: str, game: str) -> dict:
    """The rule document of ``game`` (an id, or a visible game's exact name) from the
    site's read API (``/api/v1/games/<id>/``)."""
    if not game.isdigit():
        game = str(_game_id(site, game))
    return _get(f"{site}/api/v1/games/{int(game)}/")["document"]


def _game_id(site: str, name: str) -> int:
    for page in range(MAX_PAGES):
        found = _get(f"{site}/api/v1/games/?offset={page * 100}&limit=100")
        for row in found["results"]:
            if row["name"] == name:
                return row["id"]
        if not found["results"]:
            break
    raise SystemExit(f"{site} shows no game named {name!r}")


# -- the agent -------------------------------------------------------------------------------
def train(doc: dict, episodes: int = 800, seed: int = 0) -> dict[int, np.ndarray]:
    """{seat: weights} of an agent trained against Random in each seat a player takes."""
    from gamecore.train.examples import train_against_random
    from gamecore.train.pettingzoo_env import env

    agents = env(doc).possible_agents
    return {
        int(agent.split("_")[1]): train_against_random(doc, episodes, agent, seed + i)
        for i, agent in enumerate(agents)
    }


def save(path: str, doc: dict, weights: dict[int, np.ndarray]) -> None:
    seats = sorted(weights)
    np.savez(
        path,
        fingerprint=np.array(layout_for(compile_game(doc)).fingerprint),
        seats=np.array(seats),
        weights=np.stack([weights[s] for s in seats]),
    )


def load(path: str, doc: dict) -> dict[int, np.ndarray]:
    """The weights saved for ``doc`` (SystemExit if they were trained on another game)."""
    layout = layout_for(compile_game(doc))
    with np.load(path, allow_pickle=False) as saved:
        if str(saved["fingerprint"]) != layout.fingerprint:
            raise SystemExit(f"{path} holds weights for another rule document")
        weights = saved["weights"]
        if weights.ndim != 3 or weights.shape[1] != layout.size:
            raise SystemExit(f"{path}: weights of shape {weights.shape} do not fit this game")
        return {int(s): weights[i] for i, s in enumerate(saved["seats"])}


def make_choose(doc: dict, weights: dict[int, np.ndarray], seed: int = 0):
    """``choose(view, legal)`` of the greedy policy: the legal move of highest score, ties
    to the lowest action number (as ``play_against_random`` picks in the environment)."""
    game = compile_game(doc)
    layout, universe = layout_for(game), universe_for(game)
    rng = random.Random(seed)

    def choose(view: dict, legal: list[str]) -> str:
        seat = view.get("seat")
        if view.get("game") != game.name or seat not in weights:
            return rng.choice(legal)  # another game, or a seat it was not trained for
        numbered = []
        for text in legal:
            try:
                numbered.append((universe.index(game.parse_move(text)), text))
            except (IllegalMove, ValueError):  # cannot happen for this game's own moves
                log.warning("%r is not a move of %s", text, game.name)
        if not numbered:
            return rng.choice(legal)
        numbered.sort()
        x = layout.encode(view, seat)
        scores = x @ weights[seat][:, [a for a, _ in numbered]]
        return numbered[int(np.argmax(scores))][1]

    return choose


def _options(parser) -> None:
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--game", default="3on5sq", help="a game's id or name on the site")
    source.add_argument("--document", help="a rule document (JSON file) instead")
    parser.add_argument("--site", help="the site's http(s) address (default: from --url)")
    parser.add_argument("--weights", help="load the agent from this .npz instead of training")
    parser.add_argument("--episodes", type=int, default=800, help="training episodes per seat")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", help="write the trained agent to this .npz")


def main() -> None:
    from gamecore.train.examples import play_against_random

    options = main_options(__doc__.split("\n\n")[0], _options)
    if not 1 <= options.episodes <= 10**6:
        raise SystemExit("--episodes: from 1 to 1000000")
    if options.document:
        with open(options.document) as f:
            doc = json.load(f)
    else:
        doc = fetch_document(options.site or site_of(options.url), options.game)
    if options.weights:
        weights = load(options.weights, doc)
    else:
        weights = train(doc, options.episodes, options.seed)
        for seat, w in weights.items():
            score = play_against_random(doc, w, 200, f"player_{seat}")
            log.info("trained: seat %d, mean reward against Random %+.2f", seat + 1, score)
        if options.save:
            save(options.save, doc, weights)
    choose = make_choose(doc, weights, options.seed)
    run(options.url, options.token, choose, options.version, reconnect=not options.once)


if __name__ == "__main__":
    main()
