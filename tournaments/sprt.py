"""A sequential probability ratio test: is entrant A stronger than B? Play deals until the data say.

How fastchess tests an engine change, generalised from game pairs to deals of any seat count.
fastchess plays each opening twice, colours swapped, and scores each *pair* (0, 1/4, 1/2,
3/4 or 1: the pentanomial model), because the two games of a pair share their luck. Here a
deal is replayed under every rotation of its seating (:mod:`tournaments.schedule`), so the
unit is the *deal*: its outcome is A's share of finishing ahead of B over the deal's ``r``
games (1 ahead, 1/2 level, 0 behind), one of the ``2r + 1`` values 0, 1/(2r), ..., 1. With
two seats that is exactly fastchess's pentanomial; a solitaire deal (A and B each alone on
it) is one comparison, 0, 1/2 or 1.

The test is the generalised SPRT (Michel Van den Bergh, "Comments on Normalized Elo") that
fastchess computes: the log-likelihood ratio of the observed distribution of deal outcomes
under the two hypotheses, each the maximum-likelihood distribution (on the same ``2r + 1``
values) whose strength is ``elo0`` and ``elo1``:

- ``logistic``: the mean deal score is ``1 / (1 + 10^(-elo/400))``;
- ``normalized`` (fastchess's default): ``(mean - 1/2) / sd`` equals ``sqrt(r) * elo /
  (800 / ln 10)``, the normalised Elo of one game times ``sqrt(r)`` as a deal holds ``r``
  games (fastchess's ``sqrt(2)`` for pairs).

It stops when the ratio leaves (ln(beta / (1 - alpha)), ln((1 - beta) / alpha)): above,
A is at least ``elo1`` stronger (H1 accepted); below, at most ``elo0`` (H0 accepted). An
empty outcome counts 0.001, as in fastchess, so every value has a probability.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np

MODELS = ("normalized", "logistic")
#: The count given to an outcome never seen, so its probability is not zero (fastchess's).
EMPTY = 1e-3
#: Nats per Elo point of normalised Elo: 800 / ln 10.
NELO_SCALE = 800.0 / math.log(10.0)


@attrs.frozen
class SprtSettings:
    """The hypotheses (Elo bounds, in the model's units), the error rates allowed, and the model."""

    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "normalized"

    def problems(self) -> list[str]:
        found = []
        if not all(math.isfinite(v) for v in (self.elo0, self.elo1, self.alpha, self.beta)):
            found.append("elo0, elo1, alpha and beta are finite numbers")
        if not self.elo0 < self.elo1:
            found.append(f"elo0 ({self.elo0:g}) must be below elo1 ({self.elo1:g})")
        if not (0 < self.alpha < 1 and 0 < self.beta < 1 and self.alpha + self.beta < 1):
            found.append("alpha and beta are between 0 and 1, and their sum below 1")
        if self.model not in MODELS:
            found.append(f"model {self.model!r}: one of {', '.join(MODELS)}")
        return found

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)


def outcome_values(comparisons: int) -> np.ndarray:
    """The possible deal outcomes with ``comparisons`` A-versus-B games a deal: 0, 1/(2r), ..., 1."""
    return np.arange(2 * comparisons + 1) / (2 * comparisons)


