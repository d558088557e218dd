"""What the duplicate schedule makes possible: paired comparisons over deals, and the variance it saves.

Every game of a deal is played on the same tiles, replayed under every rotation of the
seating, so two entrants that met on a deal met on equal terms. The unit of every statistic
here is therefore the *deal* (all its games together, since they share its luck), never the
game:

- a **paired comparison** of two entrants is A's share of finishing ahead of B (1 ahead,
  1/2 level, 0 behind) over the games of one deal where both sat, averaged over the deals
  both played in full, with a t interval over those deals;
- the **variance saved** is how much less an entrant's mean result varies, deal by deal,
  than it would over as many games each on a deal of its own (what independent deals give).

A solitaire deal is played by every entrant alone; two entrants are compared on it by their
scores (a game that did not finish counts below every finished one).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from itertools import combinations
from typing import Any

import attrs
import numpy as np

from tournaments.play import ERROR
from tournaments.statistics import MIN_DEALS, Interval, percentiles, resample_counts, share_interval, too_few


def ahead(first: float, second: float) -> float:
    """1 if the first finished ahead (a smaller rank, or a larger score), 1/2 if level, else 0."""
    return 1.0 if first > second else 0.5 if first == second else 0.0


# --------------------------------------------------------------------------- per-deal results of a pair
def pair_results(rows: Sequence[Any], a: int, b: int) -> dict[int, list[float]]:
    """A's results against B (1, 1/2, 0), by deal seed, from every stored game or solitaire deal both played."""
    results: dict[int, list[float]] = defaultdict(list)
    solitaire: dict[int, dict[int, float]] = defaultdict(dict)
    for row in rows:
        if row.status == ERROR:
            continue
        if row.table_size == 1:
            score = row.scores[0] if row.scores is not None else -math.inf
            solitaire[row.deal_seed][row.seating[0]] = score
        elif row.ranks is not None and a in row.seating and b in row.seating:
            i, j = row.seating.index(a), row.seating.index(b)
            results[row.deal_seed].append(ahead(-row.ranks[i], -row.ranks[j]))
    for seed, scores in solitaire.items():
        if a in scores and b in scores:
            results[seed].append(ahead(scores[a], scores[b]))
    return dict(results)


def comparisons_per_deal(entrants: int, table_size: int) -> int:
    """How many of a deal's games seat a given pair: every meeting of both, under every rotation."""
    if table_size == 1:
        return 1
    return table_size * math.comb(entrants - 2, table_size - 2)


def deal_outcomes(rows: Sequence[Any], a: int, b: int, entrants: int, table_sizes: Sequence[int]
                  ) -> tuple[dict[int, tuple[float, int]], int]:
    """A's results against B summed on each deal both played in full, with how many (a deal's
    share is their ratio), and how many deals were not whole.

    A deal counts once every game of it seating both is stored (an error leaves it out):
    a half-played deal would weigh some seats more than others.
    """
    size_of = {row.deal_seed: row.table_size for row in rows}
    outcomes, partial = {}, 0
    for seed, results in pair_results(rows, a, b).items():
        if len(results) == comparisons_per_deal(entrants, size_of[seed]) and size_of[seed] in table_sizes:
            outcomes[seed] = (sum(results), len(results))
        else:
            partial += 1
    return outcomes, partial


@attrs.frozen
class PairComparison:
    """Is A ahead of B? Over the deals both played in full."""

    a: str
    b: str
    deals: int
    partial: int  # deals both played only in part, left out
    share: Interval  # A's share of finishing ahead of B, over deals
    verdict: str

    def to_json(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "deals": self.deals, "partial_deals": self.partial,
                "a_ahead_share": self.share.to_json(), "verdict": self.verdict}


def compare(a_name: str, b_name: str, outcomes: Sequence[float], partial: int,
            trials: Sequence[float] | None = None) -> PairComparison:
    """The comparison and its verdict at 95%: "A ahead", "B ahead" or "indistinguishable so far".

    ``outcomes``: A's results against B on each deal, summed over the ``trials`` comparisons of
    that deal (default: one each, the deal's share). The share is Wilson's interval clustered by
    deal (:func:`tournaments.statistics.share_interval`): bounded by 0 and 1 however few the deals,
    and drawn from the results themselves, ties included (a pair level on every deal gets the
    interval its comparisons give, not one from a count of wins it never had).
    """
    ahead_sums = np.asarray(outcomes, dtype=float)
    counts = np.ones(len(ahead_sums)) if trials is None else np.asarray(trials, dtype=float)
    share = share_interval(ahead_sums, counts)
    deals = int(np.count_nonzero(counts > 0))
    if share.low is not None and share.low > 0.5:
        verdict = f"{a_name} ahead (95%)"
    elif share.high is not None and share.high < 0.5:
        verdict = f"{b_name} ahead (95%)"
    elif share.low is None:
        verdict = "too few deals"
    else:
        verdict = "indistinguishable so far"
    return PairComparison(a_name, b_name, deals, partial, share, verdict)


