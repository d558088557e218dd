"""The statistics every report and analysis shares: intervals over deals and paired differences.

The unit of every statistic is the *deal* (all the games that replayed one shuffle, since
they share its luck). A figure is a function of sums over deals of per-deal aggregates
(scores, wins, games, hands...), so one bootstrap serves them all: a resample is a row of
counts, how often each deal was drawn, and the figure of every resample is one matrix
product away (``counts @ per_deal``); its percentiles, corrected for bias and skewness
(BCa, the jackknife being as cheap: the totals less one deal), are the 95% interval.

Two sets of deals played under two rulesets (the same deals, :mod:`tournaments.analysis`)
are compared deal by deal: the difference of a share or a mean has an interval built from each
side's own (:func:`mover`), of any other figure a paired bootstrap interval (the same deals
drawn on both sides), and each a p-value from a paired permutation test (the two
sides swapped on a random subset of deals, which changes nothing when the rulesets do not
differ). The max-T adjustment of those p-values holds the chance of any false alarm among
many figures compared at once to the stated rate.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from statistics import NormalDist

import attrs
import numpy as np

from players.strength import wilson

#: The confidence of every interval and verdict.
CONFIDENCE = 0.95
#: The false alarm rate of a verdict: 1 - CONFIDENCE (rounded: 1 - 0.95 is 0.050000000000000044 in floating point).
ERROR_RATE = round(1.0 - CONFIDENCE, 12)

#: A figure as a function of sums over deals: rows of column sums in, one value a row out.
Statistic = Callable[[np.ndarray], np.ndarray]


#: The fewest deals an interval is drawn from: below it the spread between deals says too little.
MIN_DEALS = 5


@attrs.frozen
class Interval:
    """A figure with its 95% interval; ``why``: why there is no interval (too few deals, no spread)."""

    value: float | None
    low: float | None
    high: float | None
    why: str | None = None

    def to_json(self) -> dict[str, float | str | None]:
        return {"value": self.value, "low": self.low, "high": self.high,
                **({"no_interval": self.why} if self.why is not None else {})}


def too_few(deals: int) -> str:
    """Why a figure of ``deals`` deals has no interval."""
    return f"no interval from {deals} deal{'s' if deals != 1 else ''} (it takes {MIN_DEALS})"


def no_spread(deals: int) -> str:
    """Why a figure the same on every deal has no interval: no spread to draw one from."""
    return f"no interval: the same on all {deals} deals"


def t_quantile(p: float, freedom: int) -> float:
    """Student's t quantile: the Cornish-Fisher expansion around the normal's (Abramowitz and Stegun
    26.7.5), within 0.05% of the exact value from 5 degrees of freedom up."""
    z = NormalDist().inv_cdf(p)
    v = float(freedom)
    return (z + (z ** 3 + z) / (4 * v) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * v ** 2)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * v ** 3)
            + (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / (92160 * v ** 4))


def mean_interval(values: Sequence[float]) -> Interval:
    """The mean with its 95% t interval (no interval from fewer than two values)."""
    n = len(values)
    if n == 0:
        return Interval(None, None, None)
    mean = float(np.mean(values))
    if n < 2:
        return Interval(mean, None, None)
    half = t_quantile(0.5 + CONFIDENCE / 2, n - 1) * float(np.std(values, ddof=1)) / math.sqrt(n)
    return Interval(mean, mean - half, mean + half)


def wilson_interval(successes: float, trials: float) -> Interval:
    """A proportion with its 95% Wilson score interval (sound near 0 and 1, unlike the normal one);
    ``trials`` may be an effective number (:func:`share_interval`)."""
    if trials <= 0:
        return Interval(None, None, None)
    p = min(1.0, max(0.0, successes / trials))
    return Interval(p, *wilson(p * trials, trials, NormalDist().inv_cdf(0.5 + CONFIDENCE / 2)))


def share_interval(successes: np.ndarray, trials: np.ndarray) -> Interval:
    """A share over deals, sum(successes) / sum(trials), with its 95% Wilson interval clustered by deal.

    The games (or hands, or seats) of one deal share its luck, so they are not independent
    trials: the interval is Wilson's at the *effective* number of trials (Korn and Graubard
    1998), the trials over the design effect, the variance of the share between deals (the
    ratio estimator's, deal by deal) over the binomial's. The design effect is at least 1 (deals
    never count as more trials than they hold) and grows by (t/z)^2, t on deals - 1 degrees of
    freedom, for the few deals the spread is estimated from. A share of 0 or 1 has no spread
    between deals to measure: each deal then counts as one trial (as if its trials all went
    alike), the honest bound. A success may be a fraction (a win shared by two counts 1/2);
    its variance is then at most the binomial's, so the interval stays sound. Fewer than
    MIN_DEALS deals: no interval, with the reason.
    """
    successes, trials = np.asarray(successes, dtype=float), np.asarray(trials, dtype=float)
    keep = trials > 0
    successes, trials = successes[keep], trials[keep]
    deals, total = len(trials), float(trials.sum())
    if not deals:
        return Interval(None, None, None)
    p = float(successes.sum()) / total
    if deals < MIN_DEALS:
        return Interval(p, None, None, too_few(deals))
    if p <= 0.0 or p >= 1.0:
        effective = float(deals)
    else:
        between = deals / (deals - 1) * float(((successes - p * trials) ** 2).sum()) / total ** 2
        binomial = p * (1 - p) / total
        z = NormalDist().inv_cdf(0.5 + CONFIDENCE / 2)
        effect = max(1.0, between / binomial) * (t_quantile(0.5 + CONFIDENCE / 2, deals - 1) / z) ** 2
        effective = total / effect
    return attrs.evolve(wilson_interval(p * effective, effective), value=p)


def _ratio_and_error(weights: np.ndarray, per_deal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each row of deal weights: the ratio sum(y) / sum(m) and its standard error over deals
    (linearised: the spread of y - ratio * m between deals), from per-deal columns y and m."""
    y, m = per_deal[:, 0], per_deal[:, 1]
    deals = weights.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        total_y, total_m = weights @ y, weights @ m
        ratio = total_y / total_m
        squares = weights @ (y * y) - 2 * ratio * (weights @ (y * m)) + ratio ** 2 * (weights @ (m * m))
        error = np.sqrt(np.maximum(squares, 0.0) * deals / (deals - 1)) / total_m
    return ratio, error


def mean_of_deals_interval(per_deal: np.ndarray, counts: np.ndarray) -> Interval:
    """A mean over deals, sum(y) / sum(m) (columns y and m of ``per_deal``, one row a deal), with its 95%
    interval: the union of the studentised bootstrap's (bootstrap-t: the resamples' (ratio - value) /
    error, Efron and Tibshirani 1993, ch. 12) and Student's t interval, the deal the unit of both.

    Either alone falls short somewhere: percentile and BCa intervals of 30 deals cover a skewed,
    heavy-tailed mean (lognormal) 88% of the time, the t interval 87%; bootstrap-t follows the skew
    but is short on symmetric heavy tails (t with 3 degrees of freedom: 93%, where the t interval
    holds 96%); the union covers both (tests/test_statistics_coverage.py). Fewer than MIN_DEALS deals,
    or no spread between deals: no interval, with the reason.
    """
    deals = len(per_deal)
    ratio, error = _ratio_and_error(np.ones((1, deals)), per_deal)
    if not deals or not np.isfinite(ratio[0]):
        return Interval(None, None, None)
    return _t_and_bootstrap_t(float(ratio[0]), float(error[0]), deals, counts,
                              lambda weights: _ratio_and_error(weights, per_deal))


def _t_and_bootstrap_t(seen: float, spread: float, deals: int, counts: np.ndarray,
                       resampled: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]) -> Interval:
    """The union of Student's t interval and the studentised bootstrap's around ``seen`` (its
    standard error ``spread`` over ``deals``); ``resampled`` gives the figure and its error for each
    row of deal weights in ``counts``. None from fewer than MIN_DEALS deals or with no spread."""
    if deals < MIN_DEALS:
        return Interval(seen, None, None, too_few(deals))
    if not spread > _tolerance(seen) * 1e-3:
        return Interval(seen, None, None, no_spread(deals))
    half = t_quantile(0.5 + CONFIDENCE / 2, deals - 1) * spread
    low, high = seen - half, seen + half
    if len(counts):
        samples, errors = resampled(counts)
        with np.errstate(invalid="ignore", divide="ignore"):
            studentised = (samples - seen) / errors
        studentised = studentised[np.isfinite(studentised)]
        if len(studentised):
            below, above = np.percentile(studentised, [100 * ERROR_RATE / 2, 100 * (1 - ERROR_RATE / 2)])
            low, high = min(low, seen - float(above) * spread), max(high, seen - float(below) * spread)
    return Interval(seen, low, high)


