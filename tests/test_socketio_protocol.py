"""The tic-tac-toe server seed's protocol (003) at /socket.io/, driven by python-socketio's
own client (code nobody here wrote) against real daphne processes: one whole game for
each ``game:over`` reason. With ``REDIS_URL`` the two players are on two processes, and a
third client watches the same match over the site's own websocket protocol."""

from __future__ import annotations

import queue
import time
from types import SimpleNamespace

import pytest
import socketio
from django.conf import settings

from tests.conftest import session_cookie
from tests.play_helpers import human

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 15.0


class Client:
    """A Socket.IO client logged in by a session cookie, keeping every event it got."""

    def __init__(self, server, user):
        self.events: queue.Queue = queue.Queue()
        self.sio = socketio.Client(reconnection=False)
        self.sio.on("*", lambda event, data=None: self.events.put((event, data)))
        cookie = f"{settings.SESSION_COOKIE_NAME}={session_cookie(user)}"
        self.sio.connect(
            f"http://127.0.0.1:{server.port}",
            headers={"Cookie": cookie},
            transports=["websocket"],
            wait_timeout=TIMEOUT,
        )
        self.seen: list[tuple[str, object]] = []

    def emit(self, event: str, data=None) -> None:
        self.sio.emit(event, data)

    def until(self, event: str, check=lambda data: True, timeout: float = TIMEOUT):
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                name, data = self.events.get(timeout=max(left, 0.01))
            except queue.Empty:
                raise AssertionError(
                    f"no {event} within {timeout} s; got {self.seen[-6:]}"
                ) from None
            self.seen.append((name, data))
            if name == event and check(data):
                return data
            if left <= 0:
                raise AssertionError(
                    f"no {event} within {timeout} s; got {self.seen[-6:]}"
                ) from None

    def close(self) -> None:
        self.sio.disconnect()


@pytest.fixture
def clients():
    opened: list[Client] = []

    def make(server, user) -> Client:
        client = Client(server, user)
        opened.append(client)
        return client

    yield make
    for client in opened:
        if client.sio.connected:
            client.close()


def two_processes(servers):
    """Two daphne processes when Redis joins them, else one serving both players."""
    import os

    first = servers().wait() if not os.environ.get("REDIS_URL") else None
    if first is not None:
        return first, first
    a, b = servers(), servers()
    return a.wait(), b.wait()


def matched(servers, clients, make_user, catalogue):
    """Alice joins first (X), Bob second (O), on different processes where possible."""
    alice, bob = make_user("alice"), make_user("bob")
    server_a, server_b = two_processes(servers)
    a, b = clients(server_a, alice), clients(server_b, bob)
    a.emit("matchmaking:join", {"afkTimeout": 120, "afkWarning": 30})
    waiting = a.until("matchmaking:waiting")
    b.emit("matchmaking:join", {})
    start_a, start_b = a.until("game:start"), b.until("game:start")
    assert start_a["gameId"] == start_b["gameId"] == waiting["gameId"]
    players = start_a["players"]
    assert [p["playerId"] for p in players] == [human(alice).pk, human(bob).pk]
    assert [p["mark"] for p in players] == ["X", "O"]
    assert start_a["board"] == [None] * 9 and start_a["currentTurn"] == 0
    assert (start_a["you"], start_b["you"]) == (0, 1)
    return SimpleNamespace(
        a=a, b=b, players=players, id=waiting["gameId"], bob=bob, server_b=server_b
    )


def play(a, b, positions):
    """Moves by position, X (a) first; every move reaches both clients."""
    board = [None] * 9
    for i, position in enumerate(positions):
        mover = (a, b)[i % 2]
        mover.emit("game:move", {"position": position})
        board[position] = "XO"[i % 2]
        for client in (a, b):
            state = client.until("game:state", lambda s, n=board: s["board"] == n)
            assert state["currentTurn"] in (None, 1 - i % 2)


def test_victory_with_the_winning_line(servers, clients, make_user, catalogue):
    game = matched(servers, clients, make_user, catalogue)
    a, b, players, game_id = game.a, game.b, game.players, game.id
    play(a, b, [0, 3, 4, 5, 8])  # X: 0, 4, 8 (the diagonal)
    for client in (a, b):
        over = client.until("game:over")
        assert over == {
            "gameId": game_id,
            "winner": players[0]["playerId"],
            "reason": "victory",
            "winningLine": [0, 4, 8],
        }


def test_draw(servers, clients, make_user, catalogue):
    game = matched(servers, clients, make_user, catalogue)
    a, b = game.a, game.b
    # X O X / X O O / O X X: nine cells, no line
    play(a, b, [0, 1, 2, 4, 3, 5, 7, 6, 8])
    for client in (a, b):
        over = client.until("game:over")
        assert (over["reason"], over["winner"], over["winningLine"]) == ("draw", None, None)


