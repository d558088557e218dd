"""The statistics shared by the tournament report and the analysis (tournaments/statistics.py)."""

from __future__ import annotations

import numpy as np
import pytest

from tournaments.statistics import (
    bootstrap_interval,
    draw_counts,
    max_t,
    paired_difference,
    percentiles,
    resample_counts,
    share_interval,
    swaps,
)


def ratio(sums: np.ndarray) -> np.ndarray:
    return sums[:, 0] / sums[:, 1]


def test_draw_counts_count_each_deal_drawn() -> None:
    draws = np.array([[0, 0, 2], [1, 2, 2]])
    assert draw_counts(draws, 3).tolist() == [[2, 0, 1], [0, 1, 2]]
    counts = resample_counts(5, 200, np.random.default_rng(1))
    assert counts.shape == (200, 5) and (counts.sum(axis=1) == 5).all()


def test_percentiles_skip_what_is_not_a_number() -> None:
    low, high = percentiles(np.array([np.nan, *range(101), np.inf]))
    assert (low, high) == (2.5, 97.5)
    assert percentiles(np.array([np.nan])) == (None, None)


def test_a_ratio_of_sums_over_deals_and_its_interval() -> None:
    per_deal = np.array([[3.0, 4.0], [1.0, 4.0], [2.0, 4.0], [4.0, 4.0], [0.0, 4.0]])
    interval = bootstrap_interval(ratio, per_deal, resample_counts(5, 2000, np.random.default_rng(2)))
    assert interval.value == pytest.approx(10 / 20)
    assert 0.0 <= interval.low < 0.5 < interval.high <= 1.0
    one_deal = bootstrap_interval(ratio, per_deal[:1], resample_counts(1, 100, np.random.default_rng(2)))
    assert one_deal.value == 0.75 and one_deal.low is None  # one deal: no interval
    assert one_deal.why == "no interval from 1 deal (it takes 5)"
    four = bootstrap_interval(ratio, per_deal[:4], resample_counts(4, 100, np.random.default_rng(2)))
    assert four.low is None and four.why == "no interval from 4 deals (it takes 5)"


def test_the_interval_covers_nearly_as_often_as_it_says() -> None:
    """Means of 40 deals from a skewed distribution (exponential): the 95% BCa interval held the true mean
    in 92.5% of 3000 trials (plain percentiles: 91.5%): a bootstrap of a few dozen deals is a little narrow."""
    rng = np.random.default_rng(5)
    covered = 0
    for _ in range(400):
        values = rng.exponential(2.0, 40)
        interval = bootstrap_interval(ratio, np.column_stack([values, np.ones(40)]), resample_counts(40, 1000, rng))
        covered += interval.low <= 2.0 <= interval.high
    assert 0.90 <= covered / 400 <= 0.99


def test_the_paired_difference_of_two_sides_on_the_same_deals() -> None:
    rng = np.random.default_rng(3)
    first = np.column_stack([rng.normal(10, 3, 30), np.ones(30)])
    counts, flips = resample_counts(30, 500, rng), swaps(30, 2000, rng)
    same = paired_difference(ratio, first, first.copy(), counts, flips)
    assert same.difference.value == 0 and same.p_value == 1.0
    shifted = first.copy()
    shifted[:, 0] += 2.0
    moved = paired_difference(ratio, shifted, first, counts, flips)
    assert moved.difference.value == pytest.approx(2.0)
    # The same shift on every deal: no spread to draw an interval from, said rather than shown as [2.0, 2.0].
    assert moved.difference.low is None and moved.difference.why == "no interval: the same on all 30 deals"
    assert moved.p_value == pytest.approx(1 / 2001)  # no swap reaches it: the smallest p a test of 2000 gives
    one_deal = paired_difference(ratio, first[:1], first[:1], resample_counts(1, 10, rng), swaps(1, 10, rng))
    assert one_deal.p_value is None


