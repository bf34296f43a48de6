"""What can be *inferred* from a sequence of views (issue 32): a seat's secret in a
cloaked game may be a count (how many pieces it put down) or an attempt (a bump into a
hidden piece), not only where its pieces are. Pairs of games that differ only in a
hidden choice must give every other seat, and spectators, the same sequence of views:
the same pieces, reserves, ply counters, move labels and number of views, until the
rules reveal the choice (the end of the game shows everything).

A view that does not change is not sent (the match layer sends a ``state`` only when
the viewer's view changed: test_cloaking_inference_play.py), so a sequence here is the
views after each move with repeats collapsed."""

from __future__ import annotations

import random

import pytest
from cloak_helpers import cloak_game

from gamecore.engine import compile_game
from variants import catalogue

SHOPPING = compile_game(catalogue.get("Shopping9"))
KBEAUTY = compile_game(catalogue.get("KBeauty9"))
HIDESEEK = compile_game(catalogue.get("3P-9X-HideSeek"))
BLOTTO = compile_game(catalogue.get("3Blotto13"))


def sequence(game, script, viewer, seed=1, stop_at_end=True) -> list[dict]:
    """The views ``viewer`` (None: a spectator) is shown along ``script`` (move texts,
    each played by the first seat to move), repeats collapsed, up to the end."""
    state = game.new_initial_state(seed=seed)
    out = [state.view(viewer)]
    for text in script:
        seat = state.to_move()[0]
        state.apply(seat, game.parse_move(text))
        if stop_at_end and state.is_terminal():
            break
        view = state.view(viewer)
        if view != out[-1]:
            out.append(view)
    return out


def assert_same_for(game, scripts, viewers, seed=1) -> None:
    for viewer in viewers:
        seen = [sequence(game, script, viewer, seed) for script in scripts]
        for script, other in zip(scripts[1:], seen[1:], strict=True):
            assert len(other) == len(seen[0]), (viewer, script, "a different number of views")
            for i, (a, b) in enumerate(zip(seen[0], other, strict=True)):
                assert a == b, (viewer, script, i, _diff(a, b))


def _diff(a: dict, b: dict) -> dict:
    return {k: (a.get(k), b.get(k)) for k in set(a) | set(b) if a.get(k) != b.get(k)}


# -- Shopping9 and KBeauty9: the count is the secret -------------------------------------


def shopping(black: int, white: int = 2, chaos: int = 1) -> list[str]:
    def buy(n, most, text):
        return [text] * n + (["pass"] if n < most else [])

    return buy(black, 9, "circle 1,1") + buy(white, 7, "circle 2,1") + buy(chaos, 8, "pentagon 3,1")


@pytest.mark.parametrize("counts", [(0, 3, 9), (1, 8)])
def test_shopping_black_count_is_hidden_from_white_chaos_and_spectators(counts):
    assert_same_for(SHOPPING, [shopping(n) for n in counts], [1, 2, None])


def test_shopping_white_count_is_hidden_from_black_chaos_and_spectators():
    assert_same_for(SHOPPING, [shopping(4, w) for w in (0, 2, 7)], [0, 2, None])


def test_shopping_the_end_reveals_the_count():
    a, b = (sequence(SHOPPING, shopping(n), 1, stop_at_end=False) for n in (0, 3))
    assert a[-1]["outcome"] and a[-1] != b[-1]
    assert a[-1]["reserves"]["black"]["circle"] == 9 and b[-1]["reserves"]["black"]["circle"] == 6


def kbeauty(heights) -> list[str]:
    out = []
    for seat, h in enumerate(heights):
        out += [f"{seat + 1},1"] * h + (["pass"] if h < 9 else [])
    return out


@pytest.mark.parametrize("first", [(0, 4, 9), (2, 8)])
def test_kbeauty_a_stack_height_is_hidden_from_every_other_seat(first):
    assert_same_for(KBEAUTY, [kbeauty((h, 3, 5, 1)) for h in first], [1, 2, 3, None])
    third = [kbeauty((4, 3, h, 1)) for h in first]
    assert_same_for(KBEAUTY, third, [0, 1, 3, None])


