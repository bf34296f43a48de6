"""Tournaments: plans of games between bots, run by Celery workers a batch at a time.

The database holds the truth (DESIGN §6). Creating a tournament writes its sets and
batches and, on commit, sends one task per chain (``TOURNAMENT_CHAINS``, the worker
processes it may use); a chain claims the queued batches a group at a time until none is
left (``run_batches``). A batch plays the games of its numbers
that are not written yet and writes each one as a finished match with a unique
(tournament, game number): a batch sent twice cannot count a game twice. The transaction
that writes a group also rates the games written without a gap so far, in game order
(``chain_ratings``). ``reconcile`` sends again the batches whose worker died (their
``touched`` went stale) and, once every game is written, the finaliser (rates what is
left, writes the results).
A watchdog task (one live chain per tournament, restarted when a worker starts) calls
``reconcile`` while the tournament runs; the progress page nudges it too.
"""

from __future__ import annotations

import itertools
import logging
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from functools import lru_cache

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from accounts.models import Player
from accounts.roles import is_trainer_or_admin
from leaderboards import rating as math
from leaderboards.chain_ratings import rate_written
from leaderboards.chain_sql import Claimed, claim_next, commit_unflushed, touch
from leaderboards.models import Tournament, TournamentBatch, TournamentSet
from ownbots.versions import record_versions
from play.models import Match

log = logging.getLogger(__name__)

GAMES_PER_SET = 100
BATCH_SIZE = 10
MAX_SETS = 45  # combinations of at most 10 checked bots, two a game
MAX_SENDS = 5  # a batch sent this often without finishing fails the tournament
FINALISE_CHUNK = 500  # games rated per transaction by the finaliser
TOUCH_SECONDS = 1.0  # a running batch says it is alive at most this often
# A worker's chain (``run_batches``) claims queued batches a group at a time, as many as
# it plays in about GROUP_SECONDS (progress shows when a group is written), at most
# MAX_GROUP; after CHAIN_SECONDS it sends a message to carry on and lets other tasks in.
GROUP_SECONDS = 0.25
MAX_GROUP = 20
CHAIN_SECONDS = 5.0


class TournamentError(ValueError):
    """A tournament that cannot be made as asked (says why)."""


# --- making one ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    rule_set: object
    universe: object
    name: str
    sets: Sequence[tuple[Sequence[int], int]]  # (player ids in seat order, games)
    kind: str = Tournament.Kind.STANDARD


def seats_per_game(rule_set) -> int:
    from play.replay import game_of_rule_set

    game = game_of_rule_set(rule_set)
    return game.nseats - (game.chaos is not None)


def _players(ids: Sequence[int]) -> dict[int, Player]:
    found = {p.pk: p for p in Player.objects.filter(pk__in=list(ids))}
    missing = [pk for pk in ids if pk not in found]
    if missing:
        raise TournamentError(f"There is no player {missing[0]}.")
    for player in found.values():
        if player.kind not in (Player.Kind.BOT, Player.Kind.RANDOM, Player.Kind.OWN_BOT):
            raise TournamentError(
                f"{player.display_name} is not a bot: tournaments are played by bots and Random."
            )
    return found


def benchmark_plan(rule_set, universe, player_ids: Sequence[int]) -> Plan:
    """ "Benchmark Selected Bots": ``GAMES_PER_SET`` games for each combination of the
    checked players. It is a Benchmark tournament when ``is_benchmark`` says so. Raises
    ``TournamentError`` saying what is wrong; nothing is written."""
    k = seats_per_game(rule_set)
    if len(player_ids) < k:
        raise TournamentError(f"Check at least {k} bots (or Random): {rule_set.name} seats {k}.")
    _players(player_ids)
    combos = list(itertools.combinations(player_ids, k))
    if len(combos) > MAX_SETS:
        raise TournamentError(f"That makes {len(combos)} sets of games; check fewer bots.")
    kind = (
        Tournament.Kind.BENCHMARK
        if is_benchmark(rule_set, universe, player_ids)
        else Tournament.Kind.STANDARD
    )
    name = f"{rule_set.name}-{timezone.now():%m-%d-%H%M}"
    sets = [(list(c), GAMES_PER_SET) for c in combos]
    return Plan(rule_set, universe, name, sets, kind)


