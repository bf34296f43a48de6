"""Own bots across real processes: the reference client (``foundry_bot``) in a subprocess
plays whole matches on a live daphne against a person and against a built-in bot, and a
tournament through a real Celery worker, killed and restarted halfway: every game is
counted once. Each "your move" the client received is compared with the seat's
``state.view(seat)`` at that point (never more than the seat may see)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from accounts.services import random_player
from leaderboards.models import RatingHistory, Tournament
from leaderboards.services import default_universe
from ownbots.models import BotTurn, GameVersion
from play.models import Match, Move, Seat
from play.move_log import rows_of, rows_of_many
from play.replay import apply_record, game_of
from tests.conftest import BASE_DIR, child_env, running_worker, session_cookie
from tests.ownbot_helpers import own_bot
from tests.play_helpers import bot, rule_set, start
from tests.test_web_processes import Socket
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 60.0


class Client:
    """``tests/ownbot_client.py`` (the reference client) as a subprocess."""

    def __init__(
        self, tmp: Path, port: int, token: str, version: str, name: str = "client", answers=0
    ):
        self.events = tmp / f"{name}-events.jsonl"
        self.log = tmp / f"{name}.log"
        self.args = [sys.executable, "-m", "tests.ownbot_client"]
        self.args += [f"ws://127.0.0.1:{port}/ws/bot/", version]
        self.env = child_env(
            FOUNDRY_BOT_TOKEN=token, OWNBOT_EVENTS=str(self.events), OWNBOT_ANSWERS=str(answers)
        )
        self.process = None
        self.start()

    def start(self) -> None:
        with open(self.log, "a") as out:
            self.process = subprocess.Popen(
                self.args, cwd=BASE_DIR, env=self.env, stdout=out, stderr=out
            )

    def received(self) -> list[dict]:
        if not self.events.exists():
            return []
        return [json.loads(line) for line in self.events.read_text().splitlines() if line]

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> int:
        """SIGTERM: the client closes its socket and exits 0 (a clean shutdown)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            return self.process.wait(timeout=10)
        return self.process.returncode