# -- 3P-9X-HideSeek: a bump is the seeker's secret; where a hider hides is its own --------

PHASE2 = ["4,6,1x3,6,1", "pass", "pass", "pass", "3,6,1x2,5,1", "pass", "pass"]


def test_hideseek_a_bump_into_a_hidden_piece_is_seen_by_nobody_else():
    plain = ["circle 3,3,1", "circle 5,5,1", "pentagon 4,4,1", *PHASE2]
    bumped = ["circle 3,3,1", "circle 5,5,1", "pentagon 5,5,1", "pentagon 4,4,1", *PHASE2]
    assert_same_for(HIDESEEK, [plain, bumped], [0, 1, 3, None])


def test_hideseek_a_hider_bumping_into_the_seeker_looks_like_a_step_to_the_others():
    bump = ["circle 3,3,1", "circle 5,5,1", "pentagon 4,4,1", "4,6,1x3,6,1", "3,3,1-4,4,1"]
    step = ["circle 3,3,1", "circle 5,5,1", "pentagon 4,4,1", "4,6,1x3,6,1", "3,3,1-3,4,1"]
    passes = ["circle 3,3,1", "circle 5,5,1", "pentagon 4,4,1", "4,6,1x3,6,1", "pass"]
    assert_same_for(HIDESEEK, [bump, step, passes], [1, 2, 3, None])


def test_hideseek_where_a_hider_hides_is_hidden():
    scripts = [
        [f"circle {at}", "circle 5,5,1", "pentagon 4,4,1", *PHASE2] for at in ("3,3,1", "3,4,1")
    ]
    assert_same_for(HIDESEEK, scripts, [1, 2, 3, None])


def labels(game, script, viewer) -> list:
    state = game.new_initial_state(seed=1)
    out = []
    for text in script:
        state.apply(state.to_move()[0], game.parse_move(text))
        out.append(state.view(viewer)["last_move"])
    return out


def test_hideseek_chaos_ring_moves_are_named_to_everyone():
    script = ["circle 3,3,1", "circle 5,5,1", "pentagon 4,4,1", "4,6,1x3,6,1"]
    for viewer in (0, 1, 2, None):
        assert labels(HIDESEEK, script, viewer)[-1] == "4,6,1x3,6,1", viewer


def test_hideseek_a_found_hider_is_named_to_its_finder_and_hidden_from_the_rest():
    """Black bumps into pink's seeker (black now sees it); pink's next step, which black
    sees, is named to black, and stays "(hidden move)" to white and spectators."""
    script = ["circle 3,3,1", "circle 5,5,1", "pentagon 4,4,1", "4,6,1x3,6,1", "3,3,1-4,4,1"]
    script += ["pass", "4,4,1-4,5,1"]
    assert labels(HIDESEEK, script, 0)[-1] == "4,4,1-4,5,1"
    for viewer in (1, 3, None):
        assert labels(HIDESEEK, script, viewer)[-1] == "(hidden move)", viewer


def test_hideseek_a_capture_is_labelled_as_each_seat_sees_it():
    """Black found pink's seeker; pink then takes white's hidden circle: black sees the
    pentagon step (not what it took), white sees its circle go (not who took it)."""
    script = ["circle 3,3,1", "circle 5,5,1", "pentagon 4,4,1", "4,6,1x3,6,1", "3,3,1-4,4,1"]
    script += ["pass", "4,4,1-5,5,1"]
    assert labels(HIDESEEK, script, 2)[-1] == "4,4,1x5,5,1"
    assert labels(HIDESEEK, script, 0)[-1] == "4,4,1-5,5,1"
    for viewer in (1, 3, None):
        assert labels(HIDESEEK, script, viewer)[-1] == "(hidden move)", viewer


def test_hideseek_an_attempt_ply_does_not_count_moves_the_seat_did_not_see():
    """Black's own attempt carries a ply: it must not count pink's bump, which black
    never saw."""
    base = ["circle 3,3,1", "circle 5,5,1"]
    tail = ["pentagon 4,4,1", "4,6,1x3,6,1", "3,3,1-4,4,1"]
    views = []
    for extra in ([], ["pentagon 5,5,1"]):
        state = HIDESEEK.new_initial_state(seed=1)
        for text in base + extra + tail:
            state.apply(state.to_move()[0], HIDESEEK.parse_move(text))
        views.append(state.view(0))
    assert views[0]["attempt"] == views[1]["attempt"] and views[0]["attempt"]


