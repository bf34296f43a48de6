"""Running a tournament's batches: chains of Celery tasks (``run_batches``) that claim the
queued batches a group at a time, play their games and write them with their "done" in
one transaction that also rates the games written without a gap so far
(``chain_ratings``); the transaction that rates the last game marks the tournament
done (``finishing.finish_rated``). Running batches say they are alive (``touch``) so that the
reconciler (``tournaments.finishing``) can tell a dead worker's batch.
"""

from __future__ import annotations

import time
from typing import NamedTuple

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import Player
from aiplayers.predictions import record_tournament as record_predictions
from leaderboards import rating as math
from leaderboards.chain_ratings import rate_written
from leaderboards.models import Tournament, TournamentBatch
from ownbots.versions import record_versions
from play.models import Match
from tournaments import sending
from tournaments.chain_sql import Claimed, claim_next, commit_unflushed, touch
from tournaments.finishing import finalise, finish_rated, maybe_finalise
from tournaments.games import play_number, prepare_rows, record_rows
from tournaments.hosted_games import play_hosted
from tournaments.ownbot_games import play_tournament_games
from tournaments.plans import games_of, playing, schedule_of

TOUCH_SECONDS = 1.0  # a running batch says it is alive at most this often
# A worker's chain (``run_batches``) claims queued batches a group at a time, as many as
# it plays in about GROUP_SECONDS (progress shows when a group is written), at most
# MAX_GROUP; after CHAIN_SECONDS it sends a message to carry on and lets other tasks in.
GROUP_SECONDS = 0.25
MAX_GROUP = 20
CHAIN_SECONDS = 5.0


class Ran(NamedTuple):
    """What a group's run did: how many games it wrote, and whether it finished the
    tournament (its ratings reached the last game: ``finish_rated``)."""

    written: int
    finished: bool = False


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
    ran = _run_claimed(tournament, [_claimed(batch)])
    if not ran.finished:
        maybe_finalise(tournament.pk)
    return ran.written


def run_batches(batch_id: int, seconds: float = CHAIN_SECONDS) -> int:
    """The worker's task: a chain. It runs its batch (if still queued), then claims the
    tournament's next queued batches a group at a time (``claim_next``: as many as it
    plays in about ``GROUP_SECONDS``) until none is left; after ``seconds`` it sends one
    message to carry on and returns, so that a long tournament lets other tasks take
    turns. ``start`` sends one message per chain, not one per batch: a batch is 10 games
    of about a millisecond each, and a message per batch cost more than its games. The
    chain that rates the last game marks the tournament done in that transaction; if
    the last games could not be rated as they were written, the chain that writes the
    last of them finalises here. How many games this call wrote."""
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
        if _read_known(tournament, known)["own_bots"]:  # its games wait on clients: all of
            # a group's from the first (a first batch alone doubled a 100-game tournament)
            group += claim_next(tournament.pk, _own_bot_group(tournament) - 1)
    while True:
        if group:
            clock = time.monotonic()
            ran = _run_claimed(tournament, group, known)
            count += ran.written
            if ran.finished:  # its last game written and rated: done, nothing left
                return count
            size = _group_size(size, len(group), time.monotonic() - clock)
            if known.get("own_bots"):  # games that wait on clients: in flight together
                size = _own_bot_group(tournament)
        if time.monotonic() - started >= seconds:
            _carry_on(tournament.pk)
            break
        # Near the end a chain's share of what is left, not a whole group, so that the
        # chains end together: a last group of 80 games on one chain while the other stood
        # idle was a fifth of a 300-game tournament's time (benchmarks/tournament_shapes.py;
        # a model of uneven batches favoured a half over a quarter: fewer groups).
        share = 1 if known.get("own_bots") else settings.TOURNAMENT_CHAINS
        group = claim_next(tournament.pk, size, share)
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
    queued = TournamentBatch.objects.filter(
        tournament_id=tournament_id,
        state=TournamentBatch.State.QUEUED,
        tournament__status=Tournament.Status.RUNNING,
    )
    next_id = queued.order_by("number").values_list("id", flat=True).first()
    if next_id is not None:
        sending.run_batch(next_id)


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