# --------------------------------------------------------------------------- the deal bootstrap
def bootstrap_draws(groups: int, resamples: int, rng: np.random.Generator) -> np.ndarray:
    """``resamples`` bootstrap resamples of ``groups`` deal groups: each row the groups drawn, with replacement."""
    return rng.integers(0, groups, size=(resamples, groups))


def draw_counts(draws: np.ndarray, groups: int) -> np.ndarray:
    """How often each group was drawn in each resample (one row a resample): sums over a resample of
    per-group figures are then ``counts @ per_group``."""
    resamples = draws.shape[0]
    cells = (np.arange(resamples)[:, None] * groups + draws).ravel()
    return np.bincount(cells, minlength=resamples * groups).reshape(resamples, groups).astype(float)


def resample_counts(groups: int, resamples: int, rng: np.random.Generator) -> np.ndarray:
    """The bootstrap of ``groups`` deal groups as counts (see :func:`draw_counts`)."""
    return draw_counts(bootstrap_draws(groups, resamples, rng), groups)


def percentiles(samples: np.ndarray) -> tuple[float | None, float | None]:
    """The 95% percentile interval of the finite values among ``samples`` (None, None if there are none)."""
    finite = samples[np.isfinite(samples)]
    if not len(finite):
        return None, None
    low, high = np.percentile(finite, [100 * ERROR_RATE / 2, 100 * (1 - ERROR_RATE / 2)])
    return float(low), float(high)