# -- 3Blotto13: one soldier a turn, so the count is public; where is not -----------------


def test_blotto_where_a_soldier_stands_is_hidden():
    a = ["b1:1,1", "b1:2,1", "b2:1,1", "b3:2,1"]
    b = ["b3:1,1", "b1:2,1", "b1:1,1", "b3:2,1"]
    assert_same_for(BLOTTO, [a, b], [1, None])
    assert_same_for(BLOTTO, [["b1:1,1", "b2:2,1"], ["b1:1,1", "b3:2,1"]], [0, None])


def test_blotto_turns_and_reserves_are_public():
    """One soldier a turn, no pass: the rules say what each turn spent, so every seat
    counts the other's soldiers out (only where they went is hidden)."""
    state = BLOTTO.new_initial_state(seed=1)
    state.apply(0, BLOTTO.parse_move("b1:1,1"))
    white = state.view(1)
    assert white["last_move"] == "(hidden move)" and white["ply"] == 1
    assert white["reserves"]["black"]["circle"] == 12


def test_which_counts_are_as_seen_is_said_from_the_rules():
    assert BLOTTO.new_initial_state(seed=1).view(1)["cloaking"]["counted"] == []
    state = SHOPPING.new_initial_state(seed=1)
    assert state.view(1)["cloaking"]["counted"] == ["black", "pink"]
    assert state.view(None)["cloaking"]["counted"] == ["black", "pink", "white"]


def test_shopping_reserves_are_counted_as_seen():
    state = SHOPPING.new_initial_state(seed=1)
    for text in ("circle 1,1", "circle 1,1", "pass"):
        state.apply(state.to_move()[0], SHOPPING.parse_move(text))
    assert state.view(0)["reserves"]["black"]["circle"] == 7  # its own: exact
    for viewer in (1, 2, None):
        assert state.view(viewer)["reserves"]["black"]["circle"] == 9, viewer
        assert state.view(viewer)["ply"] == 1 and state.view(viewer)["last_move"] == "(hidden move)"


def test_a_resignation_during_a_hidden_turn_tells_nothing_of_it():
    """White resigns while black stacks in KBeauty9: everyone sees the resignation, and
    still nothing of black's circles (the label stays what it was)."""
    seen = []
    for n in (0, 3):
        state = KBEAUTY.new_initial_state(seed=1)
        for _ in range(n):
            state.apply(0, KBEAUTY.parse_move("1,1"))
        state.forfeit(1)
        seen.append([state.view(v) for v in (1, 2, 3, None)])
    assert seen[0] == seen[1]


def test_under_obscurity_the_shape_is_the_secret():
    """Cloaking obscures: white sees a black piece arrive, not which shape, so neither
    its view nor black's reserves (by shape) tell a circle from an x."""
    from test_cloaking_properties import FOG5, SQUARES

    game = cloak_game({**SQUARES, "cloaking": "obscures"}, FOG5)
    pairs = [["circle 3,1,1", "circle 1,1,1"], ["x 3,1,1", "circle 1,1,1"]]
    assert_same_for(game, pairs, [1, None])
    black = sequence(game, pairs[0], 1)[-1]["reserves"]["black"]
    assert black == {"circle": 3, "x": 2, "pentagon": 1}


def test_a_chain_jump_of_a_hidden_piece_does_not_say_where_it_is():
    doc = {
        "name": "Inf-chain",
        "players": "2",
        "cloaking": "hides",
        "turn_checks": [],
        "allow_pass": True,
        "board": {"type": "squares", "size": [6, 1, 1]},
        "reserves": {"black": {"circle": 2}, "white": {"circle": 2}},
        "shape_rules": {
            "circle": {"move": "adjacent", "power": "can-capture", "condition": "chain-jump"}
        },
    }
    game = cloak_game(doc, [[(1, x, 1, 1) for x in (1, 3, 5, 6)]])
    state = game.new_initial_state(seed=1)
    for text in ("circle 1,1,1", "circle 2,1,1", "circle 6,1,1", "circle 4,1,1", "1,1,1x3,1,1"):
        state.apply(state.to_move()[0], game.parse_move(text))
    assert state.view(0)["chain"] == "3,1,1"  # black may jump on from 3
    assert state.view(1)["chain"] is None and state.view(None)["chain"] is None


