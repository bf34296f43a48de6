"""The learning task's work: complete an AI's pending curriculum, a chunk of matches at
a time. Each chunk's model, cursor and moves studied are written in one transaction,
checked against what the chunk started from: a worker killed mid-chunk loses that chunk
(studied again by the next worker), and two workers never study a match twice.

Labels: each move gets its mover's result (win, lose, draw) and, from the mover's rating
history, "strategic"/"unstrategic" when 20 rated matches later exist (else None: see the
README).
"""

from __future__ import annotations

import logging
from collections import defaultdict

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from leaderboards.models import RatingHistory, Tournament
from play.models import Match, Move, Seat
from play.move_log import rows_of_many

from . import learning
from .curriculum import send
from .models import AIPlayer, CurriculumItem

log = logging.getLogger(__name__)

LATER = 20  # matches after which "strategic" is judged (LATER.md, release 1.3's test)
MAX_MATCHES = 100_000  # one curriculum item's matches (a history is capped here)
WAIT_SECONDS = 5  # how soon a study waiting for a tournament looks again
RESULT = {"win": "win", "loss": "lose", "lose": "lose", "draw": "draw"}


def run_study(ai_id: int, chunk: int | None = None) -> str:
    """Study what is pending: "done", "cancelled", "waiting" (a tournament is still
    running: sent again later), or "missing". Safe to run twice, even at once."""
    chunk = chunk or settings.AI_STUDY_CHUNK
    mine = AIPlayer.objects.filter(pk=ai_id, kind=AIPlayer.Kind.LEARNING)
    ai = mine.first()
    if ai is None:
        return "missing"
    if ai.study == AIPlayer.Study.CANCELLED:
        return "cancelled"
    _mark(mine, AIPlayer.Study.STUDYING, "")
    studier = _Studier(ai)
    while True:
        item = ai.curriculum.filter(studied_at__isnull=True).select_related("tournament").first()
        if item is None:
            note = ("Passed over " + "; ".join(studier.skipped))[:200] if studier.skipped else ""
            mine.exclude(study=AIPlayer.Study.CANCELLED).update(
                study=AIPlayer.Study.IDLE, study_note=note, study_touched=timezone.now()
            )
            return "done"
        tournament = item.tournament
        if tournament is not None and tournament.status != Tournament.Status.DONE:
            if tournament.status != Tournament.Status.FAILED:  # its games are still coming
                # (tournaments import aiplayers' curriculum, never this module)
                from tournaments.finishing import nudge

                nudge(tournament)  # a stalled tournament is sent on again (DESIGN §6)
                _mark(mine, AIPlayer.Study.WAITING, f"Waiting for {tournament.name} to finish.")
                send(ai_id, countdown=WAIT_SECONDS)
                return "waiting"
        if item.match_ids is None:
            _fix_matches(item)
        outcome = studier.study_item(item, chunk, mine)
        if outcome != "done":
            return outcome


def _mark(mine, state: str, note: str) -> None:
    mine.update(study=state, study_note=note[:200], study_touched=timezone.now())


def _fix_matches(item: CurriculumItem) -> None:
    """Fix the matches the item covers, in play order: a tournament's most recent
    ``games`` of each matchup (the same players, whatever their seats), a history's most
    recent ``games`` matches; all of them without a limit."""
    finished = Match.objects.filter(status=Match.Status.FINISHED)
    limit = min(item.games or MAX_MATCHES, MAX_MATCHES)
    if item.tournament_id:
        ids = _per_matchup(finished.filter(tournament_id=item.tournament_id), limit)
    else:
        chosen = finished.filter(seats__player_id=item.history_of_id).order_by("-id").distinct()
        ids = sorted(chosen.values_list("pk", flat=True)[:limit])
    CurriculumItem.objects.filter(pk=item.pk, match_ids__isnull=True).update(match_ids=ids)
    item.refresh_from_db()


