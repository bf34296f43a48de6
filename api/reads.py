"""What the read API serves, as plain dicts: games, a leaderboard, a match's log, a
tournament's results. Each starts from the query the site's pages start from
(``visible_rule_sets``, ``visible_matches``, the leaderboard's board, the tournament
reports), so the API shows nothing a page would not. Nothing here writes.
"""

from __future__ import annotations

from django.urls import reverse

from leaderboards.models import Tournament
from leaderboards.services import board_of, universes_for
from play import rounds, secrecy
from play.events import seat_kind, seat_name
from play.models import Match, Seat
from play.move_log import rows_of
from play.reads import visible_matches
from play.replay import apply_record, current_state, game_of
from tournaments import reports
from variants.models import RuleSet
from variants.services import visible_rule_sets


class Refused(Exception):
    """The object exists and is visible, but what was asked is not served (yet)."""


def game_row(rule_set: RuleSet) -> dict:
    return {
        "id": rule_set.pk,
        "name": rule_set.name,
        "fingerprint": rule_set.fingerprint,
        "summary": rule_set.summary,
        "url": rule_set.get_absolute_url(),
    }


def games(user, offset: int, limit: int) -> dict:
    found = visible_rule_sets(user).order_by("id").only("name", "fingerprint", "summary")
    return _page(found, offset, limit, game_row)


def game(user, pk: int) -> RuleSet | None:
    return visible_rule_sets(user).filter(pk=pk).first()


def game_detail(rule_set: RuleSet) -> dict:
    return {
        **game_row(rule_set),
        "created": rule_set.created.isoformat(),
        # Only Admins are ever served a hidden or removed game; say so to them.
        "hidden": rule_set.hidden,
        "removed": rule_set.removed,
        "document": rule_set.document,
    }


def universe_for(user, slug: str | None):
    """The universe ``slug`` names among those the leaderboard page offers ``user`` (the
    public one by default), or None."""
    options = universes_for(user)
    if not slug:
        return options[0]
    return next((u for u in options if u.slug == slug), None)


def leaderboard(rule_set: RuleSet, universe, offset: int, limit: int) -> dict:
    """The whole board in the leaderboard page's order (score = R + top burst, then id),
    a page at a time."""
    board = board_of(rule_set, universe).select_related("player__user").order_by("-score", "id")

    def row(rating, position):
        player = rating.player
        return {
            "position": position,
            "player": {"id": player.pk, "name": player.display_name, "kind": player.kind},
            "score": rating.score,
            "rating": rating.ordinal,
            "mu": rating.mu,
            "sigma": rating.sigma,
            "matches": rating.matches,
        }

    data = _page(board, offset, limit, row, numbered=True)
    return {"game": rule_set.pk, "universe": universe.slug, **data}


def match(user, pk: int) -> Match | None:
    return visible_matches(user).select_related("rule_set").filter(pk=pk).first()


def match_detail(found: Match) -> dict:
    """A match's seats, log and outcome. While a match is on, its seed stays secret (it
    seeds the bots' moves too); a cloaked match is refused until it is over (its moves
    are secret: secrecy.py), and a simultaneous round's plans are left out until the
    round resolves (as the replay page shows only who planned)."""
    over = secrecy.revealed(found)
    game = game_of(found)
    if not over and secrecy.cloaked(game):
        raise Refused("This game hides moves: its match log is served once the match is over.")
    log = rows_of(found, upto=found.ply)  # as loaded
    rows = [(r.ply, r.seat, r.kind, r.notation) for r in log]
    if not over:
        rows = rows[: _resolved_rows(game, found, rows)]
    seats = Seat.objects.filter(match=found).select_related("player__user").order_by("index")
    return {
        "id": found.pk,
        "game": found.rule_set_id,
        "fingerprint": found.rule_set.fingerprint,
        "status": found.status,
        "seed": found.seed if over else None,
        "started": _iso(found.started),
        "finished": _iso(found.finished),
        "tournament": found.tournament_id,
        "seats": [_seat(s) for s in seats],
        "moves": [
            {"ply": ply, "seat": seat, "kind": kind, "move": notation}
            for ply, seat, kind, notation in rows
        ],
        "outcome": _outcome(found.outcome) if over else None,
        "url": reverse("play:replay", kwargs={"pk": found.pk}),
    }


def finished_matches(user, offset: int, limit: int, **where) -> dict:
    """Finished matches (those the API serves in full), newest first, a page at a time."""
    found = (
        visible_matches(user)
        .filter(status=Match.Status.FINISHED, **where)
        .order_by("-id")
        .only("id", "rule_set_id", "ply", "finished", "tournament_id", "outcome")
    )

    def row(m: Match) -> dict:
        return {
            "id": m.pk,
            "game": m.rule_set_id,
            "moves": m.ply,
            "finished": _iso(m.finished),
            "tournament": m.tournament_id,
            "results": list((m.outcome or {}).get("results") or []),
            "url": reverse("api:match", kwargs={"pk": m.pk}),
        }

    return _page(found, offset, limit, row)


def _resolved_rows(game, found: Match, rows) -> int:
    """How many log rows lead to a position with no unresolved plan (all of them in a
    game without simultaneous rounds, or between rounds: the cached position says)."""
    if not rounds.pending(current_state(found)):
        return len(rows)
    state = game.new_initial_state(seed=found.seed)
    safe = 0
    for done, (_ply, seat, kind, notation) in enumerate(rows, 1):
        apply_record(game, state, kind, seat, notation)
        if not rounds.pending(state):
            safe = done
    return safe


def _seat(seat: Seat) -> dict:
    return {
        "index": seat.index,
        "kind": seat_kind(seat),
        "player": seat.player_id,
        "name": seat_name(seat),
        "result": seat.result or None,
        "rank": seat.rank,
    }


def _outcome(outcome) -> dict | None:
    if not outcome:
        return None
    return {k: v for k, v in outcome.items() if k != "type"}


def tournament(user, pk: int) -> Tournament | None:
    """A tournament of a game ``user`` may see (a hidden game's are hidden too)."""
    return (
        Tournament.objects.select_related("rule_set", "universe")
        .filter(pk=pk, rule_set__in=visible_rule_sets(user))
        .first()
    )


def tournament_detail(found: Tournament) -> dict:
    progress = reports.progress(found)
    return {
        "id": found.pk,
        "name": found.name,
        "game": found.rule_set_id,
        "universe": found.universe.slug,
        "kind": found.get_kind_display().lower(),
        "rated": found.rated,
        "status": found.status,
        "created": found.created.isoformat(),
        "finished": _iso(found.finished),
        "total_games": found.total_games,
        "written": progress["written"],
        "sets": reports.set_rows(found),
        # Written by the finaliser once every game is rated (the page shows it then).
        "results": found.results if found.status == Tournament.Status.DONE else None,
        "error": (found.results or {}).get("error") if found.status == "failed" else None,
        "url": reverse("leaderboards:tournament", kwargs={"pk": found.pk}),
    }


def _page(queryset, offset: int, limit: int, row, numbered: bool = False) -> dict:
    total = queryset.count()
    items = queryset[offset : offset + limit]
    if numbered:
        out = [row(item, offset + n) for n, item in enumerate(items, 1)]
    else:
        out = [row(item) for item in items]
    return {"count": total, "offset": offset, "limit": limit, "results": out}


def _iso(moment) -> str | None:
    return moment.isoformat() if moment else None