def test_resignation_and_a_bad_move(servers, clients, make_user, catalogue):
    game = matched(servers, clients, make_user, catalogue)
    a, b, players = game.a, game.b, game.players
    b.emit("game:move", {"position": 4})
    assert b.until("error")["code"] == "not-your-turn"
    a.emit("game:move", {"position": 9})
    assert a.until("error")["code"] == "malformed"
    a.emit("game:move", {"position": 4})
    b.until("game:state", lambda s: s["board"][4] == "X")
    b.emit("game:move", {"position": 4})
    assert b.until("error")["code"] == "illegal"
    b.emit("game:resign")
    for client in (a, b):
        over = client.until("game:over")
        assert (over["reason"], over["winner"], over["winningLine"]) == (
            "resignation", players[0]["playerId"], None,
        )  # fmt: skip


def test_disconnect_reconnect_and_the_window_running_out(servers, clients, make_user, catalogue):
    from play.models import Match

    game = matched(servers, clients, make_user, catalogue)
    a, b, players, game_id = game.a, game.b, game.players, game.id
    Match.objects.filter(pk=game_id).update(reconnect_window=2)
    b.close()
    assert a.until("player:disconnected")["playerId"] == players[1]["playerId"]
    back = clients(game.server_b, game.bob)  # Bob again, on a new connection
    back.emit("game:reconnect", {"playerId": players[1]["playerId"]})
    state = back.until("game:start")
    assert state["gameId"] == game_id and state["you"] == 1, state
    assert a.until("player:reconnected")["playerId"] == players[1]["playerId"]
    back.close()
    assert a.until("player:disconnected")["playerId"] == players[1]["playerId"]
    over = a.until("game:over", timeout=20)
    assert (over["reason"], over["winner"]) == ("disconnect", players[0]["playerId"])


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_against_the_seeds_bot_the_person_is_x(servers, clients, make_user, catalogue,
                                               difficulty):  # fmt: skip
    alice = make_user("alice")
    a = clients(servers().wait(), alice)
    a.emit("matchmaking:join", {"difficulty": difficulty, "afkTimeout": 10, "afkWarning": 9})
    start = a.until("game:start")
    assert start["players"][0]["playerId"] == human(alice).pk and start["you"] == 0
    assert start["players"][1]["kind"] == "bot"
    a.until("tictactoe:afk_warning")  # 1 s into X's turn
    board = start["board"]
    while True:
        free = [i for i, cell in enumerate(board) if cell is None]
        a.emit("game:move", {"position": free[0]})
        if len(free) == 9:
            a.until("tictactoe:afk_warning_cleared")  # the move cleared the warning
        state = a.until("game:state", lambda s: s["currentTurn"] != 1)
        board = state["board"]
        if state["currentTurn"] is None:
            break
    over = a.until("game:over")
    assert over["reason"] in ("victory", "draw")
    if difficulty == "hard":  # the seed's hard bot plays perfectly: it never loses
        assert over["winner"] != human(alice).pk


def test_refusals(servers, clients, make_user, catalogue):
    server = servers().wait()
    with pytest.raises(socketio.exceptions.ConnectionError):
        socketio.Client().connect(f"http://127.0.0.1:{server.port}", transports=["websocket"])
    a = clients(server, make_user("alice"))
    for data, code in [
        ({"afkTimeout": 0}, "malformed"),
        ({"difficulty": "brutal"}, "malformed"),
        ({"ruleSet": 10**30}, "malformed"),
    ]:
        a.emit("matchmaking:join", data)
        assert a.until("error")["code"] == code, data
    a.emit("game:move", {"position": 0})
    assert a.until("error")["code"] == "not-seated"
    a.emit("game:reconnect", {"playerId": 999999})
    assert a.until("error")["code"] == "not-seated"


def test_a_socket_io_player_and_a_match_page_player_play_each_other(
    servers, clients, make_user, catalogue
):
    """Alice on Socket.IO, Bob on the site's websocket (a match made on the start form):
    each one's move reaches the other, through two processes where Redis joins them."""
    import json

    from websockets.sync.client import connect

    from play import services
    from tests.play_helpers import rule_set, start

    alice, bob = make_user("alice"), make_user("bob")
    match = start(rule_set("Tic-Tac-Toe"), alice, alice, bob)
    services.answer_invitation(match.pk, bob, accept=True)
    server_a, server_b = two_processes(servers)
    a = clients(server_a, alice)
    a.emit("game:reconnect", {"playerId": human(alice).pk})
    assert a.until("game:start")["gameId"] == match.pk
    ws = connect(
        f"ws://127.0.0.1:{server_b.port}/ws/match/{match.pk}/",
        origin=f"http://127.0.0.1:{server_b.port}",
        additional_headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={session_cookie(bob)}"},
        proxy=None,
        open_timeout=TIMEOUT,
    )

    def bob_sees(ply: int) -> dict:
        while True:
            event = json.loads(ws.recv(timeout=TIMEOUT))
            if event["type"] == "state" and event["ply"] == ply:
                return event

    try:
        bob_sees(0)
        a.emit("game:move", {"position": 4})  # the centre: x 2, y 2
        assert bob_sees(1)["view"]["last_move"] == "2,2,1"
        ws.send(json.dumps({"type": "move", "move": "1,3,1"}))  # top-left: position 0
        state = a.until("game:state", lambda s: s["board"][0] == "O")
        assert state["board"][4] == "X" and state["currentTurn"] == 0
    finally:
        ws.close()
