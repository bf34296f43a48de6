"""Live play across real web processes: daphne subprocesses on the test database, driven
by real websocket clients (the ``websockets`` library, logged in by a session cookie).

- With ``REDIS_URL`` two processes serve one match: each player sees the other's moves.
- A web process killed hard (SIGKILL) mid-match loses no move (not even one committed an
  instant before the kill, before anyone was told): a new process serves the same match
  from the database, and a turn timer set by the dead process fires in the new one (then
  a bot answers there). This runs in both shapes: embedded (SQLite file and the
  in-memory layer, one process at a time) and PostgreSQL + Redis.

The servers are other processes, so every test is ``django_db(transaction=True)``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator

import pytest
from django.conf import settings
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.conftest import session_cookie
from tests.live_helpers import Server
from tests.play_helpers import bot, rule_set, start

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 15.0  # the longest any one expected event may take (they take milliseconds)

# X wins on the diagonal: (seat, move) in order.
X_WINS = [(0, "1,1,1"), (1, "1,2,1"), (0, "2,2,1"), (1, "1,3,1"), (0, "3,3,1")]
DIAGONAL = [[1, 1, 1, 1], [1, 2, 2, 1], [1, 3, 3, 1]]


# -- helpers -----------------------------------------------------------------------------


class Socket:
    """A websocket to a match on a live server, keeping every event it received, in order.

    ``until(predicate)`` returns the first event not yet consumed that satisfies it (waiting
    for more as needed) and consumes everything up to it."""

    def __init__(self, server: Server, match_id: int, cookie: str):
        self.ws: ClientConnection = connect(
            f"ws://127.0.0.1:{server.port}/ws/match/{match_id}/",
            origin=f"http://127.0.0.1:{server.port}",  # AllowedHostsOriginValidator
            additional_headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}"},
            proxy=None,
            open_timeout=TIMEOUT,
            close_timeout=2,  # a killed server cannot answer the closing handshake
        )
        self.events: list[dict] = []
        self.consumed = 0

    def send(self, **message) -> None:
        self.ws.send(json.dumps(message))

    def until(self, predicate: Callable[[dict], bool], timeout: float = TIMEOUT) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            while self.consumed < len(self.events):
                event = self.events[self.consumed]
                self.consumed += 1
                if predicate(event):
                    return event
            left = deadline - time.monotonic()
            try:
                if left <= 0:
                    raise TimeoutError
                self.events.append(json.loads(self.ws.recv(timeout=left)))
            except (TimeoutError, ConnectionClosed) as exc:
                recent = json.dumps(self.events[-6:], indent=1)[-3000:]
                raise AssertionError(
                    f"no awaited event within {timeout} s ({exc!r}); the last ones:\n{recent}"
                ) from None

    def state(self, ply: int, timeout: float = TIMEOUT) -> dict:
        return self.until(lambda e: e["type"] == "state" and e["ply"] == ply, timeout)

    def kind(self, kind: str, timeout: float = TIMEOUT) -> dict:
        return self.until(lambda e: e["type"] == kind, timeout)

    def close(self) -> None:
        self.ws.close()


@pytest.fixture
def sockets() -> Iterator[Callable[..., Socket]]:
    """sockets(server, match, user) -> a logged-in Socket; all closed when the test ends."""
    opened: list[Socket] = []

    def make(server: Server, match, user) -> Socket:
        socket = Socket(server, match.pk, session_cookie(user))
        opened.append(socket)
        return socket

    yield make
    for socket in opened:
        socket.close()


def board(state: dict) -> dict[tuple[int, ...], int]:
    """The flat board of a ``state`` event: {(x, y, z): owner seat}."""
    (only,) = state["view"]["boards"]
    return {tuple(piece["at"]): piece["owner"] for piece in only["pieces"]}


def cells(moves: list[tuple[int, str]]) -> dict[tuple[int, ...], int]:
    return {tuple(int(c) for c in text.split(",")): seat for seat, text in moves}


def logged(match) -> list[tuple[int, str]]:
    """The match's move log from the database: [(seat, notation)]."""
    from play.models import Match

    rows = Match.objects.get(pk=match.pk).moves.order_by("ply")
    return [(row.seat, row.notation) for row in rows]


def play(sockets_by_seat: dict[int, Socket], moves, first_ply: int) -> list[dict[int, dict]]:
    """Play ``moves`` in turn, each by its seat's socket; after each, every socket sees the
    new ply with the move on the board (the mover's own ``state`` is the server's
    acknowledgement). Returns the states seen, per ply: [{seat: state}]."""
    seen = []
    for ply, (seat, text) in enumerate(moves, start=first_ply + 1):
        sockets_by_seat[seat].send(type="move", move=text, ply=ply - 1)
        states = {watcher: socket.state(ply) for watcher, socket in sockets_by_seat.items()}
        for watcher, state in states.items():
            assert state["view"]["last_move"] == text, (watcher, state["view"])
            at = tuple(int(c) for c in text.split(","))
            assert board(state)[at] == seat, (watcher, board(state))
        seen.append(states)
    return seen


