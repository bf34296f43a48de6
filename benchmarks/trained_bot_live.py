"""The trained-agent example's score against Random on the site (issue 37).

    DJANGO_SETTINGS_MODULE=config.settings \\
        .venv/bin/python -m pytest -p tests.conftest benchmarks/trained_bot_live.py -q -s
    (TRAINED_BOT_EPISODES=2000 TRAINED_BOT_MATCHES=50 in front: more of each)

Runs under pytest for the suite's fixtures (a live daphne on the test database, a
registered own bot) but is no test of ``make test`` (benchmarks/ is not collected): it
starts ``foundry_bot/examples/trained_bot.py`` as a subprocess, which fetches 3on5sq from
the read API and trains ``TRAINED_BOT_EPISODES`` episodes per seat (default 800), then
plays ``TRAINED_BOT_MATCHES`` live matches in each seat (default 30) against the site's
Random player, a few at a time, and prints its mean reward per seat (+1 win, -1 loss,
0 draw) next to the same figure in the environment and Random's own against Random.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

pytest.importorskip("pettingzoo")

EPISODES = int(os.environ.get("TRAINED_BOT_EPISODES", "800"))
MATCHES = int(os.environ.get("TRAINED_BOT_MATCHES", "30"))
AT_ONCE = 6  # live matches at a time (the machine's two cores are shared)
SCORE = {"win": 1, "loss": -1, "draw": 0}


@pytest.mark.django_db(transaction=True)
def test_score_against_random_on_the_site(servers, trainer, tmp_path):
    from accounts.services import random_player
    from gamecore.train.examples import play_against_random
    from play.models import Match
    from tests.conftest import BASE_DIR, child_env
    from tests.ownbot_helpers import own_bot
    from tests.play_helpers import rule_set, start

    game = rule_set("3on5sq")
    server = servers(PLAY_BOT_PACE="0").wait()
    player, token = own_bot(trainer)
    saved, log = tmp_path / "agent.npz", tmp_path / "trained.log"
    args = [sys.executable, "-m", "foundry_bot.examples.trained_bot", "--game", "3on5sq"]
    args += ["--url", f"ws://127.0.0.1:{server.port}/ws/bot/", "--version", f"e{EPISODES}"]
    args += ["--episodes", str(EPISODES), "--save", str(saved)]
    began = time.monotonic()
    with open(log, "w") as out:
        env = child_env(FOUNDRY_BOT_TOKEN=token)
        client = subprocess.Popen(args, cwd=BASE_DIR, env=env, stdout=out, stderr=out)
    scores = {0: [], 1: []}
    try:
        while not saved.exists():
            assert client.poll() is None, log.read_text()
            time.sleep(0.1)
        trained = time.monotonic() - began
        plan = [(seat, n) for n in range(MATCHES) for seat in (0, 1)]
        running: dict[int, int] = {}
        began = time.monotonic()
        while plan or running:
            while plan and len(running) < AT_ONCE:
                seat, n = plan.pop()
                players = (player, random_player()) if seat == 0 else (random_player(), player)
                running[start(game, trainer, *players, seed=n).pk] = seat
            for pk, seat in list(running.items()):
                match = Match.objects.get(pk=pk)
                if match.status == Match.Status.FINISHED:
                    assert match.outcome["reason"] in ("victory", "draw"), match.outcome
                    scores[seat].append(SCORE[match.outcome["results"][seat]])
                    del running[pk]
            assert time.monotonic() - began < 60 + 10 * MATCHES, log.read_text()
            time.sleep(0.2)
        played = time.monotonic() - began
    finally:
        client.terminate()
        client.wait(timeout=10)
    doc = json.loads(json.dumps(game.document))
    from foundry_bot.examples.trained_bot import load

    weights = load(str(saved), doc)
    print(f"\n3on5sq, {EPISODES} episodes per seat (trained in {trained:.1f} s with start-up);")
    print(f"{2 * MATCHES} live matches against Random in {played:.0f} s")
    print("seat | on the site | in the environment (200 games) | Random vs Random")
    for seat in (0, 1):
        site = sum(scores[seat]) / len(scores[seat])
        agent = f"player_{seat}"
        offline = play_against_random(doc, weights[seat], 200, agent)
        baseline = play_against_random(doc, None, 200, agent)
        print(f"{seat + 1:>4} | {site:+11.2f} | {offline:+30.2f} | {baseline:+16.2f}")
