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

# The entry point: the names other apps use, from the modules that hold them (making:
# plans; a game: bot_games; reconciling and finalising: finishing, reports; chains of
# batches: chains). Only ``tasks`` and the web layer import it: the layers below import
# the module that holds a name. A test that patches a name patches it where it is
# called, in the module that holds it, not here.

from tournaments.bot_games import agent_for, game_seed, play_timed
from tournaments.chain_sql import claim_next
from tournaments.chains import (
    CHAIN_SECONDS,
    GROUP_SECONDS,
    MAX_GROUP,
    TOUCH_SECONDS,
    run_batch,
    run_batches,
)
from tournaments.finishing import (
    FINALISE_CHUNK,
    MAX_SENDS,
    finalise,
    maybe_finalise,
    nudge,
    reconcile,
)
from tournaments.plans import (
    BATCH_SIZE,
    GAMES_PER_SET,
    MAX_SETS,
    Plan,
    TournamentError,
    benchmark_plan,
    create_benchmark,
    create_from_plan,
    is_benchmark,
    schedule,
    seats_per_game,
    stale_seconds,
    start,
    start_watchdog,
    watch_seconds,
)
from tournaments.reports import games_written

__all__ = [
    "BATCH_SIZE",
    "CHAIN_SECONDS",
    "FINALISE_CHUNK",
    "GAMES_PER_SET",
    "GROUP_SECONDS",
    "MAX_GROUP",
    "MAX_SENDS",
    "MAX_SETS",
    "TOUCH_SECONDS",
    "Plan",
    "TournamentError",
    "agent_for",
    "benchmark_plan",
    "claim_next",
    "create_benchmark",
    "create_from_plan",
    "finalise",
    "game_seed",
    "games_written",
    "is_benchmark",
    "maybe_finalise",
    "nudge",
    "play_timed",
    "reconcile",
    "run_batch",
    "run_batches",
    "schedule",
    "seats_per_game",
    "stale_seconds",
    "start",
    "start_watchdog",
    "watch_seconds",
]