def _read_known(tournament: Tournament, known: dict | None = None) -> dict:
    """What every group of a tournament reads of it, into ``known`` (a new dict if None):
    its sets, players and schedule never change once it is made."""
    known = {} if known is None else known
    sets = {s.order: s for s in tournament.sets.all()}
    players = {
        p.pk: p
        for p in Player.objects.filter(pk__in={pk for s in sets.values() for pk in s.players})
    }
    known.update(
        tournament=tournament.pk,
        sets=sets,
        players=players,
        # Each set plays its own game: the game layer reads a copy per game (``playing``).
        views={k: playing(tournament, game) for k, game in games_of(tournament).items()},
        order=schedule_of(tuple(sets[k].games for k in sorted(sets)), tournament.batch_size),
        own_bots=any(p.kind == Player.Kind.OWN_BOT for p in players.values()),
    )
    return known


def _own_bot_group(tournament: Tournament) -> int:
    """Batches a group of a tournament with own bots: about ``OWNBOT_GAMES_AT_ONCE`` games,
    in flight together (they wait on clients)."""
    return max(1, settings.OWNBOT_GAMES_AT_ONCE // max(1, tournament.batch_size))


def _run_claimed(tournament: Tournament, batches: list[Claimed], known: dict | None = None) -> Ran:
    """Play and write claimed batches of ``tournament``, their games in one transaction
    with their "done"; if that transaction rates the tournament's last game, it also
    marks the tournament done (``finish_rated``). ``known`` (from ``run_batches``, which
    runs several groups of one tournament) keeps its sets, players and schedule between
    groups: they never change once the tournament is made."""
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
        known = _read_known(tournament, known)
    sets, players, order, views = known["sets"], known["players"], known["order"], known["views"]
    played = []  # (seated players, PlayedGame, number): written together at the end
    by_game: dict[int, tuple] = {}  # rule set id: (its view, its games of ``played``)
    touched = time.monotonic()

    def alive() -> None:  # an own bot's game waits on its client: the batches are alive
        nonlocal touched
        if time.monotonic() - touched >= TOUCH_SECONDS:
            touch(ids, TournamentBatch.State.RUNNING)
            touched = time.monotonic()

    remote = []  # games with an own bot: played all at once after the others
    for number in numbers:
        if number in written:
            continue
        set_order, index = order[number - 1]
        seated = [players[pk] for pk in math.seat_rotation(sets[set_order].players, index)]
        view = views[set_order]
        if any(p.kind == Player.Kind.OWN_BOT for p in seated):
            remote.append((view, number, seated))
            continue
        played.append((seated, play_number(view, number, seated, alive), number))
        alive()  # (see reconcile)
    if remote:  # they wait on clients, and a client answers by turn id: in flight together
        groups: dict[int, tuple] = {}  # a game's own-bot games (a plan may mix games)
        for view, number, seated in remote:
            groups.setdefault(id(view), (view, []))[1].append((number, seated))
        for view, games in groups.values():
            # played by the bot's socket where it can (no move crosses a process), else
            # through the mailbox
            results = play_hosted(view, games, alive) or play_tournament_games(view, games, alive)
            played += [(seated, g, n) for (n, seated), g in zip(games, results, strict=True)]
        played.sort(key=lambda p: p[2])  # written in game order, as one by one
        alive()
    for entry in played:
        view = views[order[entry[2] - 1][0]]
        by_game.setdefault(view.rule_set_id, (view, []))[1].append(entry)
    # The games and "done" in one transaction: a worker killed between the two left a
    # written batch "running" in a finished tournament. Rows built before it: on SQLite
    # a write transaction holds the one write lock, and the other chain waits.
    rows = [(view, games, prepare_rows(view, games)) for view, games in by_game.values()]
    with transaction.atomic():
        commit_unflushed()
        written = {}
        for view, games, game_rows in rows:  # one write per game played
            written.update(record_rows(view, games, game_rows))
            record_versions(view, games, written)
        record_predictions(played, written)
        touch(ids, TournamentBatch.State.DONE)
        mine = {n: (pk, s, g) for s, g, n in played if (pk := written.get(n))}
        finished = False
        if all(view is tournament for view in views.values()):
            through = rate_written(tournament, mine, players)
            finished = through == tournament.total_games and finish_rated(tournament, players)
        # else a plan mixing games: the finaliser rates them, each match in its own game's
        # leaderboard (``batch_ratings`` reads each match's game)
    return Ran(len(written), finished)