def test_a_pass_of_a_seat_with_nothing_left_looks_like_any_other():
    """Whether black's pass could have been a hidden placement is read from the rules,
    not from its reserve: a pass with nothing left is "(hidden move)" as well."""
    doc = {
        "name": "Inf-empty",
        "players": "3",
        "cloaking": "hides",
        "turn_checks": [],
        "stalemate": "most-pieces-wins",
        "allow_pass": True,
        "board": {"type": "stacks", "size": [3, 1, 5]},
        "exclusive": [{"board": 1, "at": [x, 1, 0], "seats": [x]} for x in (1, 2, 3)],
        "reserves": {"black": {"circle": 2}, "white": {"circle": 4}, "pink": {"circle": 4}},
    }
    game = cloak_game(doc, [[(1, x, 1, 0) for x in (1, 2, 3)]])
    script = ["1,1", "2,1", "3,1", "1,1", "2,1", "3,1", "pass"]
    assert sequence(game, script, 0)[-1]["reserves"].get("black") is None  # none left
    for viewer in (1, 2, None):
        assert labels(game, script, viewer)[-1] == "(hidden move)", viewer


# -- a generated family of cloaked documents ---------------------------------------------


def family():
    """Cloaked documents that let a seat place several pieces unseen in one turn: stacks
    exclusive to each seat (Blotto-like) or an open squares board, all cloaked; one phase
    with the option to pass, or one phase per seat (KBeauty-like); 1 or 2 pieces a turn;
    2, 3 or 4 players, or 2 with Chaos."""
    out = []
    for players, n in (("2", 2), ("3", 3), ("4", 4), ("2-vs-chaos", 3)):
        for board in ("stacks", "squares"):
            for per_seat_phases in (False, True):
                for ppt in (1, 2):
                    colors = ["black", "white", "pink", "yellow"][:n]
                    doc = {
                        "name": f"Inf-{players}-{board}-{int(per_seat_phases)}-{ppt}",
                        "players": players,
                        "cloaking": "hides",
                        "pieces_per_turn": ppt,
                        "turn_checks": [],
                        "stalemate": "most-pieces-wins",
                        "reserves": {c: {"circle": 4} for c in colors},
                    }
                    if board == "stacks":
                        doc["board"] = {"type": "stacks", "size": [n, 1, 5]}
                        doc["exclusive"] = [
                            {"board": 1, "at": [x, 1, 0], "seats": [x]} for x in range(1, n + 1)
                        ]
                        cloaked = [(1, x, 1, 0) for x in range(1, n + 1)]
                    else:
                        doc["board"] = {"type": "squares", "size": [4, 4, 1]}
                        cloaked = [(1, x, y, 1) for x in range(1, 5) for y in range(1, 5)]
                    if per_seat_phases:
                        others = [[s for s in range(1, n + 1) if s != k] for k in range(1, n + 1)]
                        doc["phases"] = [{"allow_pass": True, "locked_seats": o} for o in others]
                        phases = [cloaked] * n
                    else:
                        doc["allow_pass"] = True
                        phases = [cloaked]
                    out.append((doc, phases))
    return out


FAMILY = family()


def _run(game, prefix, seat, placements, rng_seed):
    """Play ``prefix``, then ``seat`` places ``placements`` pieces unseen (as long as it
    may) and passes if still to move; the state after the turn passed from it."""
    state = game.new_initial_state(seed=1)
    for text in prefix:
        state.apply(state.to_move()[0], game.parse_move(text))
    rng = random.Random(rng_seed)
    placed = 0
    while state.to_move() == (seat,) and not state.is_terminal():
        options = [m for m in state.legal_moves(seat) if str(m) not in ("pass", "draw")]
        if placed < placements and options:
            state.apply(seat, rng.choice(options))
            placed += 1
        elif "pass" in map(str, state.legal_moves(seat)):
            state.apply(seat, game.parse_move("pass"))
        else:
            break
    return state, placed