def eventually(condition: Callable[[], bool], timeout: float = TIMEOUT) -> None:
    """Poll ``condition`` (e.g. a database read) until it holds."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"not true within {timeout} s"
        time.sleep(0.01)


def assert_x_won(*sockets: Socket) -> None:
    for socket in sockets:
        over = socket.kind("game:over")
        assert over["reason"] == "victory", over
        assert over["winner"] == 0 and over["winners"] == [0], over
        assert over["results"] == ["win", "loss"], over
        assert sorted(over["winningLine"]) == DIAGONAL, over


def two_people(make_user):
    return make_user("xena"), make_user("oscar")


def ttt_match(x_user, o_user):
    """A started Tic-Tac-Toe match: ``x_user`` is seat 0 (X), ``o_user`` seat 1 (O)."""
    from play import services

    match = start(rule_set("Tic-Tac-Toe"), x_user, x_user, o_user)
    services.answer_invitation(match.pk, o_user, accept=True)
    return match


# -- two processes, one match -------------------------------------------------------------


@pytest.mark.skipif(
    not settings.REDIS_URL,
    reason="needs REDIS_URL: the embedded in-memory channel layer cannot reach another process",
)
def test_two_web_processes_serve_one_match(servers, sockets, make_user):
    a, b = servers(), servers()  # start both, then wait for both
    a.wait(), b.wait()
    x_user, o_user = two_people(make_user)
    match = ttt_match(x_user, o_user)
    x = sockets(a, match, x_user)
    o = sockets(b, match, o_user)
    for socket, seat in ((x, 0), (o, 1)):
        first = socket.state(0)
        assert first["status"] == "active" and first["you"] == [seat], first
        assert board(first) == {} and first["view"]["to_move"] == [0]

    seen = play({0: x, 1: o}, X_WINS, first_ply=0)
    # Each saw the other's moves, made on the other process, and the whole board each time.
    for ply, states in enumerate(seen, start=1):
        for state in states.values():
            assert board(state) == cells(X_WINS[:ply]), state
    # Each process recorded its player's presence in the shared database.
    assert [s["connected"] for s in seen[0][0]["seats"]] == [True, True]
    assert_x_won(x, o)
    assert logged(match) == X_WINS


# -- a process killed mid-match -------------------------------------------------------------


def test_killing_the_web_process_mid_match_loses_no_move(servers, sockets, make_user):
    from play.models import Match

    x_user, o_user = two_people(make_user)
    old = servers().wait()
    match = ttt_match(x_user, o_user)
    x, o = sockets(old, match, x_user), sockets(old, match, o_user)
    x.state(0), o.state(0)
    played = X_WINS[:3]
    play({0: x, 1: o}, played, first_ply=0)  # every one acknowledged to both players

    # O's 4th move: the process dies as soon as it is committed, before (or while) telling
    # the players. Committed is kept, told or not.
    o.send(type="move", move=X_WINS[3][1], ply=3)
    eventually(lambda: Match.objects.get(pk=match.pk).ply == 4)
    old.kill()
    x.close(), o.close()

    new = servers(port=old.port).wait()  # the same address: the clients come back there
    x, o = sockets(new, match, x_user), sockets(new, match, o_user)
    for socket, seat in ((x, 0), (o, 1)):
        state = socket.kind("state")  # the first thing a new connection gets
        assert state["status"] == "active" and state["you"] == [seat], state
        assert state["ply"] == 4 and board(state) == cells(X_WINS[:4]), state
        assert state["view"]["to_move"] == [0] and state["view"]["last_move"] == X_WINS[3][1]
    assert logged(match) == X_WINS[:4]
    o.send(type="game:reconnect", playerId=state["seats"][1]["playerId"])  # answered by state
    assert board(o.state(4)) == cells(X_WINS[:4])

    play({0: x, 1: o}, X_WINS[4:], first_ply=4)
    assert_x_won(x, o)
    assert logged(match) == X_WINS


def test_a_turn_timer_set_before_the_kill_fires_in_the_new_process(servers, sockets, make_user):
    """Quick Tic-Tac-Toe (5 s a turn, then a random move) against a bot: the bot answers
    in the old process, which dies; the new one, before anyone connects to it, plays X's
    random move when X's time is up (not before), and the bot answers again there."""
    from play.models import Match

    x_user = make_user("xena")
    rules = rule_set("Quick-TTT", seconds_per_turn=5, timeout="random-move")
    old = servers().wait()  # first: the turn clock runs from the match's start
    match = start(rules, x_user, x_user, bot())
    x = sockets(old, match, x_user)
    assert x.state(0)["timers"]["turnSeconds"] == 5
    x.send(type="move", move="2,2,1", ply=0)
    answered = x.state(2)  # the bot's reply, played by the old process's timekeeper
    assert answered["view"]["to_move"] == [0] and answered["timers"]["turnDeadline"]
    old.kill()
    x.close()
    before = Match.objects.get(pk=match.pk)
    assert before.ply == 2 and before.turn_deadline is not None
    assert int(before.turn_deadline.timestamp() * 1000) == answered["timers"]["turnDeadline"]
    log = logged(match)

    new = servers(port=old.port).wait()
    # No one comes back yet: the new process's timekeeper starts with it, not with its
    # first visitor, so X's random move (ply 3) and the bot's answer (4) are made anyway.
    eventually(lambda: Match.objects.get(pk=match.pk).ply >= 4, TIMEOUT + 5)
    x = sockets(new, match, x_user)
    replied = x.kind("state")
    rows = list(Match.objects.get(pk=match.pk).moves.order_by("ply"))
    assert [(r.seat, r.notation) for r in rows[:2]] == log
    assert [(r.seat, r.auto) for r in rows[:4]] == [(0, False), (1, False), (0, True), (1, False)]
    assert rows[2].created >= before.turn_deadline  # X's time ran out: not before it was up
    assert board(replied) == cells([(r.seat, r.notation) for r in rows[: replied["ply"]]])
    x.send(type="game:resign")
    over = x.kind("game:over")
    assert over["reason"] == "resignation" and over["winner"] == 1, over