def test_the_difference_of_two_intervals_recovers_their_variances() -> None:
    """MOVER by hand: 30% [20, 42] less 10% [5, 20], the sides correlated 0.5. Lower bound: 0.2 less
    sqrt(0.10^2 + 0.10^2 - 2 * 0.5 * 0.10 * 0.10) = 0.2 - 0.1; upper: 0.2 + sqrt(0.12^2 + 0.05^2 - 0.5 * 2 *
    0.12 * 0.05). Uncorrelated, each bound is the sum of squares'."""
    from tournaments.statistics import Interval, mover

    found = mover(Interval(0.3, 0.2, 0.42), Interval(0.1, 0.05, 0.2), 0.5)
    assert found is not None and found.value == pytest.approx(0.2)
    assert found.low == pytest.approx(0.1) and found.high == pytest.approx(0.2 + (0.0144 + 0.0025 - 0.006) ** 0.5)
    alone = mover(Interval(0.3, 0.2, 0.42), Interval(0.1, 0.05, 0.2), 0.0)
    assert alone is not None and alone.low == pytest.approx(0.2 - 0.02 ** 0.5)
    assert mover(Interval(0.3, None, None), Interval(0.1, 0.05, 0.2), 0.0) is None


def test_a_share_nobody_reached_on_either_side_still_has_a_difference_interval() -> None:
    """0 of 30 on both sides: each side's Wilson interval is [0, 11.4%], so the difference is 0 with
    [-11.4, 11.4] points, not a bare 0: the rules may differ in a share these deals never showed."""
    from tournaments.statistics import share_interval

    rng = np.random.default_rng(4)
    none = np.column_stack([np.zeros(30), np.ones(30)])
    sides = (share_interval(none[:, 0], none[:, 1]), share_interval(none[:, 0], none[:, 1]))
    found = paired_difference(ratio, none, none.copy(), resample_counts(30, 100, rng), swaps(30, 100, rng), sides)
    assert found.difference.value == 0
    assert found.difference.low == pytest.approx(-sides[0].high) and found.difference.high == pytest.approx(0.1135,
                                                                                                         abs=1e-4)


def test_max_t_adjusts_many_figures_together() -> None:
    """Three figures under the same four swaps, worked out by hand. Scaled by their spreads (2.83, 0.87 and
    0, taken as 1) the nulls are (1.41, 0, 0, 1.41), (2.31, 0, 0, 0) and 0s, the seen differences 1.41,
    1.15 and 0. From the least extreme: the third reaches 0 in every swap (p = 5/5); the largest of the
    second and third reaches 1.15 in swap 1 (2/5); of all three, reaches 1.41 in swaps 1 and 4 (3/5).
    Adjusted p-values never fall as figures get less extreme: 0.6, then max(0.6, 0.4), then 1."""
    nulls = [np.array([-4.0, 0.0, 0.0, 4.0]), np.array([2.0, 0.0, 0.0, 0.0]), np.zeros(4)]
    assert max_t([4.0, 1.0, 0.0, None], [*nulls, None]) == [pytest.approx(0.6), pytest.approx(0.6), 1.0, None]
    assert max_t([], []) == []


def test_max_t_pays_nothing_for_a_figure_repeated() -> None:
    """The same figure twice (a game's and a hand's, say) is adjusted as one, where Bonferroni would double it."""
    rng = np.random.default_rng(8)
    null = rng.normal(0, 1, 4000)
    alone = max_t([2.5], [null])[0]
    twice = max_t([2.5, 2.5], [null, null.copy()])
    assert twice == [alone, alone] and alone < 0.02


def test_a_share_never_seen_has_wilsons_interval_not_a_collapsed_one() -> None:
    """0 of 30 deals: the bootstrap's every resample is 0 too ([0, 0]); Wilson's 95% interval reaches 11.35%."""
    none = share_interval(np.zeros(30), np.ones(30))
    assert none.value == 0.0 and none.low == 0.0 and none.high == pytest.approx(3.8415 / 33.8415, abs=1e-4)
    every = share_interval(np.full(30, 4.0), np.full(30, 4.0))  # 120 hands in 30 deals: each deal one trial
    assert every.value == 1.0 and every.low == pytest.approx(30 / 33.8415, abs=1e-4) and every.high == 1.0