@pytest.mark.parametrize("index", range(len(FAMILY)), ids=[d["name"] for d, _ in FAMILY])
def test_generated_documents_hide_how_many_pieces_a_turn_put_down(index):
    """From a random common start, a seat puts 0, 1 or 3 pieces down unseen in its turn
    (as many as it may, wherever it chooses), and the turn passes: every other seat and a
    spectator must see the same sequence of views through that turn, whatever the count
    and wherever they went."""
    doc, cloaked = FAMILY[index]
    game = cloak_game(doc, cloaked)
    rng = random.Random(index)
    checked = 0
    for trial in range(8):
        state = game.new_initial_state(seed=1)
        prefix = []
        for _ in range(rng.randint(0, 4) if trial else 0):
            if state.is_terminal():
                break
            seat = state.to_move()[0]
            move = rng.choice(state.legal_moves(seat))
            state.apply(seat, move)
            prefix.append(str(move))
        if state.is_terminal() or len(state.to_move()) != 1:
            continue
        seat = state.to_move()[0]
        if "pass" not in map(str, state.legal_moves(seat)) or state.placed:
            continue
        # how many (0, 1, 3), and where (the same count, other spaces)
        runs = [_run(game, prefix, seat, k, trial) for k in (0, 1, 3)]
        runs += [_run(game, prefix, seat, k, trial + 100) for k in (1, 3)]
        if any(s.is_terminal() for s, _ in runs) or len({p for _, p in runs}) < 2:
            continue
        checked += 1
        base = game.new_initial_state(seed=1)
        for text in prefix:
            base.apply(base.to_move()[0], game.parse_move(text))
        for viewer in [*(s for s in range(game.nseats) if s != seat), None]:
            before = base.view(viewer)
            after = [s.view(viewer) for s, _ in runs]
            for other in after[1:]:
                assert other == after[0], (doc["name"], viewer, _diff(after[0], other))
            # one change seen for the whole turn: the ply moved on by one
            assert after[0]["ply"] == before["ply"] + 1, (doc["name"], viewer)
    assert checked, "no pair was played"


def test_a_silent_move_changes_nothing_in_the_view_but_its_counters():
    """The engine decides a move is silent for a viewer on a compact key of what its
    view shows (observe.observable); the view itself, counters aside, must agree on
    every move of random games of the cloaked documents here: unchanged by a silent
    move, changed by any other move of another seat (else the viewer would be shown a
    move it cannot see a trace of)."""
    from gamecore.engine.general.observe import observable_view

    games = [SHOPPING, KBEAUTY, HIDESEEK, BLOTTO] + [cloak_game(d, c) for d, c in FAMILY[::3]]
    silent = 0
    for game in games:
        rng = random.Random(game.name)
        for seed in range(4):
            state = game.new_initial_state(seed=seed)
            viewers = [*range(game.nseats), None]
            while not state.is_terminal() and state.ply < 60:
                before = {v: (observable_view(state, v), state.unseen_moves(v)) for v in viewers}
                seat = state.to_move()[0]
                state.apply(seat, rng.choice(state.legal_moves(seat)))
                if state.is_terminal():
                    break
                for v in viewers:
                    view, count = before[v]
                    if state.unseen_moves(v) > count:
                        silent += 1
                        assert observable_view(state, v) == view, (game.name, v)
                    elif v != seat and not state.ph.simultaneous:  # shown: something changed
                        assert observable_view(state, v) != view, (game.name, v)
    assert silent > 50


@pytest.mark.parametrize("seat", [-1, 4, 99, "1", None])
def test_a_move_for_no_seat_is_refused_as_illegal(seat):
    from gamecore.engine import IllegalMove

    state = SHOPPING.new_initial_state(seed=1)
    for text in ("pass", "circle 1,1"):
        with pytest.raises(IllegalMove):
            state.apply(seat, SHOPPING.parse_move(text))
    assert state.view(1)["ply"] == 0
