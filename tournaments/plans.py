"""Making a tournament: its plan, sets, batches and game schedule, and starting it.

A plan (``Plan``) lists sets of games between bots; ``create_from_plan`` writes the
tournament with its sets and batches and, on commit, ``start`` sends one task per chain
(``tournaments.chains``) and starts the watchdog. ``schedule`` says which set
and seat rotation each game number plays.
"""

from __future__ import annotations

import itertools
import logging
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import comb

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import Player
from accounts.roles import is_trainer_or_admin
from leaderboards import rating as math
from leaderboards.models import Tournament, TournamentBatch, TournamentSet
from tournaments import sending

log = logging.getLogger(__name__)

GAMES_PER_SET = 100
BATCH_SIZE = 10
MAX_SETS = 45  # combinations of at most 10 checked bots, two a game


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
    reason: str = ""  # why it has its type (shown on its page)


def seats_per_game(rule_set) -> int:
    from play.replay import game_of_rule_set

    game = game_of_rule_set(rule_set)
    return game.nseats - (game.chaos is not None)


def checked_players(ids: Sequence[int]) -> dict[int, Player]:
    found = {p.pk: p for p in Player.objects.filter(pk__in=list(ids))}
    missing = [pk for pk in ids if pk not in found]
    if missing:
        raise TournamentError(f"There is no player {missing[0]}.")
    for player in found.values():
        if player.kind not in (
            Player.Kind.BOT,
            Player.Kind.RANDOM,
            Player.Kind.OWN_BOT,
            Player.Kind.AI,
        ):
            raise TournamentError(
                f"{player.display_name} is not a bot: tournaments are played by bots and Random."
            )
        if player.kind == Player.Kind.AI:
            from aiplayers.curriculum import is_studying

            if is_studying(player):  # it completes its curriculum before it plays
                raise TournamentError(
                    f"{player.display_name} is still studying its curriculum: "
                    "start the tournament when it has finished."
                )
    return found


def benchmark_plan(rule_set, universe, player_ids: Sequence[int]) -> Plan:
    """ "Benchmark Selected Bots": ``GAMES_PER_SET`` games for each combination of the
    checked players. It is a Benchmark tournament when ``is_benchmark`` says so. Raises
    ``TournamentError`` saying what is wrong; nothing is written."""
    sets = combination_sets(rule_set, player_ids)
    missing = benchmark_missing(rule_set, universe, player_ids)
    if missing:
        kind, reason = Tournament.Kind.STANDARD, "not a Benchmark: " + "; ".join(missing)
    else:
        kind = Tournament.Kind.BENCHMARK
        reason = (
            "made from a leaderboard with its top player, the player it is most favoured "
            "by, Random and one more"
        )
    return Plan(rule_set, universe, plan_name(rule_set), sets, kind, reason)


def plan_name(rule_set) -> str:
    return f"{rule_set.name}-{timezone.now():%m-%d-%H%M}"


def combination_sets(rule_set, player_ids: Sequence[int]) -> list[tuple[list[int], int]]:
    """``GAMES_PER_SET`` games for each combination of the players, as many a game as
    the rule set seats (raises ``TournamentError`` saying what is wrong)."""
    k = seats_per_game(rule_set)
    if len(player_ids) < k:
        raise TournamentError(f"Check at least {k} bots (or Random): {rule_set.name} seats {k}.")
    checked_players(player_ids)
    combos = list(itertools.combinations(player_ids, k))
    if len(combos) > MAX_SETS:
        raise TournamentError(f"That makes {len(combos)} sets of games; check fewer bots.")
    return [(list(c), GAMES_PER_SET) for c in combos]


def create_benchmark(rule_set, universe, player_ids: Sequence[int], by) -> Tournament:
    return create_from_plan(benchmark_plan(rule_set, universe, player_ids), by)


def benchmark_core(rule_set, universe) -> tuple[Player | None, Player | None]:
    """The two players a Benchmark must include besides Random: the board's top player
    and the player it is most favoured by (the highest Preference for it,
    ``favouritism.favoured_by``; ``None`` where there is none yet)."""
    from leaderboards.favouritism import favoured_by
    from leaderboards.services import board_of

    top = board_of(rule_set, universe).order_by("-score", "id").select_related("player").first()
    if top is None:
        return None, None
    favouring = favoured_by(top.player_id, rule_set, universe)
    found = Player.objects.filter(pk=favouring).first() if favouring else None
    return top.player, found


def is_benchmark(rule_set, universe, player_ids: Sequence[int]) -> bool:
    """The seed's condition: the players include the board's top player, the player it
    is most favoured by, Random, and at least one other player."""
    return not benchmark_missing(rule_set, universe, player_ids)


def benchmark_missing(rule_set, universe, player_ids: Sequence[int]) -> list[str]:
    """What a set of players lacks to be a Benchmark, in plain words ("add the player
    Tron is most favoured by: Random"); empty when it is one."""
    from accounts.services import random_player

    top, favouring = benchmark_core(rule_set, universe)
    if top is None:
        return ["nobody has played a rated match of this game yet, so it has no top player"]
    if favouring is None:
        return [f"{top.display_name}, the top player, has not met anyone in a rated match yet"]
    chosen, needs = set(player_ids), []
    for player, words in (
        (top, f"add the top player: {top.display_name}"),
        (favouring, f"add the player {top.display_name} is most favoured by: "
         f"{favouring.display_name}"),
        (random_player(), "add Random"),
    ):  # fmt: skip
        if player.pk in chosen:
            continue
        if player.kind not in (Player.Kind.BOT, Player.Kind.RANDOM, Player.Kind.OWN_BOT):
            return [
                f"{words}; but {player.display_name} is a person and tournaments are played "
                "by bots, so none can be made now"
            ]
        needs.append(words)
    required = {top.pk, favouring.pk, random_player().pk}
    if not chosen - required:
        needs.append("add one more bot")
    return needs


