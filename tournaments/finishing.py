"""Finishing a tournament: ``reconcile`` sends again the batches whose worker died (their
``touched`` went stale) and, once every game is written, the finaliser
(``maybe_finalise``), which rates what the chains left unrated and writes the results
(``finalise``). The watchdog task and the progress page's poll (``nudge``) call on it.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from leaderboards.models import Tournament, TournamentBatch
from play.models import Match
from tournaments import sending
from tournaments.plans import stale_seconds
from tournaments.reports import games_written, results

log = logging.getLogger(__name__)

MAX_SENDS = 5  # a batch sent this often without finishing fails the tournament
FINALISE_CHUNK = 500  # games rated per transaction by the finaliser


def maybe_finalise(tournament_id: int, send: bool = True) -> bool:
    """Once every game is written, claim the tournament for the finaliser (one claim:
    a conditional update) and, with ``send``, send it (else the caller finalises). True
    if this call claimed it."""
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
            transaction.on_commit(lambda: sending.finalise(tournament_id))
    return bool(claimed)


def finish_rated(tournament: Tournament, players: dict | None = None) -> bool:
    """In the transaction of the chain whose ratings reached the tournament's last game
    (``rate_written``: every game is written and rated, and the tournament row is locked
    by this transaction): mark it done with its results, as ``finalise`` would, without
    the finaliser's claim, message and transaction (15-25 ms at the end of a 300-game
    tournament that nothing else ran in). Its commit waits for the disk, as the
    finaliser's does. ``players``: the tournament's, by id (the chain has them). False if
    the tournament is not running, or if this failed (logged): the finaliser then does
    it."""
    try:
        with transaction.atomic():  # a savepoint: a failure keeps the games and ratings
            if connection.vendor == "postgresql":  # (the chain's SET LOCAL turned it off)
                with connection.cursor() as cursor:
                    cursor.execute("SET LOCAL synchronous_commit TO DEFAULT")
            now = timezone.now()
            # Every game is written, so every batch is done, whoever wrote its games.
            TournamentBatch.objects.filter(tournament_id=tournament.pk).exclude(
                state=TournamentBatch.State.DONE
            ).update(state=TournamentBatch.State.DONE, touched=now)
            running = Tournament.objects.filter(pk=tournament.pk, status=Tournament.Status.RUNNING)
            done = Tournament.Status.DONE
            return bool(
                running.update(
                    status=done, results=results(tournament, players), finished=now, touched=None
                )
            )
    except Exception:
        log.exception("tournament %s: left to the finaliser", tournament.pk)
        return False


def reconcile(tournament_id: int) -> list[int]:
    """Send again what was lost: batches whose worker died (``touched`` stale while
    running, or queued while the whole tournament made no progress), or the finaliser.
    Returns the batch ids sent."""
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
            sending.finalise(tournament_id)
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
        sending.run_batch(batch.pk)
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
    now = timezone.now()
    cutoff = now - timedelta(seconds=stale_seconds())
    mine = Tournament.objects.filter(pk=tournament.pk)
    if tournament.status == Tournament.Status.RUNNING:
        if TournamentBatch.objects.filter(tournament=tournament, touched__gte=cutoff).exists():
            return
        stale = Q(touched__isnull=True) | Q(touched__lt=cutoff)
        if mine.filter(stale, status=Tournament.Status.RUNNING).update(touched=now):
            sending.reconcile(tournament.pk)
    elif tournament.status == Tournament.Status.FINALISING:
        if mine.filter(status=tournament.status, touched__lt=cutoff).update(touched=now):
            sending.finalise(tournament.pk)


def finalise(tournament_id: int) -> bool:
    """Apply the ratings of the games the chains left unrated (``ratings_through`` says
    how far they got) in game order, a chunk per transaction (a second finaliser, or one
    sent again after a crash, continues from there), then write the results. True when
    the tournament is done."""
    from leaderboards.batch_ratings import rate_matches

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
