"""What the match layer lets another seat infer of a hidden choice (issue 32), on the
paths that carry a cloaked match out of the server: the ``state`` events a socket is
sent after each move (``notify.match_changed`` -> ``moves.made_state``: their number,
plies, views, timers and the events with them), a page load or reconnection
(``snapshot``), the replay page's frames, an own bot's "your move" and the errors a
seat may provoke (a stale ``ply``). Pairs of matches that differ only in a hidden
choice (how many circles black buys in Shopping9, how high black stacks in KBeauty9,
whether pink bumps into a hider in 3P-9X-HideSeek) are played through the services at
the same clock times; every other seat and a spectator must be given the same."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from play import moves, notify, services
from play.errors import MatchError
from play.replay import frames
from tests.play_helpers import rule_set, start

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


class Clock:
    def __init__(self):
        self.now = T0

    def __call__(self):
        return self.now


@pytest.fixture
def clock(monkeypatch):
    c = Clock()
    monkeypatch.setattr("django.utils.timezone.now", c)
    return c


@pytest.fixture
def sent(monkeypatch):
    """Every group message a move sends (the views and events, as the sockets get them)."""
    out = []

    def capture(match, events, views=None):
        out.append((list(events), views))

    monkeypatch.setattr(notify, "match_changed", capture)
    return out


def socket_stream(messages, match_id, user, you) -> list:
    """What a socket holding ``you`` (empty: a spectator) sends along ``messages``: each
    state (made for it, or looked up as the consumer does) and the events after it."""
    out, sent_ply = [], 0
    for events, views in messages:
        made = moves.made_state(views, you, sent_ply)
        if made == moves.SILENT:
            sent_ply = views["ply"]
            continue
        if made is None:
            event, sent_ply = services.snapshot(match_id, user, you), views["ply"]
        else:
            event, sent_ply = json.loads(made), views["ply"]
        out.append(_plain(event))
        out.extend(_plain(e) for e in events)
    return out


def _plain(event: dict) -> dict:
    event = dict(event)
    event.pop("serverTime", None)
    event.pop("matchId", None)  # two matches of a pair: their ids differ, nothing else may
    return event


def play_script(match, people, script, clock) -> None:
    """``script``: (seat, move text, seconds after T0) played through the services."""
    for seat, text, at in script:
        clock.now = T0 + timedelta(seconds=at)
        services.play(match.pk, people[seat], text, seat=seat)


def shopping_script(black: int) -> list:
    """Black buys ``black`` circles between 1 s and 9 s and is done at 10 s (a pass,
    or its ninth circle at 10 s); white buys two and passes."""
    out = [(0, "circle 1,1", 1 + i * 0.5) for i in range(black - (black == 9))]
    out.append((0, "circle 1,1" if black == 9 else "pass", 10))
    out += [(1, "circle 2,1", 20), (1, "circle 2,1", 21), (1, "pass", 22)]
    return out


def _shopping(creator, other_creator, clock, sent, black, upto=None):
    rs = rule_set("Shopping9")
    clock.now = T0
    match = start(rs, creator, creator, other_creator, seed=5)
    services.answer_invitation(match.pk, other_creator, accept=True)
    sent.clear()
    script = shopping_script(black)
    play_script(match, {0: creator, 1: other_creator}, script[:upto], clock)
    return match


@pytest.mark.parametrize("counts", [(0, 3), (2, 9)])
def test_shopping_every_other_socket_is_sent_the_same_whatever_black_bought(
    counts, creator, other_creator, make_user, clock, sent
):
    watcher = make_user("wanda")
    streams = []
    for n in counts:
        match = _shopping(creator, other_creator, clock, sent, n)
        assert not match.is_over
        streams.append(
            {
                "white": socket_stream(sent, match.pk, other_creator, [1]),
                "spectator": socket_stream(sent, match.pk, watcher, []),
                "black": len(socket_stream(sent, match.pk, creator, [0])),
            }
        )
        sent.clear()
    a, b = streams
    assert a["white"] == b["white"]
    assert a["spectator"] == b["spectator"]
    assert a["black"] != b["black"]  # black itself is shown each of its placements
    assert len(a["white"]) == 4  # black's turn (one state), white's three moves


def test_shopping_once_over_every_state_has_the_true_ply(
    creator, other_creator, make_user, clock, sent
):
    watcher = make_user("wanda")
    match = _shopping(creator, other_creator, clock, sent, 3)
    match.refresh_from_db()
    while not match.is_over:  # Chaos buys at random and ends the game
        clock.now += timedelta(seconds=5)
        services.server_move(match.pk, now=clock.now)
        match.refresh_from_db()
    for user, you in ((creator, [0]), (other_creator, [1]), (watcher, [])):
        event = services.snapshot(match.pk, user, you)
        assert event["ply"] == match.ply == event["view"]["ply"], you


def test_shopping_a_page_load_during_blacks_turn_shows_the_same(
    creator, other_creator, make_user, clock, sent
):
    """A reconnection (or the match page) while black is still buying: the same state,
    timers included (black's clocks run from its turn's start, not its last circle)."""
    watcher = make_user("wanda")
    seen = []
    for n in (0, 4):
        match = _shopping(creator, other_creator, clock, sent, n, upto=n)
        clock.now = T0 + timedelta(seconds=9)
        seen.append(
            [
                _plain(services.snapshot(match.pk, u, y))
                for u, y in ((other_creator, [1]), (watcher, []))
            ]
        )
    assert seen[0] == seen[1]


def test_shopping_the_replay_page_shows_the_same_frames(creator, other_creator, clock, sent):
    seen = []
    for n in (0, 5):
        match = _shopping(creator, other_creator, clock, sent, n)
        seen.append([{k: v for k, v in f.items()} for f in frames(match, ())])
    assert seen[0] == seen[1]
    # one frame for black's turn, one for white's: each a hidden move to spectators
    assert [f["move"] for f in seen[0][1:]] == ["(hidden move)"] * 2


def test_shopping_a_replay_window_counts_only_the_frames_spectators_saw(
    creator, other_creator, clock, sent
):
    """A window of the replay (its first page, or a JSON page) says how many frames there
    are: counting log rows there would count black's hidden purchases."""
    from play.replay import frame_window

    seen = []
    for n in (0, 5):
        match = _shopping(creator, other_creator, clock, sent, n)
        seen.append([frame_window(match, (), start=s, count=1) for s in (0, 1, 2)])
    assert seen[0] == seen[1]
    assert seen[0][0]["total"] == 3