def _per_matchup(matches, limit: int) -> list[int]:
    players: dict[int, list] = defaultdict(list)
    for match_id, player_id in Seat.objects.filter(match__in=matches).values_list(
        "match_id", "player_id"
    ):
        players[match_id].append(player_id or 0)
    taken: dict[tuple, int] = defaultdict(int)
    ids = []
    for match_id in matches.order_by("-game_number", "-id").values_list("pk", flat=True):
        matchup = tuple(sorted(players[match_id]))
        if taken[matchup] < limit and len(ids) < MAX_MATCHES:
            taken[matchup] += 1
            ids.append(match_id)
    return ids[::-1]


class _Studier:
    """One run's learner (reloaded whenever the database moved on without it)."""

    def __init__(self, ai: AIPlayer):
        self.ai = ai
        self.learner = None
        self.version = None  # the moves_studied the learner in memory has
        self.histories: dict[tuple, tuple[list, float]] = {}
        self.where: dict[tuple, dict[int, int]] = {}
        self.skipped: list[str] = []  # games passed over (another layout), for the note

    def _learner(self, moves_studied: int, mine):
        """The learner at ``moves_studied`` (read again only when the database moved on;
        if it moved once more meanwhile, the chunk's commit sees it and starts over)."""
        if self.learner is None or self.version != moves_studied:
            ai = self.ai
            model = mine.values_list("model", flat=True).first()
            self.learner = (
                learning.load_learner(model)
                if model
                else learning.new_learner(ai.algorithm, ai.params, ai.personality, seed=ai.pk)
            )
            self.version = moves_studied
        return self.learner

    def study_item(self, item: CurriculumItem, chunk: int, mine) -> str:
        while True:
            item.refresh_from_db()
            ai = mine.values("study", "moves_studied").first()
            if ai is None:
                return "missing"
            if ai["study"] == AIPlayer.Study.CANCELLED:
                return "cancelled"
            before = ai["moves_studied"]
            ids, start = item.match_ids or [], item.cursor
            if start >= len(ids):
                CurriculumItem.objects.filter(pk=item.pk, studied_at__isnull=True).update(
                    studied_at=timezone.now()
                )
                return "done"
            batch = ids[start : start + chunk]
            learner = self._learner(before, mine)
            per_game = self._fit(learner, batch)
            if not self._commit(item, start, len(batch), before, learner, per_game):
                self.learner = None  # another worker got there first: start from its model
                continue
            self.version = before + sum(per_game.values())

    def _commit(self, item, start, count, before, learner, per_game) -> bool:
        studied = sum(per_game.values())
        with transaction.atomic():
            ai = AIPlayer.objects.select_for_update().get(pk=self.ai.pk)
            row = CurriculumItem.objects.select_for_update().get(pk=item.pk)
            if row.cursor != start or ai.moves_studied != before:
                return False
            by_game = dict(row.by_game or {})
            for game, moves in per_game.items():
                by_game[game] = by_game.get(game, 0) + moves
            row.cursor, row.by_game = start + count, by_game
            row.moves_studied += studied
            row.save(update_fields=["cursor", "by_game", "moves_studied"])
            ai.model = learner.to_bytes()
            ai.moves_studied = before + studied
            ai.learning_started = ai.learning_started or timezone.now()
            ai.study_touched = ai.model_changed = timezone.now()
            fields = ["model", "moves_studied", "learning_started", "study_touched",
                      "model_changed"]  # fmt: skip
            if self.skipped:
                ai.study_note = ("Passed over " + "; ".join(self.skipped))[:200]
                fields.append("study_note")
            ai.save(update_fields=fields)
        return True

    def _fit(self, learner, match_ids: list[int]) -> dict[str, int]:
        """Feed the matches' moves to the learner, one game at a time: moves per game.
        A match whose log does not replay, or of a game this model does not learn (a
        model learns one game's feature layout), is passed over and said in the note."""
        from play.replay import game_of_rule_set

        matches = {m.pk: m for m in Match.objects.filter(pk__in=match_ids).select_related(
            "rule_set", "universe")}  # fmt: skip
        seats = defaultdict(list)
        logs = {  # either representation of a log (play.move_log)
            match_id: [(r.seat, r.kind, r.notation) for r in rows]
            for match_id, rows in rows_of_many(match_ids).items()
        }
        for match_id, index, kind, player_id in Seat.objects.filter(
            match_id__in=match_ids
        ).values_list("match_id", "index", "kind", "player_id"):
            seats[match_id].append((index, kind, player_id))
        by_game: dict[str, list] = {}  # name -> [game, [X...], [y...], last day]
        for match_id in match_ids:
            match = matches.get(match_id)
            moves = _moves(logs.get(match_id, []))
            results = _results(match)
            if match is None or moves is None or results is None:
                continue  # gone, or a log the learner cannot replay: nothing to study
            strategic = {
                index: self._strategic(player_id, match)
                for index, kind, player_id in seats[match_id]
                if kind == Seat.Kind.PLAYER and player_id
            }
            game = game_of_rule_set(match.rule_set)
            try:
                X, y = learning.samples_from_match(game, moves, results, strategic, match.seed)
            except Exception:  # a log the rules refuse today (the game changed since)
                log.warning("AI %s passes over match %s: it does not replay", self.ai.pk, match_id)
                continue
            group = by_game.setdefault(match.rule_set.name, [game, [], [], 0])
            group[1].append(X)
            group[2].extend(y)
            when = match.finished or match.created
            group[3] = max(group[3], when.date().toordinal() if when else 0)
        studied = {}
        for name, (game, xs, ys, day) in by_game.items():
            if not ys:
                continue
            try:
                learner.partial_fit(_rows(xs), ys, day=day or None, game=game)
            except ValueError as exc:  # another game's layout: this model learns one game
                self.skipped.append(f"{name}: {exc}"[:120])
                continue
            studied[name] = len(ys)
        return studied

    def _strategic(self, player_id: int, match: Match) -> str | None:
        """Release 1.3's test, read from the rating history: 20 rated matches later the
        player's mu has risen by >= 2 sigma or is within sigma of the top: "strategic";
        fallen by >= 2 sigma: "unstrategic"; else, or without those matches, None."""
        key = (player_id, match.rule_set_id, match.universe_id)
        if key not in self.histories:
            rows = list(
                RatingHistory.objects.filter(
                    player_id=player_id,
                    rating__rule_set_id=match.rule_set_id,
                    rating__universe_id=match.universe_id,
                )
                .order_by("id")
                .values_list("match_id", "mu_before", "sigma_before", "mu_after")
            )
            top = max((r[3] for r in rows), default=0.0)
            from leaderboards.models import Rating

            best = (
                Rating.objects.filter(rule_set_id=match.rule_set_id, universe_id=match.universe_id)
                .order_by("-mu")
                .values_list("mu", flat=True)
                .first()
            )
            self.histories[key] = (rows, max(top, best or top))
        rows, top = self.histories[key]
        where = self.where.get(key)
        if where is None or len(where) != len(rows):  # match id -> its place in the rows
            where = self.where[key] = {r[0]: i for i, r in enumerate(rows)}
        index = where.get(match.pk)
        if index is None or index + LATER >= len(rows):
            return None
        _, mu, sigma, _ = rows[index]
        later = rows[index + LATER][3]
        if later - mu >= 2 * sigma or top - later <= sigma:
            return "strategic"
        if mu - later >= 2 * sigma:
            return "unstrategic"
        return None


def _moves(log: list[tuple[int, str, str]]) -> list[tuple[int, str]] | None:
    """(seat, notation) of a log whose only non-moves end it (a resignation, a timeout):
    ``samples_from_match`` replays it; a skipped turn inside it, it could not."""
    moves = []
    for i, (seat, kind, notation) in enumerate(log):
        if kind == Move.Kind.MOVE:
            moves.append((seat, notation))
        elif kind == Move.Kind.SKIP or any(k == Move.Kind.MOVE for _, k, _ in log[i:]):
            return None
    return moves


def _rows(parts: list):
    """One matrix of the matches' feature rows (numpy arrays, or lists from a stand-in)."""
    if len(parts) == 1:
        return parts[0]
    if all(isinstance(p, list) for p in parts):
        return [row for p in parts for row in p]
    import numpy as np

    return np.concatenate([np.asarray(p) for p in parts if len(p)])


def _results(match: Match | None) -> dict[int, str] | None:
    results = ((match.outcome or {}).get("results") if match else None) or None
    if not results:
        return None
    try:
        return {seat: RESULT[r] for seat, r in enumerate(results)}
    except KeyError:
        return None