def bca_percentiles(value: float, samples: np.ndarray, jackknife: np.ndarray) -> tuple[float | None, float | None]:
    """The 95% bias-corrected and accelerated (BCa) bootstrap interval (Efron 1987): the percentiles moved
    by the bootstrap's median bias and by the skewness the jackknife shows, so that a skewed figure from a
    few dozen deals still covers about as often as it says (plain percentiles fall short then).
    Falls back on plain percentiles where either correction is undefined (a constant figure)."""
    finite = samples[np.isfinite(samples)]
    jack = jackknife[np.isfinite(jackknife)]
    below = float(np.mean(finite < value)) if len(finite) else 0.0
    if not len(finite) or not 0.0 < below < 1.0 or len(jack) < 2:
        return percentiles(samples)
    normal = NormalDist()
    bias = normal.inv_cdf(below)
    spread = jack.mean() - jack
    denominator = 6.0 * float((spread ** 2).sum()) ** 1.5
    acceleration = float((spread ** 3).sum()) / denominator if denominator > 0 else 0.0
    tails = []
    for z in (normal.inv_cdf(ERROR_RATE / 2), normal.inv_cdf(1 - ERROR_RATE / 2)):
        moved = bias + (bias + z) / (1 - acceleration * (bias + z))
        tails.append(100 * normal.cdf(moved))
    low, high = np.percentile(finite, tails)
    return float(low), float(high)


def _value(statistic: Statistic, sums: np.ndarray) -> float | None:
    with np.errstate(invalid="ignore", divide="ignore"):
        value = float(statistic(sums[None, :])[0])
    return value if math.isfinite(value) else None


