"""What the searching bots share: the root copy, budgets, rewards and random rollouts.

Everything here goes through the engine's public API (``to_move``, ``legal_moves``,
``apply``, ``clone``, ``outcome``, ``view``; where the family has them, the additions
``play``, the trusted apply for moves the state listed, and ``playout``) and uses of
``state.game`` only the public facts ``nseats``, ``chaos``, ``teams`` and (rollouts)
``fast``, and the calls ``new_initial_state`` and ``parse_move``.

**A bot must never read hidden information.** Every search starts from
``sample_root(state, seat, rng)``: in a simultaneous round a copy without the other
seats' unresolved plans, else (today's flat games hide nothing) a plain ``clone()``;
when cloaked spaces arrive it will instead build a state consistent with
``state.view(seat)``, and no bot needs to change.
"""

import time
import weakref
from typing import NamedTuple

from gamecore.engine import IllegalMove, InvalidMoveText

SMALL = 24  # at most this many moves: a fresh legal-move list is cheaper than a pool
REWARD = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def sample_root(state, seat: int, rng):
    """The position a bot searches from: one that ``seat`` could be in, given what it sees.

    The one place a bot copies a live state. In a cloaked game (issue 20) the state can
    ``determinise``: the pieces hidden from ``seat`` are drawn at random from what the
    seat knows only. In a simultaneous round the other seats' plans are hidden until the
    round resolves: the copy forgets them (``state.without_plans(seat)``: those seats are
    to plan again), so no search can read them. Otherwise the copy is exact."""
    determinise = getattr(state, "determinise", None)
    if determinise is not None:
        return determinise(seat, rng)
    without = getattr(state, "without_plans", None)
    if without is not None:
        return without(seat)
    return state.clone()


def for_seat(state, seat: int):
    """What a bot of ``seat`` is given: the state itself where nothing is hidden, else the
    position as the seat sees it (``seat_state``), never the truth; in a simultaneous
    round never the plans the other seats registered before it (``without_plans``)."""
    seat_state = getattr(state, "seat_state", None)
    if seat_state is not None:
        return seat_state(seat)
    pending = getattr(state, "pending_plans", None)
    return state.without_plans(seat) if pending is not None and pending() else state


def checked(state, seat: int, move):
    """``move`` if ``seat`` may make it in ``state``, else its first legal move: a search
    over a sampled position may find a move that only the sample allows."""
    legal = state.legal_moves(seat)
    return move if move in legal else legal[0]


_REWARDS: dict[tuple, list[float]] = {}


def rewards(outcome, seats: int = 0) -> list[float]:
    """Per-seat reward of a finished game: win 1, draw 0.5, loss 0 (a shared list: read
    it, never mutate it). A rollout cut short (``outcome`` None) is a draw for ``seats``."""
    if outcome is None:
        return [REWARD["draw"]] * seats
    found = _REWARDS.get(outcome.results)
    if found is None:
        found = _REWARDS[outcome.results] = [REWARD[r] for r in outcome.results]
    return found


class Budget:
    """A deadline in seconds from now (None: no deadline); ``over()`` is cheap to poll."""

    __slots__ = ("deadline",)

    def __init__(self, *limits: float | None):
        limits = [x for x in limits if x is not None]
        self.deadline = time.perf_counter() + min(limits) if limits else None

    def over(self) -> bool:
        return self.deadline is not None and time.perf_counter() >= self.deadline


def is_draw_offer(move) -> bool:
    return str(move) == "draw"


class Traits(NamedTuple):
    """What the bots learn about a game once, from its start position's public API."""

    draw: object  # the "draw" Move if players may offer draws, else None
    flat: bool  # the flat family: a position is its pieces, and moves only ever go away


_TRAITS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def traits(game) -> Traits:
    """Memoised: rollouts and searches ask on every call."""
    found = _TRAITS.get(game)
    if found is None:
        start = game.new_initial_state(0)
        seats = start.to_move()
        try:
            draw = game.parse_move("draw")
        except InvalidMoveText:
            draw = None
        if not seats or draw not in start.legal_moves(seats[0]):
            draw = None
        flat = start.view(None).get("family", "flat") == "flat"
        found = _TRAITS[game] = Traits(draw, flat)
    return found


CHECK_EVERY = 8  # rollout moves between two looks at the clock (a look costs ~1/100 move)