def create_benchmark(rule_set, universe, player_ids: Sequence[int], by) -> Tournament:
    return create_from_plan(benchmark_plan(rule_set, universe, player_ids), by)


def is_benchmark(rule_set, universe, player_ids: Sequence[int]) -> bool:
    """The seed's condition: the players include the board's top player, the player it
    is most favoured by, Random, and at least one other player."""
    from accounts.services import random_player
    from leaderboards.services import board_of
    from leaderboards.stats import favoured_by

    top = board_of(rule_set, universe).order_by("-score", "id").first()
    if top is None:
        return False
    required = {top.player_id, random_player().pk}
    favouring = favoured_by(top.player_id, rule_set, universe)
    if favouring is None:
        return False
    required.add(favouring)
    chosen = set(player_ids)
    return required <= chosen and len(chosen - required) >= 1


def create_from_plan(plan: Plan, by) -> Tournament:
    if not is_trainer_or_admin(by):
        raise TournamentError("Only Trainers and Admins run tournaments.")
    k = seats_per_game(plan.rule_set)
    sets = [(list(players), int(games)) for players, games in plan.sets if int(games) > 0]
    if not sets:
        raise TournamentError("A tournament needs at least one set of games.")
    for players, _ in sets:
        if len(players) != k:
            raise TournamentError(f"Every set of {plan.rule_set.name} needs {k} players.")
    found = _players([pk for players, _ in sets for pk in players])
    own_bots = all(
        p.kind in (Player.Kind.BOT, Player.Kind.OWN_BOT) and p.owner_id == by.pk
        for p in found.values()
    )
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=plan.name[:100],
            rule_set=plan.rule_set,
            universe=plan.universe,
            created_by=by,
            kind=plan.kind,
            rated=not own_bots,  # a Trainer's own bots among themselves: not rated
            seed=random.SystemRandom().randrange(2**31),
            total_games=sum(g for _, g in sets),
            batch_size=BATCH_SIZE,
        )
        TournamentSet.objects.bulk_create(
            TournamentSet(tournament=tournament, order=i, players=p, games=g)
            for i, (p, g) in enumerate(sets)
        )
        TournamentBatch.objects.bulk_create(_batches(tournament, [g for _, g in sets]))
        transaction.on_commit(lambda: start(tournament.pk))
    return tournament


def _batches(tournament: Tournament, sizes: list[int]) -> list[TournamentBatch]:
    order = math.interleaved_schedule(sizes, tournament.batch_size)
    now = timezone.now()
    batches, first = [], 1
    for number, group in enumerate(_runs(order, tournament.batch_size), 1):
        batches.append(
            TournamentBatch(
                tournament=tournament,
                number=number,
                first_game=first,
                last_game=first + group - 1,
                touched=now,
            )
        )
        first += group
    return batches


def _runs(order: list[tuple[int, int]], size: int) -> list[int]:
    """Lengths of the batches: runs of one set, cut at ``size`` games."""
    runs: list[int] = []
    previous = None
    for set_index, _ in order:
        if runs and set_index == previous and runs[-1] < size:
            runs[-1] += 1
        else:
            runs.append(1)
        previous = set_index
    return runs


def start(tournament_id: int) -> None:
    """Send the first batches, one message per chain (``run_batches``: each chain takes
    the next queued batches itself), and start the watchdog (after the tournament's rows
    commit)."""
    from leaderboards import tasks

    try:
        batches = TournamentBatch.objects.filter(tournament_id=tournament_id).order_by("number")
        for batch_id in batches.values_list("id", flat=True)[: settings.TOURNAMENT_CHAINS]:
            tasks.run_batch.delay(batch_id)
        start_watchdog(tournament_id)
    except Exception:  # the broker is down: the rows are saved, the reconciler resends
        log.exception("could not send tournament %s to the workers", tournament_id)


def start_watchdog(tournament_id: int) -> None:
    from leaderboards import tasks

    Tournament.objects.filter(pk=tournament_id).update(watchdog=F("watchdog") + 1)
    number = Tournament.objects.values_list("watchdog", flat=True).get(pk=tournament_id)
    tasks.watchdog.apply_async((tournament_id, number), countdown=watch_seconds())


def stale_seconds() -> float:
    return settings.TOURNAMENT_STALE_SECONDS