def test_shopping_a_stale_ply_tells_white_nothing_of_blacks_count(
    creator, other_creator, clock, sent
):
    """White may send a move with any ``ply`` while black buys: whether it is refused
    as stale must not depend on how many circles black has put down."""
    answers = []
    for n in (0, 3):
        match = _shopping(creator, other_creator, clock, sent, n, upto=n)
        codes = []
        for ply in range(5):
            try:
                services.play(match.pk, other_creator, "circle 2,1", seat=1, ply=ply)
            except MatchError as exc:
                codes.append(exc.code)
        answers.append(codes)
    assert answers[0] == answers[1]


def test_shopping_an_own_bot_in_whites_seat_is_asked_the_same(trainer, clock, sent):
    from ownbots import live
    from tests.ownbot_helpers import own_bot

    asked = []
    for n in (0, 6):
        player, _token = own_bot(trainer, f"Shopper{n}")
        rs = rule_set("Shopping9")
        clock.now = T0
        match = start(rs, trainer, trainer, player, seed=5)
        script = shopping_script(n)
        play_script(match, {0: trainer}, [m for m in script if m[0] == 0], clock)
        turns, _over = live.turns(match.pk, player, "v1")
        assert len(turns) == 1
        turn = turns[0]
        asked.append({k: v for k, v in turn.items() if k not in ("match", "turn", "timeLeft")})
        assert turn["turn"].endswith(f".{turn['ply']}.1")
        live.play(player, match.pk, turn["ply"], 1, "circle 2,1")  # its ply is not stale
    assert asked[0] == asked[1]


