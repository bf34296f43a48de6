"""The trained-agent example (foundry_bot/examples/trained_bot.py): an agent trained with
PettingZoo against Random plays on the site through the reference client exactly as it
plays in the environment. Offline: on the payload's view (``state.view(seat)`` through
JSON) it picks the move its greedy policy picks in the environment, at every turn of
whole games. Live: the example, as a subprocess, fetches 3on5sq from the read API,
trains, and plays a whole match on a daphne against Random with legal moves only, each
the one its saved weights choose."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo", reason="PETTINGZOO IS NOT INSTALLED: NOT TRAINED")

import numpy as np  # noqa: E402

from foundry_bot.examples import trained_bot  # noqa: E402
from gamecore.train.pettingzoo_env import env  # noqa: E402

GAMES = Path(__file__).resolve().parent.parent / "variants" / "catalogue" / "games"
EPISODES = 200


@pytest.fixture(scope="module")
def doc():
    return json.loads((GAMES / "3on5sq.json").read_text())


@pytest.fixture(scope="module")
def weights(doc):
    return trained_bot.train(doc, EPISODES, seed=3)


def test_it_trains_one_policy_per_seat(doc, weights):
    e = env(doc)
    assert sorted(weights) == [0, 1]
    for w in weights.values():
        assert w.shape == (e.layout.size, e.moves.size) and np.abs(w).sum() > 0


def test_on_the_payload_view_it_plays_its_environment_policy(doc, weights):
    """The site's view through JSON, encoded again, and the legal moves as text, give
    the move the environment's greedy policy (as play_against_random scores it) plays."""
    choose = trained_bot.make_choose(doc, weights)
    e, turns = env(doc), 0
    for game in range(6):
        e.reset(seed=game)
        rng = np.random.default_rng(game)
        for agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            seat = int(agent.split("_")[1])
            legal = obs["action_mask"].nonzero()[0]
            best = legal[int(np.argmax(obs["observation"] @ weights[seat][:, legal]))]
            payload = json.loads(json.dumps(e.state.view(seat)))  # what the socket carries
            texts = [str(m) for m in e.state.legal_moves(seat)]
            assert choose(payload, texts) == e.move_text(best)
            turns += 1
            e.step(best if rng.random() < 0.5 else rng.choice(legal))  # varied positions
    assert turns > 40


def test_saved_weights_load_for_their_game_only(doc, weights, tmp_path):
    path = tmp_path / "agent.npz"
    trained_bot.save(str(path), doc, weights)
    loaded = trained_bot.load(str(path), doc)
    assert all(np.array_equal(loaded[s], weights[s]) for s in weights)
    other = json.loads((GAMES / "Tic-Tac-Toe.json").read_text())
    with pytest.raises(SystemExit, match="another rule document"):
        trained_bot.load(str(path), other)


def test_another_games_turn_gets_a_random_legal_move(doc, weights):
    choose = trained_bot.make_choose(doc, weights)
    view = {"game": "Tic-Tac-Toe", "seat": 0}
    assert {choose(view, ["1,1,1", "2,2,1"]) for _ in range(40)} == {"1,1,1", "2,2,1"}


def test_site_address_from_the_socket_address():
    assert trained_bot.site_of("wss://example.org/ws/bot/") == "https://example.org"
    assert trained_bot.site_of("ws://127.0.0.1:8000/ws/bot/") == "http://127.0.0.1:8000"


@pytest.mark.django_db(transaction=True)
def test_the_trained_example_plays_a_whole_match_on_the_site(servers, trainer, tmp_path):
    from accounts.services import random_player
    from ownbots.models import GameVersion
    from play.models import Match, Move
    from play.replay import apply_record, game_of
    from tests.conftest import BASE_DIR, child_env
    from tests.ownbot_helpers import own_bot
    from tests.play_helpers import rule_set, start

    game = rule_set("3on5sq")
    server = servers(PLAY_BOT_PACE="0").wait()
    player, token = own_bot(trainer)
    saved, log = tmp_path / "agent.npz", tmp_path / "trained.log"
    args = [sys.executable, "-m", "foundry_bot.examples.trained_bot"]
    args += ["--url", f"ws://127.0.0.1:{server.port}/ws/bot/", "--game", "3on5sq"]
    args += ["--episodes", str(EPISODES), "--save", str(saved), "--version", "trained-200"]
    with open(log, "w") as out:
        client = subprocess.Popen(
            args, cwd=BASE_DIR, env=child_env(FOUNDRY_BOT_TOKEN=token), stdout=out, stderr=out
        )
    try:
        deadline = time.monotonic() + 30
        while not saved.exists():  # fetched from the read API and trained
            assert client.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        match = start(game, trainer, random_player(), player)  # the agent second
        while Match.objects.get(pk=match.pk).status != Match.Status.FINISHED:
            assert time.monotonic() < deadline + 30, log.read_text()
            time.sleep(0.2)
    finally:
        client.terminate()
        client.wait(timeout=10)
    match.refresh_from_db()
    assert match.outcome["reason"] in ("victory", "draw"), match.outcome  # played out
    # every move of the agent was legal and the one its saved weights choose there
    choose = trained_bot.make_choose(game.document, trained_bot.load(str(saved), game.document))
    engine = game_of(match)
    state = engine.new_initial_state(seed=match.seed)
    mine = 0
    rows = Move.objects.filter(match=match).order_by("ply")
    for kind, seat, notation in rows.values_list("kind", "seat", "notation"):
        assert kind == Move.Kind.MOVE
        if seat == 1:
            view = json.loads(json.dumps(state.view(1)))
            assert notation == choose(view, [str(m) for m in state.legal_moves(1)])
            mine += 1
        apply_record(engine, state, kind, seat, notation)
    assert mine >= 2 and state.is_terminal()  # Random, first, needs 3 moves to win
    assert GameVersion.objects.get(match=match, seat=1).version == "trained-200"
    assert "mean reward against Random" in log.read_text()


def test_the_payload_view_encodes_as_the_view_in_every_catalogue_game():
    """What the socket carries (the view through JSON: tuples become lists) gives the
    features the environment computes, for every seat of a random game of each game."""
    import random

    from gamecore.engine import compile_game
    from gamecore.learn.features import layout_for

    names = sorted(GAMES.glob("*.json"))
    assert len(names) > 50
    for path in names:
        game = compile_game(json.loads(path.read_text()))
        layout, rng = layout_for(game), random.Random(1)
        state = game.new_initial_state(seed=1)
        for _ in range(30):
            for seat in range(game.nseats):
                view = state.view(seat)
                payload = json.loads(json.dumps(view))
                same = np.array_equal(layout.encode(payload, seat), layout.encode(view, seat))
                assert same, (path.stem, state.view(None).get("ply"), seat)
            if state.is_terminal():
                break
            seat = state.to_move()[0]
            state.apply(seat, rng.choice(state.legal_moves(seat)))