def paired_comparisons(rows: Sequence[Any], names: Sequence[str], table_sizes: Sequence[int]) -> list[PairComparison]:
    """Every pair of entrants, over the deals both played in full (every table size together)."""
    comparisons = []
    for a, b in combinations(range(len(names)), 2):
        outcomes, partial = deal_outcomes(rows, a, b, len(names), table_sizes)
        found = list(outcomes.values())
        comparisons.append(compare(names[a], names[b], [total for total, _ in found], partial,
                                   [count for _, count in found]))
    return comparisons


def cross_table(rows: Sequence[Any], entrants: int) -> list[list[tuple[int, int, int]]]:
    """[a][b]: (wins, losses, ties) of a against b over every stored game (or solitaire deal) both played."""
    table = [[(0, 0, 0)] * entrants for _ in range(entrants)]
    for a, b in combinations(range(entrants), 2):
        results = [r for per_deal in pair_results(rows, a, b).values() for r in per_deal]
        wins, losses = results.count(1.0), results.count(0.0)
        ties = len(results) - wins - losses
        table[a][b], table[b][a] = (wins, losses, ties), (losses, wins, ties)
    return table


# --------------------------------------------------------------------------- what duplicate deals save
@attrs.frozen
class DuplicateGain:
    """How the variance of an entrant's mean result over deals compares with independent deals."""

    table_size: int
    measure: str
    games: int  # the games the figures are over (every seat's result in each): as the standings count them
    deals: int
    ratio: Interval  # variance with duplicate deals / variance with independent deals, same games

    def to_json(self) -> dict[str, Any]:
        return {"table_size": self.table_size, "measure": self.measure, "games": self.games, "deals": self.deals,
                "variance_ratio": self.ratio.to_json(),
                "reduction": None if self.ratio.value is None else 1 - self.ratio.value}


#: What each measure of an entrant's result in one game is.
MEASURES = {
    "score relative to the table": "the entrant's score minus the mean score of its table",
    "first place": "1 for first place (shared: a share), else 0",
}


def _game_values(row: Any) -> dict[str, list[float] | None]:
    winners = sum(rank == 1 for rank in row.ranks)
    firsts = [1.0 / winners if rank == 1 else 0.0 for rank in row.ranks]
    relative = None
    if row.scores is not None:
        average = sum(row.scores) / len(row.scores)
        relative = [score - average for score in row.scores]
    return {"score relative to the table": relative, "first place": firsts}


def duplicate_gains(rows: Sequence[Any], entrants: int, table_size: int, bootstrap: int,
                    rng: np.random.Generator) -> list[DuplicateGain]:
    """For each measure: Var(an entrant's mean, deals resampled) / Var(its mean, games independent), pooled over
    entrants, with a bootstrap interval over deals.

    With duplicate deals, an entrant's mean over G deals varies as the deals' means do:
    sum_g (S_g - n_g m)^2 / n^2 * G / (G - 1) (the cluster variance). On independent deals
    the n games would vary as single games do: s^2 / n, s^2 the variance of one game's
    result, which is the same whatever the schedule (each game alone is a random deal).
    """
    games = [row for row in rows if row.table_size == table_size and row.ranks is not None and row.status != ERROR]
    seeds = sorted({row.deal_seed for row in games})
    if len(seeds) < 2:
        return []
    where = {seed: g for g, seed in enumerate(seeds)}
    gains = []
    for measure in MEASURES:
        sums = np.zeros((len(seeds), entrants))
        counts = np.zeros((len(seeds), entrants))
        squares = np.zeros((len(seeds), entrants))
        played = 0
        for row in games:
            values = _game_values(row)[measure]
            if values is None:
                continue
            played += 1
            g = where[row.deal_seed]
            for entrant, value in zip(row.seating, values):
                sums[g, entrant] += value
                counts[g, entrant] += 1
                squares[g, entrant] += value * value
        if counts.sum() == 0:
            continue
        weights = np.ones((1, len(seeds)))
        if bootstrap:
            weights = np.vstack([weights, resample_counts(len(seeds), bootstrap, rng)])
        ratios = _variance_ratio(weights, sums, counts, squares)
        value = float(ratios[0]) if np.isfinite(ratios[0]) else None
        if len(seeds) < MIN_DEALS:
            ratio = Interval(value, None, None, too_few(len(seeds)))
        else:
            ratio = Interval(value, *percentiles(ratios[1:]))
        gains.append(DuplicateGain(table_size, measure, played, len(seeds), ratio))
    return gains


def _variance_ratio(weights: np.ndarray, sums: np.ndarray, counts: np.ndarray, squares: np.ndarray) -> np.ndarray:
    """The pooled ratio for each row of deal weights (a resample: how often each deal was drawn)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        n = weights @ counts                                       # (resamples, entrants)
        total = weights @ sums
        mean = total / n
        drawn = weights.sum(axis=1, keepdims=True)                 # deals in the resample, G
        between = (weights @ (sums ** 2) - 2 * mean * (weights @ (sums * counts)) + mean ** 2 * (weights @ counts ** 2))
        duplicate = between / n ** 2 * drawn / (drawn - 1)
        within = (weights @ squares - n * mean ** 2) / (n - 1)
        independent = within / n
        return np.nansum(duplicate, axis=1) / np.nansum(independent, axis=1)