def preselection(rule_set, universe, rows, benchmark: bool) -> set[int]:
    """The players a leaderboard checks at first (rows: its ``Row``s): Random and the
    ranked bots. For those who may benchmark, also the two a Benchmark needs where the
    board shows them, so that Benchmark Selected Bots makes one when it can, and never
    more than a tournament takes (``MAX_SETS``), the Benchmark's players kept first."""
    checkable = [row.player for row in rows if row.checkbox]
    # Ranked or unrated but among the first ten places (a new board's standard bots).
    ranked = {row.player.pk for row in rows if row.position and row.position <= 10}
    chosen = [p for p in checkable if p.kind == Player.Kind.RANDOM or p.pk in ranked]
    if not benchmark:
        return {p.pk for p in chosen}
    top, favouring = benchmark_core(rule_set, universe)
    required = {p.pk for p in (top, favouring) if p is not None}
    shown = {p.pk for p in checkable}
    if required and required <= shown:
        chosen = [p for p in checkable if p.pk in required or p in chosen]
        chosen.sort(key=lambda p: (p.pk not in required and p.kind != Player.Kind.RANDOM))
    k = seats_per_game(rule_set)
    most = max(n for n in range(k, 50) if comb(n, k) <= MAX_SETS)
    return {p.pk for p in chosen[:most]}


def create_from_plan(plan: Plan, by, run: bool = True) -> Tournament:
    """Write the tournament and its sets; with ``run`` also its batches, and start it on
    commit. Without, it is an unrun plan (``Status.PLANNED``) that ``start_plan`` starts."""
    if not is_trainer_or_admin(by):
        raise TournamentError("Only Trainers and Admins run tournaments.")
    sets = checked_sets(plan.rule_set, plan.sets)
    found = checked_players([pk for players, _ in sets for pk in players])
    own_bots = all(
        p.kind in (Player.Kind.BOT, Player.Kind.OWN_BOT, Player.Kind.AI) and p.owner_id == by.pk
        for p in found.values()
    )
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=plan.name[:100],
            rule_set=plan.rule_set,
            universe=plan.universe,
            created_by=by,
            kind=plan.kind,
            kind_reason=plan.reason[:200],
            rated=not own_bots,  # a Trainer's own bots among themselves: not rated
            status=Tournament.Status.RUNNING if run else Tournament.Status.PLANNED,
            seed=random.SystemRandom().randrange(2**31),
            total_games=sum(g for _, g in sets),
            batch_size=BATCH_SIZE,
        )
        TournamentSet.objects.bulk_create(
            TournamentSet(tournament=tournament, order=i, players=p, games=g)
            for i, (p, g) in enumerate(sets)
        )
        if run:
            TournamentBatch.objects.bulk_create(batches_for(tournament, [g for _, g in sets]))
            transaction.on_commit(lambda: start(tournament.pk))
    return tournament


def checked_sets(rule_set, sets) -> list[tuple[list[int], int]]:
    """The sets with games, each seating the game's number of players (else raises)."""
    k = seats_per_game(rule_set)
    sets = [(list(players), int(games)) for players, games in sets if int(games) > 0]
    if not sets:
        raise TournamentError("A tournament needs at least one set of games.")
    for players, _ in sets:
        if len(players) != k:
            raise TournamentError(f"Every set of {rule_set.name} needs {k} players.")
    return sets


def batches_for(tournament: Tournament, sizes: list[int]) -> list[TournamentBatch]:
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
    try:
        batches = TournamentBatch.objects.filter(tournament_id=tournament_id).order_by("number")
        for batch_id in batches.values_list("id", flat=True)[: settings.TOURNAMENT_CHAINS]:
            sending.run_batch(batch_id)
        start_watchdog(tournament_id)
    except Exception:  # the broker is down: the rows are saved, the reconciler resends
        log.exception("could not send tournament %s to the workers", tournament_id)


def start_watchdog(tournament_id: int) -> None:
    Tournament.objects.filter(pk=tournament_id).update(watchdog=F("watchdog") + 1)
    number = Tournament.objects.values_list("watchdog", flat=True).get(pk=tournament_id)
    sending.watchdog(tournament_id, number, countdown=watch_seconds())


def stale_seconds() -> float:
    return settings.TOURNAMENT_STALE_SECONDS


def watch_seconds() -> float:
    return max(1.0, stale_seconds() / 2)


# --- the order of the games ----------------------------------------------------------------


@lru_cache(maxsize=64)
def schedule_of(sizes: tuple[int, ...], chunk: int) -> tuple[tuple[int, int], ...]:
    """The game order of sets of these sizes (``schedule``), cached: a chain reads it for
    every group it runs."""
    return tuple(math.interleaved_schedule(sizes, chunk))


def schedule(t: Tournament) -> tuple[tuple[int, int], ...]:
    """Game number n (1-based) is ``schedule(t)[n - 1]`` = (set order, game index in the
    set). Computed from the sets (cached by their sizes and the batch size)."""
    sizes = tuple(t.sets.order_by("order").values_list("games", flat=True))
    return schedule_of(sizes, t.batch_size)