def bootstrap_interval(statistic: Statistic, per_deal: np.ndarray, counts: np.ndarray) -> Interval:
    """A figure of per-deal aggregates (one row a deal) with its 95% bootstrap interval over deals (BCa);
    ``counts``: the resamples of those deals (:func:`resample_counts`), which figures may share."""
    total = per_deal.sum(axis=0)
    value = _value(statistic, total)
    if value is None:
        return Interval(None, None, None)
    if len(per_deal) < MIN_DEALS:
        return Interval(value, None, None, too_few(len(per_deal)))
    if not len(counts):
        return Interval(value, None, None)
    with np.errstate(invalid="ignore", divide="ignore"):
        samples = statistic(counts @ per_deal)
        jackknife = statistic(total[None, :] - per_deal)
    return checked(value, *bca_percentiles(value, samples, jackknife), len(per_deal))


def checked(value: float, low: float | None, high: float | None, deals: int) -> Interval:
    """An interval drawn from ``deals`` deals, unless it has no width: then none, with the reason."""
    if low is not None and high is not None and high - low <= _tolerance(value):
        return Interval(value, None, None, no_spread(deals))
    return Interval(value, low, high)


# --------------------------------------------------------------------------- paired differences
@attrs.frozen
class PairedDifference:
    """A figure under two rulesets on the same deals, its difference (first minus second) with a paired
    bootstrap interval, and the permutation test's p-value for "no difference" (None: no test possible)."""

    first: Interval
    second: Interval
    difference: Interval
    p_value: float | None
    deals: int
    #: The difference under each swap of the sides (one a row of ``flips``; NaN where undefined), for
    #: adjusting many figures' p-values together (:func:`max_t`).
    null: np.ndarray | None = attrs.field(default=None, eq=False, repr=False)


def swaps(deals: int, permutations: int, rng: np.random.Generator) -> np.ndarray:
    """Random subsets of the deals, one row each (1: the two sides of that deal swapped): :func:`paired_difference`."""
    return (rng.random((permutations, deals)) < 0.5).astype(float)


