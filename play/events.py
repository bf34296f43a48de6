"""The JSON events the server sends (see ``play/PROTOCOL.md``), built from models and
the engine's per-seat views. Nothing here reads a seat's view for another seat."""

from __future__ import annotations

import time

from .clock import afk_times, teams_data, turn_seconds
from .models import Match, Seat
from .seating import series_people


def game_over_event(outcome) -> dict:
    data = outcome.to_dict()
    winners = data["winners"]
    lines = data["lines"]
    return {
        "type": "game:over",
        "reason": data["reason"],
        "winner": winners[0] if winners and len(winners) < len(data["results"]) else None,
        "winners": winners if len(winners) < len(data["results"]) else [],
        "results": data["results"],
        "ranks": data["ranks"],
        "winningLine": lines[0] if lines else None,
        "winningLines": lines,
        "detail": data["detail"],
    }


def seat_name(seat: Seat) -> str:
    if seat.kind == Seat.Kind.CHAOS:
        return "Chaos"
    if seat.kind == Seat.Kind.OPEN:
        return "Next available human"
    return seat.player.display_name


def seat_kind(seat: Seat) -> str:
    if seat.kind != Seat.Kind.PLAYER:
        return seat.kind
    return seat.player.kind


def seats_data(seats: list[Seat], view: dict, connected: set[int]) -> list[dict]:
    colors = view.get("seat_colors") or []
    teams = view.get("teams") or []
    return [
        {
            "index": s.index,
            "name": seat_name(s),
            "kind": seat_kind(s),
            "playerId": s.player_id,
            "color": colors[s.index] if s.index < len(colors) else None,
            "team": teams[s.index] if s.index < len(teams) else s.index,
            "connected": s.index in connected,
            "invitation": s.invitation if s.kind != Seat.Kind.CHAOS else None,
            "result": s.result or None,
        }
        for s in seats
    ]


def _ms(moment) -> int | None:
    return None if moment is None else int(moment.timestamp() * 1000)


def timers(match: Match, seats: list[Seat]) -> dict:
    afk = None
    if match.afk_seat is not None and match.afk_since is not None:
        warn_at, deadline = afk_times(match)
        afk = {"seat": match.afk_seat, "warnAt": _ms(warn_at), "deadline": _ms(deadline)}
    return {
        "turnDeadline": _ms(match.turn_deadline),
        "turnSeconds": turn_seconds(match),
        "afk": afk,
        "disconnected": [
            {"seat": s.index, "deadline": _ms(s.disconnect_deadline)}
            for s in seats
            if s.disconnect_deadline is not None
        ],
        "inviteDeadline": _ms(match.invite_deadline),
        "teams": teams_data(match),  # simultaneous order: each team's own clocks
    }


def series_data(match: Match, seats: list[Seat]) -> dict | None:
    """A finished match's series: its game number, the intermission's deadline, who must
    say Ready and who has, and the next game's address once it started."""
    if match.status != Match.Status.FINISHED and match.previous_id is None:
        return None
    data = {
        "game": match.series_game,
        "previous": match.previous_id,
        "deadline": _ms(match.intermission_deadline),
        "people": series_people(seats) if match.status == Match.Status.FINISHED else [],
        "ready": list(match.series_ready),
        "end": match.series_end or None,
        "next": None,
    }
    if match.series_end == "next":
        following = Match.objects.filter(previous=match).only("pk").first()
        data["next"] = following.get_absolute_url() if following else None
    return data


def state_event(match: Match, seats: list[Seat], state, you: list[int], connected) -> dict:
    """The ``state`` event for a connection holding ``you`` (empty: a spectator)."""
    from .secrecy import seen_ply

    waiting = [s for s in you if s in state.to_move()]
    seat = (waiting or you or [None])[0]
    view = state.view(seat)
    return {
        "type": "state",
        "matchId": match.pk,
        "status": match.status,
        "ply": seen_ply(match.ply, state, seat),  # cloaked: the moves this seat observed
        "you": you,
        "seat": seat,
        "seats": seats_data(seats, view, connected),
        "view": view,
        "timers": timers(match, seats),
        "outcome": match.outcome if match.is_over else None,
        "series": series_data(match, seats),
        "serverTime": int(time.time() * 1000),  # lets the page correct a wrong local clock
    }