def test_kbeauty_a_stack_height_is_sent_to_nobody_else(make_user, clock, sent):
    people = [make_user(f"k{i}") for i in range(4)]
    watcher = make_user("wanda")
    streams = []
    for n in (1, 9):
        rs = rule_set("KBeauty9")
        clock.now = T0
        match = start(rs, people[0], *people, seed=5)
        for p in people[1:]:
            services.answer_invitation(match.pk, p, accept=True)
        sent.clear()
        script = [(0, "1,1", 1 + i * 0.5) for i in range(n - 1)]
        script.append((0, "1,1" if n == 9 else "pass", 10))
        script += [(1, "2,1", 20), (1, "pass", 21)]
        play_script(match, dict(enumerate(people)), script, clock)
        streams.append(
            [
                socket_stream(sent, match.pk, u, y)
                for u, y in ((people[1], [1]), (people[3], [3]), (watcher, []))
            ]
        )
        sent.clear()
    assert streams[0] == streams[1]


def test_hideseek_a_bump_is_sent_to_nobody_else(make_user, clock, sent):
    people = [make_user(f"h{i}") for i in range(3)]
    watcher = make_user("wanda")
    streams = []
    for bump in (False, True):
        rs = rule_set("3P-9X-HideSeek")
        clock.now = T0
        match = start(rs, people[0], *people, seed=5)
        for p in people[1:]:
            services.answer_invitation(match.pk, p, accept=True)
        sent.clear()
        script = [(0, "circle 3,3,1", 1), (1, "circle 5,5,1", 2)]
        if bump:
            script.append((2, "pentagon 5,5,1", 3))
        script.append((2, "pentagon 4,4,1", 4))
        play_script(match, dict(enumerate(people)), script, clock)
        streams.append(
            [
                socket_stream(sent, match.pk, u, y)
                for u, y in ((people[0], [0]), (people[1], [1]), (watcher, []))
            ]
        )
        sent.clear()
    assert streams[0] == streams[1]


def test_a_tournament_own_bot_is_asked_with_the_ply_it_observed():
    """A worker asks an own bot with the log's length: in a cloaked game, without the
    moves silent for the bot's seat (white is asked the same after 0 or 4 circles)."""
    from gamecore.engine import compile_game
    from tournaments import ownbot_games as remote
    from variants import catalogue

    asked = []
    game = compile_game(catalogue.get("Shopping9"))
    for n in (0, 4):
        state = game.new_initial_state(seed=1)
        texts = ["circle 1,1"] * n + ["pass"]
        for text in texts:
            state.apply(0, game.parse_move(text))
        agent = remote.RemoteAgent(type("P", (), {"pk": 1})(), 1, 1)
        asked.append(agent.request(state, 1, len(texts))[4])
    assert asked == [1, 1]


def test_chaos_buys_without_pauses_so_its_turn_lasts_as_long_whatever_it_buys(
    creator, other_creator, clock, sent, settings
):
    """A server player's moves are paced (PLAY_BOT_PACE apart), but not a hidden run:
    Chaos's turn would otherwise last half a second per pentagon, a count on the clock."""
    settings.PLAY_BOT_PACE = 0.5
    for seed in range(1, 8):
        rs = rule_set("Shopping9")
        clock.now = T0
        match = start(rs, creator, creator, other_creator, seed=seed)
        services.answer_invitation(match.pk, other_creator, accept=True)
        play_script(match, {0: creator, 1: other_creator}, [(0, "pass", 1), (1, "pass", 2)], clock)
        gaps = []
        match.refresh_from_db()
        while not match.is_over:
            gaps.append((match.wake_at - clock.now).total_seconds())
            clock.now = max(clock.now, match.wake_at)
            assert services.server_move(match.pk, now=clock.now)
            match.refresh_from_db()
        if len(gaps) >= 3:  # Chaos bought at least two pentagons
            assert gaps == [0.0] * len(gaps)
            return
    pytest.fail("Chaos never bought two pentagons")