def paired_difference(statistic: Statistic, first: np.ndarray, second: np.ndarray, counts: np.ndarray,
                      flips: np.ndarray, sides: tuple[Interval, Interval] | None = None,
                      mean: bool = False) -> PairedDifference:
    """Compare a figure over the same deals: ``first`` and ``second`` hold each deal's aggregates (row d
    of both is deal d).

    The interval resamples deals (``counts``), the same ones on both sides. The p-value is that of
    a paired permutation test: under "the rulesets do not differ" the two sides of a deal are
    exchangeable, so the difference is recomputed with the sides swapped on random subsets of
    the deals (``flips``, :func:`swaps`); p is the share of those differences at least as far from
    0 as the one seen (counting the one seen, so it is never 0). Holds for any figure, ratios and
    spreads included. Figures may share ``counts`` and ``flips``: each p-value is valid alone.

    The difference's interval: of a share, given each side's own (``sides``, the clustered Wilson
    intervals of :meth:`tournaments.analysis.figures.Figure.interval`), built from them
    (:func:`mover`); of a mean (``mean``: the statistic is :func:`ratio`, a mean a game or a hand),
    the studentised bootstrap's and the t interval of the paired difference together
    (:func:`mean_difference_interval`). Both cover where the BCa bootstrap's of the difference fell
    short (a rare share: 63-87% in simulation; a heavy-tailed mean: 88%;
    tests/test_statistics_coverage.py). Any other figure, or a side without bounds: the BCa bootstrap's.
    """
    deals = len(first)
    a_sum, b_sum = first.sum(axis=0), second.sum(axis=0)
    a_value, b_value = _value(statistic, a_sum), _value(statistic, b_sum)
    if a_value is None or b_value is None:
        return PairedDifference(Interval(a_value, None, None), Interval(b_value, None, None),
                                Interval(None, None, None), None, deals)
    seen = a_value - b_value
    if deals < 2:
        return PairedDifference(Interval(a_value, None, None, too_few(deals)), Interval(b_value, None, None,
                                too_few(deals)), Interval(seen, None, None, too_few(deals)), None, deals)
    delta = second - first
    with np.errstate(invalid="ignore", divide="ignore"):
        a_samples, b_samples = statistic(counts @ first), statistic(counts @ second)
        a_jack, b_jack = statistic(a_sum[None, :] - first), statistic(b_sum[None, :] - second)
        moved = flips @ delta
        null = statistic(a_sum + moved) - statistic(b_sum - moved)
    finite = null[np.isfinite(null)]
    p_value = float((1 + np.count_nonzero(np.abs(finite) >= abs(seen) - _tolerance(seen))) / (1 + len(finite)))
    if deals < MIN_DEALS:
        return PairedDifference(Interval(a_value, None, None, too_few(deals)),
                                Interval(b_value, None, None, too_few(deals)),
                                Interval(seen, None, None, too_few(deals)), p_value, deals, null)
    difference = checked(seen, *bca_percentiles(seen, a_samples - b_samples, a_jack - b_jack), deals)
    if mean:
        found = mean_difference_interval(first, second, counts)
        if found.low is not None and found.high is not None:
            difference = checked(seen, found.low, found.high, deals)
    elif sides is not None:
        correlation = jackknife_correlation(a_jack, b_jack)
        # The same on every deal: the difference is 0 on these deals, and its interval is drawn only where
        # neither side moved at all (a share of 0 or 1 on both sides: each side's interval still says how
        # far from it the truth may be); where they moved together it stays without one.
        moved_interval = mover(*sides, correlation or 0.0) \
            if correlation is None or not np.array_equal(first, second) else None
        if moved_interval is not None:
            difference = checked(seen, moved_interval.low, moved_interval.high, deals)
    return PairedDifference(checked(a_value, *bca_percentiles(a_value, a_samples, a_jack), deals),
                            checked(b_value, *bca_percentiles(b_value, b_samples, b_jack), deals),
                            difference, p_value, deals, null)


def _difference_and_error(weights: np.ndarray, first: np.ndarray, second: np.ndarray
                           ) -> tuple[np.ndarray, np.ndarray]:
    """For each row of deal weights: the difference of two ratios over the same deals, sum(y) / sum(m)
    of each side, and its standard error over deals (linearised deal by deal, so what the deals make
    the sides share cancels)."""
    ya, ma, yb, mb = first[:, 0], first[:, 1], second[:, 0], second[:, 1]
    deals = weights.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        total_a, total_b = weights @ ma, weights @ mb
        ra, rb = (weights @ ya) / total_a, (weights @ yb) / total_b
        z = ((ya[None, :] - ra[:, None] * ma[None, :]) / total_a[:, None]
             - (yb[None, :] - rb[:, None] * mb[None, :]) / total_b[:, None])
        error = np.sqrt((weights * z * z).sum(axis=1) * deals / (deals - 1))
    return ra - rb, error


def mean_difference_interval(first: np.ndarray, second: np.ndarray, counts: np.ndarray) -> Interval:
    """The difference of two means over the same deals (columns y and m of each side, one row a deal) with
    its 95% interval: the union of the studentised bootstrap's and Student's t interval, as
    :func:`mean_of_deals_interval` for one mean, the deal the unit of both and the two sides drawn
    together. No interval from fewer than MIN_DEALS deals, or with no spread between them."""
    deals = len(first)
    value, error = _difference_and_error(np.ones((1, deals)), first, second)
    if not deals or not np.isfinite(value[0]):
        return Interval(None, None, None)
    return _t_and_bootstrap_t(float(value[0]), float(error[0]), deals, counts,
                              lambda weights: _difference_and_error(weights, first, second))


