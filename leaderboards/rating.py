"""Rating math, pure Python (no Django): openskill's Plackett–Luce model over one match.

A match is a list of ``SeatResult``s: who sat there (``key``; ``None`` for Chaos), the
seat's team (Partners: seats 0 and 2 against 1 and 3) and its rank (1 is best; ties
share a rank). ``rate_match`` returns the new ``Skill`` of every rated key.

- Teams: seats of one team form one openskill team; the team's rank is its best seat's.
- Chaos plays at the beginner constant (``BEGINNER``) and its new rating is dropped.
- A key seated on two different teams learns nothing from the match (it cannot beat
  itself): it plays at its current rating and is left out of the result.
- ``R = mu - 3 sigma`` (openskill's ``ordinal``); ``display`` turns it into the whole
  numbers the pages show (1000 + 40 R), ``display_change`` a change of it.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from statistics import NormalDist

from openskill.models import PlackettLuce

# openskill's defaults: a beginner is mu 25, sigma 25/3, so R starts at 0.
BEGINNER_MU = 25.0
BEGINNER_SIGMA = 25.0 / 3.0
# R starts at 0 and goes negative with a first loss, which reads as a penalty: the pages
# show DISPLAY_BASE + DISPLAY_SCALE * R, never below 0 (a beginner 1000, a first loss
# about 927, the strongest bots about 2500; issue 38). The order is R's. Changes of R
# (top bursts, a match's effect) are shown times DISPLAY_SCALE alone.
DISPLAY_BASE = 1000
DISPLAY_SCALE = 40


@dataclass(frozen=True)
class Skill:
    mu: float = BEGINNER_MU
    sigma: float = BEGINNER_SIGMA

    @property
    def ordinal(self) -> float:
        """R = mu - 3 sigma: the shown rating (before display scaling)."""
        return self.mu - 3.0 * self.sigma


BEGINNER = Skill()


@dataclass(frozen=True)
class SeatResult:
    key: Hashable | None  # the player (any hashable id); None for Chaos
    team: int
    rank: int  # 1 is best; equal ranks are a tie


@lru_cache(maxsize=1)
def model() -> PlackettLuce:
    return PlackettLuce(mu=BEGINNER_MU, sigma=BEGINNER_SIGMA)


def display(value: float) -> int:
    """A rating R (or a skill mu, on the same scale) as the pages show it."""
    return max(0, round(DISPLAY_BASE + value * DISPLAY_SCALE))


def display_change(value: float) -> int:
    """A change of R (a top burst, a match's effect) or an uncertainty sigma, as shown."""
    return round(value * DISPLAY_SCALE)


def exact(ordinal: float, mu: float, sigma: float) -> str:
    """The rating behind a shown one, for a hover: "R = μ − 3σ = −1.83 (μ 23.9, σ 8.6)"."""
    r = f"{ordinal:.2f}".replace("-", "\u2212")
    return f"R = μ − 3σ = {r} (μ {mu:.1f}, σ {sigma:.1f})"


def level(ordinal: float) -> int:
    """The level a rating sits at: whole points of R (40 display points). The leaderboard
    shows how long a player has held its current level."""
    return math.floor(ordinal)


def rate_match(seats: Sequence[SeatResult], skills: Mapping[Hashable, Skill]) -> dict:
    """New skills after one match: ``{key: Skill}`` for every key that is rated.

    ``skills`` gives each seated key's current skill (a missing key is a beginner).
    Returns ``{}`` when fewer than two teams took part.
    """
    teams: dict[int, list[SeatResult]] = {}
    for seat in seats:
        teams.setdefault(seat.team, []).append(seat)
    if len(teams) < 2:
        return {}
    split = _keys_on_several_teams(teams)
    order = sorted(teams)
    if len(order) == 2 and len(teams[order[0]]) == len(teams[order[1]]) == 1:
        (first,), (second,) = teams[order[0]], teams[order[1]]
        pair = _two_sided(
            _skill(first.key, skills), _skill(second.key, skills), first.rank, second.rank
        )
        return {
            seat.key: new
            for seat, new in zip((first, second), pair, strict=True)
            if seat.key is not None and seat.key not in split
        }
    openskill_teams, ranks = [], []
    for team in order:
        members = teams[team]
        openskill_teams.append([_rating(s.key, skills) for s in members])
        ranks.append(min(s.rank for s in members))
    rated = model().rate(openskill_teams, ranks=ranks)
    out: dict = {}
    for team, new_team in zip(order, rated, strict=True):
        for seat, new in zip(teams[team], new_team, strict=True):
            if seat.key is None or seat.key in split or seat.key in out:
                continue  # Chaos, a key on both sides, or a key's second seat in a team
            out[seat.key] = Skill(new.mu, new.sigma)
    return _zero_sum(out, skills) if len(order) > 2 and len(out) == len(seats) else out


def _zero_sum(new: dict, skills: Mapping[Hashable, Skill]) -> dict:
    """Plackett-Luce with three or more teams does not keep the sum of the players' mu
    (3P-Notakto's ratings drifted 75 -> 75.47 over 100 games): shift every change by
    the mean change, so the match adds nothing to the sum and the order of the changes
    stays. Only where every seat is a distinct rated player (no Chaos, nobody twice)."""
    shift = sum(s.mu - _skill(k, skills).mu for k, s in new.items()) / len(new)
    return {k: Skill(s.mu - shift, s.sigma) for k, s in new.items()}


def _two_sided(a: Skill, b: Skill, rank_a: int, rank_b: int) -> tuple[Skill, Skill]:
    """openskill's Plackett–Luce update of two one-seat teams, the same operations in the
    same order (``PlackettLuce.rate`` and ``_compute`` with the defaults: no weights,
    scores, balance or sigma limit), without its deep copy of the teams and the uuid it
    makes for each rating: a tournament rates hundreds of games a second."""
    m = model()
    tau_squared = m.tau * m.tau
    beta_squared = m.beta**2
    swap = rank_b < rank_a  # openskill sorts the teams by rank (stable), then unsorts
    if swap:
        a, b, rank_a, rank_b = b, a, rank_b, rank_a
    sigma_a = math.sqrt(a.sigma * a.sigma + tau_squared)
    sigma_b = math.sqrt(b.sigma * b.sigma + tau_squared)
    var_a, var_b = sigma_a**2, sigma_b**2  # the teams' sigma squared
    c = math.sqrt(0.0 + (var_a + beta_squared) + (var_b + beta_squared))
    exp_a, exp_b = math.exp(a.mu / c), math.exp(b.mu / c)
    tie = rank_a == rank_b
    sum_first = exp_a + exp_b
    sum_second = exp_a + exp_b if tie else exp_b
    count = 2 if tie else 1  # teams sharing each rank
    out = []
    for mu, sigma, var, exp_i, is_first in (
        (a.mu, sigma_a, var_a, exp_a, True),
        (b.mu, sigma_b, var_b, exp_b, False),
    ):
        omega = delta = 0.0
        p = exp_i / sum_first  # against the first team (ranked at or above both)
        delta += p * (1 - p) / count
        omega += (1 - p) / count if is_first else -p / count
        if tie or not is_first:  # against the second team
            p = exp_i / sum_second
            delta += p * (1 - p) / count
            omega += -p / count if is_first else (1 - p) / count
        omega *= var / c
        delta *= var / c**2
        delta *= math.sqrt(var) / c  # openskill's default gamma
        share = sigma**2 / var
        new_mu = mu + share * omega
        new_sigma = sigma * math.sqrt(max(1 - share * delta, m.kappa))
        out.append(Skill(new_mu, new_sigma))
    return (out[1], out[0]) if swap else (out[0], out[1])


def _skill(key, skills: Mapping[Hashable, Skill]) -> Skill:
    return BEGINNER if key is None else skills.get(key, BEGINNER)


def _keys_on_several_teams(teams: Mapping[int, list[SeatResult]]) -> set:
    seen: dict = {}
    split = set()
    for team, members in teams.items():
        for seat in members:
            if seat.key is None:
                continue
            if seen.setdefault(seat.key, team) != team:
                split.add(seat.key)
    return split


def _rating(key, skills: Mapping[Hashable, Skill]):
    skill = BEGINNER if key is None else skills.get(key, BEGINNER)
    return model().rating(mu=skill.mu, sigma=skill.sigma)


@dataclass(frozen=True)
class Expectation:
    """What the ratings expected of one match before it was played: each rated key's
    probability of winning it (its team's, alone on top) and the probability of a draw.

    openskill's ``predict_win`` ignores draws (its values sum to 1 on their own), so each
    is scaled by ``1 - predict_draw``: the wins and the draw then sum to 1, and a
    pairing's boosts (``leaderboards.favour_math``) are zero on average when the ratings
    are right."""

    wins: dict  # {key: E(key's team wins)}
    draw: float


def expectation(seats: Sequence[SeatResult], skills: Mapping[Hashable, Skill]) -> Expectation:
    """The ``Expectation`` of a match of these seats at these skills (the ratings before
    it), over the same teams ``rate_match`` rates; ``wins`` has a key for every key
    ``rate_match`` rates (Chaos and a key on two teams have none). Fewer than two teams:
    no wins, draw 0."""
    teams: dict[int, list[SeatResult]] = {}
    for seat in seats:
        teams.setdefault(seat.team, []).append(seat)
    if len(teams) < 2:
        return Expectation({}, 0.0)
    split = _keys_on_several_teams(teams)
    order = sorted(teams)
    if len(order) == 2 and len(teams[order[0]]) == len(teams[order[1]]) == 1:
        (first,), (second,) = teams[order[0]], teams[order[1]]
        win, draw = _two_sided_prediction(_skill(first.key, skills), _skill(second.key, skills))
        draw = min(max(draw, 0.0), 1.0)
        wins = {}
        for seat, p in ((first, win), (second, 1.0 - win)):
            if seat.key is not None and seat.key not in split:
                wins[seat.key] = p * (1.0 - draw)
        return Expectation(wins, draw)
    openskill_teams = [[_rating(s.key, skills) for s in teams[t]] for t in order]
    draw = float(model().predict_draw(openskill_teams))
    draw = min(max(draw, 0.0), 1.0)
    wins = {}
    for team, p in zip(order, model().predict_win(openskill_teams), strict=True):
        for seat in teams[team]:
            if seat.key is not None and seat.key not in split:
                wins.setdefault(seat.key, float(p) * (1.0 - draw))
    return Expectation(wins, draw)


_NORMAL = NormalDist()


def _two_sided_prediction(a: Skill, b: Skill) -> tuple[float, float]:
    """openskill's ``predict_win`` (a's value) and ``predict_draw`` of two one-seat teams,
    the same formulas without building its rating objects (a tournament rates hundreds
    of games a second): P(a) = Φ((μa − μb) / c), draw = Φ((m − μa + μb) / c) −
    Φ((μb − μa − m) / c), c = √(2β² + σa² + σb²), m = √2 · β · Φ⁻¹(3/4)."""
    beta = model().beta
    c = math.sqrt(2 * beta**2 + a.sigma**2 + b.sigma**2)
    margin = math.sqrt(2) * beta * _NORMAL.inv_cdf((1 + 1 / 2) / 2)
    win = _NORMAL.cdf((a.mu - b.mu) / c)
    draw = _NORMAL.cdf((margin - a.mu + b.mu) / c) - _NORMAL.cdf((b.mu - a.mu - margin) / c)
    return win, draw


def win_probability(a: Skill, b: Skill) -> float:
    """How likely ``a`` beats ``b`` in a two-sided match, by the model."""
    first, _ = model().predict_win([[_rating(0, {0: a})], [_rating(0, {0: b})]])
    return float(first)


def seat_rotation(players: Sequence, game_index: int) -> list:
    """The seating of a set's ``game_index``-th game: the players rotated one seat per
    game, so over a set each player takes each seat equally often (to within one game)."""
    k = len(players)
    shift = game_index % k
    return list(players[k - shift :]) + list(players[: k - shift]) if shift else list(players)


def interleaved_schedule(set_sizes: Sequence[int], chunk: int) -> list[tuple[int, int]]:
    """The order games are played and rated in: ``(set index, game index in the set)``.

    Sets take turns a chunk at a time (A–B, A–Random, B–Random, then A–B again, ...), so
    no set runs to its end before the others start: one pairing's results cannot pull
    the ratings to where it alone puts them before the other pairings are heard.
    """
    done = [0] * len(set_sizes)
    order: list[tuple[int, int]] = []
    while any(d < n for d, n in zip(done, set_sizes, strict=True)):
        for index, size in enumerate(set_sizes):
            stop = min(size, done[index] + chunk)
            order.extend((index, g) for g in range(done[index], stop))
            done[index] = stop
    return order
