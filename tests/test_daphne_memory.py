"""daphne's memory under a hostile mix (issue 39's fuzz run): replay pages of a long
game, junk and oversized websocket frames, control characters in URLs. Run by
``benchmarks/fuzz.sh`` (FUZZ_SCALE ≥ 5), which prints the figures; `make test` skips it
(it is a measurement, not a fast check). Before issue 39 four replays of a 36,000-move
game took daphne from 112 MB to 2.7 GB."""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.request

import pytest
from django.conf import settings
from django.utils import timezone
from websockets.sync.client import connect

from gamecore.engine import compile_game
from play.recording import PlayedGame, PlayedMove, record_game
from tests.conftest import FUZZ_SCALE, session_cookie
from tests.play_helpers import bot, rule_set
from tests.test_endless_games import ENDLESS

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        FUZZ_SCALE < 5, reason="a measurement of benchmarks/fuzz.sh (FUZZ_SCALE>=5)"
    ),
]
GROWTH_BOUND_MB = 200


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def long_match():
    rules = rule_set("Endless", **{k: v for k, v in ENDLESS.items() if k != "name"})
    state = compile_game(rules.document).new_initial_state(seed=0)
    rng, moves = random.Random(0), []
    while not state.is_terminal():
        seat = state.to_move()[0]
        move = state.random_move(rng)
        state.apply(seat, move)
        moves.append(PlayedMove(seat, str(move)))
    now = timezone.now()
    played = PlayedGame(seed=0, moves=moves, outcome=state.outcome, started=now, finished=now)
    return record_game(rules, [bot("A"), bot("B")], None, played)


def get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            response.read()
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_daphne_memory_stays_bounded_under_a_hostile_mix(servers, make_user, capsys):
    match = long_match()
    user = make_user("mallory")
    server = servers().wait()
    base = f"http://127.0.0.1:{server.port}"
    assert get(f"{base}/healthz") in (200, 503)
    before = rss_mb(server.process.pid)
    rounds = FUZZ_SCALE
    statuses = []
    for i in range(rounds * 2):
        statuses.append(get(f"{base}/matches/{match.pk}/replay/"))
        statuses.append(get(f"{base}/matches/{match.pk}/replay/frames/?start={i * 90 % 1800}"))
        statuses.append(get(f"{base}/games/1/leaderboard/?player=a%00b"))
    cookie = f"{settings.SESSION_COOKIE_NAME}={session_cookie(user)}"
    junk = ["[" * 4000, json.dumps({"type": "move", "move": "a\x00b"}), "{}", "x" * 3000]
    for _ in range(rounds):
        with connect(
            f"ws://127.0.0.1:{server.port}/ws/match/{match.pk}/",
            origin=f"http://127.0.0.1:{server.port}",  # AllowedHostsOriginValidator
            additional_headers={"Cookie": cookie},
            proxy=None,
            max_size=None,
        ) as ws:
            for frame in junk:
                ws.send(frame)
            try:
                ws.send("y" * (1024 * 1024 + 10))  # over 1 MiB: closed with 1009
                ws.recv(timeout=5)
            except Exception:  # noqa: BLE001 - the close is the expected answer
                pass
    after = rss_mb(server.process.pid)
    with capsys.disabled():
        print(
            f"\ndaphne memory: {before:.0f} MB before, {after:.0f} MB after "
            f"{len(statuses)} requests ({rounds * 2} replay pages and JSON pages of a "
            f"{match.ply}-move game, NUL queries) and {rounds} sockets of junk and "
            "oversized frames"
        )
    assert not [s for s in statuses if s >= 500], statuses
    assert after - before < GROWTH_BOUND_MB, (before, after)
