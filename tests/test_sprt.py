"""The sequential test (tournaments/sprt.py), checked by simulation: on deals whose outcome
distribution is known, its error rates stay within the alpha and beta asked for, and it stops
earlier on average than a fixed-size match with the same error rates."""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pytest

from tournaments.sprt import NELO_SCALE, SprtSettings, evaluate, llr, logistic_score, outcome_values

PENTANOMIAL = np.array([100, 800, 2000, 900, 120])  # LL, LD, WL+DD, WD, WW: game pairs, as fastchess counts them


def test_the_ratio_on_game_pairs_agrees_with_the_normal_approximation_fastchess_users_know() -> None:
    values = outcome_values(2)
    n = PENTANOMIAL.sum()
    mean = float(values @ PENTANOMIAL / n)
    variance = float(PENTANOMIAL @ (values - mean) ** 2 / n)
    t0, t1 = 0.0, math.sqrt(2) * 5 / NELO_SCALE
    approximate = n * (t1 - t0) * (2 * (mean - 0.5) / math.sqrt(variance) - t0 - t1) / 2
    assert float(llr(PENTANOMIAL, 2, SprtSettings(0, 5))) == pytest.approx(approximate, rel=0.01)
    s0, s1 = 0.5, logistic_score(5)
    approximate = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)
    assert float(llr(PENTANOMIAL, 2, SprtSettings(0, 5, model="logistic"))) == pytest.approx(approximate, rel=0.01)


def test_settings_that_make_no_test_are_refused() -> None:
    assert SprtSettings(5, 0).problems() == ["elo0 (5) must be below elo1 (0)"]
    assert SprtSettings(alpha=0.6, beta=0.5).problems() == ["alpha and beta are between 0 and 1, and their sum below 1"]
    assert SprtSettings(model="bayesian").problems() == ["model 'bayesian': one of normalized, logistic"]
    assert SprtSettings(elo1=math.nan).problems()[0] == "elo0, elo1, alpha and beta are finite numbers"


def test_a_clearly_stronger_entrant_is_accepted_and_a_clearly_equal_one_rejected() -> None:
    ahead = evaluate([1.0, 0.75, 1.0, 0.5, 0.75] * 40, 2, SprtSettings(0, 10))
    assert ahead.verdict == "H1" and ahead.llr >= ahead.settings.upper and ahead.deals == 200
    level = evaluate([0.5, 0.25, 0.75, 0.5] * 1000, 2, SprtSettings(0, 10))
    assert level.verdict == "H0" and level.llr <= level.settings.lower
    undecided = evaluate([0.75, 0.5], 2, SprtSettings(0, 10))
    assert undecided.verdict is None and undecided.deals == 2


def tilted(comparisons: int, target: float, statistic: str) -> np.ndarray:
    """A bell-shaped deal outcome distribution (binomial), tilted so its mean (logistic) or its
    (mean - 1/2) / sd (normalized) is ``target``."""
    values = outcome_values(comparisons)
    base = np.array([math.comb(2 * comparisons, i) for i in range(2 * comparisons + 1)], dtype=float)

    def measure(tilt: float) -> tuple[np.ndarray, float]:
        p = base * np.exp(tilt * values)
        p /= p.sum()
        mean = float(p @ values)
        return p, mean if statistic == "logistic" else (mean - 0.5) / math.sqrt(float(p @ (values - mean) ** 2))

    low, high = -20.0, 20.0
    for _ in range(100):
        middle = (low + high) / 2
        low, high = (middle, high) if measure(middle)[1] < target else (low, middle)
    return measure((low + high) / 2)[0]


def simulate(settings: SprtSettings, comparisons: int, distribution: np.ndarray, runs: int,
             rng: np.random.Generator, most: int = 20_000) -> tuple[float, float, float]:
    """``runs`` tests on deals drawn from ``distribution``: the share accepting H1, accepting H0, mean deals."""
    counts = np.zeros((runs, len(distribution)))
    active = np.arange(runs)
    accepted_h1 = accepted_h0 = 0
    stopped_at = np.zeros(runs)
    for deal in range(1, most + 1):
        counts[active, rng.choice(len(distribution), size=len(active), p=distribution)] += 1
        ratio = llr(counts[active], comparisons, settings)
        up, down = ratio >= settings.upper, ratio <= settings.lower
        accepted_h1 += int(up.sum())
        accepted_h0 += int(down.sum())
        stopped_at[active[up | down]] = deal
        active = active[~(up | down)]
        if not len(active):
            break
    assert not len(active), f"{len(active)} tests undecided after {most} deals"
    return accepted_h1 / runs, accepted_h0 / runs, float(stopped_at.mean())


@pytest.mark.parametrize(("model", "comparisons", "elo1"), [
    ("normalized", 2, 60.0),  # two seats: fastchess's game pairs
    ("normalized", 4, 60.0),  # four seats: a deal is four games
    ("logistic", 3, 50.0),
])
def test_error_rates_stay_within_alpha_and_beta_and_the_test_stops_before_a_fixed_size_match(
        model: str, comparisons: int, elo1: float) -> None:
    """Large Elo bounds keep the simulation short; the error rates of the test do not depend on them."""
    settings = SprtSettings(elo0=0.0, elo1=elo1, alpha=0.05, beta=0.05, model=model)
    if model == "logistic":
        targets = (logistic_score(settings.elo0), logistic_score(settings.elo1))
    else:
        scale = math.sqrt(comparisons) / NELO_SCALE
        targets = (settings.elo0 * scale, settings.elo1 * scale)
    rng = np.random.default_rng(1939)
    runs = 400
    under_h0, under_h1 = (tilted(comparisons, target, model) for target in targets)
    false_h1, _, deals_h0 = simulate(settings, comparisons, under_h0, runs, rng)
    _, false_h0, deals_h1 = simulate(settings, comparisons, under_h1, runs, rng)
    # The fixed number of deals a one-sided z-test needs for the same error rates.
    values = outcome_values(comparisons)
    means = [float(p @ values) for p in (under_h0, under_h1)]
    sd = max(math.sqrt(float(p @ (values - m) ** 2)) for p, m in zip((under_h0, under_h1), means))
    z = NormalDist().inv_cdf(1 - settings.alpha) + NormalDist().inv_cdf(1 - settings.beta)
    fixed = (z * sd / (means[1] - means[0])) ** 2
    print(f"{model}, {comparisons} games a deal, {runs} tests each: false H1 {false_h1:.3f} (alpha 0.05), "
          f"false H0 {false_h0:.3f} (beta 0.05); mean deals {deals_h0:.0f} under H0, {deals_h1:.0f} under H1, "
          f"fixed-size match {fixed:.0f}")
    # 400 tests estimate a rate of 0.05 within about 0.011 (one standard error): 0.08 is 2.7 of them.
    assert false_h1 <= 0.08 and false_h0 <= 0.08
    assert deals_h0 < fixed and deals_h1 < fixed