def logistic_score(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def logistic_elo(score: float) -> float:
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def _tilt(probs: np.ndarray, shifts: np.ndarray) -> np.ndarray:
    """The ``theta`` with sum(p * x / (1 + theta x)) = 0, row by row (``shifts`` x per value).

    The sum falls as ``theta`` grows, from +inf at -1/max(x) to -inf at -1/min(x), so the root
    is unique: Newton's steps from 0, a bisection of the bracket wherever a step would leave it.
    """
    low = pole_low = -1.0 / shifts.max(axis=-1)
    high = pole_high = -1.0 / shifts.min(axis=-1)
    theta = np.zeros(low.shape)
    for _ in range(100):
        denominator = 1.0 + theta[..., None] * shifts
        value = (probs * shifts / denominator).sum(axis=-1)
        slope = -(probs * shifts ** 2 / denominator ** 2).sum(axis=-1)
        low = np.where(value > 0, theta, low)
        high = np.where(value > 0, high, theta)
        step = theta - value / slope
        inside = (step >= low) & (step <= high) & (step > pole_low) & (step < pole_high)
        fresh = np.where(inside, step, (low + high) / 2)
        if np.all(np.abs(fresh - theta) <= 1e-13 * np.maximum(1.0, np.abs(theta))):
            return fresh
        theta = fresh
    return theta
def _closest_with_mean(values: np.ndarray, probs: np.ndarray, mean: float) -> np.ndarray:
    """The distribution on ``values`` with this mean that is most likely to have produced ``probs``."""
    shifts = np.broadcast_to(values - mean, probs.shape)
    theta = _tilt(probs, shifts)
    return probs / (1.0 + theta[..., None] * shifts)


def _closest_with_t(values: np.ndarray, probs: np.ndarray, t: float, iterations: int = 100) -> np.ndarray:
    """The distribution on ``values`` with (mean - 1/2) / sd = ``t`` most likely to have produced ``probs``
    (Van den Bergh's fixed-point iterations, from the uniform distribution as he suggests)."""
    estimate = np.full(probs.shape, 1.0 / probs.shape[-1])
    for _ in range(iterations):
        mu = (estimate * values).sum(axis=-1, keepdims=True)
        sigma = np.sqrt((estimate * (values - mu) ** 2).sum(axis=-1, keepdims=True))
        phi = values - 0.5 - 0.5 * t * sigma * (1.0 + ((values - mu) / sigma) ** 2)
        theta = _tilt(probs, phi)
        fresh = probs / (1.0 + theta[..., None] * phi)
        converged = np.abs(fresh - estimate).max() < 1e-9
        estimate = fresh
        if converged:
            break
    return estimate


def llr(counts: np.ndarray, comparisons: int, settings: SprtSettings) -> np.ndarray:
    """The log-likelihood ratio of H1 to H0 for deal outcome counts (last axis: the 2r + 1 values).

    Works on one count vector or a stack of them (one per simulated test, say).
    """
    counts = np.where(np.asarray(counts, dtype=float) > 0, counts, EMPTY)
    total = counts.sum(axis=-1)
    probs = counts / total[..., None]
    values = outcome_values(comparisons)
    if settings.model == "logistic":
        p0 = _closest_with_mean(values, probs, logistic_score(settings.elo0))
        p1 = _closest_with_mean(values, probs, logistic_score(settings.elo1))
    else:
        scale = math.sqrt(comparisons) / NELO_SCALE
        with np.errstate(all="ignore"):
            p0 = _closest_with_t(values, probs, settings.elo0 * scale)
            p1 = _closest_with_t(values, probs, settings.elo1 * scale)
    with np.errstate(all="ignore"):
        ratio = total * (probs * (np.log(p1) - np.log(p0))).sum(axis=-1)
    # Where an estimate failed (a few deals, all alike, under a bound the data are far from), the
    # data say nothing yet: a ratio of 0 never stops the test.
    return np.where(np.isfinite(ratio), ratio, 0.0)


@attrs.frozen
class SprtState:
    """Where a test stands: deal outcomes counted, the ratio, the verdict (None: go on)."""

    settings: SprtSettings
    comparisons: int
    counts: tuple[int, ...]
    llr: float
    verdict: str | None  # "H1" (A stronger by elo1 or more), "H0" (by elo0 or less), None

    @property
    def deals(self) -> int:
        return sum(self.counts)

    @property
    def mean(self) -> float | None:
        values = outcome_values(self.comparisons)
        return float(np.dot(values, self.counts) / self.deals) if self.deals else None

    def interval(self) -> tuple[float, float] | None:
        """A 95% interval of the mean deal score (normal, over deals)."""
        if self.deals < 2:
            return None
        values = outcome_values(self.comparisons)
        counts = np.asarray(self.counts, dtype=float)
        mean = float(np.dot(values, counts) / self.deals)
        variance = float(np.dot(counts, (values - mean) ** 2) / (self.deals - 1))
        half = 1.96 * math.sqrt(variance / self.deals)
        return mean - half, mean + half

    def to_json(self) -> dict[str, object]:
        interval = self.interval()
        return {**attrs.asdict(self.settings), "comparisons_per_deal": self.comparisons, "deals": self.deals,
                "outcome_counts": list(self.counts), "llr": self.llr, "lower": self.settings.lower,
                "upper": self.settings.upper, "verdict": self.verdict, "score": self.mean,
                "score_low": interval[0] if interval else None, "score_high": interval[1] if interval else None}


def evaluate(outcomes: Sequence[float], comparisons: int, settings: SprtSettings) -> SprtState:
    """The test on the deal outcomes so far (each a multiple of 1/(2 * comparisons))."""
    counts = np.zeros(2 * comparisons + 1, dtype=int)
    for outcome in outcomes:
        counts[round(outcome * 2 * comparisons)] += 1
    return _state(counts, comparisons, settings)


def _state(counts: np.ndarray, comparisons: int, settings: SprtSettings) -> SprtState:
    ratio = float(llr(counts, comparisons, settings)) if counts.sum() else 0.0
    verdict = "H1" if ratio >= settings.upper else "H0" if ratio <= settings.lower else None
    return SprtState(settings, comparisons, tuple(int(c) for c in counts), ratio, verdict)


class SprtMonitor:
    """Follows a run's games and says when the test has decided (the runner's monitor).

    A deal counts once all its ``comparisons`` games of A against B are stored (they may
    arrive in any order); its outcome is A's share of finishing ahead of B over them. Deals
    enter the test in the schedule's order, each once every deal before it has, and the test
    stops at the first that decides it. So the verdict and the deals behind it do not depend
    on which games happened to finish first (games of slow deals would otherwise count
    late), and a run with any number of workers, or its report, finds the same.
    """

    def __init__(self, a: int, b: int, comparisons: int, settings: SprtSettings) -> None:
        self.a, self.b = a, b
        self.comparisons = comparisons
        self.settings = settings
        self.pending: dict[int, list[Any]] = {}  # the games of each deal not yet whole, by deal index
        self.whole: dict[int, float] = {}  # outcomes of whole deals not yet in the test, by deal index
        self.counts = np.zeros(2 * comparisons + 1, dtype=int)
        self.next_deal = 0
        self.state = _state(self.counts, comparisons, settings)

    @property
    def partial(self) -> int:
        """Deals played in part (or whole, but after a gap or after the decision): not in the test."""
        return len(self.pending) + len(self.whole)

    def add(self, rows: Sequence[Any]) -> None:
        """Take stored games (:class:`tournaments.store.GameRow`)."""
        from tournaments.paired import pair_results

        touched = set()
        for row in rows:
            self.pending.setdefault(row.deal_index, []).append(row)
            touched.add(row.deal_index)
        for deal in touched:
            results = [r for per_seed in pair_results(self.pending[deal], self.a, self.b).values() for r in per_seed]
            if len(results) >= self.comparisons:
                self.whole[deal] = sum(results) / len(results)
                del self.pending[deal]
        while self.state.verdict is None and self.next_deal in self.whole:
            outcome = self.whole.pop(self.next_deal)
            self.counts[round(outcome * 2 * self.comparisons)] += 1
            self.next_deal += 1
            self.state = _state(self.counts, self.comparisons, self.settings)

    def __call__(self, batch: object) -> str | None:
        from tournaments.store import GameRow

        self.add([GameRow.from_row(row) for row in batch.rows])  # type: ignore[attr-defined]
        if self.state.verdict is None:
            return None
        return f"the sequential test accepted {self.state.verdict}"