def wait_until(check, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def views_by_ply(match: Match) -> dict[int, object]:
    """The position after each ply of the match's log (the replay)."""
    game = game_of(match)
    state = game.new_initial_state(seed=match.seed)
    states = {0: state.clone()}
    for row in rows_of(match):  # (a tournament game's log is packed on its match)
        apply_record(game, state, row.kind, row.seat, row.notation)
        states[row.ply] = state.clone()
    return states


def check_live_turns(client: Client, match: Match) -> int:
    """Every "your move" of this match was exactly its seat's view at its ply."""
    states = views_by_ply(match)
    turns = [e for e in client.received() if e["type"] == "your-move" and e["match"] == match.pk]
    for turn in turns:
        state = states[turn["ply"]]
        assert turn["view"] == json.loads(json.dumps(state.view(turn["seat"])))
        assert turn["legal"] == [str(m) for m in state.legal_moves(turn["seat"])]
    return len(turns)


def test_the_reference_client_plays_a_whole_match_against_a_person(servers, trainer, tmp_path):
    server = servers().wait()
    player, token = own_bot(trainer)
    match = start(rule_set("Tic-Tac-Toe"), trainer, trainer, player)
    client = Client(tmp_path, server.port, token, "v1.0")
    person = Socket(server, match.pk, session_cookie(trainer))
    try:
        while True:
            state = person.until(lambda e: e["type"] in ("state", "game:over"), TIMEOUT)
            if state["type"] == "game:over":
                break
            if state["status"] == "active" and 0 in state["view"]["to_move"]:
                person.send(type="move", move=state["view"]["legal_moves"][0], ply=state["ply"])
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED
        bot_moves = Move.objects.filter(match=match, seat=1, kind=Move.Kind.MOVE).count()
        assert bot_moves >= 2
        assert check_live_turns(client, match) == bot_moves
        wait_until(lambda: any(e["type"] == "game:over" for e in client.received()), 10, "end")
        assert GameVersion.objects.get(match=match, seat=1).version == "v1.0"
    finally:
        person.close()
        assert client.stop() == 0  # a clean shutdown on SIGTERM


def test_the_reference_client_plays_a_whole_match_against_a_built_in_bot(
    servers, trainer, tmp_path
):
    server = servers(PLAY_BOT_PACE="0").wait()
    player, token = own_bot(trainer)
    match = start(rule_set("Connect4"), trainer, player, bot("Medium", "medium"))
    client = Client(tmp_path, server.port, token, "v2")
    try:
        wait_until(
            lambda: Match.objects.get(pk=match.pk).status == Match.Status.FINISHED,
            TIMEOUT,
            "the match to end",
        )
        match.refresh_from_db()
        assert match.outcome["reason"] in ("victory", "draw")  # played out, not forfeited
        assert check_live_turns(client, match) == Move.objects.filter(match=match, seat=0).count()
    finally:
        assert client.stop() == 0


def test_a_tournament_with_an_own_bot_counts_every_game_once_across_a_client_kill(
    servers, trainer, tmp_path
):
    server = servers().wait()
    player, token = own_bot(trainer)
    game = rule_set("Tic-Tac-Toe")
    env = {"OWNBOT_MOVE_SECONDS": "5", "OWNBOT_WAIT_SECONDS": "60"}
    with running_worker(tmp_path, "celery", **env):
        # 8 answers, then it hangs: the 8 games are in flight at once and need 24 or more
        client = Client(tmp_path, server.port, token, "v1", "first", answers=8)
        plan = tournaments.Plan(
            game, default_universe(), "ownbot-t", [([player.pk, random_player().pk], 8)]
        )
        t = tournaments.create_from_plan(plan, trainer)
        # the 9th turn received: 8 answered (sent), and it hangs on this one
        asked = lambda: sum(e["type"] == "your-move" for e in client.received())  # noqa: E731
        try:
            wait_until(lambda: asked() >= 9, TIMEOUT, "the bot to answer some turns")
        finally:
            client.kill()  # halfway: no clean-up in the client (and never left hanging)
        time.sleep(1.0)
        again = Client(tmp_path, server.port, token, "v2", "second")
        try:
            wait_until(
                lambda: Tournament.objects.get(pk=t.pk).status == Tournament.Status.DONE,
                TIMEOUT * 2,
                "the tournament to finish",
            )
            last = Match.objects.filter(tournament=t).order_by("-pk").first()
            wait_until(
                lambda: any(e.get("match") == last.pk for e in again.received()),
                10,
                "the last game's result to reach the bot",
            )
        finally:
            assert again.stop() == 0
    numbers = list(Match.objects.filter(tournament=t).values_list("game_number", flat=True))
    assert sorted(numbers) == list(range(1, 9))  # every game once
    assert RatingHistory.objects.filter(match__tournament=t).count() == 16
    # the first client's answers were taken (its games were hosted by its socket: no
    # turn rows), then its games were played again through the mailbox for the second
    taken = [e.get("turns", [e.get("turn")]) for e in client.received() if e["type"] == "moved"]
    assert sum(map(len, taken)) == 8
    answered = BotTurn.objects.filter(tournament=t, status="answered")
    assert answered.filter(version="v2").exists()
    # the bot came back well within the wait: no game was forfeited for its absence
    assert not any(
        r.kind == Move.Kind.DISCONNECT
        for rows in rows_of_many(list(t.matches.values_list("pk", flat=True))).values()
        for r in rows
    )
    seats = Seat.objects.filter(match__tournament=t, player=player)
    assert seats.count() == 8
    versions = GameVersion.objects.filter(match__tournament=t, player=player)
    assert {v.version for v in versions} <= {"v1", "v2"} and versions.count() >= 1
    # what the clients received for tournament turns: the turn's own view and legal
    # moves (a row's where it has one); the second client's, the seat's view at that
    # point of the games as written (the first client's games were played again)
    for received in (client.received(), again.received()):
        for turn in (e for e in received if e["type"] == "your-move"):
            assert turn["view"]["seat"] == turn["seat"]
            assert turn["legal"] == turn["view"]["legal_moves"]
            row = BotTurn.objects.filter(pk=int(turn["turn"][1:])).first()
            if row is not None:
                assert turn["view"] == row.view and turn["legal"] == row.legal
    check_received_views(again.received(), t)
    check_tournament_views(t, player)
    results = [e for e in again.received() if e["type"] == "game:over"]
    for event in results:  # the games written while the second client was connected
        match = Match.objects.get(pk=event["match"])
        assert (event["tournament"], event["game"]) == (t.pk, match.game_number)
        assert event["outcome"] == match.outcome
        assert event["seats"] == [Seat.objects.get(match=match, player=player).index]


def check_received_views(received: list[dict], t: Tournament) -> int:
    """Each tournament turn a client received was its seat's ``state.view(seat)`` at its
    ply of the game as written (replayed), and its legal moves the seat's."""
    states = {m.game_number: views_by_ply(m) for m in Match.objects.filter(tournament=t)}
    turns = [e for e in received if e["type"] == "your-move" and e["tournament"] == t.pk]
    for turn in turns:
        state = states[turn["game"]][turn["ply"]]
        assert turn["view"] == json.loads(json.dumps(state.view(turn["seat"])))
        assert turn["legal"] == [str(m) for m in state.legal_moves(turn["seat"])]
    return len(turns)


def check_tournament_views(t: Tournament, player) -> None:
    """Each answered turn's stored view was its seat's ``state.view(seat)`` at its ply."""
    for match in Match.objects.filter(tournament=t):
        states = views_by_ply(match)
        for row in BotTurn.objects.filter(
            tournament=t, game_number=match.game_number, status="answered"
        ):
            if row.ply in states:
                expected = json.loads(json.dumps(states[row.ply].view(row.seat)))
                assert row.view == expected


def test_a_tournament_whose_bot_never_connects_forfeits_each_game_once(trainer, tmp_path):
    """No client at all: each game waits OWNBOT_WAIT_SECONDS for the bot, then it
    forfeits (reason disconnect); every game is written once and rated, none dropped."""
    player, _ = own_bot(trainer)
    plan = tournaments.Plan(
        rule_set("Tic-Tac-Toe"),
        default_universe(),
        "absent",
        [([player.pk, random_player().pk], 4)],
    )
    with running_worker(tmp_path, "celery", OWNBOT_WAIT_SECONDS="0.5"):
        t = tournaments.create_from_plan(plan, trainer)
        wait_until(
            lambda: Tournament.objects.get(pk=t.pk).status == Tournament.Status.DONE,
            TIMEOUT,
            "the tournament to finish",
        )
    matches = Match.objects.filter(tournament=t)
    assert sorted(matches.values_list("game_number", flat=True)) == [1, 2, 3, 4]
    for match in matches:
        assert match.outcome["reason"] == "disconnect"
        bot_seat = Seat.objects.get(match=match, player=player)
        assert bot_seat.result == "loss"
        log = [(r.seat, r.kind) for r in rows_of(match)]  # packed: play.move_log
        assert log[-1] == (bot_seat.index, Move.Kind.DISCONNECT)
    assert RatingHistory.objects.filter(match__tournament=t).count() == 8
    assert not BotTurn.objects.filter(tournament=t, status="waiting").exists()
