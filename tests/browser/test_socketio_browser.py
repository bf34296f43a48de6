"""The tic-tac-toe server seed's protocol from a browser, with socket.io-client (the npm
package, vendored in static/vendor/): a whole game against the seed's hard bot."""

from __future__ import annotations

import pytest

from tests.play_helpers import human, rule_set

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAY = """
() => new Promise((resolve, reject) => {
  const socket = io({ transports: ["websocket"] });
  const seen = [];
  let you = null;
  let sentAt = -1;  // a position is answered once, however many states repeat it
  const move = (state) => {
    const filled = state.board.filter((cell) => cell !== null).length;
    if (state.currentTurn !== you || filled <= sentAt) return;
    sentAt = filled;
    socket.emit("game:move", { position: state.board.indexOf(null) });
  };
  const log = (name) => (data) => seen.push([name, data]);
  socket.on("connect_error", (error) => reject(String(error)));
  socket.on("error", log("error"));
  socket.on("game:start", (state) => { log("game:start")(state); you = state.you; move(state); });
  socket.on("game:state", (state) => { log("game:state")(state); move(state); });
  socket.on("game:over", (over) => { log("game:over")(over); socket.close(); resolve(seen); });
  socket.emit("matchmaking:join", { difficulty: "hard" });
  setTimeout(() => reject("no game:over within 30 s: " + JSON.stringify(seen.slice(-3))), 30000);
})
"""


def test_socket_io_client_plays_a_whole_game_against_hard(person):
    rule_set("Tic-Tac-Toe")
    page = person("sia")
    page.goto("/")
    page.add_script_tag(url="/static/vendor/socket.io-client/socket.io.min.js")
    seen = page.evaluate(PLAY)
    names = [name for name, _data in seen]
    assert names[0] == "game:start" and names[-1] == "game:over" and "error" not in names
    start = seen[0][1]
    assert start["you"] == 0 and start["players"][0]["playerId"] == human(page.user).pk
    assert [p["mark"] for p in start["players"]] == ["X", "O"]
    final = [data for name, data in seen if name == "game:state"][-1]
    assert final["board"].count("X") >= 3 and final["board"].count(None) < 5
    over = seen[-1][1]
    assert over["reason"] in ("victory", "draw")
    assert over["winner"] != human(page.user).pk  # the seed's hard bot never loses