def jackknife_correlation(first: np.ndarray, second: np.ndarray) -> float | None:
    """How the two sides' estimates move together from deal to deal: the correlation of their jackknife
    values (each the figure less one deal, the same deal on both sides); 0 where one side does not move,
    None where neither does."""
    keep = np.isfinite(first) & np.isfinite(second)
    a, b = first[keep] - first[keep].mean(), second[keep] - second[keep].mean()
    a_moves, b_moves = float((a * a).sum()), float((b * b).sum())
    if a_moves <= 0 and b_moves <= 0:
        return None
    scale = math.sqrt(a_moves * b_moves)
    return float((a * b).sum()) / scale if scale > 0 else 0.0


def mover(first: Interval, second: Interval, correlation: float) -> Interval | None:
    """The interval of first less second from each one's own interval (MOVER, the method of variance
    estimates recovery: Zou and Donner 2008; with Wilson intervals, Newcombe's 1998 interval for paired
    shares): each bound of the difference recovers its variance from the bounds of the two sides that
    face it, less what they share (``correlation``). It keeps what each side's interval knows: a
    Wilson interval's sound bound at 0 of 30, a skewed mean's long side. None where either has no bounds."""
    if None in (first.value, first.low, first.high, second.value, second.low, second.high):
        return None
    assert first.value is not None and first.low is not None and first.high is not None
    assert second.value is not None and second.low is not None and second.high is not None
    value = first.value - second.value
    below = (first.value - first.low, second.high - second.value)
    above = (first.high - first.value, second.value - second.low)
    low = value - math.sqrt(max(0.0, below[0] ** 2 + below[1] ** 2 - 2 * correlation * below[0] * below[1]))
    high = value + math.sqrt(max(0.0, above[0] ** 2 + above[1] ** 2 - 2 * correlation * above[0] * above[1]))
    return Interval(value, low, high)


def _tolerance(value: float) -> float:
    """How close to a value a permuted one counts as reaching it (floating point sums differ in the last bits)."""
    return 1e-9 * max(1.0, abs(value))


def max_t(seen: Sequence[float | None], nulls: Sequence[np.ndarray | None]) -> list[float | None]:
    """p-values of many figures adjusted together by the step-down max-T permutation method (Westfall and
    Young 1993): verdicts taken together at ERROR_RATE raise any false alarm at most that often, and,
    unlike a Bonferroni-type adjustment, without paying for figures that move together (a game's and a
    hand's figures, two seats' win rates).

    ``seen``: each figure's difference; ``nulls``: its differences under the same swaps of the sides
    (row r of every null came from the same swap, as :func:`paired_difference` gives them when the
    figures share the swaps of their deals). Each figure's differences are scaled by their spread
    under the swaps; a figure's adjusted p is the share of swaps under which the largest scaled
    difference among it and the figures less extreme than it reaches its own (counting the one seen).
    """
    adjusted: list[float | None] = [None] * len(seen)
    tested = [i for i, (value, null) in enumerate(zip(seen, nulls)) if value is not None and null is not None]
    if not tested:
        return adjusted
    scaled, extremes = [], []
    for i in tested:
        value, null = seen[i], nulls[i]
        assert value is not None and null is not None
        spread = float(np.nanstd(null)) if np.isfinite(null).any() else 0.0
        if spread <= _tolerance(value):  # every swap gives the same difference: it reaches only itself
            spread = 1.0
        column = np.abs(null) / spread
        scaled.append(np.where(np.isfinite(column), column, -np.inf))
        extremes.append(abs(value) / spread - _tolerance(value))
    table = np.column_stack(scaled)
    order = np.argsort(extremes)  # the least extreme first
    running = np.full(table.shape[0], -np.inf)
    raw = {}
    for position in order:
        running = np.maximum(running, table[:, position])
        raw[position] = float((1 + np.count_nonzero(running >= extremes[position])) / (1 + table.shape[0]))
    floor = 0.0
    for position in order[::-1]:  # the most extreme first: adjusted p-values never decrease
        floor = max(floor, raw[position])
        adjusted[tested[position]] = floor
    return adjusted