def watch_seconds() -> float:
    return max(1.0, stale_seconds() / 2)


# --- playing a batch ---------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _schedule(sizes: tuple[int, ...], chunk: int) -> tuple[tuple[int, int], ...]:
    return tuple(math.interleaved_schedule(sizes, chunk))


def schedule(t: Tournament) -> tuple[tuple[int, int], ...]:
    """Game number n (1-based) is ``schedule(t)[n - 1]`` = (set order, game index in the
    set). Computed from the sets (cached by their sizes and the batch size)."""
    sizes = tuple(t.sets.order_by("order").values_list("games", flat=True))
    return _schedule(sizes, t.batch_size)


# What a batch reads of its tournament (its games are written with its creator and
# universe: fetched with the batch, not by two more queries a batch).
_WITH_TOURNAMENT = ("tournament__rule_set", "tournament__created_by", "tournament__universe")


def run_batch(batch_id: int) -> int:
    """Play the batch's games that are not written yet; how many this call wrote. A batch
    that is running already is left to its runner (if that died, ``reconcile`` queues it
    again). Sends the finaliser when it wrote the tournament's last games."""
    batch = TournamentBatch.objects.select_related(*_WITH_TOURNAMENT).filter(pk=batch_id).first()
    if batch is None:
        return 0  # its tournament was deleted
    tournament = batch.tournament
    if tournament.status != Tournament.Status.RUNNING or batch.state == batch.State.DONE:
        return 0
    if not _claim(batch):
        return 0
    count = _run_claimed(tournament, [_claimed(batch)])
    maybe_finalise(tournament.pk)
    return count


def run_batches(batch_id: int, seconds: float = CHAIN_SECONDS) -> int:
    """The worker's task: a chain. It runs its batch (if still queued), then claims the
    tournament's next queued batches a group at a time (``claim_next``: as many as it
    plays in about ``GROUP_SECONDS``) until none is left; after ``seconds`` it sends one
    message to carry on and returns, so that a long tournament lets other tasks take
    turns. ``start`` sends one message per chain, not one per batch: a batch is 10 games
    of about a millisecond each, and a message per batch cost more than its games. The
    chain that writes the last games rates them here. How many games this call wrote."""
    started = time.monotonic()
    batch = TournamentBatch.objects.select_related(*_WITH_TOURNAMENT).filter(pk=batch_id).first()
    if batch is None:
        return 0  # its tournament was deleted
    tournament = batch.tournament
    count, size = 0, 1
    known: dict = {}  # the tournament's sets, players and schedule, read once here
    group = []
    if (
        tournament.status == Tournament.Status.RUNNING
        and batch.state == TournamentBatch.State.QUEUED
        and _claim(batch)
    ):
        group = [_claimed(batch)]
    while True:
        if group:
            clock = time.monotonic()
            count += _run_claimed(tournament, group, known)
            size = _group_size(size, len(group), time.monotonic() - clock)
            if known.get("own_bots"):  # games that wait on clients: written a batch at a time
                size = 1
        if time.monotonic() - started >= seconds:
            _carry_on(tournament.pk)
            break
        group = claim_next(tournament.pk, size)
        if not group:
            break
    if maybe_finalise(tournament.pk, send=False) or _finalising(tournament.pk):
        # Every game is written: rate them here rather than send a message for it (if
        # this worker dies now, the reconciler sends the finaliser).
        finalise(tournament.pk)
    return count


def _group_size(size: int, claimed: int, took: float) -> int:
    """The next group's size: what plays in about ``GROUP_SECONDS`` at the last group's
    pace, at most twice the last size (a few slow games, an own bot's waits, shrink it
    at once) and at most ``MAX_GROUP``."""
    fits = int(GROUP_SECONDS * claimed / max(took, 1e-6))
    return max(1, min(MAX_GROUP, 2 * size, fits))


def _finalising(tournament_id: int) -> bool:
    return Tournament.objects.filter(pk=tournament_id, status=Tournament.Status.FINALISING).exists()


def _carry_on(tournament_id: int) -> None:
    """A chain out of time: one message for the tournament's next queued batch, if any."""
    from leaderboards import tasks

    queued = TournamentBatch.objects.filter(
        tournament_id=tournament_id,
        state=TournamentBatch.State.QUEUED,
        tournament__status=Tournament.Status.RUNNING,
    )
    next_id = queued.order_by("number").values_list("id", flat=True).first()
    if next_id is not None:
        tasks.run_batch.delay(next_id)


