"""The results of a tournament: ratings, scores, win rates, seat effects, head-to-head, faults.

Ratings come from one batch Plackett-Luce fit over every game's finishing order (``choix``,
iterative Luce spectral ranking), shown on an Elo-like scale (1500 = average, 400 points
= ten times the strength). A game whose seats tie is entered twice, once with the tied
seats in each order, and every other game twice as it is, so all games weigh the same.
Solitaire games are ranked against each other per deal. The 95% intervals of the ratings,
mean scores and win rates are bootstrap percentiles over *deal groups*: all the games that
replayed one deal are resampled together, because they share its luck.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

import attrs
import choix
import numpy as np

from tournaments.play import ERROR
from tournaments.store import GameRow

#: The rating scale: Elo's, with the field's average at 1500.
RATING_CENTRE, RATING_SCALE = 1500.0, 400.0 / math.log(10.0)
#: Regularisation of the fit (a prior worth a tiny fraction of a game), so that an entrant
#: that always wins or always loses keeps a finite rating.
FIT_ALPHA = 0.01
#: Convergence of the fit, in log-strength: far below what a rating shows (0.0004 Elo points).
FIT_TOLERANCE = 1e-6


@attrs.frozen
class Interval:
    value: float | None
    low: float | None
    high: float | None

    def to_json(self) -> dict[str, float | None]:
        return {"value": self.value, "low": self.low, "high": self.high}


@attrs.frozen
class Standing:
    name: str
    player: str
    games: int
    rating: Interval
    mean_score: Interval
    win_rate: Interval
    faults: int


@attrs.frozen
class SeatEffect:
    table_size: int
    seat: int
    games: int
    mean_score: Interval  # normal-approximation interval
    win_rate: float | None


@attrs.frozen
class Report:
    name: str
    ruleset: str
    games: int
    statuses: dict[str, int]
    deal_groups: int
    bootstrap: int
    standings: list[Standing]
    seat_effects: list[SeatEffect]
    names: list[str]  # entrants in config order: the index of head_to_head
    head_to_head: list[list[float | None]]  # [a][b]: share of shared games a finished ahead of b
    head_to_head_games: list[list[int]]
    faults: dict[str, dict[str, int]]  # entrant -> fault kind -> count
    engine_errors: int

    def to_json(self) -> dict[str, Any]:
        names = self.names
        return {
            "name": self.name, "ruleset": self.ruleset, "games": self.games, "statuses": self.statuses,
            "deal_groups": self.deal_groups, "bootstrap": self.bootstrap,
            "rating_scale": "Plackett-Luce log-strength on the Elo scale: 1500 average, 400 = 10x",
            "standings": [{"rank": i + 1, "name": s.name, "player": s.player, "games": s.games,
                           "rating": s.rating.to_json(), "mean_score": s.mean_score.to_json(),
                           "win_rate": s.win_rate.to_json(), "faults": s.faults}
                          for i, s in enumerate(self.standings)],
            "seat_effects": [{"table_size": e.table_size, "seat": e.seat, "games": e.games,
                              "mean_score": e.mean_score.to_json(), "win_rate": e.win_rate}
                             for e in self.seat_effects],
            "head_to_head": {a: {b: {"ahead": self.head_to_head[i][j], "games": self.head_to_head_games[i][j]}
                                 for j, b in enumerate(names) if i != j} for i, a in enumerate(names)},
            "faults": self.faults, "engine_errors": self.engine_errors,
        }


# --------------------------------------------------------------------------- rankings
def orderings(ranks: Sequence[int], entrants: Sequence[int]) -> list[tuple[int, ...]]:
    """Two finishing orders (best first) of one game: tied seats in one order, then the other."""
    seats = sorted(range(len(ranks)), key=lambda s: (ranks[s], s))
    forward = tuple(entrants[s] for s in seats)
    backward_seats = sorted(range(len(ranks)), key=lambda s: (ranks[s], -s))
    return [forward, tuple(entrants[s] for s in backward_seats)]


def competition_ranks(values: Sequence[float]) -> list[int]:
    return [1 + sum(other > value for other in values) for value in values]


@attrs.frozen
class Outcome:
    """One ranked contest for the fit and the statistics: who took part, their ranks, their scores."""

    group: int  # deal group (the deal seed)
    entrants: tuple[int, ...]
    ranks: tuple[int, ...]
    scores: tuple[int, ...] | None


def outcomes(rows: Sequence[GameRow]) -> list[Outcome]:
    """Contests from stored games; solitaire games of one deal make one contest."""
    result = []
    solitaire: dict[int, list[GameRow]] = defaultdict(list)
    for row in rows:
        if row.status == ERROR:
            continue
        if row.table_size == 1:
            solitaire[row.deal_seed].append(row)
        elif row.ranks is not None:
            result.append(Outcome(row.deal_seed, row.seating, row.ranks, row.scores))
    for seed, games in solitaire.items():
        if len(games) < 2:
            continue
        # A solitaire game that did not finish ranks below every finished one.
        finals = [g.scores[0] if g.scores is not None else None for g in games]
        values = [-math.inf if score is None else score for score in finals]
        scores = None if None in finals else tuple(score for score in finals if score is not None)
        result.append(Outcome(seed, tuple(g.seating[0] for g in games), tuple(competition_ranks(values)), scores))
    return result


def fit_ratings(entrant_count: int, contests: Sequence[Outcome], start: np.ndarray | None = None) -> np.ndarray:
    """Plackett-Luce log-strengths (mean 0) from every contest's finishing order.

    ``start`` (the full fit, for a bootstrap resample) saves most of the iterations.
    """
    data = [order for contest in contests for order in orderings(contest.ranks, contest.entrants)]
    if not data:
        return np.zeros(entrant_count)
    try:
        params = choix.ilsr_rankings(entrant_count, data, alpha=FIT_ALPHA, initial_params=start, max_iter=500,
                                     tol=FIT_TOLERANCE)
    except RuntimeError:  # no convergence: the direct optimiser is slower but sure
        params = choix.opt_rankings(entrant_count, data, alpha=FIT_ALPHA)
    return np.asarray(params) - np.mean(params)


def to_rating(strength: float) -> float:
    return RATING_CENTRE + RATING_SCALE * strength


# --------------------------------------------------------------------------- the report
def build_report(config: dict[str, Any], rows: Sequence[GameRow], bootstrap: int = 100, seed: int = 0) -> Report:
    """Everything the report shows, from the stored config document and games."""
    entrants = config["entrants"]
    n = len(entrants)
    names = [e["name"] for e in entrants]
    contests = outcomes(rows)
    groups = sorted({c.group for c in contests})
    group_index = {g: i for i, g in enumerate(groups)}
    by_group: list[list[Outcome]] = [[] for _ in groups]
    for contest in contests:
        by_group[group_index[contest.group]].append(contest)

    # Per group and entrant: score sums and counts, win shares and contests.
    score_sum = np.zeros((len(groups), n))
    score_count = np.zeros((len(groups), n))
    wins = np.zeros((len(groups), n))
    played = np.zeros((len(groups), n))
    for contest in contests:
        g = group_index[contest.group]
        winners = [e for e, r in zip(contest.entrants, contest.ranks) if r == 1]
        for position, entrant in enumerate(contest.entrants):
            played[g, entrant] += 1
            if contest.ranks[position] == 1:
                wins[g, entrant] += 1 / len(winners)
            if contest.scores is not None:
                score_sum[g, entrant] += contest.scores[position]
                score_count[g, entrant] += 1

    strengths = fit_ratings(n, contests)
    rng = np.random.default_rng(seed)
    samples = rng.integers(0, len(groups), size=(bootstrap, len(groups))) if groups and bootstrap else None
    boot_strengths = []
    boot_scores, boot_wins = None, None
    if samples is not None:
        weights = np.stack([np.bincount(s, minlength=len(groups)) for s in samples])
        with np.errstate(invalid="ignore", divide="ignore"):
            boot_scores = (weights @ score_sum) / (weights @ score_count)
            boot_wins = (weights @ wins) / (weights @ played)
        for sample in samples:
            boot_strengths.append(fit_ratings(n, [c for g in sample for c in by_group[g]], strengths))
    boot_matrix = np.array(boot_strengths) if boot_strengths else None

    fault_counts: dict[str, Counter[str]] = {name: Counter() for name in names}
    engine_errors = 0
    for row in rows:
        for fault in row.faults:
            seat = fault.get("seat")
            if seat is None:
                engine_errors += 1
            else:
                fault_counts[names[row.seating[seat]]][str(fault.get("kind", "fault"))] += 1

    standings = []
    total_score, total_count = score_sum.sum(0), score_count.sum(0)
    total_wins, total_played = wins.sum(0), played.sum(0)
    for e in range(n):
        standings.append(Standing(
            name=names[e], player=_spec(entrants[e]), games=int(total_played[e]),
            rating=Interval(to_rating(strengths[e]), *_percentiles(boot_matrix, e, to_rating)),
            mean_score=Interval(_ratio(total_score[e], total_count[e]), *_percentiles(boot_scores, e)),
            win_rate=Interval(_ratio(total_wins[e], total_played[e]), *_percentiles(boot_wins, e)),
            faults=sum(fault_counts[names[e]].values()),
        ))
    standings.sort(key=lambda s: -(s.rating.value or 0))
    matrix, counts = head_to_head(n, contests)
    statuses = Counter(row.status for row in rows)
    return Report(config["name"], config["ruleset"], len(rows), dict(sorted(statuses.items())), len(groups),
                  bootstrap if samples is not None else 0, standings, seat_effects(rows), names, matrix, counts,
                  {name: dict(counter) for name, counter in fault_counts.items() if counter}, engine_errors)


def _spec(entrant: dict[str, Any]) -> str:
    params = entrant.get("params") or {}
    return entrant["player"] + ("(" + ", ".join(f"{k}={v}" for k, v in params.items()) + ")" if params else "")


def _ratio(total: float, count: float) -> float | None:
    return float(total / count) if count else None


def _percentiles(samples: np.ndarray | None, column: int, transform: Any = float) -> tuple[float | None, float | None]:
    if samples is None:
        return None, None
    values = samples[:, column]
    values = values[~np.isnan(values)]
    if not len(values):
        return None, None
    low, high = np.percentile(values, [2.5, 97.5])
    return float(transform(low)), float(transform(high))


def head_to_head(n: int, contests: Sequence[Outcome]) -> tuple[list[list[float | None]], list[list[int]]]:
    """For each pair: in the contests they shared, the share a finished ahead of b (a tie counts half)."""
    ahead = np.zeros((n, n))
    shared = np.zeros((n, n), dtype=int)
    for contest in contests:
        for i, a in enumerate(contest.entrants):
            for j, b in enumerate(contest.entrants):
                if i == j:
                    continue
                shared[a, b] += 1
                ra, rb = contest.ranks[i], contest.ranks[j]
                ahead[a, b] += 1.0 if ra < rb else 0.5 if ra == rb else 0.0
    matrix = [[float(ahead[a, b] / shared[a, b]) if shared[a, b] else None for b in range(n)] for a in range(n)]
    return matrix, shared.tolist()


def seat_effects(rows: Sequence[GameRow]) -> list[SeatEffect]:
    """Mean score and win rate of each seat, per table size (seats are balanced, so this is the seat's edge)."""
    scores: dict[tuple[int, int], list[int]] = defaultdict(list)
    wins: dict[tuple[int, int], float] = defaultdict(float)
    games: Counter[tuple[int, int]] = Counter()
    for row in rows:
        if row.table_size < 2 or row.ranks is None:
            continue
        winners = sum(r == 1 for r in row.ranks)
        for seat in range(row.table_size):
            games[(row.table_size, seat)] += 1
            if row.ranks[seat] == 1:
                wins[(row.table_size, seat)] += 1 / winners
            if row.scores is not None:
                scores[(row.table_size, seat)].append(row.scores[seat])
    effects = []
    for key in sorted(games):
        values = np.array(scores[key], dtype=float)
        if len(values) > 1:
            mean, half = float(values.mean()), float(1.96 * values.std(ddof=1) / math.sqrt(len(values)))
            interval = Interval(mean, mean - half, mean + half)
        else:
            interval = Interval(float(values.mean()) if len(values) else None, None, None)
        effects.append(SeatEffect(key[0], key[1], games[key], interval, wins[key] / games[key]))
    return effects