def rollout(state, rng, budget: "Budget | None" = None, moves: int | None = None) -> int:
    """Play random moves until the game ends (mutates ``state``); returns the move count.

    With a ``budget`` (its deadline looked at every few moves) or at most ``moves``
    moves, the rollout may stop before the end (``state.outcome`` is then None: score it
    with ``rewards(None, seats)``, a draw): a game may last tens of thousands of moves
    (captives that reincarnate), so a bot's time limit must hold inside one rollout.
    Only the flat family's playouts, at most one move per space, run unchecked.

    Uniform over each seat's placements and passes, but never offers a draw (a random
    offer is noise, not a model of play). On big flat boards each seat keeps the list of
    moves it had when the rollout began and draws from it, dropping a move that turns out
    illegal (a space since taken, a reserve run out): in the flat family a seat's moves
    only ever go away, so that is safe, and much cheaper than a fresh list every move.
    Small boards (where the engine caches legal-move lists) and other families (nested
    boards route by the last move, so a move can come back) just ask each time."""
    draw, flat = traits(state.game)
    deadline = None if budget is None else budget.deadline
    if not flat and (deadline is not None or moves is not None):
        return _bounded(state, rng, draw, deadline, moves)
    if draw is None and (not flat or getattr(state.game, "fast", False)):
        # No draw offers to leave out, and a random move is cheap (the flat family's
        # common case draws it from its kept list; other families build a list anyway):
        # the engine's own playout (random_move and the trusted play), where it has one.
        playout = getattr(state, "playout", None)
        if playout is not None:
            return playout(rng)
        n = 0
        while not state.is_terminal():
            seat = state.to_move()[0]
            state.apply(seat, rng.choice(state.legal_moves(seat)))
            n += 1
        return n
    pools: dict[int, list] = {}
    choice = rng.choice
    n = 0
    while not state.is_terminal():
        seats = state.to_move()
        seat = seats[0]
        pool = pools.get(seat)
        if pool is None:
            pool = pools[seat] = list(_placements(state, seat, draw))
        if len(seats) > 1:  # a draw offer awaits answers: answer at random
            state.apply(seat, choice(state.legal_moves(seat)))
        elif not flat or len(pool) <= SMALL:
            state.apply(seat, choice(_placements(state, seat, draw)))
        else:
            _apply_random(state, seat, pool, rng, draw)
        n += 1
    return n


def _bounded(state, rng, draw, deadline: float | None, most: int | None) -> int:
    """``rollout`` with a deadline and/or a move cap (the other families)."""
    clock = time.perf_counter
    choice = rng.choice
    play = getattr(state, "play", state.apply)  # the trusted apply: moves it listed
    n = 0
    while state.outcome is None:
        if most is not None and n >= most:
            break
        if deadline is not None and not n % CHECK_EVERY and n and clock() >= deadline:
            break
        seats = state.to_move()
        seat = seats[0]
        if draw is None:  # as the engine's playout: the same random moves
            play(seat, state.random_move(rng))
        elif len(seats) > 1:  # a draw offer awaits answers: answer at random
            play(seat, choice(state.legal_moves(seat)))
        else:
            play(seat, choice(_placements(state, seat, draw)))
        n += 1
    return n


def _placements(state, seat: int, draw) -> list:
    moves = state.legal_moves(seat)
    if draw is not None and draw in moves and len(moves) > 1:
        moves = [m for m in moves if m != draw]  # the engine's list is shared
    return moves


def _apply_random(state, seat: int, pool: list, rng, draw) -> None:
    randrange = rng.randrange
    while True:
        if not pool:
            pool += _placements(state, seat, draw)
            if not pool:
                raise RuntimeError(f"seat {seat} is to move but has no legal move")
        i = randrange(len(pool))
        try:
            state.apply(seat, pool[i])
            return
        except IllegalMove:
            pool[i] = pool[-1]
            pool.pop()


def random_move(state, seat: int, rng):
    """A uniformly random legal move (the fallback when a search has no time at all)."""
    return rng.choice(state.legal_moves(seat))


def team_of(game, seat: int) -> int:
    return game.teams[seat]


def after(state, seat: int, move):
    """A copy of ``state`` with ``move`` played (the searching bots' one way forward)."""
    child = state.clone()
    # The trusted apply where the family has one: bots pass moves the state listed.
    try:
        getattr(child, "play", child.apply)(seat, move)
    except IllegalMove:
        # A move of the seat's own position that a sampled world (sample_root, cloaked
        # games) forbids, a hidden piece in its way: an attempt; the turn ends unmoved.
        child = state.clone()
        child.skip(seat)
    return child


def winning_move(state, seat: int, moves: list, budget: "Budget | None" = None):
    """A move of ``moves`` that ends the game at once with a win for ``seat``, or None
    (also when ``budget`` runs out before every move was tried)."""
    for move in moves:
        if budget is not None and budget.over():
            return None
        child = after(state, seat, move)
        if child.is_terminal() and child.outcome.results[seat] == "win":
            return move
    return None