def _claimed(batch: TournamentBatch) -> Claimed:
    return Claimed(batch.pk, batch.first_game, batch.last_game, batch.sends)


def _claim(batch: TournamentBatch) -> bool:
    """Take a queued batch (one taker: a conditional update). A running one belongs to
    its runner; if that died, ``reconcile`` queues it again and sends it."""
    now = timezone.now()
    taken = TournamentBatch.objects.filter(pk=batch.pk, state=TournamentBatch.State.QUEUED).update(
        state=TournamentBatch.State.RUNNING, touched=now
    )
    batch.state, batch.touched = TournamentBatch.State.RUNNING, now
    return bool(taken)


def _run_claimed(tournament: Tournament, batches: list[Claimed], known: dict | None = None) -> int:
    """Play and write claimed batches of ``tournament``, their games in one transaction
    with their "done". ``known`` (from ``run_batches``, which runs several groups of one
    tournament) keeps its sets, players and schedule between groups: they never change
    once the tournament is made. How many games this call wrote."""
    ids = [b.id for b in batches]
    numbers = [n for b in batches for n in range(b.first_game, b.last_game + 1)]
    written: set[int] = set()
    if any(b.sends > 1 for b in batches):  # sent again: some games may be written
        written = set(
            Match.objects.filter(tournament=tournament, game_number__in=numbers).values_list(
                "game_number", flat=True
            )
        )
    if known is None or known.get("tournament") != tournament.pk:
        sets = {s.order: s for s in tournament.sets.all()}
        players = {
            p.pk: p
            for p in Player.objects.filter(pk__in={pk for s in sets.values() for pk in s.players})
        }
        order = _schedule(tuple(sets[k].games for k in sorted(sets)), tournament.batch_size)
        if known is not None:
            own_bots = any(p.kind == Player.Kind.OWN_BOT for p in players.values())
            known.update(
                tournament=tournament.pk, sets=sets, players=players, order=order, own_bots=own_bots
            )
    else:
        sets, players, order = known["sets"], known["players"], known["order"]
    played = []  # (seated players, PlayedGame, number): written together at the end
    touched = time.monotonic()

    def alive() -> None:  # an own bot's game waits on its client: the batches are alive
        nonlocal touched
        if time.monotonic() - touched >= TOUCH_SECONDS:
            touch(ids, TournamentBatch.State.RUNNING)
            touched = time.monotonic()

    for number in numbers:
        if number in written:
            continue
        set_order, index = order[number - 1]
        seated = [players[pk] for pk in math.seat_rotation(sets[set_order].players, index)]
        played.append((seated, _play(tournament, number, seated, alive), number))
        alive()  # (see reconcile)
    # The games and "done" in one transaction: a worker killed between the two left a
    # written batch "running" in a finished tournament. Rows built before it: on SQLite
    # a write transaction holds the one write lock, and the other chain waits.
    rows = _rows(tournament, played)
    with transaction.atomic():
        commit_unflushed()
        written = _record(tournament, played, rows)
        record_versions(tournament, played)
        touch(ids, TournamentBatch.State.DONE)
        mine = {n: (pk, s, g) for s, g, n in played if (pk := written.get(n))}
        rate_written(tournament, mine, players)
    return len(written)


def game_seed(tournament: Tournament, number: int) -> int:
    return (tournament.seed * 1_000_003 + number * 7_919) % 2**31


def _play(tournament: Tournament, number: int, seated: list[Player], heartbeat=None):
    """Play game ``number`` (a PlayedGame, not written yet)."""
    from play.recording import PlayedGame
    from play.replay import game_of_rule_set

    if any(p.kind == Player.Kind.OWN_BOT for p in seated):  # asked over their sockets
        from ownbots.remote import play_tournament_game

        return play_tournament_game(tournament, number, seated, heartbeat)

    game = game_of_rule_set(tournament.rule_set)
    seed = game_seed(tournament, number)
    started = timezone.now()
    state, moves = play_timed(game, [agent_for(p, seed + i) for i, p in enumerate(seated)], seed)
    return PlayedGame(
        seed=seed,
        moves=moves,  # (seat, notation, think ms) tuples, as record_games takes them
        outcome=state.outcome,
        started=started,
        finished=timezone.now(),
    )


def _common(tournament: Tournament) -> dict:
    return {"by": tournament.created_by, "rated": tournament.rated,
            "universe": tournament.universe, "tournament": tournament}  # fmt: skip


def _rows(tournament: Tournament, played: list):
    from play.recording import prepare_games
    from play.replay import game_of_rule_set

    chaos = game_of_rule_set(tournament.rule_set).chaos
    return prepare_games(tournament.rule_set, chaos, played, **_common(tournament))


def _record(tournament: Tournament, played: list, rows) -> dict[int, int]:
    """Write a batch's games (``rows``: ``_rows``): one insert per table; if one of them
    was written meanwhile (a batch sent twice), one by one, skipping those. The match ids
    of the games written, by game number."""
    from play.recording import PlayedMove, record_game, write_games
    from play.replay import game_of_rule_set

    matches = write_games(rows)
    if matches is not None:
        return {number: pk for (_, _, number), pk in zip(played, matches, strict=True)}
    chaos, written = game_of_rule_set(tournament.rule_set).chaos, {}
    for seated, game, number in played:
        game = replace(game, moves=[PlayedMove(*m) for m in game.moves])
        match = record_game(
            tournament.rule_set, seated, chaos, game, game_number=number, **_common(tournament)
        )
        if match is not None:
            written[number] = match.pk
    return written


def agent_for(player: Player, seed: int):
    from play.bots import RandomAgent, make_agent

    if player.kind == Player.Kind.RANDOM:
        return RandomAgent(seed=seed)
    return make_agent(player.bot_spec, seed=seed, time_limit=settings.TOURNAMENT_BOT_SECONDS)


def play_timed(game, agents: list, seed: int):
    """Play one game to its end (Chaos, if any, at random): the final state and the moves
    as (seat, notation, think ms). The position is seeded from ``seed``."""
    from play.bots import RandomAgent
    from play.bots.common import checked, for_seat

    rng = random.Random(seed)
    state = game.new_initial_state(seed=rng.randrange(2**32))
    seats = list(agents)
    if game.chaos is not None:
        seats.insert(game.chaos, RandomAgent(seed=rng.randrange(2**32)))
    moves = []
    while not state.is_terminal():
        for seat in state.to_move():
            if state.is_terminal() or seat not in state.to_move():
                break
            clock = time.perf_counter()
            move = seats[seat].choose(for_seat(state, seat), seat)  # cloaked: the seat's view
            think = int((time.perf_counter() - clock) * 1000)
            move = checked(state, seat, move)
            state.apply(seat, move)
            moves.append((seat, str(move), think))
    return state, moves


# --- reconciling and finalising -------------------------------------------------------------


def games_written(tournament_id: int) -> int:
    return Match.objects.filter(tournament_id=tournament_id).count()


def maybe_finalise(tournament_id: int, send: bool = True) -> bool:
    """Once every game is written, claim the tournament for the finaliser (one claim:
    a conditional update) and, with ``send``, send it (else the caller finalises). True
    if this call claimed it."""
    from leaderboards import tasks

    total = Tournament.objects.filter(pk=tournament_id).values_list("total_games", flat=True)
    if not total or games_written(tournament_id) < total[0]:
        return False
    claimed = Tournament.objects.filter(pk=tournament_id, status=Tournament.Status.RUNNING).update(
        status=Tournament.Status.FINALISING, touched=timezone.now()
    )
    if claimed:
        # Every game is written, so every batch is done, whoever wrote its games.
        TournamentBatch.objects.filter(tournament_id=tournament_id).exclude(
            state=TournamentBatch.State.DONE
        ).update(state=TournamentBatch.State.DONE, touched=timezone.now())
        if send:
            transaction.on_commit(lambda: tasks.finalise.delay(tournament_id))
    return bool(claimed)


def reconcile(tournament_id: int) -> list[int]:
    """Send again what was lost: batches whose worker died (``touched`` stale while
    running, or queued while the whole tournament made no progress), or the finaliser.
    Returns the batch ids sent."""
    from leaderboards import tasks

    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return []
    now = timezone.now()
    cutoff = now - timedelta(seconds=stale_seconds())
    if tournament.status == Tournament.Status.FINALISING:
        again = Tournament.objects.filter(
            pk=tournament_id, status=Tournament.Status.FINALISING, touched__lt=cutoff
        ).update(touched=now)
        if again:
            tasks.finalise.delay(tournament_id)
        return []
    if tournament.status != Tournament.Status.RUNNING:
        return []
    if maybe_finalise(tournament_id):
        return []
    batches = TournamentBatch.objects.filter(tournament=tournament).exclude(
        state=TournamentBatch.State.DONE
    )
    stalled = not TournamentBatch.objects.filter(
        tournament=tournament, touched__gte=cutoff
    ).exists()
    lost_when = Q(state=TournamentBatch.State.RUNNING, touched__lt=cutoff)
    if stalled:  # queued batches wait their turn while others run; lost only if all stand
        lost_when |= Q(state=TournamentBatch.State.QUEUED, touched__lt=cutoff)
    lost = batches.filter(lost_when)
    # Done batches whose games are missing (a write that never committed) go again too.
    sent = []
    for batch in list(lost) + _incomplete_done(tournament):
        if batch.sends >= MAX_SENDS:
            _fail(tournament, f"batch {batch.number} failed {batch.sends} times")
            return sent
        TournamentBatch.objects.filter(pk=batch.pk).update(
            state=TournamentBatch.State.QUEUED, touched=now, sends=F("sends") + 1
        )
        tasks.run_batch.delay(batch.pk)
        sent.append(batch.pk)
    return sent


def _incomplete_done(tournament: Tournament) -> list[TournamentBatch]:
    done = list(TournamentBatch.objects.filter(tournament=tournament, state="done"))
    if not done:
        return []
    numbers = set(Match.objects.filter(tournament=tournament).values_list("game_number", flat=True))
    return [b for b in done if any(n not in numbers for n in range(b.first_game, b.last_game + 1))]


def _fail(tournament: Tournament, why: str) -> None:
    log.error("tournament %s failed: %s", tournament.pk, why)
    Tournament.objects.filter(pk=tournament.pk).update(
        status=Tournament.Status.FAILED, finished=timezone.now(), results={"error": why}
    )


def nudge(tournament: Tournament) -> None:
    """The progress page's poll: if the tournament looks stuck, ask a worker to reconcile
    it (or to finalise it again). At most once a stale period, however many pages poll:
    the request is claimed by a conditional update of ``touched``."""
    from leaderboards import tasks

    now = timezone.now()
    cutoff = now - timedelta(seconds=stale_seconds())
    mine = Tournament.objects.filter(pk=tournament.pk)
    if tournament.status == Tournament.Status.RUNNING:
        if TournamentBatch.objects.filter(tournament=tournament, touched__gte=cutoff).exists():
            return
        stale = Q(touched__isnull=True) | Q(touched__lt=cutoff)
        if mine.filter(stale, status=Tournament.Status.RUNNING).update(touched=now):
            tasks.reconcile.delay(tournament.pk)
    elif tournament.status == Tournament.Status.FINALISING:
        if mine.filter(status=tournament.status, touched__lt=cutoff).update(touched=now):
            tasks.finalise.delay(tournament.pk)


def finalise(tournament_id: int) -> bool:
    """Apply the ratings of the games the chains left unrated (``ratings_through`` says
    how far they got) in game order, a chunk per transaction (a second finaliser, or one
    sent again after a crash, continues from there), then write the results. True when
    the tournament is done."""
    from leaderboards.batch_ratings import rate_matches
    from leaderboards.reports import results

    while True:
        with transaction.atomic():
            t = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
            if t is None:
                return False
            if t.status != Tournament.Status.FINALISING:
                return t.status == Tournament.Status.DONE
            games = list(
                Match.objects.filter(tournament=t, game_number__gt=t.ratings_through)
                .order_by("game_number")
                .values_list("pk", "game_number")[:FINALISE_CHUNK]
            )
            if not games:
                t.results = results(t)
                t.status, t.finished, t.touched = Tournament.Status.DONE, timezone.now(), None
                t.save(update_fields=["results", "status", "finished", "touched"])
                return True
            if t.rated:
                rate_matches([match_id for match_id, _ in games])
            t.ratings_through, t.touched = games[-1][1], timezone.now()
            t.save(update_fields=["ratings_through", "touched"])
